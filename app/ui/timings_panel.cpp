// Timings panel. Medians, not the last frame, drive every derived figure: a single frame's time
// jitters with the OS, the driver and the display, a window's median does not.
#include "ui/timings_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace gpulab::ui {

namespace {

std::string series_label(const RollingSeries& s) {
  if (s.unit().empty() || s.unit() == "ms") return s.name();
  return s.name() + " (" + s.unit() + ")";
}

void value_cell(const SeriesSummary& sum, double v) {
  ImGui::TableNextColumn();
  if (sum.count == 0)
    ImGui::TextDisabled("-");
  else
    ImGui::TextUnformatted(format_ms(v).c_str());
}

// One table row; returns true when the row was clicked (to plot it).
bool series_row(const RollingSeries& s, bool selected) {
  const SeriesSummary sum = s.summary();
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::PushID(&s);
  const bool clicked =
      ImGui::Selectable(series_label(s).c_str(), selected, ImGuiSelectableFlags_SpanAllColumns);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s: %zu samples in the window (of %zu), mean %s, max %s %s", s.name().c_str(),
                      sum.count, s.capacity(), format_ms(sum.mean).c_str(), format_ms(sum.max).c_str(),
                      s.unit().c_str());
  ImGui::PopID();
  value_cell(sum, sum.latest);
  value_cell(sum, sum.median);
  value_cell(sum, sum.min);
  value_cell(sum, sum.p95);
  return clicked;
}

void plot_series(const RollingSeries& s) {
  const SeriesSummary sum = s.summary();
  if (sum.count == 0) {
    ImGui::TextDisabled("%s: no samples yet", s.name().c_str());
    return;
  }
  // Zero-based scale: a plot that starts at the minimum makes 2% jitter look like a cliff.
  const float scale_max = static_cast<float>(std::max(sum.max * 1.15, 1e-6));
  const std::string overlay = s.name() + "  median " + format_ms(sum.median) + " " + s.unit();
  const float height = ImGui::GetTextLineHeight() * 5.0f;
  // An explicit width: Debian's ImGui 1.86 collapses a plot sized -1 here to a few pixels.
  ImGui::PlotLines("##timing_plot", s.plot_data(), s.plot_count(), 0, overlay.c_str(), 0.0f, scale_max,
                   ImVec2(std::max(ImGui::GetContentRegionAvail().x, 50.0f), height));
  // The median as a horizontal line, so the eye reads the plot against the number in the table.
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const ImVec2 lo(ImGui::GetItemRectMin().x + pad.x, ImGui::GetItemRectMin().y + pad.y);
  const ImVec2 hi(ImGui::GetItemRectMax().x - pad.x, ImGui::GetItemRectMax().y - pad.y);
  const float t = static_cast<float>(sum.median) / scale_max;
  const float y = hi.y - t * (hi.y - lo.y);
  ImGui::GetWindowDrawList()->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), IM_COL32(255, 200, 60, 160), 1.0f);
}

void throughput_table(const TimingsView& view) {
  bool any = false;
  for (const auto& row : view.throughput) any = any || row.series;
  if (!any) return;
  const bool have_peak = view.peak_bandwidth_gbs > 0.0;
  ImGui::Spacing();
  ImGui::TextDisabled("throughput (from the median)");
  if (!ImGui::BeginTable("throughput", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableSetupColumn("section", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("bandwidth", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("rate", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (const auto& row : view.throughput) {
    if (!row.series) continue;
    const ThroughputFigures f = throughput_figures(row, view.peak_bandwidth_gbs, view.peak_fp32_gflops);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(row.label.empty() ? row.series->name().c_str() : row.label.c_str());
    ImGui::TableNextColumn();
    if (f.valid && row.flops_per_step > 0.0) {
      // Compute-bound rows (N-body): GFLOP/s against the FP32 peak instead of a bandwidth.
      char overlay[96];
      if (view.peak_fp32_gflops > 0.0) {
        std::snprintf(overlay, sizeof overlay, "%.0f GFLOP/s, %.0f%%", f.gflops, f.percent_of_fp32_peak);
        ImGui::ProgressBar(static_cast<float>(std::clamp(f.percent_of_fp32_peak / 100.0, 0.0, 1.0)),
                           ImVec2(-1.0f, 0.0f), overlay);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip(
              "Floating-point rate at the counted flops a step over the median time of a step "
              "(%s ms).\nPeak: SMs x FP32 lanes x 2 (FMA) x clock = %.0f GFLOP/s.",
              format_ms(f.seconds_per_step * 1e3).c_str(), view.peak_fp32_gflops);
      } else {
        ImGui::Text("%.1f GFLOP/s", f.gflops);
      }
    } else if (!f.valid || row.bytes_per_step <= 0.0) {
      ImGui::TextDisabled("-");
    } else if (have_peak) {
      char overlay[96];
      // Short enough for a narrow column; the peak itself is in the tooltip.
      std::snprintf(overlay, sizeof overlay, "%.0f GB/s, %.0f%%", f.gb_per_s, f.percent_of_peak);
      ImGui::ProgressBar(static_cast<float>(std::clamp(f.percent_of_peak / 100.0, 0.0, 1.0)),
                         ImVec2(-1.0f, 0.0f), overlay);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "Effective bandwidth: the fewest bytes a step must move (%s) over the median time of a "
            "step (%s ms).\nPeak: 2 x memory clock x bus width%s%s = %.0f GB/s.",
            format_bytes(row.bytes_per_step).c_str(), format_ms(f.seconds_per_step * 1e3).c_str(),
            view.peak_label.empty() ? "" : ", ", view.peak_label.c_str(), view.peak_bandwidth_gbs);
    } else {
      ImGui::Text("%.1f GB/s", f.gb_per_s);
    }
    ImGui::TableNextColumn();
    if (!f.valid || row.items_per_step <= 0.0)
      ImGui::TextDisabled("-");
    else
      ImGui::TextUnformatted(format_si(f.items_per_s, row.item_unit + "/s").c_str());
  }
  ImGui::EndTable();
}

}  // namespace

ThroughputFigures throughput_figures(const ThroughputRow& row, double peak_bandwidth_gbs,
                                     double peak_fp32_gflops) {
  ThroughputFigures f;
  if (!row.series || row.series->empty() || !(row.steps_per_sample > 0.0)) return f;
  const double median_ms = row.series->median();
  if (!(median_ms > 0.0)) return f;
  f.valid = true;
  f.seconds_per_step = median_ms * 1e-3 / row.steps_per_sample;
  f.gb_per_s = row.bytes_per_step / f.seconds_per_step / 1e9;
  f.percent_of_peak = peak_bandwidth_gbs > 0.0 ? 100.0 * f.gb_per_s / peak_bandwidth_gbs : 0.0;
  f.items_per_s = row.items_per_step / f.seconds_per_step;
  f.gflops = row.flops_per_step / f.seconds_per_step / 1e9;
  f.percent_of_fp32_peak = peak_fp32_gflops > 0.0 ? 100.0 * f.gflops / peak_fp32_gflops : 0.0;
  return f;
}

void timings_panel(const TimingsView& view) {
  std::vector<const RollingSeries*> rows;
  for (const RollingSeries* s : view.series)
    if (s) rows.push_back(s);
  if (view.frame) rows.push_back(view.frame);
  if (rows.empty()) {
    ImGui::TextDisabled("no timings yet");
    return;
  }

  // The plotted series, remembered by name (the list can grow and reorder between frames).
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID("timings_plotted");
  int plotted = storage->GetInt(key, 0);
  const RollingSeries* chosen = nullptr;
  for (const RollingSeries* s : rows)
    if (static_cast<int>(ImGui::GetID(s->name().c_str())) == plotted) chosen = s;
  if (!chosen) chosen = rows.front();

  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("timings", 5, flags)) {
    ImGui::TableSetupColumn("section (ms)", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("latest");
    ImGui::TableSetupColumn("median");
    ImGui::TableSetupColumn("min");
    ImGui::TableSetupColumn("p95");
    ImGui::TableHeadersRow();
    for (const RollingSeries* s : rows) {
      if (s == view.frame && rows.size() > 1) {
        // Separate the whole frame from its parts: they do not add up (GPU and CPU overlap).
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Separator();
      }
      if (series_row(*s, s == chosen)) chosen = s;
    }
    ImGui::EndTable();
  }
  storage->SetInt(key, static_cast<int>(ImGui::GetID(chosen->name().c_str())));

  if (view.frame && !view.frame->empty()) {
    const double median = view.frame->median();
    if (median > 0.0) ImGui::TextDisabled("frame: %.1f fps (median)", 1000.0 / median);
  }
  plot_series(*chosen);
  throughput_table(view);
}

}  // namespace gpulab::ui

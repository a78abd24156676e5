#include "presenter/counters_view.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <exception>

#include "presenter/roofline.h"
#if defined(GPULAB_HAVE_CUDA)
#include "cuda/occupancy.h"
#endif

namespace gpulab::presenter {

namespace {

// The occupancy panel's theoretical figure (%) for the kernel the counters named, among what the
// demo's current variants launch; -1 when none matches (or without CUDA).
double theoretical_occupancy(const Demo& demo, const std::string& measured_kernel) {
#if defined(GPULAB_HAVE_CUDA)
  try {
    const std::vector<KernelInfo> kernels = demo.kernels();
    if (kernels.empty()) return -1;
    const std::vector<cuda::OccupancyReport> reports = cuda::analyze_occupancy(kernels);
    for (const cuda::OccupancyReport& r : reports)
      if (r.error.empty() && !r.name.empty() &&
          (measured_kernel.find(r.name) != std::string::npos ||
           r.name.find(measured_kernel) != std::string::npos))
        return 100.0 * r.occupancy;
    if (reports.size() == 1 && reports.front().error.empty()) return 100.0 * reports.front().occupancy;
  } catch (const std::exception&) {
  }
#else
  (void)demo;
  (void)measured_kernel;
#endif
  return -1;
}

}  // namespace

void CountersView::request_current(const Demo& demo) {
  const std::vector<Stage> stages = demo.stages();
  for (size_t s = 0; s < stages.size(); ++s)
    if (stages[s].active) queue_.push_back({std::string(demo.name()), demo.pick(s)});
}

void CountersView::request_all(const Demo& demo) {
  const std::vector<Stage> stages = demo.stages();
  for (size_t s = 0; s < stages.size(); ++s) {
    const Stage& st = stages[s];
    if (!st.active) continue;
    for (size_t v = 0; v < st.variants.size(); ++v) {
      const VariantChoice& c = st.variants[v];
      if (!c.needs_cuda || !c.available) continue;
      queue_.push_back({std::string(demo.name()), Pick{s, int(v), int(v) == st.variant ? st.block : 0}});
    }
  }
}

void CountersView::request(std::string_view demo, const Pick& pick) {
  if (!queued(pick)) queue_.push_back({std::string(demo), pick});
}

bool CountersView::queued(const Pick& pick) const {
  return std::any_of(queue_.begin(), queue_.end(), [&](const Job& j) { return same_variant(j.pick, pick); });
}

void CountersView::clear() {
  queue_.clear();
  rows_.clear();
}

bool CountersView::poll(Demo& demo, const Context& ctx) {
  if (demo.name() != demo_name_) {
    rows_.clear();
    demo_name_ = std::string(demo.name());
  }
  while (!queue_.empty() && queue_.front().demo != demo_name_) queue_.pop_front();
  if (queue_.empty()) {
    resume_sampler();  // (the jobs went with the demo or clear())
    return false;
  }
  // The sampler lets go of the counters while the range profiler measures, and samples again once
  // the queue is empty (not between the jobs of "measure every variant"). Letting go takes a decode
  // call and Stop/Disable on its thread: the frame does not wait for it, the job waits for a later one.
  if (sampler_ && sampler_->started()) {
    if (!sampler_paused_) sampler_->request_pause();
    sampler_paused_ = true;
    if (sampler_->holding()) return false;
  }
  const Job job = queue_.front();
  queue_.pop_front();
  CounterRow row = measure_counters(counters_, demo, ctx, job.pick);
  last_host_ms_ = row.result.host_ms;
  if (row.measured()) {
    // The theoretical figure is the occupancy panel's, for what runs now: only for the current variant.
    const bool current =
        job.pick.stage < demo.setup().picks.size() && same_variant(demo.pick(job.pick.stage), job.pick);
    if (current)
      row.ideal.theoretical_occupancy = theoretical_occupancy(demo, row.result.kernels.front().kernel);
  }
  auto same = [&](const CounterRow& r) { return same_variant(r.pick, row.pick); };
  if (auto it = std::find_if(rows_.begin(), rows_.end(), same); it != rows_.end())
    *it = std::move(row);
  else
    rows_.push_back(std::move(row));
  // A lasting reason (permissions, no CUPTI) holds for the rest of the queue.
  if (!counters_.unavailable().empty()) queue_.clear();
  if (queue_.empty()) resume_sampler();
  return true;
}

void CountersView::resume_sampler() {
  if (sampler_paused_ && sampler_) sampler_->resume();
  sampler_paused_ = false;
}

void CountersView::draw_meters(float ui_scale) {
  if (!sampler_) sampler_ = std::make_unique<cuda::PmSampler>();
  ImGui::Checkbox("live meters", &meters_on_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "DRAM throughput and SM activity of the whole GPU, sampled by the GPU every %.0f ms "
        "(CUPTI PM sampling)",
        sampler_->interval_ms());
  if (meters_on_ && !sampler_->started() && !busy() &&
      !sampler_->failed()) {  // (a refused start is not retried)
    sampler_->resume();       // (a pause left over from a measurement ends with the new start)
    sampler_->start();
  }
  if (!meters_on_ && sampler_->started()) sampler_->stop();
  meters_.add(sampler_->take());
  if (!meters_on_) return;
  if (const std::string st = sampler_->status(); !st.empty()) {
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("meters %s", sampler_->failed() ? ("unavailable: " + st).c_str() : st.c_str());
    ImGui::PopTextWrapPos();
  }
  if (meters_.empty()) return;
  const float w = std::max(120.0f, ImGui::GetContentRegionAvail().x);
  const float h = 44.0f * ui_scale;
  constexpr size_t kBins = 150;
  for (const auto& [m, name] :
       {std::pair{Meter::Dram, "DRAM throughput"}, std::pair{Meter::Sm, "SM activity"}}) {
    const std::vector<float> v = meters_.plot(m, kBins);
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s %.0f%%", name, meters_.mean(m, 0.5));
    ImGui::PlotLines(m == Meter::Dram ? "##dram" : "##sm", v.data(), int(v.size()), 0, overlay, 0.0f, 100.0f,
                     ImVec2(w, h));
  }
  ImGui::TextDisabled("the whole GPU, last %.0f s, %.0f samples a second (%% of peak)", meters_.window_s(),
                      meters_.rate_hz());
}

void CountersView::draw(Demo& demo, const Context& ctx, float ui_scale, const ChartTheme& theme) {
  if (std::string why = unavailable(ctx); !why.empty()) {
    ImGui::TextWrapped("counters unavailable: %s", why.c_str());
    return;
  }
  draw_meters(ui_scale);
  if (ImGui::Button("measure (F3)")) request_current(demo);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "profile one step of the current variant with the GPU's own counters (on a copy of the input)");
  ImGui::SameLine();
  if (ImGui::Button("measure every variant")) request_all(demo);
  if (busy()) {
    ImGui::SameLine();
    ImGui::TextDisabled("%zu to measure", queue_.size());
  } else if (last_host_ms_ > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("last took %.0f ms", last_host_ms_);
  }
  if (rows_.empty()) {
    ImGui::TextWrapped("Nothing measured yet: press F3 to read the GPU's counters for the current variant.");
    return;
  }
  for (const CounterRow& r : rows_) {
    ImGui::PushID(&r);
    const std::string head = r.variant + (r.measured() ? "  ·  " + format_time_ms(r.result.total.ms()) : "");
    if (ImGui::CollapsingHeader(head.c_str(), &r == &rows_.back() ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      if (!r.measured()) {
        ImGui::TextWrapped("%s", r.unavailable.c_str());
      } else {
        if (r.result.kernels.size() > 1) {
          std::string ks;
          for (const cuda::KernelCounters& k : r.result.kernels)
            ks += (ks.empty() ? "" : ", ") + k.kernel + " " + format_time_ms(k.ms());
          ImGui::TextDisabled("%zu kernels: %s", r.result.kernels.size(), ks.c_str());
        } else {
          ImGui::TextDisabled("%s", r.result.total.kernel.c_str());
        }
        if (ImGui::BeginTable("readings", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
          for (const Reading& x : counter_readings(r.result.total, r.ideal)) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(x.name.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(x.value.c_str());
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("%s", x.meaning.c_str());
            ImGui::PopTextWrapPos();
          }
          ImGui::EndTable();
        }
      }
    }
    ImGui::PopID();
  }
  // The roofline of everything measured, as wide as the panel.
  const float w = std::max(200.0f, ImGui::GetContentRegionAvail().x);
  const float h = w * 9.0f / 16.0f;  // 16:9 like the PNG
  std::string device;
  for (const CounterRow& r : rows_)
    if (r.measured() && device.empty()) device = r.result.device;
  const RooflineData d =
      counters_roofline(rows_, demo.title(), device, ctx.peak_fp32_gflops, ctx.peak_bandwidth_gbps);
  const RooflineLayout L = layout_roofline(d, w, h, imgui_text_measure({}), 0.6f * ui_scale);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  draw_chart(ImGui::GetWindowDrawList(), L.chart, theme, {}, origin);
  ImGui::Dummy(ImVec2(w, h));
}

}  // namespace gpulab::presenter

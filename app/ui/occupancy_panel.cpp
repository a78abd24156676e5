// Occupancy panel. The limits table shows each resource's own ceiling (blocks per SM it alone would
// allow) next to the arithmetic behind it, so "limited by registers" is something a student can
// check by hand.
#include "ui/occupancy_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "base/stats.h"

namespace gpulab::ui {

namespace {

const ImVec4 kBinding(1.0f, 0.72f, 0.25f, 1.0f);  // the resource that limits occupancy
const ImVec4 kWarning(1.0f, 0.45f, 0.40f, 1.0f);

std::string blocks_text(int blocks) {
  return blocks == cuda::kUnlimited ? std::string("no limit") : std::to_string(blocks);
}

std::string arch(int version) {
  if (version <= 0) return "-";
  return "sm_" + std::to_string(version);
}

void kv(const char* name, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
}

void limit_row(const char* resource, int blocks, bool binding, const std::string& why) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  if (binding)
    ImGui::TextColored(kBinding, "%s", resource);
  else
    ImGui::TextUnformatted(resource);
  ImGui::TableNextColumn();
  if (binding)
    ImGui::TextColored(kBinding, "%s", blocks_text(blocks).c_str());
  else
    ImGui::TextUnformatted(blocks_text(blocks).c_str());
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", why.c_str());
}

void resources_table(const cuda::OccupancyReport& r) {
  const auto& a = r.attr;
  if (!ImGui::BeginTable("resources", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableSetupColumn("k", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  ImGui::TableSetupColumn("v", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  kv("registers / thread", std::to_string(a.num_regs));
  kv("static shared memory", format_bytes(static_cast<double>(a.static_smem)));
  kv("dynamic shared memory", format_bytes(static_cast<double>(r.dynamic_smem)));
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("local memory / thread");
  ImGui::TableNextColumn();
  if (a.local_bytes > 0) {
    ImGui::TextColored(kWarning, "%s", format_bytes(static_cast<double>(a.local_bytes)).c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Register spills or stack arrays: these live in (cached) device memory.");
  } else {
    ImGui::TextUnformatted("0 B (no spills)");
  }
  kv("constant memory", format_bytes(static_cast<double>(a.const_bytes)));
  kv("max threads / block (kernel)", std::to_string(a.max_threads_per_block));
  kv("PTX / binary", arch(a.ptx_version) + " / " + arch(a.binary_version));
  if (!r.code_path.empty()) kv("code path", r.code_path);
  ImGui::EndTable();
}

void limits_table(const cuda::OccupancyReport& r) {
  const auto& L = r.limits;
  const auto& d = r.device;
  const unsigned bind = r.limiters;
  if (!ImGui::BeginTable("limits", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return;
  ImGui::TableSetupColumn("limit", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("blocks/SM", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("because", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  char why[200];

  std::snprintf(why, sizeof why, "at most %d resident blocks per SM", d.max_blocks_per_sm);
  limit_row("block count", L.block_count, bind & cuda::kLimitBlockCount, why);

  std::snprintf(why, sizeof why, "%d warps / SM / %d warps a block", d.max_warps_per_sm(), L.warps_per_block);
  limit_row("warps", L.warps, bind & cuda::kLimitWarps, why);

  if (L.registers == cuda::kUnlimited) {
    std::snprintf(why, sizeof why, "uses no registers");
  } else if (L.registers == 0) {
    std::snprintf(why, sizeof why, "%d regs a warp x %d warps exceeds %d regs a block",
                  L.regs_per_warp_allocated, L.warps_per_block, d.regs_per_block);
  } else {
    const int parts = d.sub_partitions > 0 ? d.sub_partitions : 1;
    std::snprintf(
        why, sizeof why,
        "%d regs x %d threads = %d a warp (in units of %d); %d per quarter-SM -> %d warps / SM",
        r.attr.num_regs, d.warp_size, L.regs_per_warp_allocated, d.reg_alloc_unit, d.regs_per_sm / parts,
        L.regs_per_warp_allocated > 0 ? (d.regs_per_sm / parts) / L.regs_per_warp_allocated * parts : 0);
  }
  limit_row("registers", L.registers, bind & cuda::kLimitRegisters, why);

  if (L.shared_memory == 0) {
    std::snprintf(why, sizeof why, "%s a block exceeds the per-block limit (%s, or the kernel's opt-in)",
                  format_bytes(static_cast<double>(r.attr.static_smem + r.dynamic_smem)).c_str(),
                  format_bytes(static_cast<double>(d.smem_per_block_optin)).c_str());
  } else {
    std::snprintf(why, sizeof why, "%s a block (incl. %s reserved, in units of %d B) of %s / SM",
                  format_bytes(static_cast<double>(L.smem_per_block_allocated)).c_str(),
                  format_bytes(static_cast<double>(d.reserved_smem_per_block)).c_str(), d.smem_alloc_unit(),
                  format_bytes(static_cast<double>(d.smem_per_sm)).c_str());
  }
  limit_row("shared memory", L.shared_memory, bind & cuda::kLimitSharedMemory, why);
  ImGui::EndTable();
}

// x position of a block size on the histogram (bar centres, one bar per warp of block size).
float bar_x(const ImVec2& lo, const ImVec2& hi, int count, int warp, int block_threads) {
  const float index = static_cast<float>(block_threads - warp) / static_cast<float>(warp);
  const float t = (std::clamp(index, 0.0f, static_cast<float>(count - 1)) + 0.5f) / static_cast<float>(count);
  return lo.x + t * (hi.x - lo.x);
}

void curve_plot(const cuda::OccupancyReport& r) {
  if (r.curve.empty()) return;
  std::vector<float> values;
  values.reserve(r.curve.size());
  for (const auto& p : r.curve) values.push_back(100.0f * p.occupancy);
  const int count = static_cast<int>(values.size());
  const int warp = r.device.warp_size > 0 ? r.device.warp_size : 32;

  ImGui::TextDisabled("occupancy over block size (%d..%d threads)", r.curve.front().block_threads,
                      r.curve.back().block_threads);
  const float height = ImGui::GetTextLineHeight() * 5.0f;
  // An explicit width: Debian's ImGui 1.86 collapses a plot sized -1 here to a few pixels.
  ImGui::PlotHistogram("##occupancy_curve", values.data(), count, 0, nullptr, 0.0f, 100.0f,
                       ImVec2(std::max(ImGui::GetContentRegionAvail().x, 50.0f), height));
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const ImVec2 lo(ImGui::GetItemRectMin().x + pad.x, ImGui::GetItemRectMin().y + pad.y);
  const ImVec2 hi(ImGui::GetItemRectMax().x - pad.x, ImGui::GetItemRectMax().y - pad.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // The suggestion (thin, green) and the block size in use (thick, orange).
  if (r.suggested_block_threads > 0) {
    const float x = bar_x(lo, hi, count, warp, r.suggested_block_threads);
    dl->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), IM_COL32(110, 220, 120, 200), 1.0f);
  }
  if (r.block_threads > 0) {
    const float x = bar_x(lo, hi, count, warp, r.block_threads);
    dl->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), IM_COL32(255, 160, 40, 255), 2.0f);
  }

  // Our tooltip replaces PlotHistogram's "index: value" one with what the bar means.
  if (ImGui::IsItemHovered() && hi.x > lo.x) {
    const float t = (ImGui::GetIO().MousePos.x - lo.x) / (hi.x - lo.x);
    const int i = std::clamp(static_cast<int>(t * static_cast<float>(count)), 0, count - 1);
    const auto& p = r.curve[static_cast<size_t>(i)];
    ImGui::SetTooltip("%d threads: %d blocks, %d warps / SM = %.0f%%\nlimited by %s\ndynamic smem %s",
                      p.block_threads, p.active_blocks, p.active_warps, 100.0f * p.occupancy,
                      cuda::limiter_text(p.limiters).c_str(),
                      format_bytes(static_cast<double>(p.dynamic_smem)).c_str());
  }
  ImGui::TextColored(ImVec4(1.0f, 0.63f, 0.16f, 1.0f), "|");
  ImGui::SameLine();
  ImGui::TextDisabled("in use: %d threads", r.block_threads);
  if (r.suggested_block_threads > 0) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.43f, 0.86f, 0.47f, 1.0f), "  |");
    ImGui::SameLine();
    ImGui::TextDisabled("suggested: %d threads (%.0f%%), grid >= %d blocks", r.suggested_block_threads,
                        100.0f * r.suggested_occupancy, r.suggested_min_grid);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "cudaOccupancyMaxPotentialBlockSize: the block size with the highest occupancy,\n"
          "and the smallest grid that fills every SM with it.");
  }
}

}  // namespace

void occupancy_report(const cuda::OccupancyReport& r) {
  if (!r.error.empty()) {
    ImGui::TextColored(kWarning, "occupancy unavailable: %s", r.error.c_str());
    return;
  }
  ImGui::Text("%d threads a block: %d blocks, %d of %d warps per SM", r.block_threads, r.active_blocks_per_sm,
              r.active_warps_per_sm, r.max_warps_per_sm);
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "occupancy %.0f%%", 100.0f * r.occupancy);
  ImGui::ProgressBar(r.occupancy, ImVec2(-1.0f, 0.0f), overlay);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Theoretical occupancy: resident warps / the SM's maximum warps.\n"
        "An upper bound; achieved occupancy (Nsight Compute) is lower.");
  ImGui::TextUnformatted("limited by");
  ImGui::SameLine();
  ImGui::TextColored(kBinding, "%s", cuda::limiter_text(r.limiters).c_str());
  if (!r.formulas_agree) {
    ImGui::TextColored(kWarning,
                       "The formulas give %d blocks/SM, the occupancy API %d: the API is right (e.g. a "
                       "shared-memory carveout preference or a newer architecture).",
                       r.formula_active_blocks, r.active_blocks_per_sm);
  }
  resources_table(r);
  limits_table(r);
  curve_plot(r);
}

void occupancy_panel(std::span<const cuda::OccupancyReport> reports) {
  if (reports.empty()) {
    ImGui::TextDisabled("no kernels (CPU variant)");
    return;
  }
  for (size_t i = 0; i < reports.size(); ++i) {
    const auto& r = reports[i];
    ImGui::PushID(static_cast<int>(i));
    const std::string title = r.name.empty() ? "kernel " + std::to_string(i) : r.name;
    if (ImGui::TreeNodeEx(title.c_str(), i == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      occupancy_report(r);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

}  // namespace gpulab::ui

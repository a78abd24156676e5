// Device panel: a two-column table per group. Tooltips say what a figure means for a kernel
// author, since that is what a lecturer points at.
#include "ui/device_panel.h"

#include <imgui.h>

#include <cstdio>
#include <string>

#include "base/stats.h"

namespace gpulab::ui {

namespace {

void row(const char* name, const std::string& value, const char* help = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
  if (help && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help);
}

std::string num(long long v) { return std::to_string(v); }
std::string yes_no(bool b) { return b ? "yes" : "no"; }
std::string mhz(int khz) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MHz", khz / 1e3);
  return buf;
}
std::string dims(const std::array<int, 3>& d) { return num(d[0]) + " x " + num(d[1]) + " x " + num(d[2]); }
const char* compute_mode_text(int mode) {
  switch (mode) {
    case 0:
      return "default (shared)";
    case 2:
      return "prohibited";
    case 3:
      return "exclusive process";
    default:
      return "other";
  }
}

bool begin_group(const char* title) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", title);
  if (!ImGui::BeginTable(title, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) return false;
  ImGui::TableSetupColumn("property", ImGuiTableColumnFlags_WidthStretch, 0.55f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 0.45f);
  return true;
}

}  // namespace

void device_panel(const cuda::DeviceInfo& d) {
  if (d.ordinal < 0) {
    ImGui::TextDisabled("no CUDA device");
    return;
  }
  ImGui::Text("%s", d.name.c_str());
  ImGui::TextDisabled("device %d, compute capability %s, CUDA driver %s, runtime %s", d.ordinal,
                      d.compute_capability().c_str(), cuda::format_cuda_version(d.driver_version).c_str(),
                      cuda::format_cuda_version(d.runtime_version).c_str());

  if (begin_group("compute")) {
    row("multiprocessors (SMs)", num(d.sm_count));
    const int cores = d.fp32_cores_per_sm();
    row("FP32 cores / SM", cores ? num(cores) : std::string("unknown"),
        "From the architecture table (cuda-samples' _ConvertSMVer2Cores): not queryable.");
    row("SM clock (peak)", mhz(d.clock_khz), "cudaDevAttrClockRate");
    if (cores) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f TFLOP/s", d.peak_fp32_gflops() / 1e3);
      row("peak FP32", buf, "SMs x cores/SM x 2 (fused multiply-add) x SM clock");
    }
    row("warp size", num(d.warp_size));
    row("max threads / block", num(d.max_threads_per_block));
    row("max threads / SM", num(d.max_threads_per_sm),
        "Resident threads an SM can hold: max warps / SM x warp size. Occupancy is relative to "
        "this.");
    row("max blocks / SM", num(d.max_blocks_per_sm));
    row("max block dims", dims(d.max_block_dim));
    row("max grid dims", dims(d.max_grid_dim));
    row("registers / block", num(d.regs_per_block), "32-bit registers one block may use in total");
    row("registers / SM", num(d.regs_per_sm),
        "Shared by all resident warps: more registers per thread, fewer warps per SM");
    row("concurrent kernels", yes_no(d.concurrent_kernels));
    row("async copy engines", num(d.async_engines),
        "1: copies overlap kernels; 2: copies in both directions overlap kernels and each other");
    row("kernel run-time limit", yes_no(d.kernel_timeout),
        "A display watchdog kills kernels that run for seconds on this GPU");
    row("compute mode", compute_mode_text(d.compute_mode));
    ImGui::EndTable();
  }

  if (begin_group("memory")) {
    row("global memory", format_bytes(static_cast<double>(d.total_global_mem)));
    row("free global memory", format_bytes(static_cast<double>(d.free_global_mem)),
        "At the time of the query (cudaMemGetInfo)");
    row("memory clock (peak)", mhz(d.mem_clock_khz), "cudaDevAttrMemoryClockRate");
    row("memory bus width", num(d.mem_bus_width_bits) + " bit");
    char bw[64];
    std::snprintf(bw, sizeof bw, "%.0f GB/s", d.peak_bandwidth_gbs());
    row("peak bandwidth", bw,
        "2 (double data rate) x memory clock x bus width / 8: the ceiling the timings panel's % "
        "refers to");
    row("L2 cache", format_bytes(d.l2_bytes));
    row("persisting L2 max", format_bytes(d.persisting_l2_max_bytes));
    row("constant memory", format_bytes(static_cast<double>(d.const_mem)));
    row("shared memory / block", format_bytes(static_cast<double>(d.smem_per_block)),
        "Without opt-in. More needs cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, ...)");
    row("shared memory / block (opt-in)", format_bytes(static_cast<double>(d.smem_per_block_optin)));
    row("shared memory / SM", format_bytes(static_cast<double>(d.smem_per_sm)),
        "Shared by all resident blocks: more shared memory per block, fewer blocks per SM");
    row("reserved shared memory / block", format_bytes(static_cast<double>(d.reserved_smem_per_block)),
        "Taken by the driver from every block's allocation");
    row("ECC", d.ecc ? "enabled" : "disabled");
    row("unified addressing", yes_no(d.unified_addressing));
    row("managed memory", yes_no(d.managed_memory));
    row("concurrent managed access", yes_no(d.concurrent_managed_access));
    ImGui::EndTable();
  }

  if (begin_group("system")) {
    row("integrated GPU", yes_no(d.integrated));
    row("PCI bus id", d.pci_bus_id);
    row("TCC driver", yes_no(d.tcc_driver));
    row("CUDA driver", cuda::format_cuda_version(d.driver_version), "cudaDriverGetVersion");
    row("CUDA runtime", cuda::format_cuda_version(d.runtime_version), "cudaRuntimeGetVersion");
    ImGui::EndTable();
  }
}

}  // namespace gpulab::ui

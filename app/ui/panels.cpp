// The shared panels, in the order a lecture uses them: timings, occupancy, device.
#include "ui/panels.h"

#include <imgui.h>

#include "ui/device_panel.h"
#include "ui/timings_panel.h"

#if defined(GPULAB_HAVE_CUDA)
#include "cuda/occupancy.h"
#include "ui/occupancy_panel.h"
#endif

namespace gpulab::ui {

void timings_section(const PanelInputs& in) {
  TimingsView v;
  v.series = in.series;
  v.frame = in.frame_ms;
  v.peak_bandwidth_gbs = in.peak_bandwidth_gbps;
  v.peak_fp32_gflops = in.peak_fp32_gflops;
  if (in.device) v.peak_label = in.device->name;
  for (const Throughput& t : in.throughput) {
    ThroughputRow row;
    row.series = in.timings ? in.timings->find(t.timed) : nullptr;
    if (!row.series) continue;
    row.label = t.label.empty() ? row.series->name() : t.label;
    row.steps_per_sample = t.steps;
    row.bytes_per_step = t.bytes_per_step;
    row.items_per_step = t.items_per_step;
    row.item_unit = t.item_unit;
    row.flops_per_step = t.flops_per_step;
    v.throughput.push_back(row);
  }
  timings_panel(v);
}

struct OccupancySection::Cache {
#if defined(GPULAB_HAVE_CUDA)
  cuda::OccupancyCache analyses;
#endif
};

OccupancySection::OccupancySection() : cache_(std::make_unique<Cache>()) {}
OccupancySection::~OccupancySection() = default;

void OccupancySection::draw(const PanelInputs& in) {
#if defined(GPULAB_HAVE_CUDA)
  if (in.kernels.empty()) {
    ImGui::TextDisabled("the current variant runs on the CPU: no kernels");
  } else {
    cuda::OccupancyCache& cache = cache_->analyses;
    const std::vector<cuda::OccupancyReport>* reports = nullptr;
    try {
      reports = &cache.get(in.kernels);
    } catch (const std::exception& e) {
      cache.invalidate();
      ImGui::TextWrapped("occupancy unavailable: %s", e.what());
    }
    if (reports) occupancy_panel(*reports);
  }
#else
  ImGui::TextDisabled("built without CUDA: no kernels to analyse");
#endif
}

void device_section(const PanelInputs& in) {
  if (in.device) {
    device_panel(*in.device);
  } else {
    // The reason in full, here only (the panel's chip says it in a few words).
    ImGui::TextWrapped("CPU backend: %s", in.cpu_only_reason.c_str());
    ImGui::TextWrapped(
        "The GPU variants are listed but do not run here: a lesson step that needs one shows the CPU "
        "reference instead, and says so.");
  }
  ImGui::TextWrapped("OpenGL: %s", in.gl_renderer.c_str());
}

}  // namespace gpulab::ui

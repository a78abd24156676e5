#pragma once
// The panels every demo shares: timings, occupancy, device.
#include <memory>
#include <string>
#include <vector>

#include "base/stats.h"
#include "core/demo.h"
#include "cuda/device_info.h"

namespace gpulab::ui {

struct PanelInputs {
  std::vector<const RollingSeries*> series;  // timing sections (GPU first)
  const Timings* timings = nullptr;          // finds a read-out's section by its key
  const RollingSeries* frame_ms = nullptr;   // whole-frame time
  std::vector<Throughput> throughput;        // the demo's read-outs: GB/s, items/s, GFLOP/s
  double peak_bandwidth_gbps = 0.0;
  double peak_fp32_gflops = 0.0;
  std::vector<gpulab::KernelInfo> kernels;   // what the current variant launches (CUDA only)
  const cuda::DeviceInfo* device = nullptr;  // null on the CPU backend
  std::string cpu_only_reason;               // why there is no CUDA device
  std::string gl_renderer;
};

// Each section's contents, without its header or tab (the shell places them: app_ui.cpp).
void timings_section(const PanelInputs& in);
// The Occupancy tab, with its one cache of analyses (re-analysed only when the kernels, the block size or
// the shared memory change): the shell owns one.
class OccupancySection {
 public:
  OccupancySection();
  ~OccupancySection();
  OccupancySection(const OccupancySection&) = delete;
  OccupancySection& operator=(const OccupancySection&) = delete;
  void draw(const PanelInputs& in);

 private:
  struct Cache;
  std::unique_ptr<Cache> cache_;
};
void device_section(const PanelInputs& in);

}  // namespace gpulab::ui

#pragma once
// The timings panel: a table of timing sections (latest, median, min, p95 over the window), a
// rolling plot of the section picked in the table, and throughput read-outs (GB/s, % of the
// device's peak bandwidth, items/s) computed from a section's median. Draws into the current ImGui
// window; needs no CUDA, so it works on the CPU backend too.
#include <string>
#include <vector>

#include "base/stats.h"

namespace gpulab::ui {

// Throughput of one timed section. A sample of `series` covers `steps_per_sample` steps (e.g. the
// generations a frame ran); each step moves `bytes_per_step` bytes (the fewest the algorithm must
// move: an effective-bandwidth figure) and updates `items_per_step` items.
struct ThroughputRow {
  std::string label;                      // shown in the table; the series' name when empty
  const RollingSeries* series = nullptr;  // milliseconds per sample
  double steps_per_sample = 1.0;          // 0: nothing ran (paused), the row shows "-"
  double bytes_per_step = 0.0;            // 0: no bandwidth columns
  double items_per_step = 0.0;            // 0: no rate column
  std::string item_unit = "items";        // "cell updates"
  double flops_per_step = 0.0;            // 0: no GFLOP/s figure
};

struct TimingsView {
  std::vector<const RollingSeries*> series;  // table rows in this order (e.g. GPU sections first)
  const RollingSeries* frame = nullptr;      // whole-frame time, shown last with its fps; optional
  std::vector<ThroughputRow> throughput;
  double peak_bandwidth_gbs = 0.0;  // 0: unknown (CPU backend): no "% of peak"
  double peak_fp32_gflops = 0.0;    // 0: unknown: no "% of FP32 peak"
  std::string peak_label;           // e.g. the device name, shown with the peak
};

// Clicking a row plots that series; the choice is kept in ImGui's state storage under the current
// ID stack, so the caller keeps no state (PushID around the call to have two independent panels).
void timings_panel(const TimingsView& view);

// The numbers behind a throughput row, from the series' median (exposed for the bench and tests).
struct ThroughputFigures {
  bool valid = false;  // false: no samples, no steps or a zero time
  double seconds_per_step = 0.0;
  double gb_per_s = 0.0;         // 1e9 bytes per second
  double percent_of_peak = 0.0;  // 0 when the peak is unknown
  double items_per_s = 0.0;
  double gflops = 0.0;                // 0 when the row counts no flops
  double percent_of_fp32_peak = 0.0;  // 0 when the peak is unknown
};
ThroughputFigures throughput_figures(const ThroughputRow& row, double peak_bandwidth_gbs,
                                     double peak_fp32_gflops = 0.0);

}  // namespace gpulab::ui

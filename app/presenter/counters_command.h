#pragma once
// The counters of a demo's variants, measured through the demos' probes (Demo::probe: one step on a
// copy of the current input, so the demo's own state is untouched): one row a variant, shown as a
// table (`gpulab counters`), CSV, JSON, extra ladder columns (`gpulab ladder --counters`) and the
// roofline (presenter/roofline.h). The window's counters panel measures with the same call.
#include <functional>
#include <string>
#include <vector>

#include "core/demo.h"
#include "cuda/counters.h"
#include "presenter/counter_readings.h"
#include "presenter/ladder.h"
#include "presenter/roofline.h"

namespace gpulab::presenter {

struct CounterRow {
  Pick pick;  // what was measured: the stage, its variant, the block (0: the variant's default)
  std::string stage_id, variant, block_label;  // variant: its id, as the table, CSV and JSON write it
  bool gpu = false;
  std::string unavailable;  // why there are no counters for this variant ("" when measured)
  cuda::CounterResult result;
  StepIdeal ideal;
  // counters --repeats/--phase-times: each measurement's times (its counters dropped), in order, and
  // the host time of each whole measure_counters call (the probe, the warm-up step and the measurement).
  std::vector<cuda::CounterResult> timings;
  std::vector<double> call_ms;
  bool measured() const { return unavailable.empty() && result.ok(); }
};

// Measures one step of `pick` (block 0: its variant's default; the other stages at the demo's picks)
// with `counters`: a probe of the demo, run once to warm up, then one step profiled. A CPU variant, a
// probe that cannot run and counters that cannot be read give a row that says why. `ctx` gives the
// device's peaks.
CounterRow measure_counters(cuda::Counters& counters, Demo& demo, const Context& ctx, const Pick& pick);

// Why counters cannot be read in this process at all ("" when they may be): no CUDA device (the
// context's reason), a build without CUPTI.
std::string counters_unavailable(const cuda::Counters& counters, const Context& ctx);

// The table `gpulab counters` prints: a line per variant (kernel time, DRAM read/written per item
// against the ideal, L2 per item, bank conflicts, shared loads, achieved occupancy, DRAM % of peak,
// IPC), per-kernel lines under a variant of several kernels, then each measured variant's readings.
std::string counters_table(const std::vector<CounterRow>& rows);
// One line a kernel (and a line "all kernels" a variant of several), RFC 4180.
std::string counters_csv(const std::vector<CounterRow>& rows);
// phase_times: each row's measurements' phase times too (counters --phase-times).
std::string counters_json(const std::vector<CounterRow>& rows, std::string_view demo,
                          const std::string& device, bool phase_times = false);
// counters --phase-times: a table of each row's measurements (the first, and the median of the others,
// phase by phase).
std::string counters_phase_table(const std::vector<CounterRow>& rows);

// The roofline of measured rows: a point per variant whose demo counts FLOPs, the others listed
// with their DRAM bandwidth and why they have no point.
RooflineData counters_roofline(const std::vector<CounterRow>& rows, std::string_view demo_title,
                               const std::string& device, double peak_gflops, double peak_gbps);

// `gpulab counters`: every variant (or --variant ones) of the attached demo. Exit 0 also with
// "counters unavailable: why" where they cannot be read.
int run_counters_command(Demo& demo, const Context& ctx, const Options& options);

// `gpulab ladder --counters`: each measured rung's counters (the whole pipeline's panel has none)
// printed after the ladder's table, as columns appended to --csv, as --json's "-counters.json" and as
// a roofline PNG beside --png ("-roofline.png"). Returns 1 when an output could not be written.
int ladder_counters_outputs(Demo& demo, const Context& ctx, const Options& options,
                            const std::vector<Rung>& rungs, const std::string& device);
// The ladder chart's line for a row: "DRAM 2.00 B/cell update · 0 bank conflicts · 87% occupancy"
// (DRAM bytes read and written per item, or per step where the demo counts no items; the achieved
// occupancy), or "counters: why" where it was not measured.
std::string counters_chart_line(const CounterRow& row);
// For ladder_chart: each rung's counters line from `rows` (the latest of the same stage and variant),
// and the line kept (counters_slot) under every GPU rung measured in one of the demo's `stage_count`
// stages, the ones a measure action applies to (the whole pipeline's panel has none).
std::function<void(const Rung&, ChartRung&)> ladder_chart_counters(const std::vector<CounterRow>& rows,
                                                                   size_t stage_count);
// The ladder's CSV (ladder_csv) with the counters of rows[i] appended to its record i + 1.
std::string ladder_counters_csv(const std::string& ladder_csv_text, const std::vector<CounterRow>& rows);

}  // namespace gpulab::presenter

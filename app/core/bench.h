#pragma once
// Benchmark mode: warm, synchronised timings (median of repeats) of every variant a demo lists,
// printed as a table with speedups against baselines measured in the same run (per stage and
// size), speed targets checked, and JSON. A demo only lists its rows: core measures them.
#include <algorithm>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/hd.h"
#include "core/cli.h"

namespace gpulab {

struct BenchRow {
  std::string demo, stage, variant, block, device;
  std::string size;          // "16384x16384", "N=131072"
  long long width = 0, height = 0;  // the size as numbers (height 1 for N items)
  int steps = 0;    // steps per timed repeat
  int repeats = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // per step
  double items_per_s = 0;                        // e.g. cell updates/s, interactions/s
  std::string item_unit;                         // "cell updates"
  double gbps = 0;      // fewest bytes a step moves / time (0: not a bandwidth figure)
  double pct_peak = 0;  // of the device's peak memory bandwidth (GPU rows)
  double gflops = 0;    // floating-point rate (0: not counted)
  double pct_peak_flops = 0;  // of the device's peak FP32 rate (GPU rows)
  std::vector<double> speedups;  // over each of the suite's baselines, in order (0: none measured)
  bool baseline_only = false;    // measured as a baseline, not asked for
  std::string error;             // set when the row could not be measured
};

// A speed target the benchmark checks (targets live here, not in timed tests).
struct BenchTarget {
  std::string what;                   // "gpu-bitpacked >= 9e12 cell updates/s at 32768²"
  std::vector<std::string> variants;  // any of these (the best is taken)
  long long width = 0, height = 0;    // the size it is measured at
  double min_items_per_s = 0;
  std::string device_hint;            // the target's device, e.g. "H100"
};

struct BenchSuite {
  std::string demo;
  std::vector<std::string> baselines;  // speedups are over these, in order (same stage and size)
  std::vector<BenchRow> rows;
  std::vector<BenchTarget> targets;
  std::vector<std::string> notes;      // "cpu skipped at N=1048576: about 40 s a step"
  double peak_bandwidth_gbps = 0;
  double peak_fp32_gflops = 0;
  std::string device;
};

// How a row is timed: `run(steps)` does `steps` steps and returns their milliseconds, synchronised
// (CUDA events, or the host clock for CPU rows).
struct BenchPlan {
  bool cpu = false;        // CPU rows: fewer, longer repeats
  int steps = 0;           // steps per repeat; 0: sized from a first timed step
  int repeats = 7;
  double target_ms = 20;   // a repeat lasts about this long when steps are sized (GPU)
  double cpu_target_ms = 200;
  int max_steps = 2000;
};
struct BenchTiming {
  int steps = 0, repeats = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // per step
};
// Warm-up (two runs of one step on the GPU, one on the CPU), steps sized so event resolution and
// launch gaps do not dominate, then the median of the repeats.
BenchTiming bench_measure(const std::function<double(int steps)>& run, const BenchPlan& plan);

// Times `step(steps)` as bench_measure does: with CUDA events on `stream` for GPU rows, with the host
// clock for CPU rows; --steps and --repeats from the options.
BenchTiming bench_time_steps(const std::function<void(int steps)>& step, bool gpu, Stream stream, const Options& o);

// The rows to measure: the variants asked for with --variant (default: all of `table`), preceded
// by the baselines that were not asked for (marked baseline_only). Throws for an unknown id.
template <class V>
std::vector<std::pair<const V*, bool>> bench_plan(std::span<const V> table, const std::vector<std::string>& ids,
                                                  const std::vector<std::string>& baselines) {
  auto find = [&](const std::string& id) -> const V* {
    for (const V& v : table)
      if (v.id == id) return &v;
    throw std::invalid_argument("unknown variant '" + id + "' (gpulab --list shows the ids)");
  };
  std::vector<const V*> chosen;
  if (ids.empty()) {
    for (const V& v : table) chosen.push_back(&v);
  } else {
    for (const std::string& id : ids) chosen.push_back(find(id));
  }
  std::vector<std::pair<const V*, bool>> plan;
  for (const std::string& b : baselines) {
    const V* v = find(b);
    if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) plan.push_back({v, true});
  }
  for (const V* v : chosen) plan.push_back({v, false});
  return plan;
}

// Fills ms, items/s, GB/s, GFLOP/s and the % of peak of `row` from a timing and per-step counts.
void bench_fill(BenchRow& row, const BenchTiming& t, double items_per_step, double bytes_per_step,
                double flops_per_step, const BenchSuite& suite, bool gpu);

// The benchmark's compute stream: when CUDA is usable and --cpu was not given, the device is chosen
// and a non-blocking stream made; either way the suite's device line and peaks are filled (the CUDA
// device's, or the CPU's with why there is no CUDA).
class BenchStream {
 public:
  BenchStream(BenchSuite& suite, const Options& options, const std::string& cpu_name);
  ~BenchStream();
  BenchStream(const BenchStream&) = delete;
  BenchStream& operator=(const BenchStream&) = delete;
  bool cuda() const { return stream_ != nullptr; }
  Stream get() const { return stream_; }

 private:
  struct Owner;  // the cuda::Stream (CUDA builds)
  std::unique_ptr<Owner> owner_;
  Stream stream_ = nullptr;
};

// Prints the table and the target checks; returns the text too (for tests).
std::string format_bench(const BenchSuite& suite);
std::string bench_json(const BenchSuite& suite);
void compute_speedups(BenchSuite& suite);

// Runs the benchmark of the demo named by --demo, prints the table, writes --json.
int run_bench(const Options& options);

}  // namespace gpulab

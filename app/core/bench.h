#pragma once
// Benchmark mode: warm, synchronised timings (median of repeats) of every variant a demo lists,
// printed as a table with speedups against baselines measured in the same run (per case: stage,
// size and input), speed targets checked, and JSON. A demo only lists its cases and variants (Demo::bench):
// the stepper (core/bench_stepper.h) measures them.
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
  std::string size;                 // "16384x16384", "N=131072"
  long long width = 0, height = 0;  // the size as numbers (height 1 for N items)
  std::string input;  // the input data, e.g. "uniform", "narrow 100..123"; empty: the demo has one
  int steps = 0;      // steps per timed repeat
  int repeats = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // per step
  double items_per_s = 0;                        // e.g. cell updates/s, interactions/s
  std::string item_unit;                         // "cell updates"
  double gbps = 0;               // fewest bytes a step moves / time (0: not a bandwidth figure)
  double pct_peak = 0;           // of the device's peak memory bandwidth (GPU rows)
  double gflops = 0;             // floating-point rate (0: not counted)
  double pct_peak_flops = 0;     // of the device's peak FP32 rate (GPU rows)
  std::vector<double> speedups;  // over each of the suite's baselines, in order (0: none measured)
  bool baseline_only = false;    // measured as a baseline, not asked for
  std::string error;             // set when the row could not be measured
  // What a step is, in the HUD's words ("per generation"; "": unknown; the probe's): the table says
  // the time so; the JSON has no field for it.
  std::string per;
};

// Two rows are the same case (their times compare) when stage, size and input match.
bool bench_same_case(const BenchRow& a, const BenchRow& b);

// A speedup column: a row's baseline is the fastest error-free row of the same case whose variant is
// one of `variants` (a demo with one CPU and one naive GPU variant per stage lists one of each per
// group). Built from one id, as in `suite.baselines = {"cpu", "gpu-naive-aos"}`: label and variant.
struct BenchBaseline {
  std::string label;  // the column is "x " + label, the JSON key "speedup_vs_" + label
  std::vector<std::string> variants;

  BenchBaseline() = default;
  BenchBaseline(std::string id) : label(id), variants{std::move(id)} {}  // NOLINT: implicit on purpose
  BenchBaseline(const char* id) : BenchBaseline(std::string(id)) {}      // NOLINT: implicit on purpose
  BenchBaseline(std::string label_, std::vector<std::string> variants_)
      : label(std::move(label_)), variants(std::move(variants_)) {}
};

// A speed target the benchmark checks (targets live here, not in timed tests). Exactly one of the
// three thresholds is set, and it says the kind:
//   min_items_per_s: the best of `variants` reaches this rate;
//   min_ratio:       the best of `variants` is at least this many times faster (ms) than the best of
//                    `versus` in the same case;
//   max_ms:          the best of `variants` takes at most this long a step.
// A target is checked in every case measured that it matches (width and height when non-zero, input
// when non-empty, any stage) and must hold in each: the worst case decides. Life's and N-body's
// targets name one size and have no input, so one case.
struct BenchTarget {
  enum class Kind { Rate, Ratio, MaxTime, Invalid };

  std::string what{};                   // "gpu-bitpacked >= 9e12 cell updates/s at 32768²"
  std::vector<std::string> variants{};  // any of these (the best is taken)
  long long width = 0, height = 0;      // the size it is measured at (0: every size measured)
  double min_items_per_s = 0;           // Rate
  std::string device_hint{};            // the target's device, e.g. "H100"
  std::string input{};                  // the input it is measured on ("": every input measured)
  std::vector<std::string> versus{};    // Ratio: the rows to beat (the best is taken)
  double min_ratio = 0;                 // Ratio
  double max_ms = 0;                    // MaxTime: per step
  // The same target on another card: where `card` is in the suite's device name, `what` and the
  // threshold (of this target's kind) are these and the hint is `card`. An absolute target states one
  // for each card it is set for (the H200 has the H100's SMs and clocks with 4.8 TB/s of memory, so a
  // memory-bound rate scales and a compute-bound one does not).
  struct OnCard {
    std::string card;
    std::string what;
    double threshold = 0;
  };
  std::vector<OnCard> on_cards{};
  std::string size_option{};  // how the command line gives `width` ("--bytes 256MiB"; "": --size WxH)

  // Invalid: no threshold or more than one set, no variants, or a ratio without `versus`.
  Kind kind() const;
  // How many of min_items_per_s, min_ratio and max_ms are set (exactly one is valid).
  int thresholds_set() const { return (min_items_per_s > 0) + (min_ratio > 0) + (max_ms > 0); }
};

// The outcome of one target, as format_bench prints it: "target: <what>: <status> (<detail>)".
struct BenchTargetResult {
  std::string what;
  BenchTarget::Kind kind = BenchTarget::Kind::Invalid;
  bool measured = false;  // false: not run (no matching case measured) or an invalid target
  bool pass = false;
  std::string status;  // "PASS", "MISS", "not run", "invalid"
  std::string
      detail;  // "gpu-swar block 16: 9.512e+12", "worst: hist-lane-private 1.31x at 16384x16384 constant"
  // The detail as the table says it (format_bench): a time in the HUD's words ("6.1 µs per step")
  // where `detail` (the JSON's) keeps "6.100 µs/step"; otherwise the same.
  std::string said;
  double value = 0;  // the deciding (worst) case's items/s, ratio or ms per step
  int cases = 0;     // cases checked
  // The deciding case and the row of `variants` measured there (for a ratio, `versus_variant` too).
  std::string stage, size, input, variant, block, versus_variant;
  std::string device_hint;
  bool other_device = false;  // a hint is set and the suite ran on another device
};

struct BenchSuite {
  std::string command = "bench";  // what measured it: "bench" or "ladder" (the table's heading)
  std::string demo;
  std::vector<BenchBaseline> baselines;  // speedups are over these, in order (same case)
  std::vector<BenchRow> rows;
  std::vector<BenchTarget> targets;
  std::vector<std::string> notes;  // "cpu skipped at N=1048576: about 40 s a step"
  double peak_bandwidth_gbps = 0;
  double peak_fp32_gflops = 0;
  std::string device;
};

// How a row is timed: `run(steps)` does `steps` steps and returns their milliseconds, synchronised
// (CUDA events, or the host clock for CPU rows).
struct BenchPlan {
  bool cpu = false;  // CPU rows: fewer, longer repeats
  int steps = 0;     // steps per repeat; 0: sized from a first timed step
  int repeats = 7;
  double target_ms = 20;  // a repeat lasts about this long when steps are sized (GPU)
  double cpu_target_ms = 200;
  int max_steps = 20000;            // GPU: a 5 µs step still fills the repeat
  double calibrate_below_ms = 0.1;  // GPU: a first step under this is timed again as a sized run
  int step_multiple = 1;  // sized runs are whole multiples of this many steps (Probe::steps_per_pass)
  std::string what;       // the row, as a long row's estimate names it ("" : "this bench row")
};
struct BenchTiming {
  int steps = 0, repeats = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // per step
};
// Warm-up (two runs of one step on the GPU, one on the CPU), steps sized so event resolution and
// launch gaps do not dominate, then the median of the repeats. On the GPU a first step under
// calibrate_below_ms is mostly launch latency: the sized run is timed once more and the steps sized
// again from it, so microsecond kernels fill the repeat too.
BenchTiming bench_measure(const std::function<double(int steps)>& run, const BenchPlan& plan);

// Times `step(steps)` as bench_measure does: with CUDA events on `stream` for GPU rows, with the host
// clock for CPU rows; --steps and --repeats from the options; sized runs are whole multiples of
// `steps_per_pass` (Probe::steps_per_pass). `what` names the row in a long row's estimate.
BenchTiming bench_time_steps(const std::function<void(int steps)>& step, bool gpu, Stream stream,
                             const Options& o, int steps_per_pass = 1, std::string_view what = {});

// The rows to measure: the variants asked for with --variant (default: all of `table`), preceded
// by the baselines (every id of every group) that were not asked for, marked baseline_only. Throws
// for an unknown id.
template <class V>
std::vector<std::pair<const V*, bool>> bench_plan(std::span<const V> table,
                                                  const std::vector<std::string>& ids,
                                                  const std::vector<BenchBaseline>& baselines) {
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
  for (const BenchBaseline& group : baselines) {
    for (const std::string& b : group.variants) {
      const V* v = find(b);
      const bool planned =
          std::find_if(plan.begin(), plan.end(), [&](const auto& p) { return p.first == v; }) != plan.end();
      if (!planned && std::find(chosen.begin(), chosen.end(), v) == chosen.end()) plan.push_back({v, true});
    }
  }
  for (const V* v : chosen) plan.push_back({v, false});
  return plan;
}

// The block sizes to time variant v at: its default, every allowed one with --all-blocks, {0} for a
// variant without block sizes (the CPU).
template <class V>
std::vector<int> bench_blocks(const V& v, const Options& o) {
  if (v.blocks.empty()) return {0};
  if (o.bench_all_blocks) return std::vector<int>(v.blocks.begin(), v.blocks.end());
  return {v.default_block};
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

// A reason a row was not measured, in full the first time and then "the same reason as <the first
// row with it>" ("... as above" for that row's variant again, at another size), so that a long one (the
// driver's loader error on a machine without an NVIDIA GPU) is read once in a table or a progress log, not on
// every GPU rung.
class SameReason {
 public:
  std::string say(const std::string& reason, const std::string& who);

 private:
  std::vector<std::pair<std::string, std::string>> said_;  // reason, the first row that gave it
};

// The library lecture's note, one line a case where both were measured: the fastest of `ours` against
// each of `library` that ran, "histogram at 3840x2160 uniform: our best, hist-bank-private, is 6.2x
// hist-thrust-sort, 1.4x hist-cub". Rows with an error are left out.
std::vector<std::string> ours_against_library(const BenchSuite& suite, const std::vector<std::string>& ours,
                                              const std::vector<std::string>& library);

// Checks every target of the suite on its rows (format_bench prints these, bench_json has them).
std::vector<BenchTargetResult> check_targets(const BenchSuite& suite);
// `t` as it stands on `device` (a suite's device name): its OnCard entry for that card applied, if any.
BenchTarget target_on_device(const BenchTarget& t, std::string_view device);
// Adds to `t` the same threshold on `card` ("H200"), for a target the card does not move (a ratio
// within one run, a compute-, latency- or PCIe-bound rate): its text with its hint's name, the last
// "(H100...", read as "(" + card + ", " + why + ")".
void same_target_on(BenchTarget& t, const std::string& card, const std::string& why);
// The table (an "input" column when any row has one; the time a step in the HUD's words: a column
// "time per generation" of "18.2 µs" where every row's step is the same, else a column "time" of
// "18.2 µs per generation"), its notes and the target checks; run_bench prints it.
std::string format_bench(const BenchSuite& suite);
// Rows (with "input" and "speedup_vs_<label>"), baselines and targets with their results.
std::string bench_json(const BenchSuite& suite);
// Fills every row's speedups: its baseline's ms / its ms, per baseline group, within the same case.
void compute_speedups(BenchSuite& suite);

// The seed of a bench's random contents: --seed, else 42 (every run the same contents).
inline uint64_t bench_seed(const Options& o) { return o.seed.value_or(42); }

}  // namespace gpulab

#pragma once
// Benchmark mode: warm, synchronised timings (median of repeats) of every variant a demo registers,
// printed as a table with speedups against baselines measured in the same run, and as JSON.
#include <string>
#include <vector>

#include "core/cli.h"

namespace gpulab {

struct BenchRow {
  std::string demo, variant, block, device;
  int width = 0, height = 0;
  int steps = 0;    // generations (or steps) per timed repeat
  int repeats = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;  // per step
  double items_per_s = 0;                        // e.g. cell updates/s
  std::string item_unit;
  double gbps = 0;      // fewest bytes a step moves / time
  double pct_peak = 0;  // of the device's peak memory bandwidth (GPU rows)
  double speedup_vs_first_baseline = 0;   // e.g. over cpu-naive
  double speedup_vs_second_baseline = 0;  // e.g. over gpu-global
  bool baseline_only = false;  // measured as a baseline, not asked for
  std::string error;           // set when the row could not be measured
};

// A speed target the benchmark checks (targets live here, not in timed tests).
struct BenchTarget {
  std::string what;         // "gpu-bitpacked >= 9e12 cell updates/s at 32768²"
  std::vector<std::string> variants;  // any of these (the best is taken)
  int size = 0;
  double min_items_per_s = 0;
  std::string device_hint;  // the target's device, e.g. "H100"
};

struct BenchSuite {
  std::string demo;
  std::vector<std::string> baselines;  // speedups are over these, in order
  std::vector<BenchRow> rows;
  std::vector<BenchTarget> targets;
  double peak_bandwidth_gbps = 0;
  std::string device;
};

// Prints the table and the target checks; returns the text too (for tests).
std::string format_bench(const BenchSuite& suite);
std::string bench_json(const BenchSuite& suite);
void compute_speedups(BenchSuite& suite);

// Life's benchmark (app/demos/life/life_bench.cpp), reached through LifeDemo::bench.
BenchSuite bench_life(const Options& options);

// Runs the benchmark of the demo named by --demo, prints the table, writes --json.
int run_bench(const Options& options);

}  // namespace gpulab

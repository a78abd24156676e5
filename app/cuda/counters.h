#pragma once
// The GPU's own counters for one step of a variant, read through CUPTI's Range Profiler
// (cupti_range_profiler.h with the profiler host API, cupti_profiler_host.h): auto range (one range
// per kernel launch), one pass, no replay, the metric list below. An optional service: everything
// else works without it, and where it cannot measure it says why (no GPU, a CPU variant, counters
// restricted to administrators, another profiler attached, a build without CUPTI).
//
// The header is free of CUDA and CUPTI headers, and counters.cpp is compiled in every build: with
// CUPTI (GPULAB_HAVE_CUPTI) it measures, otherwise Counters::measure says why not. The arithmetic
// on the results (sums over kernels, the readings, the roofline) is CUDA-free and tested on the CPU.
#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuda/cupti_errors.h"

namespace gpulab::cuda {

// The metrics of one measurement. On the H100 these together need one pass (no replay).
enum class Metric : size_t {
  Duration,           // gpu__time_duration.sum: the kernel's own time on the GPU, ns
  DramRead,           // dram__bytes_read.sum, bytes
  DramWrite,          // dram__bytes_write.sum, bytes
  BankConflicts,      // l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum (extra shared wavefronts)
  WarpsActivePct,     // sm__warps_active.avg.pct_of_peak_sustained_active: achieved occupancy, %
  DramThroughputPct,  // dram__throughput.avg.pct_of_peak_sustained_elapsed, %
  SharedLoads,        // smsp__inst_executed_op_shared_ld.sum: warp-level shared load instructions
  L2Bytes,            // lts__t_bytes.sum: bytes through the L2 slices
  Ipc,                // sm__inst_executed.avg.per_cycle_active: warp instructions per cycle per SM
  SharedWavefronts,   // l1tex__data_pipe_lsu_wavefronts_mem_shared.sum: shared-memory passes (loads, stores,
                      // atomics); more than one a shared instruction is serialisation, atomics' included
  Count
};
inline constexpr size_t kMetricCount = static_cast<size_t>(Metric::Count);

// CUPTI's name of each metric, in Metric order.
inline constexpr std::array<const char*, kMetricCount> kMetricNames = {
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "smsp__inst_executed_op_shared_ld.sum",
    "lts__t_bytes.sum",
    "sm__inst_executed.avg.per_cycle_active",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
};

// One range: one kernel launch (auto range), or the sum of several (sum_kernels).
struct KernelCounters {
  std::string kernel;  // the kernel's name (shortened by short_kernel_name), or "all kernels"
  std::array<double, kMetricCount> values{};
  int launches = 1;
  double operator[](Metric m) const { return values[static_cast<size_t>(m)]; }
  double& operator[](Metric m) { return values[static_cast<size_t>(m)]; }
  double ms() const { return (*this)[Metric::Duration] * 1e-6; }
  double dram_bytes() const { return (*this)[Metric::DramRead] + (*this)[Metric::DramWrite]; }
};

// Launches summed: counts and durations add; the percentages and the IPC are averaged weighted by
// each launch's duration (what they would read over the whole step). Empty: zero launches.
KernelCounters sum_kernels(const std::vector<KernelCounters>& kernels);

// "life_step_shared<32>" from "_Z16life_step_sharedILi32EEvPKjPjii"-like range names: CUPTI's auto
// ranges are named after the kernel; a demangled name is cut at its parameter list, a mangled one
// demangled first.
std::string short_kernel_name(std::string_view range_name);

// One phase of a measurement and the host time it took.
struct Phase {
  std::string name;
  double ms = 0;
};

// Times consecutive phases: mark(name) closes the phase that began at the previous mark (or at
// construction). CUDA-free.
class PhaseTimer {
 public:
  PhaseTimer();
  void mark(std::string name);
  const std::vector<Phase>& phases() const { return phases_; }
  // The sum of the phases named in `names` (each may occur more than once).
  double sum(std::initializer_list<std::string_view> names) const;
  double total() const;

 private:
  std::vector<Phase> phases_;
  double last_ = 0;  // ms on a steady clock
};

// How a Counters object measures: what it keeps from one measurement to the next and the replay
// mode. The default keeps everything that does not profile (CUPTI's initialisation, the host
// object, the configuration image and the counter data image of the metric set, the callback
// subscriber, with its callbacks off between measurements) and enables the profiler for each
// measurement only. Chosen by name (parse_counters_strategy) from GPULAB_COUNTERS, for comparison:
//   main           as gpulab measured before: the counter data image made, the callbacks subscribed
//                  and kernel replay for each measurement (CUPTI and the configuration kept)
//   cold           nothing kept: every measurement a first one (CUPTI initialised and released)
//   kernel-replay  kernel replay even where the set needs one pass (default: user replay, one pass)
//   image-each     the counter data image made for each measurement
//   subscribe-each the callbacks subscribed for each measurement
//   keep-enabled   the profiler held enabled (not started) from one measurement to the next, until
//                  release(): only for back-to-back measurements (the demo's own steps are not
//                  measured, but run with the profiler enabled)
//   no-names       no callbacks: kernels are named "kernel N"
// Names combine with '+' or ','.
struct CountersStrategy {
  bool cold = false;
  bool kernel_replay = false;
  bool keep_data_image = true;
  bool keep_subscriber = true;
  bool keep_enabled = false;
  bool names = true;
  bool operator==(const CountersStrategy&) const = default;
};
// The strategy `spec` names ("" is the default); nullopt with `why` set for an unknown name.
std::optional<CountersStrategy> parse_counters_strategy(std::string_view spec, std::string* why);
// The strategy's names, "default" for the default.
std::string counters_strategy_name(const CountersStrategy& s);

// What a counter data image or a configuration image is made for: two measurements share an image
// only when all of these match. The metric names are in order (values are evaluated in that order).
struct CounterImageKey {
  int device = -1;
  std::string chip;
  std::vector<std::string> metrics;
  size_t max_ranges = 0;
  bool operator==(const CounterImageKey&) const = default;
};

// Images made once per key (a configuration image, a counter data image's initialised copy):
// get() makes one with `make` the first time a key is asked for and returns the kept copy after.
// CUDA-free, so its keying is tested on the CPU.
template <class Image>
class ImageCache {
 public:
  template <class Make>
  const Image& get(const CounterImageKey& key, Make&& make) {
    for (auto& [k, image] : entries_)
      if (k == key) return image;
    entries_.emplace_back(key, make());
    ++made_;
    return entries_.back().second;
  }
  void clear() { entries_.clear(); }
  size_t size() const { return entries_.size(); }
  size_t made() const { return made_; }  // images made since construction

 private:
  std::vector<std::pair<CounterImageKey, Image>> entries_;
  size_t made_ = 0;
};

// One measurement of one step.
struct CounterResult {
  std::string unavailable;              // why nothing was measured ("" when measured)
  std::vector<KernelCounters> kernels;  // one per launch, in launch order
  KernelCounters total;                 // sum_kernels(kernels)
  std::string device;                   // the device's name
  std::string chip;                     // CUPTI's chip name ("GH100")
  double host_ms = 0;                   // host time the measurement took (Start .. decoded)
  int passes = 0;                       // replay passes the metric set needs on this GPU (1: none)
  // Where host_ms went: preparing (first time: the configuration), enabling and configuring the
  // profiler, the profiled step (Start .. Stop), decoding and evaluating.
  double prepare_ms = 0, enable_ms = 0, step_ms = 0, decode_ms = 0;
  std::vector<Phase> phases;  // the finer phases, in order (init, chip, ... start, launch, sync, stop, ...)
  std::string strategy;       // counters_strategy_name of the strategy measured with
  bool first = false;         // this measurement prepared CUPTI (initialisation, host object, images)
  bool user_replay = false;   // measured in user replay (else kernel replay)
  bool ok() const { return unavailable.empty(); }
};

// Why this build has no counters ("" when it was built with CUPTI).
std::string counters_build_reason();

// The passes `metrics` need together on the chip CUPTI names `chip` ("GH100"), for the range profiler
// or (pm_sampling) PM sampling, from the profiler host API alone: no GPU needed. 0 with `why` set when
// it cannot tell (a build without CUPTI, a chip or a metric CUPTI does not know).
int metric_passes(const std::string& chip, const std::vector<std::string>& metrics, bool pm_sampling,
                  std::string* why);

// Reads the counters of one step. Not thread-safe: one measurement at a time, from one thread, with
// no other kernels launched on the device meanwhile (they would be counted too: auto range profiles
// every launch of the context). Holds CUPTI's profiler initialised and the configuration image for
// the device from the first measurement until it is destroyed.
class Counters {
 public:
  Counters();  // with the strategy GPULAB_COUNTERS names (the default where unset or unknown)
  explicit Counters(const CountersStrategy& strategy);
  ~Counters();
  Counters(const Counters&) = delete;
  Counters& operator=(const Counters&) = delete;

  // Measures the kernels `launch` starts (on any stream of the current device's primary context);
  // the device is synchronised before and after. Never throws for CUPTI's or the driver's errors:
  // the result's `unavailable` says why. `launch` may throw; that propagates after the profiler is
  // stopped and disabled.
  CounterResult measure(const std::function<void()>& launch);

  // "" when the counters can be read here, as far as can be told without measuring; else why not
  // (no device, no CUPTI in this build, a previous measurement's lasting failure).
  std::string unavailable() const;

  const CountersStrategy& strategy() const;
  // Disables a profiler kept enabled between measurements (keep-enabled); nothing otherwise.
  void release();

 private:
  CounterResult attempt(const std::function<void()>& launch, bool* launched);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpulab::cuda

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
#include <memory>
#include <string>
#include <string_view>
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
  Counters();
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

 private:
  CounterResult attempt(const std::function<void()>& launch, bool* launched);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpulab::cuda

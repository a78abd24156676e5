#pragma once
// Live meters: DRAM throughput and SM activity, device-wide, sampled by the GPU itself through CUPTI's
// PM sampling (cupti_pmsampling.h; one-pass counters, no replay) every interval, decoded on a
// background thread. An optional service like the counters (counters.h): where it cannot sample it
// says why (no GPU, a build without CUPTI, counters restricted to administrators, another profiler,
// a GPU without PM sampling) and everything else works.
//
// The header is free of CUDA and CUPTI headers and pm_sampler.cpp is compiled in every build: with
// CUPTI (GPULAB_HAVE_CUPTI) it samples, otherwise status() says why not. The history and the plots
// (presenter/meters.h) are CUDA-free and tested on the CPU.
#include <memory>
#include <string>
#include <vector>

namespace gpulab::cuda {

// CUPTI's names of the two meters, in MeterSample order.
inline constexpr const char* kMeterDramMetric = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* kMeterSmMetric = "sm__cycles_active.avg.pct_of_peak_sustained_elapsed";

struct MeterSample {
  double t_s = 0;       // the end of the sample on the GPU's clock, seconds
  double dram_pct = 0;  // DRAM throughput, % of the peak sustained over the sample
  double sm_pct = 0;    // SM activity: % of cycles the SMs had a warp resident
};

class PmSampler {
 public:
  // Samples the current device every `interval_ms` once started; decodes every `decode_ms`.
  explicit PmSampler(double interval_ms = 20, double decode_ms = 50);
  ~PmSampler();  // stops and joins the thread
  PmSampler(const PmSampler&) = delete;
  PmSampler& operator=(const PmSampler&) = delete;

  // Starts (or restarts after stop) sampling on a background thread; returns at once.
  void start();
  void stop();
  // The range profiler (counters.h) and PM sampling cannot both hold the GPU's counters:
  // request_pause() asks the thread to stop sampling and returns at once; holding() is true until
  // CUPTI has let go (the session stopped and disabled). pause() requests and waits (up to 1.5 s)
  // until it lets go; resume() starts again.
  void request_pause();
  bool holding() const;
  void pause();
  void resume();
  bool started() const;
  // True while status() is a failure (a lasting one, or a passing one the thread will try again).
  bool failed() const;

  // The samples decoded since the last take, oldest first (at most about a minute of them is kept).
  std::vector<MeterSample> take();
  // "" while sampling; else why not: "starting", "paused: the range profiler is measuring", "stopped",
  // or a failure in words a lecturer can act on (CUPTI's own error string included).
  std::string status() const;
  double interval_ms() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpulab::cuda

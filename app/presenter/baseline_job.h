#pragma once
// The HUD's CPU baseline, measured in the background: a probe of the baseline (the demo's own copy of
// its current input and a CPU engine, made on the main thread by Demo::probe) timed by the bench's
// code (bench_measure_probe) on a worker thread while the frames go on. So the speed-up is there soon
// after the HUD is turned on, without running the slow CPU variant live or pressing F5.
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/bench.h"
#include "core/demo.h"
#include "core/probe.h"

namespace gpulab::presenter {

class BaselineJob {
 public:
  // Starts timing `probe` (3 repeats, the median kept); `peaks` for the row's figures.
  BaselineJob(Probe probe, const BenchSuite& peaks);
  ~BaselineJob();  // cancels, and joins the worker (at most one timed repeat later)
  BaselineJob(const BaselineJob&) = delete;
  BaselineJob& operator=(const BaselineJob&) = delete;

  bool done() const { return done_.load(); }
  // When done: the time a step (the median of the repeats), or why there is none.
  std::optional<double> ms() const;
  std::string error() const;

 private:
  void work();

  Probe probe_;
  BenchSuite peaks_;
  mutable std::mutex mutex_;
  std::optional<double> ms_;
  std::string error_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::thread worker_;
};

// Calls `make` (a Demo::probe: on the main thread, where the demo may be read) and puts the threads
// it started (a CPU engine's worker pool) at the lowest priority, as the job's worker runs: the live
// frames, and the launches inside a timed GPU step, go first.
Probe make_probe_at_low_priority(const std::function<Probe()>& make);

// `picks` with each stage that has a CPU variant at its first one (the stage's baseline, as the ladder
// and the HUD take it), settled.
Picks baseline_picks(const StageTables& tables, Picks picks);

}  // namespace gpulab::presenter

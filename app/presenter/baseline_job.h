#pragma once
// The HUD's CPU baseline, measured in the background: a probe of the baseline (the demo's own copy of
// its current input and a CPU engine, made on the main thread by Demo::probe) timed by the bench's
// code (bench_measure_probe) on a worker thread while the frames go on. So the speed-up is there soon
// after the HUD is turned on, without running the slow CPU variant live or pressing F5.
//
// A baseline timed beside a live CPU demo is starved (at the lowest priority it got 1-2% of the
// cores and read 444x where the ladder says 1.55x). So where the live demo runs on the CPU the job
// asks for a hold: the frames go on drawing, the live step waits (at most kMaxHoldSeconds) while the
// baseline is timed alone. And whatever the hold, the job watches how long its thread waited for a
// core (the kernel's run-queue wait): more than kMaxWaitShare of the time, and the figure is only
// an approximation, which the HUD says ("≈"); more than kMaxApproximateShare (the time then reads
// a third too long or worse), and it is no figure at all: the HUD says why and that F5 measures it.
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

// The clocks the job reads on its own thread, in ms: wall time, and the time the thread has waited,
// runnable, for a core (by default /proc/thread-self/schedstat; empty or NaN: not known). Tests give
// their own.
struct BaselineClocks {
  std::function<double()> wall_ms;
  std::function<double()> waited_ms;
  static BaselineClocks system();
};

class BaselineJob {
 public:
  static constexpr double kMaxHoldSeconds = 3.0;        // the live demo holds at most this long
  static constexpr double kMaxWaitShare = 0.10;         // waited longer than this share: approximate
  static constexpr double kMaxApproximateShare = 0.25;  // ... than this: not measured
  static constexpr double kGrantTimeoutMs = 1000;       // a hold asked but not granted: timed anyway

  // Starts timing `probe` (3 repeats, the median kept); `peaks` for the row's figures. With
  // `hold_live`, the job asks for the hold (wants_hold) and times, at the normal priority, once it
  // is granted; without, at the lowest priority (a probe for it is made by make_probe_at_low_priority).
  BaselineJob(Probe probe, const BenchSuite& peaks, bool hold_live = false,
              BaselineClocks clocks = BaselineClocks::system());
  ~BaselineJob();  // cancels, and joins the worker (at most one timed repeat later)
  BaselineJob(const BaselineJob&) = delete;
  BaselineJob& operator=(const BaselineJob&) = delete;

  bool done() const { return done_.load(); }
  // When done: the time a step (the median of the repeats), or why there is none.
  std::optional<double> ms() const;
  std::string error() const;
  // When done and measured: the time was taken while the thread waited for a core more than
  // kMaxWaitShare of it, or without the hold it asked for.
  bool approximate() const { return approximate_.load(); }
  // When done: the median repeat's share of its time spent waiting for a core (0: none, or unknown).
  double wait_share() const { return wait_share_.load(); }
  // Main thread: true while the live step should wait (the hold is asked, or granted and not over).
  bool wants_hold() const;
  // Main thread, at the start of a frame (no live step in flight): the live step waits from now.
  void hold_granted();

 private:
  void work();
  bool wait_for_hold();

  Probe probe_;
  BenchSuite peaks_;
  mutable std::mutex mutex_;
  std::optional<double> ms_;
  std::string error_;
  std::atomic<bool> cancel_{false}, done_{false}, approximate_{false};
  std::atomic<double> wait_share_{0};
  const bool hold_live_;
  BaselineClocks clocks_;
  // The hold: 0 not asked, 1 asked, 2 granted, 3 over (timed, or kMaxHoldSeconds passed).
  std::atomic<int> hold_{0};
  std::atomic<double> granted_at_ms_{0};
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

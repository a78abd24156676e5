#pragma once
// The counters in the window: F3 (the key map's Counters action), the panel's "measure" button, or
// "measure every variant" queue measurements of the demo's variants; poll(), called between frames
// while the demo is idle, takes at most one from the queue each frame (so the window never waits for
// more than one), each through Demo::probe on a copy of the input (the demo's state is untouched).
// draw() shows the latest of each variant: every number with its one-line reading, the achieved
// occupancy beside the occupancy panel's theoretical figure, and the roofline of everything
// measured so far, and the live meters (DRAM throughput and SM activity over the last seconds, CUPTI's
// PM sampling). Where the counters or the meters cannot be read it says why.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/demo.h"
#include "cuda/counters.h"
#include "cuda/pm_sampler.h"
#include "presenter/counters_command.h"
#include "presenter/ladder_draw.h"
#include "presenter/meters.h"

namespace gpulab::presenter {

class CountersView {
 public:
  // Queues the current variant of every running stage (F3, "measure").
  void request_current(const Demo& demo);
  // Queues every GPU variant of every running stage, at its current or default block.
  void request_all(const Demo& demo);
  // Queues `pick` (block 0: its variant's default) for `demo` (the ladder's per-rung measure); a
  // variant already queued is not queued twice.
  void request(std::string_view demo, const Pick& pick);
  bool queued(const Pick& pick) const;
  // Between frames: measures the next queued variant, if any. Returns true when it measured. While
  // the live meters' sampler still holds the counters (it was asked to let go) it returns false and
  // the job waits for a later frame.
  bool poll(Demo& demo, const Context& ctx);
  bool busy() const { return !queue_.empty(); }
  // Forgets the results (another demo, another input size).
  void clear();

  // The panel's content (inside the current ImGui window).
  void draw(Demo& demo, const Context& ctx, float ui_scale, const ChartTheme& theme = ChartTheme::dark());

  const std::vector<CounterRow>& rows() const { return rows_; }
  const MeterHistory& meters() const { return meters_; }
  // The live meters' status: "" while sampling, else why not (cuda::PmSampler::status); "starting"
  // before the tab was first drawn.
  std::string meters_status() const { return sampler_ ? sampler_->status() : "starting"; }
  // True when meters_status() is a failure (cuda::PmSampler::failed).
  bool meters_failed() const { return sampler_ && sampler_->failed(); }
  // Why nothing can be measured here ("" when something may be).
  std::string unavailable(const Context& ctx) const { return counters_unavailable(counters_, ctx); }

 private:
  struct Job {
    std::string demo;  // the demo it was queued for (another demo's jobs are dropped)
    Pick pick;
  };
  // The live meters (DRAM throughput, SM activity) over the last seconds, from CUPTI's PM sampling
  // on a background thread, started when the panel is first drawn; paused around each measurement
  // (the range profiler and the sampler cannot hold the counters together).
  void draw_meters(float ui_scale);
  // Resumes the sampler when poll() paused it.
  void resume_sampler();

  cuda::Counters counters_;
  std::unique_ptr<cuda::PmSampler> sampler_;
  MeterHistory meters_;
  bool meters_on_ = true;
  bool sampler_paused_ = false;  // poll() asked the sampler to let go; it resumes when the queue empties
  std::deque<Job> queue_;
  std::vector<CounterRow> rows_;  // one per variant of a stage: the latest measurement
  std::string demo_name_;
  double last_host_ms_ = 0;
};

}  // namespace gpulab::presenter

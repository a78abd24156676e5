#pragma once
// The counters in the window: F3 (the key map's Counters action), the panel's "measure" button, or
// "measure every variant" queue measurements of the demo's variants; poll(), called between frames
// while the demo is idle, takes at most one from the queue each frame (so the window never waits for
// more than one), each through Demo::probe on a copy of the input (the demo's state is untouched).
// draw() shows the latest of each variant: every number with its one-line reading, the achieved
// occupancy beside the occupancy panel's theoretical figure, and the roofline of everything
// measured so far. Where the counters cannot be read it says why.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "core/demo.h"
#include "cuda/counters.h"
#include "presenter/counters_command.h"
#include "presenter/ladder_draw.h"

namespace gpulab::presenter {

class CountersView {
 public:
  // Queues the current variant of every running stage (F3, "measure").
  void request_current(const Demo& demo);
  // Queues every GPU variant of every running stage, at its current or default block.
  void request_all(const Demo& demo);
  // Queues variant `variant` of `stage` at `block` (0: its default) for `demo` (the ladder's per-rung
  // measure); a job already queued is not queued twice.
  void request(std::string_view demo, size_t stage, const std::string& variant, int block);
  bool queued(size_t stage, const std::string& variant) const;
  // Between frames: measures the next queued variant, if any. Returns true when it measured.
  bool poll(Demo& demo, const Context& ctx);
  bool busy() const { return !queue_.empty(); }
  // Forgets the results (another demo, another input size).
  void clear();

  // The panel's content (inside the current ImGui window).
  void draw(Demo& demo, const Context& ctx, float ui_scale, const ChartTheme& theme = ChartTheme::dark());

  const std::vector<CounterRow>& rows() const { return rows_; }
  // Why nothing can be measured here ("" when something may be).
  std::string unavailable(const Context& ctx) const { return counters_unavailable(counters_, ctx); }

 private:
  struct Job {
    std::string demo;  // the demo it was queued for (another demo's jobs are dropped)
    size_t stage = 0;
    std::string variant;
    int block = 0;
  };


  cuda::Counters counters_;
  std::deque<Job> queue_;
  std::vector<CounterRow> rows_;  // one per (stage, variant): the latest measurement
  std::string demo_name_;
  double last_host_ms_ = 0;
};

}  // namespace gpulab::presenter

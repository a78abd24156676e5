#pragma once
// The ladder in the window: F5 (or the panel's "compare all") starts a LadderRun on a worker thread
// and pauses the demo (the app calls none of its hooks while owns_demo()); each frame shows the
// chart as far as it is measured, a progress bar and the rung being measured; Esc cancels. When it
// is done the chart stays over the view until Esc or F5, with buttons to save it as a PNG slide and
// as CSV; the demo resumes where it was (the ladder only ever ran copies of its input).
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/demo.h"
#include "core/recorded.h"
#include "presenter/ladder.h"
#include "presenter/ladder_chart.h"
#include "presenter/ladder_draw.h"
#include "presenter/layout_report.h"

namespace gpulab::presenter {

class CountersView;

class LadderView {
 public:
  using Notify = std::function<void(std::string)>;

  // Starts measuring `demo` (attached); `best_block`: every allowed block, else the current ones.
  // Throws std::invalid_argument when the demo lists nothing to measure.
  void start(Demo& demo, const Context& ctx, bool best_block = true);
  // While measuring the demo must not be touched: no compute, render or ui.
  bool owns_demo() const { return run_ && !run_->done(); }
  bool visible() const { return run_ != nullptr; }
  bool done() const { return run_ && run_->done(); }
  // Esc: cancels a run, or closes a finished chart.
  void escape();
  void close() { run_.reset(); }

  // Draws the chart over the framebuffer (width × height pixels) with the progress line and the
  // buttons; `frame_ms` is the last frame's time (the worst is kept and reported). `fonts` gives the
  // app's fonts for the chart's text sizes (crisp TrueType, not a scaled bitmap); the saved PNG
  // follows `theme` too.
  // With `counters`, a finished chart shows each GPU rung's counters line under its bar (in the saved
  // PNG too) and a "measure counters" button there that queues that rung in `counters` (measured
  // between frames, as F3's are).
  // ChartStyle::Slide (projector mode): one panel as a slide (layout_slide), the whole pipeline's or
  // the lead stage's, another chosen in the strip; the saved PNG is that slide.
  void draw(float width, float height, float ui_scale, double frame_ms, const Notify& notify,
            const ChartFonts& fonts = {}, const ChartTheme& theme = ChartTheme::dark(),
            CountersView* counters = nullptr, ChartStyle style = ChartStyle::Detailed);

  // Figures recorded on a GPU (--results or the lesson's file; null: none): the chart (and its saved PNG)
  // shows them for the rungs that cannot run here, hatched and labelled (add_recorded). Copied.
  void set_recorded(const RecordedResults* recorded);
  // What the last draw showed (the layout report's ladder_chart).
  const LayoutReport::LadderShown& shown() const { return shown_; }

  // Saves the chart as a PNG of width × height (16:9) or the rungs as CSV; "" or the error.
  std::string save_png(const std::filesystem::path& path, int width, int height) const;
  std::string save_csv(const std::filesystem::path& path) const;
  std::vector<Rung> rungs() const { return run_ ? run_->rungs() : std::vector<Rung>{}; }
  double worst_frame_ms() const { return worst_frame_ms_; }
  int frames() const { return frames_; }
  // Once the run has ended: "ladder life: 15 frames while measuring, the slowest 40.2 ms".
  const std::string& measured_line() const { return measured_line_; }
  // The line, once, the first time it is asked for after the run ended ("" otherwise).
  std::string take_measured_line() {
    if (!measured_line_new_) return {};
    measured_line_new_ = false;
    return measured_line_;
  }

 private:
  ChartData chart() const;
  void draw_counter_actions(const ChartData& data, const ChartLayout& layout, float top);

  std::unique_ptr<LadderRun> run_;
  std::string demo_name_, demo_title_;
  const Context* ctx_ = nullptr;
  size_t stage_count_ = 0;
  CountersView* counters_ = nullptr;  // the app's, for the counters lines and the measure buttons
  double worst_frame_ms_ = 0;
  int frames_ = 0;
  bool reported_ = false;
  std::string measured_line_;
  bool measured_line_new_ = false;
  std::filesystem::path save_dir_ = "screenshots";
  ChartTheme theme_ = ChartTheme::dark();  // the look on screen, which the saved PNG keeps
  ChartStyle style_ = ChartStyle::Detailed;
  int slide_panel_ = -1;  // the slide chosen in the strip (-1: the default one)
  std::optional<RecordedResults> recorded_;
  LayoutReport::LadderShown shown_;
  int slide_shown(const ChartData& data) const;
};

}  // namespace gpulab::presenter

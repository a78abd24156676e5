#pragma once
// The presenter's elements (element.h): each feature one class with the hooks it needs. The shell
// registers them in one list (make_elements) and calls the hooks in that order; the modal ones (the
// ladder, the key list, the toasts) come last so that they are drawn above the rest.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "presenter/ab.h"
#include "presenter/baseline_job.h"
#include "presenter/code_panel.h"
#include "presenter/element.h"
#include "presenter/hud.h"

namespace gpulab::presenter {

class LadderView;
class LessonPlayer;
class Recorder;
struct CaptureBox;
class CountersView;

// F2: the heads-up display in its band along the bottom of the view.
class HudElement : public Element {
 public:
  static constexpr std::string_view kName = "hud";
  std::string_view name() const override { return kName; }
  bool on() const { return on_; }
  void set_on(bool on) { on_ = on; }
  const Hud& hud() const { return hud_; }
  bool measuring_baseline() const { return job_ != nullptr; }  // a CPU baseline in the background
  bool holds_step() const override { return job_ && job_->wants_hold(); }
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session& s, const Frame& f) override;
  // Headless with the HUD on: until its baseline is in (at most 30 s), then a refresh (0.6 s) so that
  // the last frame shows the speed-up.
  bool headless_busy(Session& s) override;
  void wants(Session& s, LayoutInput& in) override;
  void draw(Session& s, const ScreenLayout& l) override;
  void report(LayoutReport& r) const override { r.hud = shown_; }

 private:
  // The CPU baseline of the running case measured in the background (once a case): its job, and the
  // cases tried with why they failed ("" when measured).
  void background_baseline(Session& s, Demo& d, HudInput& in);

  bool on_ = false;
  Hud hud_;             // its reading, kept up to date while hidden (the CPU baseline)
  int ladder_fed_ = 0;  // the ladder run whose CPU baseline went to the HUD
  LayoutReport::Hud shown_;
  std::unique_ptr<BaselineJob> job_;
  HudCase job_case_;
  std::vector<std::pair<HudCase, std::string>> tried_;
  bool had_demo_ = false;                       // a frame with the demo to itself (a baseline could start)
  double waited_from_ = -1, settle_from_ = -1;  // the headless wait's times (steady seconds; -1: not yet)
};

// F4 (or a lesson step): the running kernel's code in the code column.
class CodeElement : public Element {
 public:
  static constexpr std::string_view kName = "code";
  std::string_view name() const override { return kName; }
  bool on() const { return on_; }
  void set_on(bool on) { on_ = on; }
  void show_stage(size_t stage) { stage_ = stage; }
  // The picks whose code is shown instead of the running ones (a lesson step's that cannot run here:
  // its own kernel, not the stand-in's); none: the running Setup's.
  // It holds while `running` runs (a pick changed in the panel ends it).
  void show_picks(std::optional<Picks> picks, Picks running) {
    picks_ = std::move(picks);
    picks_for_ = std::move(running);
  }
  // The lines a lesson step marks (1-based, inclusive; 0: none): they are scrolled to the top.
  void mark_lines(int first, int last) { mark_first_ = first, mark_last_ = last; }
  void mark_name(std::string name) { mark_name_ = std::move(name); }  // "// mark NAME" ... "// end mark"
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session&, const Frame&) override { shown_ = {}; }
  void wants(Session& s, LayoutInput& in) override;
  void draw(Session& s, const ScreenLayout& l) override;
  void report(LayoutReport& r) const override { r.code = shown_; }

 private:
  bool on_ = false;
  size_t stage_ = 0;
  std::optional<Picks> picks_;
  Picks picks_for_;
  int mark_first_ = 0, mark_last_ = 0;
  std::string mark_name_;
  CodePanelCache cache_;
  CodePanelShown shown_;
};

// A window's clip (F9): 16:9, what it shows scaled to fit.
inline constexpr int kWindowClipWidth = 1920, kWindowClipHeight = 1080;

// A headless recording's frame drawn at `now` (steady seconds): no display paces the run, so it waits
// `wait_s` for the clip's next slot as a 30 Hz display would, and a frame drawn later than that goes
// in the slot of the time it was drawn, the frame before it held meanwhile. So the clip lasts as long
// as the recording (90 frames that took 5.3 s play 5.3 s) and never loses a frame. `t0`: the first
// frame's time (none: this is the first, slot 0); `last_slot`: the previous frame's.
struct HeadlessStamp {
  int64_t slot = 0;
  double wait_s = 0;
};
HeadlessStamp headless_stamp(double now, std::optional<double> t0, int64_t last_slot, int fps);

// F9 / --record: a clip of the view (with_ui: of the whole window), its frames stamped with the time
// they were shown; the red dot drawn after the frame is read back.
class RecorderElement : public Element {
 public:
  static constexpr std::string_view kName = "recorder";
  RecorderElement();
  ~RecorderElement() override;
  std::string_view name() const override { return kName; }
  bool recording() const;
  // The whole window (panel, HUD, captions) in the clip instead of the view only (the default).
  bool with_ui() const { return with_ui_; }
  void set_with_ui(bool on) { with_ui_ = on; }
  // Starts a clip of w x h frames (lossless for a headless capture): "" or why not.
  std::string start(const std::filesystem::path& out, int w, int h, bool lossless, Session& s);
  std::string stop();  // the line saying what was written, or "recording failed: ..."
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void laid_out(Session& s, const ScreenLayout& l) override;
  // The clip reads the frame before the notices are drawn over it; the red dot comes after.
  void before_notices(Session& s, unsigned fbo, int w, int h, bool headless) override;
  void after_frame(Session& s, unsigned fbo, int w, int h, bool headless) override;
  void report(LayoutReport& r) const override { r.recording = recording(); }

 private:
  // The part of a w x h framebuffer the clip shows (GL pixels, origin at the bottom left).
  CaptureBox box(int w, int h) const;
  std::unique_ptr<Recorder> recorder_;
  bool red_dot_left_ = false;  // the lesson band is on: the dot moves left of its progress line
  bool with_ui_ = false;
  bool headless_ = false;
  int64_t headless_frames_ = 0;  // a headless recording's frames so far, and when the first was drawn
  double headless_t0_ = 0;
  int64_t headless_slot_ = 0;  // the clip's slot of the last frame
  Rect view_, display_;        // the last frame's layout (window points)
};

// F8 or a lesson step with two variants: the running demo (A) and a fresh one (B) side by side in
// the view's halves. F8 again ends it on the pick that ran before it.
class AbElement : public Element {
 public:
  static constexpr std::string_view kName = "ab";
  AbElement();
  ~AbElement() override;
  std::string_view name() const override { return kName; }
  bool running() const { return ab_ != nullptr; }
  const Demo* b_demo() const { return ab_ ? &ab_->b() : nullptr; }  // the B half
  // A becomes the running demo (started afresh from `a`), B = `b` beside it: false and *why if not.
  bool start(Session& s, const Setup& a, const Setup& b, std::string* why);
  // B beside the running demo (already running `a_asked`, or what it fell back to).
  bool start_b(Session& s, const Setup& a_asked, const Setup& b, std::string* why);
  void stop() { ab_.reset(); }
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session&, const Frame&) override { shown_ = {}; }
  void wants(Session& s, LayoutInput& in) override { in.ab = running(); }
  bool compute(Session& s, Frame& f) override;
  bool render(Session& s, Frame& f, unsigned target_fbo) override;
  void draw(Session& s, const ScreenLayout& l) override;
  void demo_replaced(Session&) override { stop(); }
  void report(LayoutReport& r) const override { r.ab = shown_; }

 private:
  std::unique_ptr<AbCompare> ab_;
  std::optional<Setup> before_;  // what ran before F8 started it (F8 ends on it)
  AbShown shown_;
};

// F5: the speed-up ladder over the screen; it holds the demo while it measures.
class LadderElement : public Element {
 public:
  static constexpr std::string_view kName = "ladder";
  LadderElement();
  ~LadderElement() override;
  std::string_view name() const override { return kName; }
  void start(Session& s);
  bool visible() const;
  bool measuring() const;  // a run is under way (it owns the demo)
  bool done() const;
  int run() const { return runs_; }  // counts the runs started
  const LadderView* view() const { return ladder_.get(); }
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  bool holds_demo() const override { return visible(); }
  void draw(Session& s, const ScreenLayout& l) override;
  void demo_replaced(Session&) override;
  void report(LayoutReport& r) const override;
  bool headless_busy(Session&) override { return measuring(); }
  void headless_done(Session& s) override;  // the frames drawn while it measured

 private:
  std::unique_ptr<LadderView> ladder_;
  int runs_ = 0;
  double last_frame_ = 0;
};

// F3 / the Counters tab: CUPTI counters of the running variant (of every rung over the ladder), the
// live meters. The one owner of the CountersView.
class CountersElement : public Element {
 public:
  static constexpr std::string_view kName = "counters";
  CountersElement();
  ~CountersElement() override;
  std::string_view name() const override { return kName; }
  CountersView& view();
  void start(Session& s);  // F3
  // --start-counters: start() once the ladder no longer holds the demo (at once where none runs).
  void start_when_free() { pending_start_ = true; }
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session& s, const Frame& f) override;  // polls the queue; the tab's report restarts
  const char* tab() const override { return "Counters"; }
  bool tab_to_front() override { return std::exchange(to_front_, false); }
  void tab_ui(Session& s) override;
  void report(LayoutReport& r) const override { r.counters = shown_; }
  // Headless after --start-counters: until the measurement is done and the meters hold a second of
  // samples, or it is unavailable (at most 10 s from its start); then what was measured.
  bool headless_busy(Session& s) override;
  void headless_done(Session& s) override;

 private:
  std::unique_ptr<CountersView> view_;
  bool to_front_ = false;
  bool pending_start_ = false;
  double started_at_ = -1;  // when start_when_free started it (steady seconds; -1: it did not)
  LayoutReport::CountersShown shown_;
};

// PageDown / PageUp (a clicker) and the Lesson tab: a lecture's steps, each a Setup, its caption in
// the lesson band, the presenter's notes in the panel only.
class LessonElement : public Element {
 public:
  static constexpr std::string_view kName = "lesson";
  LessonElement();
  ~LessonElement() override;
  std::string_view name() const override { return kName; }
  bool open() const { return player_ != nullptr; }
  const LessonPlayer* player() const { return player_.get(); }
  double opened_at() const { return opened_at_; }
  bool open_file(Session& s, const std::filesystem::path& path, int first_step, std::string* error);
  void go_to_step(Session& s, int k);
  void close();
  void forget_input();  // the running demo no longer holds the last step's input: the next starts afresh
  // The step shown asks for a variant this machine cannot run: what it asked for and what stands in
  // (the stage's CPU default, the same at every such step).
  struct StandIn {
    std::string asked, running;  // ids
    std::string why;             // why the asked one cannot run here
    bool no_gpu = false;         // because there is no CUDA device
    std::string recorded_row;    // the bench's row for what was asked (Demo::recorded_row)
  };
  const std::optional<StandIn>& stand_in() const { return stand_in_; }
  // The figures of the results file the lesson names (`results`), read when it opens and when it is
  // reloaded; null when it names none or it does not read (recorded_error() says why). The Session's
  // recorded() gives them where --results gave none.
  const RecordedResults* recorded() const { return recorded_ ? &*recorded_ : nullptr; }
  const std::string& recorded_error() const { return recorded_error_; }
  double results_read_s() const { return results_read_s_; }  // the last read of the lesson's results file
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session& s, const Frame& f) override;  // what the report says of the step shown
  void wants(Session& s, LayoutInput& in) override;
  void draw(Session& s, const ScreenLayout& l) override;
  const char* tab() const override { return "Lesson"; }
  bool tab_to_front() override { return std::exchange(to_front_, false); }
  void tab_ui(Session& s) override;
  void report(LayoutReport& r) const override;

 private:
  std::unique_ptr<LessonPlayer> player_;
  double opened_at_ = 0;  // when it was opened (the presenter's clock)
  bool to_front_ = false;
  char path_input_[1024] = {};
  std::optional<std::vector<std::filesystem::path>> shipped_;  // listed on the tab's first draw
  LayoutReport::LessonShown shown_;
  bool notes_shown_ = false;
  std::optional<StandIn> stand_in_;
  std::optional<RecordedResults> recorded_;
  std::string recorded_error_;
  double results_read_s_ = 0;
  void read_results(Session& s);
};

// Ctrl+P: a spotlight on the view where the mouse points: the rest of the picture dimmed, a ring
// around the spot (the projected window's mouse; a clicker's laser is not always visible on a screen).
class PointerElement : public Element {
 public:
  static constexpr std::string_view kName = "pointer";
  std::string_view name() const override { return kName; }
  bool on() const { return on_; }
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session&, const Frame& f) override;
  void draw(Session& s, const ScreenLayout& l) override;
  void report(LayoutReport& r) const override { r.pointer = shown_; }
  // Moved from the presenter's window: (u, v) in [0, 1]² of the projected view. It stays there until
  // the mouse moves on the projected window.
  void point_at(float u, float v);
  // Where it points now, as (u, v) of the view; none while off or off the picture.
  std::optional<std::pair<float, float>> spot() const;

 private:
  bool on_ = false;
  float x_ = -1, y_ = -1;  // the mouse, window points (-1: not over the window)
  bool from_pad_ = false;  // placed from the presenter's pad, at (u_, v_) of the view
  float u_ = 0, v_ = 0;
  Rect view_;  // the view it was last drawn in
  LayoutReport::Pointer shown_;
};

// F1 / ?: every key of the app and the running demo, above everything.
class HelpElement : public Element {
 public:
  static constexpr std::string_view kName = "help";
  std::string_view name() const override { return kName; }
  bool on() const { return on_; }
  void set_on(bool on) { on_ = on; }
  bool key(Session& s, KeyAction a, const KeyPress& k) override;
  void frame(Session&, const Frame&) override { shown_ = {}; }
  void draw(Session& s, const ScreenLayout& l) override;
  Layer layer() const override { return Layer::Modal; }
  bool modal_shown() const override { return on_; }
  void report(LayoutReport& r) const override { r.help = shown_; }

 private:
  bool on_ = false;
  LayoutReport::Help shown_;
};

// The notices, one layer above everything (the ladder included): the same text said again is
// counted, not stacked; they fade after kSeconds and never move the panel's controls.
class ToastsElement : public Element {
 public:
  static constexpr std::string_view kName = "toasts";
  static constexpr double kSeconds = 8.0;
  std::string_view name() const override { return kName; }
  ToastsElement();
  ~ToastsElement() override;
  void frame(Session&, const Frame&) override;
  void draw(Session& s, const ScreenLayout& l) override;
  Layer layer() const override { return Layer::Notice; }
  // The toasts are a draw list of their own, rendered over the frame after a clip has read it.
  const ImDrawList* drawn_above() const override { return shown_.shown ? list_.get() : nullptr; }
  void report(LayoutReport& r) const override { r.toasts = shown_; }

 private:
  LayoutReport::Toasts shown_;
  std::unique_ptr<ImDrawList> list_;
};

// Every element, in the order the shell calls them.
std::vector<std::unique_ptr<Element>> make_elements();

// The variants that run: `d`'s active stages' (A, the running demo), then in A/B the B half's that A
// does not run (its compared rung). What the lesson reports and `--check` lists as running.
std::vector<std::string> running_variants(const Demo* d, const AbElement* ab);

}  // namespace gpulab::presenter

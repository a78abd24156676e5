#pragma once
// The presenter's features as elements beside the app (as nvpro_core2 stacks its IAppElements): the
// HUD, the ladder, the counters, the lesson player, A/B, the code panel, the recorder, the list of keys
// and the toasts are each one class with the same few hooks, registered in one list by the shell.
// An element reaches the running demo, its Setup, the timings and the device through the Session,
// and another element through the Session's registry; never through the shell's App.
#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include "core/demo.h"
#include "core/keymap.h"
#include "core/recorded.h"
#include "core/setup.h"
#include "core/timings.h"
#include "presenter/layout_report.h"
#include "presenter/screen_layout.h"

struct ImDrawList;

namespace gpulab {
namespace cuda {
struct DeviceInfo;
}
namespace ui {
struct Fonts;
}
}  // namespace gpulab

namespace gpulab::presenter {

class Element;

struct KeyPress {
  int key = 0;
  int mods = 0;
  bool repeat = false;
};

// How the presenter draws this frame.
struct Look {
  const ui::Fonts* fonts = nullptr;
  bool light = false;      // the light theme
  bool projector = false;  // projector mode
  float ui_scale = 1;
  bool notes = true;  // the presenter's notes may be drawn here (never on a projected screen)
};

// A notice for the toasts (and stderr): its text and when it was said (steady seconds).
struct Notice {
  std::string text;
  double time = 0;
  int count = 1;                  // the same text said again while shown: counted, not stacked
  unsigned long long serial = 0;  // the order it was first said in
};

// Playback, shared by the panel's buttons, the keys and the elements (a lesson step plays).
struct Playback {
  bool playing = true;
  int steps_per_frame = 1;
  bool step_once = false;
  bool reset = false;
};

class Session {
 public:
  virtual ~Session() = default;
  // The running demo: null while none is attached (it could not start).
  virtual Demo* demo() = 0;
  virtual const Setup& setup() const = 0;  // what it runs
  virtual Timings& timings() = 0;          // its timings this session
  virtual const Context& context() const = 0;
  virtual const cuda::DeviceInfo* device() const = 0;  // null without a CUDA device
  virtual const Options& options() const = 0;          // the command line
  virtual const Look& look() const = 0;
  virtual Playback& playback() = 0;
  virtual double now() const = 0;             // steady seconds
  virtual int framebuffer_width() const = 0;  // the window's (or the headless target's), pixels
  virtual int framebuffer_height() const = 0;

  // Figures recorded on a GPU (--results), shown where a variant cannot run here; null when none.
  virtual const RecordedResults* recorded() const = 0;
  // Said on screen (a toast) and on stderr.
  virtual void notify(std::string line) = 0;
  virtual const std::deque<Notice>& notices() const = 0;
  // On stderr only: what the screen says already (a lesson band's line).
  virtual void log(const std::string& line) = 0;
  // The notices said so far (a mark), and the toasts of those said after `mark` taken away (they stay on
  // stderr): a lesson step whose band says why the demo fell back drops the demo's own notice of it.
  virtual unsigned long long notices_said() const = 0;
  virtual void drop_notices_after(unsigned long long mark) = 0;
  // Runs `fn`; an exception is shown as a notice naming `phase` and the demo pauses (the app goes on).
  virtual void guarded(const char* phase, const std::function<void()>& fn) = 0;

  // What runs. change_picks: the running demo takes `next` (a copy of its Setup with other picks), or
  // the Setup stays and *why says why. start: a fresh demo running `setup` replaces the running one
  // (every element hears demo_replaced first); "" or why not. configure_fresh: binds a fresh demo to
  // `setup` and configures it for a run that writes nothing; "" or why not.
  virtual bool change_picks(const Setup& next, std::string* why) = 0;
  virtual std::string start(const Setup& setup) = 0;
  virtual std::string configure_fresh(Demo& demo, const Setup& setup) = 0;

  // The registry: the element named `name`, or null.
  virtual Element* element(std::string_view name) = 0;
  template <class E>
  E* find() {
    return dynamic_cast<E*>(element(E::kName));
  }
};

class Element {
 public:
  virtual ~Element() = default;
  virtual std::string_view name() const = 0;
  // A shell key bound to a presenter action (core/keymap.h): true when this element took it.
  virtual bool key(Session&, KeyAction, const KeyPress&) { return false; }
  // Every frame, before the demo computes.
  virtual void frame(Session&, const Frame&) {}
  // While true the demo is left alone (its copies are measured) and this element has the screen.
  virtual bool holds_demo() const { return false; }
  // While true the demo's step waits (it computes as if paused, and draws): a CPU baseline is timed
  // alone on the cores the live step would take.
  virtual bool holds_step() const { return false; }
  // Its part of the layout's input (the regions it needs, their sizes).
  virtual void wants(Session&, LayoutInput&) {}
  // Its own compute and render of the view instead of the demo's (A/B): true when it did them.
  virtual bool compute(Session&, Frame&) { return false; }
  virtual bool render(Session&, Frame&, unsigned target_fbo) { return false; }
  // Every frame, once the screen is laid out, whatever is drawn (a blank, a modal).
  virtual void laid_out(Session&, const ScreenLayout&) {}
  // Draws inside its region of `layout`, on its layer.
  virtual void draw(Session&, const ScreenLayout&) {}
  // The layer its drawing belongs to. Overlay: over the picture (the HUD, bands, code, A/B), not drawn
  // while the view is blanked (B / W) or a modal is shown. Modal: a window over everything but the
  // notices (the keys, F1), drawn while modal_shown(). Notice: the toasts, above everything but a blank;
  // part of the UI (H hides them, a screenshot without the UI leaves them out).
  enum class Layer { Overlay, Modal, Notice };
  virtual Layer layer() const { return Layer::Overlay; }
  virtual bool modal_shown() const { return false; }
  // The panel's tab it owns (null: none), whether it asks to be in front, and its contents.
  virtual const char* tab() const { return nullptr; }
  virtual bool tab_to_front() { return false; }
  virtual void tab_ui(Session&) {}
  // Its drawing kept apart from the frame's ImGui draw data (the notices): the shell renders it after
  // before_notices, so that a clip leaves it out. Null: none this frame.
  virtual const ImDrawList* drawn_above() const { return nullptr; }
  // The frame is drawn but for drawn_above's lists: `fbo` (w x h pixels) holds it (a clip reads it).
  virtual void before_notices(Session&, unsigned fbo, int w, int h, bool headless) {}
  // After the frame is drawn, before it is shown: `fbo` (w x h pixels) holds it.
  virtual void after_frame(Session&, unsigned fbo, int w, int h, bool headless) {}
  // The running demo is about to be replaced or detached: end what belongs to it.
  virtual void demo_replaced(Session&) {}
  // What it showed on the last frame.
  virtual void report(LayoutReport&) const {}
  // A headless run (--headless) renders frames, paced as a 60 Hz display paces them, while any element
  // is busy, before its --frames: the ladder measuring (--start-ladder), the counters and their meters
  // (--start-counters), the HUD's CPU baseline and a refresh with it. Each keeps its own time limit.
  // Then headless_done: its line on stderr.
  virtual bool headless_busy(Session&) { return false; }
  virtual void headless_done(Session&) {}
};

}  // namespace gpulab::presenter

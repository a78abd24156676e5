// The elements that run something beside the demo or instead of it: the recorder, A/B, the ladder and
// the counters (elements.h).
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "common/cuda_probe.h"
#include "common/text.h"
#include "gl/gl.h"
#include "gl/image_io.h"
#include "presenter/counters_view.h"
#include "presenter/elements.h"
#include "presenter/ladder.h"
#include "presenter/ladder_draw.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson_player.h"
#include "presenter/recorder.h"
#include "ui/fonts.h"

namespace gpulab::presenter {

// --- recorder ----------------------------------------------------------------------------------

RecorderElement::RecorderElement() = default;
RecorderElement::~RecorderElement() {
  if (recording()) {
    try {
      std::fprintf(stderr, "gpulab: %s\n", recorder_->stop().c_str());
    } catch (...) {
    }
  }
}

bool RecorderElement::recording() const { return recorder_ && recorder_->recording(); }

std::string RecorderElement::start(const std::filesystem::path& out, int w, int h, bool lossless,
                                   Session& s) {
  if (!recorder_) recorder_ = std::make_unique<Recorder>();
  headless_frames_ = 0;
  headless_slot_ = 0;
  const std::string err = recorder_->start(out, w, h, kClipFps, lossless);
  if (err.empty()) s.notify(recorder_->message());
  return err;
}

HeadlessStamp headless_stamp(double now, std::optional<double> t0, int64_t last_slot, int fps) {
  if (!t0) return {0, 0.0};
  // The next slot's start, waited for as a display would; a frame drawn later is in the slot of the
  // time it was drawn (the frame before it held meanwhile).
  const double next = *t0 + static_cast<double>(last_slot + 1) / fps;
  if (now < next) return {last_slot + 1, next - now};
  return {std::max(last_slot + 1, ClipTimeline::slot(now - *t0, fps)), 0.0};
}

std::string RecorderElement::stop() {
  if (!recording()) return {};
  if (headless_) return recorder_->stop();  // the last frame one slot: the run ends as it is drawn
  // The last frame stays in the clip until now: a clip lasts as long as its recording.
  return recorder_->stop(
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

CaptureBox RecorderElement::box(int w, int h) const {
  if (with_ui_ || view_.empty() || display_.empty()) return {};
  // The view in framebuffer pixels (the layout is in window points), GL's y up.
  const double sx = w / static_cast<double>(display_.width()),
               sy = h / static_cast<double>(display_.height());
  const int x0 = std::clamp(static_cast<int>(std::lround(view_.x0 * sx)), 0, w);
  const int x1 = std::clamp(static_cast<int>(std::lround(view_.x1 * sx)), 0, w);
  const int y0 = std::clamp(static_cast<int>(std::lround(view_.y0 * sy)), 0, h);
  const int y1 = std::clamp(static_cast<int>(std::lround(view_.y1 * sy)), 0, h);
  if (x1 <= x0 || y1 <= y0) return {};
  return {x0, h - y1, x1 - x0, y1 - y0};
}

bool RecorderElement::key(Session& s, KeyAction a, const KeyPress&) {
  if (a != KeyAction::Record) return false;
  if (recording()) {
    s.notify(stop());
    return true;
  }
  try {
    const std::string demo = s.demo() ? std::string(s.demo()->name()) : std::string("app");
    const std::filesystem::path out = gl::unique_screenshot_path("recordings", "gpulab-" + demo, ".mp4");
    // A clip for a slide is 16:9 at 1920x1080, whatever the window's size: what it shows (the view, or
    // the window) scaled to fit, centred (Recorder::capture).
    // A window never waits for the encoder: a frame that finds it behind is dropped and counted.
    if (const std::string err = start(out, kWindowClipWidth, kWindowClipHeight, false, s); !err.empty())
      s.notify("cannot record: " + err);
  } catch (const std::exception& e) {
    s.notify(std::string("cannot record: ") + e.what());
  }
  return true;
}

void RecorderElement::laid_out(Session&, const ScreenLayout& l) {
  view_ = l.view;  // (A/B's halves are inside it)
  display_ = l.display;
}

void RecorderElement::before_notices(Session& s, unsigned fbo, int w, int h, bool headless) {
  if (!recording()) return;
  headless_ = headless;
  double t = s.now();
  if (headless) {
    const HeadlessStamp st =
        headless_stamp(t, headless_frames_++ == 0 ? std::nullopt : std::optional(headless_t0_),
                       headless_slot_, recorder_->fps());
    if (st.wait_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(st.wait_s));
    if (headless_frames_ == 1) headless_t0_ = t;
    headless_slot_ = st.slot;
    t = headless_t0_ + static_cast<double>(st.slot) / recorder_->fps();
  }
  const CaptureBox b = box(w, h);
  s.guarded("record", [&] { recorder_->capture(fbo, t, b); });
}

void RecorderElement::after_frame(Session& s, unsigned, int w, int h, bool headless) {
  if (!recording() || headless) return;  // a headless clip is all there is to see
  // The red dot, after the read-back: a disc of scissored clears. The clear colour, the scissor box
  // and the scissor test it changes are put back as they were, so the frame's draw state is as before.
  const LessonElement* lesson = s.find<LessonElement>();
  const int r = std::max(6, h / 80);
  const int cx = w - 3 * r - (lesson && lesson->open() ? w / 3 : 0),
            cy = h - 3 * r;  // top right (GL's y is up), left of the lesson line
  GLfloat clear_color[4] = {};
  GLint scissor_box[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_color);
  glGetIntegerv(GL_SCISSOR_BOX, scissor_box);
  const GLboolean scissor_test = glIsEnabled(GL_SCISSOR_TEST);
  glEnable(GL_SCISSOR_TEST);
  glClearColor(0.9f, 0.05f, 0.05f, 1.0f);
  for (int dy = -r; dy <= r; ++dy) {
    const int half = static_cast<int>(std::sqrt(static_cast<double>(r * r - dy * dy)));
    glScissor(cx - half, cy + dy, 2 * half + 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glClearColor(clear_color[0], clear_color[1], clear_color[2], clear_color[3]);
  glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
  if (!scissor_test) glDisable(GL_SCISSOR_TEST);
}

// --- A/B ---------------------------------------------------------------------------------------

AbElement::AbElement() = default;
AbElement::~AbElement() = default;

bool AbElement::start(Session& s, const Setup& a, const Setup& b, std::string* why) {
  stop();
  if (std::string bad = s.start(a); !bad.empty()) {
    *why = bad;
    return false;
  }
  return start_b(s, a, b, why);
}

bool AbElement::start_b(Session& s, const Setup& a_asked, const Setup& b, std::string* why) {
  stop();
  Demo* d = s.demo();
  if (!d) {
    *why = "the A half did not start";
    return false;
  }
  auto ab = std::make_unique<AbCompare>(b, make_demo(b.demo));
  if (std::string bad = ab->configure(options_without_outputs(s.options().cpu)); !bad.empty()) {
    *why = bad;
    return false;
  }
  try {
    ab->attach(s.context());
  } catch (const std::exception& e) {
    *why = "cannot start the B half: " + std::string(e.what());
    return false;
  }
  // Both must run what was asked: a pick that cannot run here would make the halves the same.
  const StageTables& t = d->stage_tables();
  const size_t f = b.focus.value_or(0);  // the stage whose pick B changed
  const std::string a_id(variant_of(t, a_asked.picks.at(f)).id), b_id(variant_of(t, b.picks.at(f)).id);
  for (const auto& [want, running] :
       {std::pair{a_asked.picks[f], s.setup().picks.at(f)}, std::pair{b.picks[f], ab->setup().picks.at(f)}}) {
    if (want.variant != running.variant) {
      *why = std::string(variant_of(t, want).id) + " cannot run here (" +
             s.context().interop_unavailable_reason() + "): no A/B of " + a_id + " and " + b_id;
      return false;
    }
  }
  ab_ = std::move(ab);
  if (LessonElement* lesson = s.find<LessonElement>()) lesson->forget_input();  // the next step starts afresh
  s.playback().playing = true;
  return true;
}

bool AbElement::key(Session& s, KeyAction a, const KeyPress&) {
  if (a != KeyAction::AB) return false;
  if (ab_) {
    // F8 again: the A half goes back to what ran before A/B started.
    stop();
    std::string line = "A/B ended";
    if (before_ && s.demo() && s.setup().demo == before_->demo) {
      Setup next = s.setup();
      next.picks = before_->picks;
      std::string why;
      if (s.change_picks(next, &why))
        line += ": back to " +
                std::string(variant_of(s.demo()->stage_tables(), next.picks.at(s.demo()->lead_stage())).id);
      else
        line += "; " + why;
    }
    before_.reset();
    s.notify(line);
    return true;
  }
  Demo* d = s.demo();
  if (!d) return true;
  const std::vector<Stage> stages = d->stages();
  const size_t lead = d->lead_stage();
  if (lead >= stages.size()) return true;
  // The lead stage: its first variant that runs here (the baseline) against the one running now, or,
  // when the baseline is running, against the next one that runs.
  const Stage& st = stages[lead];
  std::vector<int> runnable;
  for (size_t i = 0; i < st.variants.size(); ++i)
    if (st.variants[i].available) runnable.push_back(static_cast<int>(i));
  if (runnable.size() < 2) {
    s.notify("A/B needs two variants of " + std::string(st.title) + " that can run here; " +
             std::to_string(runnable.size()) + " can (" + s.context().interop_unavailable_reason() + ")");
    return true;
  }
  // A: what runs now (the lesson step's or the command line's input, the picks as they are) with the
  // baseline picked; B = A with the other variant picked.
  const StageTables& t = d->stage_tables();
  const Setup running = s.setup();
  const AbSetups h = ab_setups(t, running, lead, runnable.front(),
                               st.variant != runnable.front() ? st.variant : runnable[1]);
  const std::string a_id(variant_of(t, h.a.picks[lead]).id), b_id(variant_of(t, h.b.picks[lead]).id);
  std::string why;
  if (start(s, h.a, h.b, &why)) {
    before_ = running;
    s.notify("A/B: " + a_id + " | " + b_id + " (F8 ends it)");
  } else {
    s.notify("A/B: " + why);
  }
  return true;
}

namespace {
// A half of the view (framebuffer pixels): its own frame, as wide as the half, its input relative to it.
Frame half_frame(const Frame& f) {
  Frame half = f;
  half.width = std::max(1, f.view.w / 2);
  half.height = std::max(1, f.view.h);
  half.view = {0, 0, half.width, half.height};
  half.input.mouse_x = std::fmod(std::max(0.0f, f.input.mouse_x - static_cast<float>(f.view.x)),
                                 static_cast<float>(half.width));
  half.input.mouse_y = f.input.mouse_y - static_cast<float>(f.view.y);
  return half;
}
}  // namespace

bool AbElement::compute(Session& s, Frame& f) {
  if (!ab_ || !s.demo()) return false;
  // Both halves get the same frame, as wide as a half: the same steps, time and input keep them in step.
  ab_->timings().collect();
  Frame half = half_frame(f);
  s.guarded("compute", [&] { s.demo()->compute(half); });
  Frame hb = half_frame(f);
  s.guarded("A/B compute", [&] { ab_->b().compute(hb); });
  return true;
}

bool AbElement::render(Session& s, Frame& f, unsigned target) {
  if (!ab_ || !s.demo()) return false;
  const Frame half = half_frame(f);
  ab_->size_halves(half.width, half.height);
  Demo* sides[2] = {s.demo(), &ab_->b()};
  for (int i = 0; i < 2; ++i) {
    glBindFramebuffer(GL_FRAMEBUFFER, ab_->half(i).id());
    glViewport(0, 0, half.width, half.height);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    Frame fi = half;
    s.guarded(i == 0 ? "render" : "A/B render", [&] { sides[i]->render(fi); });
  }
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, f.width, f.height);
  // GL's y is up: the view's bottom edge in GL rows.
  const int y0 = f.height - (f.view.y + f.view.h);
  for (int i = 0; i < 2; ++i) {
    const int x = f.view.x + i * half.width;
    glBlitNamedFramebuffer(ab_->half(i).id(), target, 0, 0, half.width, half.height, x, y0, x + half.width,
                           y0 + half.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  return true;
}

void AbElement::draw(Session& s, const ScreenLayout& l) {
  if (!ab_ || !s.demo()) return;
  s.guarded("A/B", [&] {
    const HudInput in_a = hud_input(*s.demo(), s.timings(), s.context());
    const HudInput in_b = hud_input(ab_->b(), ab_->timings(), s.context());
    const ui::Fonts* fonts = s.look().fonts;
    shown_ = draw_ab_overlay(in_a.variant, in_a.ms_per_step.value_or(0), in_b.variant,
                             in_b.ms_per_step.value_or(0), l.view.x0, l.view.x1, l.view.y1,
                             fonts ? fonts->hud : nullptr, fonts ? fonts->ui : nullptr, s.look().light);
  });
}

// --- ladder ------------------------------------------------------------------------------------

LadderElement::LadderElement() = default;
LadderElement::~LadderElement() = default;  // cancels and joins a run

bool LadderElement::visible() const { return ladder_ && ladder_->visible(); }
bool LadderElement::measuring() const { return ladder_ && ladder_->owns_demo(); }
bool LadderElement::done() const { return ladder_ && ladder_->done(); }

void LadderElement::start(Session& s) {
  Demo* d = s.demo();
  if (!d) return;
  if (AbElement* ab = s.find<AbElement>()) ab->stop();  // the ladder measures the app's demo alone
  if (!ladder_) ladder_ = std::make_unique<LadderView>();
  s.guarded("ladder", [&] {
    ladder_->start(*d, s.context());
    ++runs_;
  });
}

bool LadderElement::key(Session& s, KeyAction a, const KeyPress& k) {
  if (a == KeyAction::Close && visible()) {
    ladder_->escape();
    return true;
  }
  if (a != KeyAction::Ladder) return false;
  if (visible()) {
    ladder_->escape();
    return true;
  }
  const LessonElement* lesson = s.find<LessonElement>();
  if (lesson && lesson->open() && is_slideshow_key(k.key)) {
    // F5 is a clicker's slideshow key: in a lesson it starts nothing.
    s.notify("F5 (a clicker's slideshow key) does not start the ladder during a lesson: Ctrl+L does");
    return true;
  }
  start(s);
  return true;
}

void LadderElement::demo_replaced(Session&) { ladder_.reset(); }

void LadderElement::report(LayoutReport& r) const {
  r.ladder = visible();
  if (visible()) r.ladder_chart = ladder_->shown();
}

void LadderElement::draw(Session& s, const ScreenLayout& l) {
  const double t = s.now();
  const double dt_ms = last_frame_ > 0 ? (t - last_frame_) * 1000.0 : 16.0;
  last_frame_ = t;
  if (!visible()) return;
  s.guarded("ladder", [&] {
    // The chart's text in the app's TrueType faces: the HUD's large font (scaled down, which stays
    // crisp) for sizes above the panel's, the panel's own at or below it.
    const ui::Fonts* fonts = s.look().fonts;
    const ChartFonts chart_fonts = [fonts](TextFace face, float px) -> ImFont* {
      if (!fonts) return nullptr;
      if (fonts->hud && px > fonts->ui_px * 1.1f) return fonts->hud;
      return face == TextFace::Mono ? fonts->mono : fonts->ui;
    };
    // The finished chart's per-rung "measure counters" queue into the Counters tab's view.
    CountersElement* counters = s.find<CountersElement>();
    // Figures recorded on a GPU (--results, or the lesson's file) for the rungs that cannot run here.
    ladder_->set_recorded(s.recorded());
    ladder_->draw(
        l.display.width(), l.display.height(), s.look().ui_scale, dt_ms,
        [&s](std::string line) { s.notify(std::move(line)); }, chart_fonts,
        s.look().light ? ChartTheme::light() : ChartTheme::dark(), counters ? &counters->view() : nullptr,
        s.look().projector ? ChartStyle::Slide : ChartStyle::Detailed);  // projector mode: the slide
    if (const std::string line = ladder_->take_measured_line(); !line.empty()) s.log(line);
  });
}

// --- counters ----------------------------------------------------------------------------------

CountersElement::CountersElement() = default;
CountersElement::~CountersElement() = default;

CountersView& CountersElement::view() {
  if (!view_) view_ = std::make_unique<CountersView>();
  return *view_;
}

// F3: the Counters tab to the front, and one step of the current variant measured (of every GPU rung
// when the ladder is shown).
void CountersElement::start(Session& s) {
  Demo* d = s.demo();
  if (!d) return;
  to_front_ = true;
  const LadderElement* ladder = s.find<LadderElement>();
  if (const std::string why = view().unavailable(s.context()); !why.empty()) {
    s.notify("counters unavailable: " + brief_cuda_reason(why, cuda_status()));
  } else if (ladder && ladder->measuring()) {
    s.notify("counters: the ladder is measuring; press F3 again when it is done");
  } else if (ladder && ladder->visible()) {
    view().request_all(*d);
    s.notify("counters: measuring one step of every GPU rung, one a frame (Counters tab)");
  } else {
    view().request_current(*d);
    s.notify("counters: measuring one step of the current variant (Counters tab)");
  }
}

bool CountersElement::key(Session& s, KeyAction a, const KeyPress&) {
  if (a != KeyAction::Counters) return false;
  start(s);
  return true;
}

void CountersElement::frame(Session& s, const Frame&) {
  // One queued measurement a frame at most, between the demo's frames (on copies of its input); also
  // over a finished ladder's chart (the demo is idle then, and the probes work on copies).
  shown_ = {};
  Demo* d = s.demo();
  const LadderElement* ladder = s.find<LadderElement>();
  if (pending_start_ && d && !(ladder && ladder->measuring())) {
    pending_start_ = false;
    started_at_ = s.now();
    start(s);
  }
  if (d && view_ && !(ladder && ladder->measuring()))
    s.guarded("counters", [&] { view_->poll(*d, s.context()); });
}

bool CountersElement::headless_busy(Session& s) {
  if (pending_start_) return s.demo() != nullptr;  // it starts once the ladder is done
  if (started_at_ < 0) return false;
  CountersView& cv = view();
  if (!cv.unavailable(s.context()).empty() || s.now() - started_at_ >= 10) return false;
  return cv.busy() || !(cv.meters().span_s() >= 1.0 || cv.meters_failed());
}

void CountersElement::headless_done(Session& s) {
  if (started_at_ < 0) return;
  CountersView& cv = view();
  if (const std::string why = cv.unavailable(s.context()); !why.empty()) {
    s.log("counters: 0 measured: " + why);
    return;
  }
  size_t measured = 0;
  for (const CounterRow& r : cv.rows()) measured += r.measured() ? 1 : 0;
  char line[200];
  if (const std::string st = cv.meters_status(); st.empty())
    std::snprintf(line, sizeof line, "counters: %zu measured; meters: %zu samples over %.1f s", measured,
                  cv.meters().size(), cv.meters().span_s());
  else
    std::snprintf(line, sizeof line, "counters: %zu measured; meters: %s", measured, st.c_str());
  s.log(line);
}

void LadderElement::headless_done(Session& s) {
  // The run's line ("ladder life: N frames while measuring...") went to stderr as it ended (draw):
  // said here only where no frame drew it.
  if (!visible()) return;
  if (const std::string line = ladder_->take_measured_line(); !line.empty()) s.log(line);
}

void CountersElement::tab_ui(Session& s) {
  if (Demo* d = s.demo())
    s.guarded("counters", [&] {
      view().draw(*d, s.context(), s.look().ui_scale,
                  s.look().light ? ChartTheme::light() : ChartTheme::dark());
    });
  shown_ = {};
  shown_.tab_open = true;
  shown_.unavailable = view().unavailable(s.context());
  shown_.meters = view().meters_status();
  shown_.meter_samples = view().meters().size();
  shown_.meter_span_s = view().meters().span_s();
  for (const CounterRow& r : view().rows())
    if (r.measured()) shown_.measured.push_back(r.variant);
}

}  // namespace gpulab::presenter

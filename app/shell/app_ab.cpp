// The App's A/B (presenter/ab.h): F8 or a lesson step with two variants. Both halves are fresh
// instances of the demo, A running a Setup and B a copy of it with one pick changed; the A half
// becomes the app's demo (its timings are the app's), the B half lives in the AbCompare with a Setup
// and timings of its own.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "platform/platform.h"
#include "presenter/ab.h"
#include "presenter/hud.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson.h"
#include "presenter/lesson_player.h"
#include "shell/app.h"

namespace gpulab {

namespace {
// Each half's width: the view beside the panel, split in two.
int half_width(const Frame& f) { return std::max(1, (f.width - f.inset_left) / 2); }
}  // namespace

bool App::start_ab(const Setup& a, const Setup& b, std::string* why) {
  stop_ab();
  size_t index = demos_.size();
  for (size_t i = 0; i < demos_.size(); ++i)
    if (demos_[i]->name() == a.demo) index = i;
  if (index == demos_.size()) {
    *why = "no demo " + text::quote(a.demo);
    return false;
  }
  std::unique_ptr<Demo> fresh = make_demo(a.demo);
  if (std::string bad = configure_fresh(*fresh, a); !bad.empty()) {
    *why = bad;
    return false;
  }
  if (!replace_demo(index, std::move(fresh), false, &a)) {
    *why = attach_error_;
    return false;
  }
  return start_ab_b(a, b, why);
}

bool App::start_ab_b(const Setup& a_asked, const Setup& b, std::string* why) {
  stop_ab();
  auto ab = std::make_unique<presenter::AbCompare>(b, make_demo(b.demo));
  if (std::string bad = ab->configure(options_without_outputs(options_.cpu)); !bad.empty()) {
    *why = bad;
    return false;
  }
  try {
    ab->attach(ctx_);
  } catch (const std::exception& e) {
    *why = "cannot start the B half: " + std::string(e.what());
    return false;
  }
  // Both must run what was asked: a pick that cannot run here would make the halves the same.
  const StageTables& t = demos_[demo_]->stage_tables();
  const size_t f = b.focus.value_or(0);  // the stage whose pick B changed
  const std::string a_id(variant_of(t, a_asked.picks.at(f)).id), b_id(variant_of(t, b.picks.at(f)).id);
  for (const auto& [want, running] : {std::pair{a_asked.picks[f], setups_[demo_].picks.at(f)},
                                      std::pair{b.picks[f], ab->setup().picks.at(f)}}) {
    if (want.variant != running.variant) {
      *why = std::string(variant_of(t, want).id) + " cannot run here (" + ctx_.interop_unavailable_reason() +
             "): no A/B of " + a_id + " and " + b_id;
      return false;
    }
  }
  ab_ = std::move(ab);
  if (lesson_) lesson_->set_input(std::nullopt);  // the next step starts its own demo
  playing_ = true;
  return true;
}

void App::stop_ab() { ab_.reset(); }

void App::toggle_ab() {
  if (ab_) {
    stop_ab();
    notify("A/B ended");
    return;
  }
  if (!attached_) return;
  Demo& d = *demos_[demo_];
  const std::vector<Stage> stages = d.stages();
  const size_t lead = d.lead_stage();
  if (lead >= stages.size()) return;
  // The lead stage: its first variant that runs here (the baseline) against the one running now, or,
  // when the baseline is running, against the next one that runs.
  const Stage& st = stages[lead];
  std::vector<int> runnable;
  for (size_t i = 0; i < st.variants.size(); ++i)
    if (st.variants[i].available) runnable.push_back(static_cast<int>(i));
  if (runnable.size() < 2) {
    notify("A/B needs two variants of " + std::string(st.title) + " that can run here; " +
           std::to_string(runnable.size()) + " can (" + ctx_.interop_unavailable_reason() + ")");
    return;
  }
  // A: what runs now (the lesson step's or the command line's input, the picks as they are) with the
  // baseline picked; B = A with the other variant picked.
  const StageTables& t = d.stage_tables();
  const presenter::AbSetups h = presenter::ab_setups(
      t, setups_[demo_], lead, runnable.front(), st.variant != runnable.front() ? st.variant : runnable[1]);
  const std::string a_id(variant_of(t, h.a.picks[lead]).id), b_id(variant_of(t, h.b.picks[lead]).id);
  std::string why;
  if (start_ab(h.a, h.b, &why))
    notify("A/B: " + a_id + " | " + b_id + " (F8 ends it)");
  else
    notify("A/B: " + why);
}

void App::compute_ab(Frame& f) {
  // Both halves get the same frame, as wide as a half: the same steps, time and input keep them in step.
  ab_->timings().collect();
  Frame half = f;
  half.width = half_width(f);
  half.inset_left = 0;
  half.input.mouse_x = std::fmod(std::max(0.0f, f.input.mouse_x - static_cast<float>(f.inset_left)),
                                 static_cast<float>(half.width));
  guarded("compute", [&] { demos_[demo_]->compute(half); });
  Frame hb = half;
  guarded("A/B compute", [&] { ab_->b().compute(hb); });
}

void App::render_ab(Frame& f) {
  Frame half = f;
  half.width = half_width(f);
  half.inset_left = 0;
  ab_->size_halves(half.width, f.height);
  Demo* sides[2] = {demos_[demo_].get(), &ab_->b()};
  for (int i = 0; i < 2; ++i) {
    glBindFramebuffer(GL_FRAMEBUFFER, ab_->half(i).id());
    glViewport(0, 0, half.width, f.height);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    Frame fi = half;
    guarded(i == 0 ? "render" : "A/B render", [&] { sides[i]->render(fi); });
  }
  const GLuint target = platform_->target_framebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, f.width, f.height);
  for (int i = 0; i < 2; ++i) {
    const int x = f.inset_left + i * half.width;
    glBlitNamedFramebuffer(ab_->half(i).id(), target, 0, 0, half.width, f.height, x, 0, x + half.width,
                           f.height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
}

void App::draw_ab_overlay(const Frame& f) {
  const presenter::HudInput in_a = presenter::hud_input(*demos_[demo_], timings_, ctx_);
  const presenter::HudInput in_b = presenter::hud_input(ab_->b(), ab_->timings(), ctx_);
  const ui::Fonts& fonts = appearance_.fonts();
  const presenter::HudBox view = view_box(f);
  const float sx = std::max(ImGui::GetIO().DisplayFramebufferScale.x, 1e-3f);
  const float x1 = view.x0 + 2.0f * static_cast<float>(half_width(f)) / sx;
  layout_.ab = presenter::draw_ab_overlay(in_a.variant, in_a.ms_per_step.value_or(0), in_b.variant,
                                          in_b.ms_per_step.value_or(0), view.x0, x1, view.y1, fonts.hud,
                                          fonts.ui, theme_ == Theme::Light);
}

}  // namespace gpulab

// The App's A/B (presenter/ab.h): F8 or a lesson step with two variants. Both halves are fresh
// instances of the demo configured from one command line; the A half becomes the app's demo (its
// timings are the app's), the B half lives in the AbCompare with timings of its own.
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

bool App::start_ab(const std::vector<std::string>& base_args, const std::string& demo, const std::string& a,
                   const std::string& b, std::string* why) {
  stop_ab();
  size_t index = demos_.size();
  for (size_t i = 0; i < demos_.size(); ++i)
    if (demos_[i]->name() == demo) index = i;
  if (index == demos_.size()) {
    *why = "no demo " + text::quote(demo);
    return false;
  }
  std::vector<std::string> args_a = presenter::without_variant_options(base_args);
  args_a.insert(args_a.end(), {"--variant", a});
  presenter::StepDemo made_a = presenter::make_demo_from_args(args_a, demo, make_demos, options_.cpu);
  if (!made_a.demo) {
    *why = made_a.error;
    return false;
  }
  if (!replace_demo(index, std::move(made_a.demo), false)) {
    *why = attach_error_;
    return false;
  }
  return start_ab_b(base_args, a, b, why);
}

bool App::start_ab_b(const std::vector<std::string>& base_args, const std::string& a, const std::string& b,
                     std::string* why) {
  stop_ab();
  std::vector<std::string> args_b = presenter::without_variant_options(base_args);
  args_b.insert(args_b.end(), {"--variant", b});
  presenter::StepDemo made_b =
      presenter::make_demo_from_args(args_b, demos_[demo_]->name(), make_demos, options_.cpu);
  if (!made_b.demo) {
    *why = made_b.error;
    return false;
  }
  auto ab = std::make_unique<presenter::AbCompare>(std::move(made_b.demo));
  try {
    ab->attach(ctx_);
  } catch (const std::exception& e) {
    *why = "cannot start the B half: " + std::string(e.what());
    return false;
  }
  // Both must run what was asked: a variant that cannot run here would make the halves the same.
  for (const auto& [want, running] : {std::pair{a, running_in_stage_of(demos_[demo_]->stages(), a)},
                                      std::pair{b, running_in_stage_of(ab->b().stages(), b)}}) {
    if (running != want) {
      *why =
          want + " cannot run here (" + ctx_.interop_unavailable_reason() + "): no A/B of " + a + " and " + b;
      return false;
    }
  }
  ab_ = std::move(ab);
  if (lesson_) lesson_->set_input_key({});  // the next step starts its own demo
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
  if (stages.empty()) return;
  // The first stage: its first variant that runs here (the baseline) against the one running now,
  // or, when the baseline is running, against the next one that runs.
  const Stage& st = stages.front();
  std::vector<std::string> runnable;
  for (const VariantChoice& v : st.variants)
    if (v.available) runnable.emplace_back(v.id);
  const std::string current(st.current().id);
  if (runnable.size() < 2) {
    notify("A/B needs two variants of " + std::string(st.title) + " that can run here; " +
           std::to_string(runnable.size()) + " can (" + ctx_.interop_unavailable_reason() + ")");
    return;
  }
  const std::string a = runnable.front();
  const std::string b = current != a ? current : runnable[1];
  // The input: the lesson step's, else the command line's (when it started this demo), else the
  // demo's defaults.
  std::vector<std::string> base = {"gpulab", "--demo", std::string(d.name())};
  if (lesson_ && lesson_->step() && lesson_->step()->demo == d.name())
    base = lesson_->step()->args();
  else if (options_.demo == d.name() && !options_.args.empty())
    base = options_.args;
  std::string why;
  if (start_ab(base, std::string(d.name()), a, b, &why))
    notify("A/B: " + a + " | " + b + " (F8 ends it)");
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

// The App's lesson player (presenter/lesson_player.h): opening a lesson, starting its steps through
// the Demo interface (a step on new input swaps in a fresh demo running the step's Setup; a step on
// the same input only changes the picks it names, so the simulation goes on), the overlay and the
// panel's Lesson tab.
#include <imgui.h>

#include <algorithm>

#include "common/text.h"
#include "platform/platform.h"
#include "presenter/ladder_view.h"
#include "presenter/lesson_player.h"
#include "shell/app.h"
#include "ui/theme.h"

namespace gpulab {

bool App::open_lesson(const std::filesystem::path& path, int first_step, std::string* error) {
  presenter::LessonLoad r = presenter::load_lesson(path, make_demos, ctx_.cuda);
  if (!r.lesson) {
    *error = "lesson refused: " + r.error;
    return false;
  }
  const int n = static_cast<int>(r.lesson->steps.size());
  if (first_step < 0 || first_step >= n) {
    *error = "lesson " + text::quote(path.string()) + " has " + std::to_string(n) + " steps, no step " +
             std::to_string(first_step + 1);
    return false;
  }
  lesson_ = std::make_unique<presenter::LessonPlayer>(std::move(*r.lesson));
  lesson_tab_select_ = true;
  notify(presenter::lesson_opened_notice(lesson_->lesson()));
  go_to_step(first_step);
  return true;
}

void App::go_to_step(int k) {
  if (!lesson_) return;
  const presenter::LessonStep& s = lesson_->lesson().steps[static_cast<size_t>(k)];
  std::string problem;
  // The ladder is shown only at the steps that ask for it (it measures copies of the demo it started on),
  // A/B only at the steps with two variants.
  ladder_.reset();
  stop_ab();
  size_t index = demos_.size();
  for (size_t i = 0; i < demos_.size(); ++i)
    if (demos_[i]->name() == s.demo) index = i;
  if (index == demos_.size()) {
    lesson_->shown(k, "no demo " + text::quote(s.demo));
    return;
  }
  const bool ab_step = s.b.has_value();
  const std::string want = s.variants.empty() ? std::string() : s.variants.front();
  if (attached_ && index == demo_ && lesson_->input() && same_input(*lesson_->input(), s.setup) && !ab_step) {
    // The same input: only the picks the step names change, the simulation carries on. (An A/B step
    // starts both halves afresh, so that they begin from the same state.)
    guarded("lesson", [&] {
      Setup next = setups_[demo_];
      const std::vector<std::string> variants = want.empty() ? std::vector<std::string>{} : std::vector{want};
      problem = apply_choices(*demos_[demo_], variants, s.blocks, next);
      if (problem.empty()) change_picks(next, &problem);
    });
    timings_.clear();
  } else {
    // A fresh demo running the step's Setup (an A/B step's A half).
    std::unique_ptr<Demo> fresh = make_demo(s.demo);
    problem = configure_fresh(*fresh, s.setup);
    if (problem.empty()) {
      lesson_->set_input(replace_demo(index, std::move(fresh), false, &s.setup)
                             ? std::optional<Setup>(s.setup)
                             : std::nullopt);
      playing_ = true;
    }
  }
  // A variant this machine cannot run (a GPU variant on the CPU backend) is said on screen; the
  // demo shows what it runs instead, and the lesson goes on.
  if (attached_ && !want.empty()) {
    const StageTables& t = demos_[demo_]->stage_tables();
    if (const std::optional<Pick> asked = find_pick(t, want)) {
      const Pick& running = setups_[demo_].picks.at(asked->stage);
      if (running.variant != asked->variant) {
        const std::string no = demos_[demo_]->why_unavailable(asked->stage, asked->variant);
        const std::string why = !no.empty()        ? no
                                : !problem.empty() ? problem
                                                   : ctx_.interop_unavailable_reason();
        problem =
            want + " cannot run here (" + why + "): " + std::string(variant_of(t, running).id) + " is shown";
      }
    }
  }
  // A/B: the demo just started is the A half (it runs the step's Setup); B is made beside it.
  if (ab_step && problem.empty()) {
    std::string why = attach_error_;
    if (!attached_ || !start_ab_b(s.setup, *s.b, &why))
      problem = "A/B: " + why + "; " + s.variants[0] + " is shown";
  }
  if (s.code) code_panel_ = *s.code;
  if (attached_ && !want.empty())  // the code panel shows the stage the step is about
    if (const std::optional<Pick> p = find_pick(demos_[demo_]->stage_tables(), want)) code_stage_ = p->stage;
  if (s.ladder.value_or(false)) start_ladder();
  lesson_->shown(k, problem);
  if (!problem.empty()) notify("lesson step " + std::to_string(k + 1) + ": " + problem);
}

void App::draw_lesson_overlay(const Frame& f) {
  // Below the view: the caption band is the overlay's own.
  const presenter::HudBox view = view_box(f, false);
  const ui::Fonts& fonts = appearance_.fonts();
  ImFont* big = fonts.hud ? fonts.hud : ImGui::GetFont();
  // The caption at 60% of the HUD's digits: large enough for the back row, two lines on most slides.
  const float px = std::max(ImGui::GetFontSize() * 1.4f, big->FontSize * 0.6f);
  const presenter::LessonOverlay o = presenter::draw_lesson_overlay(*lesson_, view.x0, view.x1, view.y1, big,
                                                                    px, fonts.ui, theme_ == Theme::Light);
  lesson_band_ = o.caption_y1 - o.caption_y0;
  lesson_top_ = o.progress_y1;
  layout_.lesson.caption_y0 = o.caption_y0;
  layout_.lesson.caption_y1 = o.caption_y1;
}

void App::draw_code(const Frame& f) {
  // The right part of the view: the picture stays visible beside it, the caption below it.
  const presenter::HudBox view = view_box(f);
  const float x0 = std::max(view.x0 + 8.0f, view.x1 * 0.55f);
  const float y0 = std::max(8.0f, lesson_top_ + 4.0f);
  if (!presenter::draw_code_panel(demos_[demo_]->stages(), &code_stage_, &code_cache_,
                                  appearance_.fonts().mono, theme_ == Theme::Light, x0, y0, view.x1 - 8.0f,
                                  view.y1 - 4.0f, &layout_.code))
    code_panel_ = false;
}

void App::record_lesson_layout() {
  PanelLayout::LessonShown& l = layout_.lesson;
  l = {};
  if (!lesson_) return;
  l.running = true;
  l.step = lesson_->current() + 1;
  l.steps = lesson_->size();
  l.title = lesson_->lesson().title;
  l.progress = lesson_->progress();
  l.problem = lesson_->problem();
  if (const presenter::LessonStep* s = lesson_->step()) l.caption = s->caption;
  l.demo = std::string(demos_[demo_]->name());
  if (attached_)
    for (const Stage& st : demos_[demo_]->stages())
      if (st.active) l.variants.emplace_back(st.current().id);
}

void App::draw_lesson_section() {
  if (!lesson_) {
    ImGui::TextWrapped("A lesson steps through a lecture on a clicker (PageDown / PageUp). Open one:");
    if (!shipped_lessons_) shipped_lessons_ = presenter::shipped_lessons(ctx_.assets);
    for (const auto& p : *shipped_lessons_) {
      if (ImGui::Button(p.stem().string().c_str())) {
        std::string why;
        if (!open_lesson(p, 0, &why)) notify(why);
      }
    }
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("open").x - ImGui::GetStyle().FramePadding.x * 4);
    const bool enter =
        ImGui::InputTextWithHint("##lessonpath", "path/to/lesson.toml", lesson_path_input_,
                                 sizeof lesson_path_input_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("open") || enter) && lesson_path_input_[0] != '\0') {
      std::string why;
      if (!open_lesson(lesson_path_input_, 0, &why)) notify(why);  // the app keeps what it had
    }
    return;
  }
  ImGui::TextWrapped("%s", lesson_->lesson().title.c_str());
  ImGui::TextDisabled("%s", lesson_->progress().c_str());
  if (ImGui::Button("previous (PageUp)")) go_to_step(lesson_->target(presenter::LessonMove::Previous));
  ImGui::SameLine();
  if (ImGui::Button("next (PageDown)")) go_to_step(lesson_->target(presenter::LessonMove::Next));
  ImGui::SameLine();
  if (ImGui::Button("close lesson")) {
    lesson_.reset();
    return;
  }
  if (!lesson_->problem().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Warning));
    ImGui::TextWrapped("%s", lesson_->problem().c_str());
    ImGui::PopStyleColor();
  }
  // The presenter's notes: here only (the compact panel of projector mode never draws this tab).
  const presenter::LessonStep* s = lesson_->step();
  if (s && !s->notes.empty() && !projector_) {
    ImGui::Separator();
    ImGui::TextDisabled("notes");
    ImGui::TextWrapped("%s", s->notes.c_str());
    layout_.lesson.notes_shown = true;
  }
  ImGui::Separator();
  ImGui::TextDisabled("steps");
  for (int i = 0; i < lesson_->size(); ++i) {
    const std::string label =
        std::to_string(i + 1) + ". " + lesson_->lesson().steps[static_cast<size_t>(i)].title;
    if (ImGui::Selectable(label.c_str(), i == lesson_->current())) go_to_step(i);
  }
}

}  // namespace gpulab

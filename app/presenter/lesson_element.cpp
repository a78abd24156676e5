// The lesson player as an element (elements.h): opening a lesson, starting its steps through the
// Session (a step on new input starts a fresh demo running the step's Setup; a step on the same input
// changes only the picks it names, so the simulation goes on), its band under the view and the
// panel's Lesson tab.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>

#include "common/text.h"
#include "core/cli.h"
#include "presenter/elements.h"
#include "presenter/lesson_player.h"
#include "ui/fonts.h"
#include "ui/theme.h"

namespace gpulab::presenter {

LessonElement::LessonElement() = default;
LessonElement::~LessonElement() = default;

void LessonElement::close() {
  player_.reset();
  stand_in_.reset();
  recorded_.reset();
  recorded_error_.clear();
}

void LessonElement::read_results(Session& s) {
  recorded_.reset();
  recorded_error_.clear();
  results_read_s_ = 0;
  if (!player_ || player_->lesson().results.empty()) return;
  const std::filesystem::path& file = player_->lesson().results;
  std::string why;
  const auto t0 = std::chrono::steady_clock::now();
  recorded_ = load_recorded_results(file, &why);
  results_read_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!recorded_) {
    // The lesson opens all the same: its steps that cannot run here then show no recorded figures.
    recorded_error_ = "the lesson's " + why;
    s.notify("lesson: " + recorded_error_ + "; steps that cannot run here show no recorded figures");
  } else if (!s.options().results.empty()) {
    s.log("lesson: --results " + text::quote(s.options().results) + " is shown, not the lesson's " +
          text::quote(file.string()));
  } else {
    s.log("lesson: figures " + text::escape(recorded_->label()) + " from " + text::quote(file.string()));
  }
}

void LessonElement::forget_input() {
  if (player_) player_->set_input(std::nullopt);
}

bool LessonElement::open_file(Session& s, const std::filesystem::path& path, int first_step,
                              std::string* error) {
  LessonLoad r = load_lesson(path, make_demos, s.context().cuda);
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
  player_ = std::make_unique<LessonPlayer>(std::move(*r.lesson));
  opened_at_ = s.now();
  to_front_ = true;
  // On stderr only: the band says which step of how many, and a toast would sit over the picture.
  s.log(lesson_opened_notice(player_->lesson()));
  read_results(s);
  go_to_step(s, first_step);
  return true;
}

void LessonElement::go_to_step(Session& s, int k) {
  const unsigned long long said_before = s.notices_said();
  if (!player_) return;
  const LessonStep& st = player_->lesson().steps[static_cast<size_t>(k)];
  std::string problem;
  stand_in_.reset();
  std::optional<Picks> asked;  // the step's own picks, where they differ from those that run
  // The ladder is shown only at the steps that ask for it (it measures copies of the demo it started
  // on), A/B only at the steps with two variants.
  LadderElement* ladder = s.find<LadderElement>();
  AbElement* ab = s.find<AbElement>();
  CodeElement* code = s.find<CodeElement>();
  if (ladder) ladder->demo_replaced(s);
  if (ab) ab->stop();
  const bool ab_step = st.b.has_value();
  const std::string want = st.variants.empty() ? std::string() : st.variants.front();
  Demo* d = s.demo();
  if (d && s.setup().demo == st.demo && player_->input() && same_input(*player_->input(), st.setup) &&
      !ab_step) {
    // The same input: only the picks the step names change, the simulation carries on. (An A/B step
    // starts both halves afresh, so that they begin from the same state.)
    s.guarded("lesson", [&] {
      Setup next = s.setup();
      const std::vector<std::string> variants = want.empty() ? std::vector<std::string>{} : std::vector{want};
      problem = apply_choices(*d, variants, st.blocks, next);
      // A pick that cannot run here stands in as the stage's CPU default, as a fresh start would
      // make it: the same stand-in at every such step, whatever ran before.
      const Picks wanted = next.picks;
      if (problem.empty() && runnable_picks(*d, next.picks)) asked = wanted;
      if (problem.empty()) s.change_picks(next, &problem);
    });
    s.timings().clear();
  } else {
    // A fresh demo running the step's Setup (an A/B step's A half).
    problem = s.start(st.setup);
    if (problem.empty()) {
      player_->set_input(st.setup);
      s.playback().playing = true;
    } else {
      player_->set_input(std::nullopt);
    }
  }
  d = s.demo();
  // A variant this machine cannot run (a GPU variant on the CPU backend) is said on screen; the demo
  // shows what it runs instead, and the lesson goes on.
  if (d && !want.empty()) {
    const StageTables& t = d->stage_tables();
    if (const std::optional<Pick> wanted = find_pick(t, want)) {
      const Pick& running = s.setup().picks.at(wanted->stage);
      if (running.variant != wanted->variant) {
        const std::string no = d->why_unavailable(wanted->stage, wanted->variant);
        const std::string why = !no.empty()        ? no
                                : !problem.empty() ? problem
                                                   : s.context().interop_unavailable_reason();
        const std::string stand = std::string(variant_of(t, running).id);
        stand_in_ = StandIn{want, stand, why, !s.context().cuda, d->recorded_row(wanted->stage, want)};
        // One calm line: on a machine without a GPU that is the expected case, not an error.
        problem = stand_in_->no_gpu
                      ? want + " needs an NVIDIA GPU: the picture is the CPU reference, " + stand
                      : want + " cannot run here (" + why + "): " + stand + " is shown";
        if (!asked) {
          asked = s.setup().picks;
          asked->at(wanted->stage) = *wanted;
        }
      }
    }
  }
  // A/B: the demo just started is the A half (it runs the step's Setup); B is made beside it.
  if (ab_step && problem.empty() && ab) {
    std::string why = "the demo did not start";
    if (!d || !ab->start_b(s, st.setup, *st.b, &why))
      problem = "A/B: " + why + "; " + st.variants[0] + " is shown";
  }
  if (code) {
    if (st.code) code->set_on(*st.code);
    code->show_picks(stand_in_ ? asked : std::nullopt,
                     s.setup().picks);  // the step's own kernel, not the stand-in's
    if (d && !want.empty())             // the code panel shows the stage the step is about
      if (const std::optional<Pick> p = find_pick(d->stage_tables(), want)) code->show_stage(p->stage);
    code->mark_lines(st.code_lines ? st.code_lines->first : 0, st.code_lines ? st.code_lines->second : 0);
    code->mark_name(st.code_mark);
  }
  if (st.ladder.value_or(false) && ladder) ladder->start(s);
  player_->shown(k, problem);
  // The band says the step's problem (one calm line, gone at the next step): no toast over the picture,
  // and none of the demo's own notices of the fallback the band explains.
  if (!problem.empty()) s.log("lesson step " + std::to_string(k + 1) + ": " + problem);
  if (stand_in_) s.drop_notices_after(said_before);
}

bool LessonElement::key(Session& s, KeyAction a, const KeyPress&) {
  if (!player_) return false;
  switch (a) {
    case KeyAction::LessonNext:
      go_to_step(s, player_->target(LessonMove::Next));
      return true;
    case KeyAction::LessonPrevious:
      go_to_step(s, player_->target(LessonMove::Previous));
      return true;
    case KeyAction::LessonFirst:
      go_to_step(s, player_->target(LessonMove::First));
      return true;
    case KeyAction::LessonLast:
      go_to_step(s, player_->target(LessonMove::Last));
      return true;
    default:
      return false;
  }
}

namespace {
// The caption at 60% of the HUD's digits: large enough for the back row, two lines on most slides.
float caption_px(const ui::Fonts* fonts) {
  ImFont* big = fonts && fonts->hud ? fonts->hud : ImGui::GetFont();
  return std::max(ImGui::GetFontSize() * 1.4f, big->FontSize * 0.6f);
}
}  // namespace

void LessonElement::wants(Session& s, LayoutInput& in) {
  in.lesson = player_ != nullptr;
  const ui::Fonts* fonts = s.look().fonts;
  in.lesson_height = [this, fonts](float width) {
    if (!player_) return 0.0f;
    return lesson_band_height(*player_, width, fonts && fonts->hud ? fonts->hud : nullptr, caption_px(fonts),
                              fonts ? fonts->ui : nullptr);
  };
}

void LessonElement::frame(Session& s, const Frame&) {
  shown_ = {};
  if (!player_) return;
  // The lesson's file edited while it runs: read again at the same step (the step started again only
  // when what it runs changed); a file that does not read keeps the lesson as it was, and says why.
  bool restart = false;
  switch (player_->poll_file(s.now(), make_demos, s.context().cuda, &restart)) {
    case LessonReload::Reloaded:
      read_results(s);  // it may name another file now, or the file may have been recorded again
      if (restart) go_to_step(s, player_->current());
      s.notify("lesson reloaded: " + text::quote(player_->lesson().file.string()) + ", " +
               player_->progress());
      break;
    case LessonReload::Refused:
      s.notify(player_->reload_error());
      break;
    case LessonReload::None:
      break;
  }
  shown_.running = true;
  shown_.step = player_->current() + 1;
  shown_.steps = player_->size();
  shown_.title = player_->lesson().title;
  shown_.progress = player_->progress();
  shown_.problem = player_->problem();
  if (const LessonStep* st = player_->step()) shown_.caption = st->caption;
  shown_.demo = s.setup().demo;
  shown_.variants = running_variants(s.demo(), s.find<AbElement>());
}

void LessonElement::draw(Session& s, const ScreenLayout& l) {
  if (!player_) return;
  shown_.notes_shown = notes_shown_;
  if (l.lesson.empty()) return;
  const ui::Fonts* fonts = s.look().fonts;
  const LessonOverlay o = draw_lesson_band(*player_, l.lesson.x0, l.lesson.y0, l.lesson.x1, l.lesson.y1,
                                           fonts && fonts->hud ? fonts->hud : nullptr, caption_px(fonts),
                                           fonts ? fonts->ui : nullptr, s.look().light);
  shown_.caption_y0 = o.caption_y0;
  shown_.caption_y1 = o.caption_y1;
  notes_shown_ = false;  // the tab says again next frame, when it is drawn
}

void LessonElement::report(LayoutReport& r) const { r.lesson = shown_; }

void LessonElement::tab_ui(Session& s) {
  notes_shown_ = false;
  if (!player_) {
    ImGui::TextWrapped("A lesson steps through a lecture on a clicker (PageDown / PageUp). Open one:");
    if (!shipped_) shipped_ = shipped_lessons(s.context().assets);
    for (const auto& p : *shipped_) {
      if (ImGui::Button(p.stem().string().c_str())) {
        std::string why;
        if (!open_file(s, p, 0, &why)) s.notify(why);
      }
    }
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("open").x - ImGui::GetStyle().FramePadding.x * 4);
    const bool enter = ImGui::InputTextWithHint("##lessonpath", "path/to/lesson.toml", path_input_,
                                                sizeof path_input_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("open") || enter) && path_input_[0] != '\0') {
      std::string why;
      if (!open_file(s, path_input_, 0, &why)) s.notify(why);  // the app keeps what it had
    }
    return;
  }
  ImGui::TextWrapped("%s", player_->lesson().title.c_str());
  ImGui::TextDisabled("%s", player_->progress().c_str());
  if (ImGui::Button("previous (PageUp)")) go_to_step(s, player_->target(LessonMove::Previous));
  ImGui::SameLine();
  if (ImGui::Button("next (PageDown)")) go_to_step(s, player_->target(LessonMove::Next));
  ImGui::SameLine();
  if (ImGui::Button("close lesson")) {
    close();  // its stand-in and its recorded figures go with it
    return;
  }
  if (!player_->problem().empty() || !player_->reload_error().empty() || !recorded_error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Warning));
    if (!player_->problem().empty()) ImGui::TextWrapped("%s", player_->problem().c_str());
    if (!player_->reload_error().empty()) ImGui::TextWrapped("%s", player_->reload_error().c_str());
    if (!recorded_error_.empty()) ImGui::TextWrapped("%s", recorded_error_.c_str());
    ImGui::PopStyleColor();
  }
  // The presenter's notes: here only (the compact panel of projector mode never draws this tab).
  const LessonStep* st = player_->step();
  if (st && !st->notes.empty() && s.look().notes) {
    ImGui::Separator();
    ImGui::TextDisabled("notes");
    ImGui::TextWrapped("%s", st->notes.c_str());
    notes_shown_ = true;
  }
  ImGui::Separator();
  ImGui::TextDisabled("steps");
  for (int i = 0; i < player_->size(); ++i) {
    const std::string label =
        std::to_string(i + 1) + ". " + player_->lesson().steps[static_cast<size_t>(i)].title;
    if (ImGui::Selectable(label.c_str(), i == player_->current())) go_to_step(s, i);
  }
}

}  // namespace gpulab::presenter

// The lesson player's state and its overlay (lesson_player.h).
#include "presenter/lesson_player.h"

#include <imgui.h>

#include <algorithm>

#include "presenter/hud.h"

namespace gpulab::presenter {

LessonPlayer::LessonPlayer(Lesson lesson) : lesson_(std::move(lesson)), loaded_(stamp_of(lesson_.file)) {}

LessonPlayer::Stamp LessonPlayer::stamp_of(const std::filesystem::path& file) {
  Stamp s;
  std::error_code ec;
  if (file.empty() || !std::filesystem::is_regular_file(file, ec)) return s;
  s.size = std::filesystem::file_size(file, ec);
  if (ec) return s;
  s.time = std::filesystem::last_write_time(file, ec);
  s.exists = !ec;
  return s;
}

namespace {
// What a step runs, as written: a step whose copy of this differs must be started again.
bool same_run(const LessonStep& a, const LessonStep& b) {
  return a.demo == b.demo && a.variants == b.variants && a.blocks == b.blocks && a.params == b.params &&
         a.ladder == b.ladder && a.code == b.code && a.code_lines == b.code_lines &&
         a.code_mark == b.code_mark;
}
}  // namespace

LessonReload LessonPlayer::poll_file(double now, const DemoFactory& make_demos, bool device, bool* restart) {
  if (restart) *restart = false;
  if (now < next_poll_) return LessonReload::None;
  next_poll_ = now + kPollSeconds;
  const Stamp st = stamp_of(lesson_.file);
  if (st == loaded_ || !st.exists) {  // (a file being replaced may be missing for a moment)
    seen_.reset();
    return LessonReload::None;
  }
  if (!seen_ || !(*seen_ == st)) {  // changed since the last look: wait for the write to end
    seen_ = st;
    return LessonReload::None;
  }
  seen_.reset();
  loaded_ = st;  // this version is read once, whatever it says
  LessonLoad r = load_lesson(lesson_.file, make_demos, device);
  if (!r.lesson) {
    reload_error_ = "lesson not reloaded: " + r.error + "; the lesson as it was goes on";
    return LessonReload::Refused;
  }
  reload_error_.clear();
  const int k = std::min(current_, static_cast<int>(r.lesson->steps.size()) - 1);
  if (restart)
    *restart = current_ >= 0 && (k != current_ || !same_run(lesson_.steps[static_cast<size_t>(current_)],
                                                            r.lesson->steps[static_cast<size_t>(k)]));
  lesson_ = std::move(*r.lesson);
  current_ = k;
  return LessonReload::Reloaded;
}

int LessonPlayer::target(LessonMove m) const {
  const int last = size() - 1;
  switch (m) {
    case LessonMove::Next:
      return std::min(current_ + 1, last);
    case LessonMove::Previous:
      return std::max(current_ - 1, 0);
    case LessonMove::First:
      return 0;
    case LessonMove::Last:
      return last;
  }
  return current_;
}

void LessonPlayer::shown(int k, std::string problem) {
  current_ = std::clamp(k, 0, size() - 1);
  problem_ = std::move(problem);
}

std::string LessonPlayer::progress() const {
  const int k = std::max(current_, 0);
  std::string line = "step " + std::to_string(k + 1) + " of " + std::to_string(size());
  if (k + 1 < size())
    line += " — next: " + lesson_.steps[k + 1].title;
  else
    line += " — the end";
  return line;
}

namespace {
// The caption band's height for `caption` wrapped into `width` points with `big` at `px`.
float caption_height(const std::string& caption, float width, ImFont* big, float px, float pad) {
  if (caption.empty() || !big) return 0.0f;
  const ImVec2 ts = big->CalcTextSizeA(px, 1e9f, std::max(width - 4 * pad, 1.0f), caption.c_str());
  return ts.y + 2 * pad;
}
}  // namespace

namespace {
// The band's parts: the progress line (right) and the problem (left) on the first row, the caption
// wrapped under them.
struct BandText {
  std::string progress, problem, caption;
  float pad = 0, small_px = 0, row_h = 0, caption_h = 0, problem_w = 0;
  bool stacked = false;  // the problem on a row of its own under the progress line (a narrow band)
};
BandText band_text(const LessonPlayer& player, float width, ImFont* big, float px, ImFont* small) {
  BandText t;
  t.small_px = small->FontSize;
  t.pad = std::max(4.0f, t.small_px * 0.4f);
  t.progress = player.progress();
  t.problem = player.problem();
  const float progress_w = small->CalcTextSizeA(t.small_px, 1e9f, 0.0f, t.progress.c_str()).x;
  t.problem_w = width - progress_w - 6 * t.pad;
  t.stacked = t.problem_w < width * 0.5f;
  if (t.stacked) t.problem_w = std::max(width - 4 * t.pad, t.small_px * 6);
  const float problem_h =
      t.problem.empty() ? 0.0f : small->CalcTextSizeA(t.small_px, 1e9f, t.problem_w, t.problem.c_str()).y;
  t.row_h = (t.stacked ? t.small_px + (problem_h > 0 ? t.pad + problem_h : 0.0f)
                       : std::max(t.small_px, problem_h)) +
            t.pad;
  if (const LessonStep* s = player.step()) t.caption = s->caption;
  t.caption_h = caption_height(t.caption, width, big, px, t.pad);
  return t;
}
}  // namespace

float lesson_band_height(const LessonPlayer& player, float width, ImFont* big, float px, ImFont* small) {
  if (!big) big = ImGui::GetFont();
  if (!small) small = ImGui::GetFont();
  const BandText t = band_text(player, width, big, px, small);
  return t.pad + t.row_h + t.caption_h;
}

LessonOverlay draw_lesson_band(const LessonPlayer& player, float x0, float y0, float x1, float y1,
                               ImFont* big, float px, ImFont* small, bool light_theme) {
  if (!big) big = ImGui::GetFont();
  if (!small) small = ImGui::GetFont();
  LessonOverlay out;
  const BandText t = band_text(player, x1 - x0, big, px, small);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const auto [back, ink] = overlay_colours(light_theme);
  const ImU32 warn = light_theme ? IM_COL32(150, 60, 0, 255) : IM_COL32(255, 190, 80, 255);
  const ImVec4 clip(x0, y0, x1, y1);
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), back);
  const float progress_w = small->CalcTextSizeA(t.small_px, 1e9f, 0.0f, t.progress.c_str()).x;
  out.progress_x1 = x1 - 2 * t.pad;
  out.progress_x0 = out.progress_x1 - progress_w;
  out.progress_y0 = y0 + t.pad;
  out.progress_y1 = out.progress_y0 + t.small_px;
  dl->AddText(small, t.small_px, ImVec2(out.progress_x0, out.progress_y0), ink, t.progress.c_str(), nullptr,
              0.0f, &clip);
  if (!t.problem.empty())
    dl->AddText(small, t.small_px,
                ImVec2(x0 + 2 * t.pad, out.progress_y0 + (t.stacked ? t.small_px + t.pad : 0.0f)), warn,
                t.problem.c_str(), nullptr, t.problem_w, &clip);
  if (!t.caption.empty()) {
    out.caption_y0 = y0 + t.pad + t.row_h;
    // A band held to its share of the screen: the caption smaller (down to 60%) rather than cut.
    float cpx = px;
    for (int i = 0; i < 8 && cpx > px * 0.6f &&
                    out.caption_y0 + caption_height(t.caption, x1 - x0, big, cpx, t.pad) > y1;
         ++i)
      cpx *= 0.93f;
    // Where the caption ends, as set (below y1 when it is cut: the layout report says so).
    out.caption_y1 = out.caption_y0 + caption_height(t.caption, x1 - x0, big, cpx, t.pad);
    dl->AddText(big, cpx, ImVec2(x0 + 2 * t.pad, out.caption_y0 + t.pad), ink, t.caption.c_str(), nullptr,
                std::max(x1 - x0 - 4 * t.pad, 1.0f), &clip);
  }
  return out;
}

}  // namespace gpulab::presenter

// The lesson player's state and its overlay (lesson_player.h).
#include "presenter/lesson_player.h"

#include <imgui.h>

#include <algorithm>

#include "presenter/hud.h"

namespace gpulab::presenter {

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

LessonOverlay draw_lesson_overlay(const LessonPlayer& player, float x0, float x1, float y1, ImFont* big,
                                  float px, ImFont* small, bool light_theme) {
  if (!big) big = ImGui::GetFont();
  if (!small) small = ImGui::GetFont();
  LessonOverlay out;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const auto [back, ink] = overlay_colours(light_theme);
  const ImU32 warn = light_theme ? IM_COL32(150, 60, 0, 255) : IM_COL32(255, 190, 80, 255);
  const float small_px = small->FontSize;
  const float pad = std::max(4.0f, small_px * 0.4f);

  // The progress line (and the problem, when there is one) in the top right corner.
  std::string lines = player.progress();
  if (!player.problem().empty()) lines += "\n" + player.problem();
  const float max_w = std::max((x1 - x0) * 0.5f, 50.0f);
  const ImVec2 ts = small->CalcTextSizeA(small_px, 1e9f, max_w, lines.c_str());
  out.progress_x1 = x1 - pad;
  out.progress_x0 = out.progress_x1 - ts.x - 2 * pad;
  out.progress_y0 = pad;
  out.progress_y1 = out.progress_y0 + ts.y + 2 * pad;
  dl->AddRectFilled(ImVec2(out.progress_x0, out.progress_y0), ImVec2(out.progress_x1, out.progress_y1), back,
                    pad * 0.5f);
  const std::string progress = player.progress();
  dl->AddText(small, small_px, ImVec2(out.progress_x0 + pad, out.progress_y0 + pad), ink, progress.c_str());
  if (!player.problem().empty()) {
    const float py = out.progress_y0 + pad + small->CalcTextSizeA(small_px, 1e9f, max_w, progress.c_str()).y;
    dl->AddText(small, small_px, ImVec2(out.progress_x0 + pad, py), warn, player.problem().c_str(), nullptr,
                max_w);
  }

  // The caption along the bottom of the view, wrapped to its width.
  const LessonStep* s = player.step();
  if (s && !s->caption.empty()) {
    const float h = caption_height(s->caption, x1 - x0, big, px, pad);
    out.caption_y1 = y1;
    out.caption_y0 = y1 - h;
    dl->AddRectFilled(ImVec2(x0, out.caption_y0), ImVec2(x1, out.caption_y1), back);
    dl->AddText(big, px, ImVec2(x0 + 2 * pad, out.caption_y0 + pad), ink, s->caption.c_str(), nullptr,
                std::max(x1 - x0 - 4 * pad, 1.0f));
  }
  return out;
}

}  // namespace gpulab::presenter

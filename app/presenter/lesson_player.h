#pragma once
// The lesson player: where a lecture stands (which step of which lesson), what the clicker's keys
// do, and what is drawn over the view while a lesson runs: a small "step 3 of 9 — next: ..." line in
// the top right corner, the step's caption large at the bottom of the view (the HUD sits above it),
// and a line saying so when the step's variant cannot run here. Starting a step (swapping in the
// demo it configures, choosing its variant) is the App's, through the Demo interface.
#include <optional>
#include <string>

#include "presenter/lesson.h"

struct ImFont;

namespace gpulab::presenter {

enum class LessonMove { Next, Previous, First, Last };

class LessonPlayer {
 public:
  explicit LessonPlayer(Lesson lesson) : lesson_(std::move(lesson)) {}

  const Lesson& lesson() const { return lesson_; }
  int size() const { return static_cast<int>(lesson_.steps.size()); }
  int current() const { return current_; }  // 0-based; -1 before the first step is shown
  const LessonStep* step() const { return current_ >= 0 ? &lesson_.steps[current_] : nullptr; }
  // The step a move lands on (clamped to the lesson: Next on the last step stays there).
  int target(LessonMove m) const;
  // Marks step k as shown; `problem` says what could not be done ("gpu-shared cannot run here
  // (no CUDA device): cpu-lut is shown"), "" when the step is shown as written.
  void shown(int k, std::string problem);
  const std::string& problem() const { return problem_; }
  // The Setup whose input the demo now shows (the step that started it); none: the next step starts
  // its demo afresh.
  const std::optional<Setup>& input() const { return input_; }
  void set_input(std::optional<Setup> s) { input_ = std::move(s); }

  // "step 3 of 9 — next: constant memory"; "step 9 of 9 — the end".
  std::string progress() const;

 private:
  Lesson lesson_;
  int current_ = -1;
  std::string problem_;
  std::optional<Setup> input_;
};

// Where the overlay went (window points), for the layout report.
struct LessonOverlay {
  float caption_y0 = 0, caption_y1 = 0;  // the caption band (0, 0 when the step has none)
  float progress_x0 = 0, progress_y0 = 0, progress_x1 = 0, progress_y1 = 0;
};
// The lesson band (window points): the progress line at its top right and the problem (when there
// is one) at its left, the step's caption wrapped under them with `big` at `px`. Its height for a band
// `width` points wide, and the drawing into the foreground draw list over [x0, x1] x [y0, y1].
float lesson_band_height(const LessonPlayer& player, float width, ImFont* big, float px, ImFont* small);
LessonOverlay draw_lesson_band(const LessonPlayer& player, float x0, float y0, float x1, float y1,
                               ImFont* big, float px, ImFont* small, bool light_theme);

}  // namespace gpulab::presenter

#pragma once
// The lesson player: where a lecture stands (which step of which lesson), what the clicker's keys
// do, and what is drawn over the view while a lesson runs: a small "step 3 of 9 — next: ..." line in
// the top right corner, the step's caption large at the bottom of the view (the HUD sits above it),
// and a line saying so when the step's variant cannot run here. Starting a step (swapping in the
// demo it configures, choosing its variant) is the App's, through the Demo interface.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "presenter/lesson.h"

struct ImFont;

namespace gpulab::presenter {

enum class LessonMove { Next, Previous, First, Last };

// What a look at the lesson's file found (LessonPlayer::poll_file).
enum class LessonReload {
  None,      // no change (or a write not finished yet)
  Reloaded,  // read again: the new lesson plays, at the same step (clamped to its steps)
  Refused,   // changed but does not read: the old lesson goes on, reload_error() says why
};

class LessonPlayer {
 public:
  // Seconds between two looks at the lesson's file.
  static constexpr double kPollSeconds = 0.5;

  explicit LessonPlayer(Lesson lesson);

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

  // Reloading a lesson edited while it runs. At most every kPollSeconds of `now` (steady seconds)
  // the file's size and modification time are looked at; once they changed and then stayed the same
  // at the next look (the editor's write is over), the file is read again (load_lesson). Reloaded:
  // the new lesson plays at the same step (the last one when steps went away); *restart (if given)
  // says whether that step now runs something else than before (its demo, parameters, variants,
  // blocks, the ladder or the code panel), so that it must be started again, rather than only its
  // caption, notes and title changed. Refused: the old lesson goes on and reload_error() says why
  // ("lesson not reloaded: FILE:LINE: step K: ...; the lesson as it was goes on").
  LessonReload poll_file(double now, const DemoFactory& make_demos, bool device, bool* restart = nullptr);
  const std::string& reload_error() const { return reload_error_; }

 private:
  struct Stamp {
    bool exists = false;
    uintmax_t size = 0;
    std::filesystem::file_time_type time{};
    bool operator==(const Stamp&) const = default;
  };
  static Stamp stamp_of(const std::filesystem::path& file);

  Lesson lesson_;
  int current_ = -1;
  std::string problem_;
  std::optional<Setup> input_;
  Stamp loaded_;               // the file as it was read
  std::optional<Stamp> seen_;  // a change seen at the last look, not read yet
  double next_poll_ = -1e300;  // when to look again
  std::string reload_error_;
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

#pragma once
// `gpulab --lesson FILE --check`: before class, every step of a lesson prepared on this machine
// without a window (the shell steps through it headless and fills a LessonCheck), then one line a
// step: how long it took to prepare, what runs, what falls back (a variant that cannot run here and
// what stands in) and what is missing (a character the fonts cannot draw, the fonts themselves, a demo
// that does not start). The exit status is 1 when something is missing (or the lesson does not
// read), else 0: a step that falls back is what the room will see here, not an error.
#include <string>
#include <vector>

struct ImFont;

namespace gpulab::presenter {

struct LessonStep;

// Steps slower than this to prepare are marked.
inline constexpr double kSlowStepSeconds = 1.0;

struct LessonCheckStep {
  int step = 0;  // 1-based
  std::string title;
  double prepare_s = 0;    // started, and its first frame drawn
  double ladder_s = -1;    // the ladder's measuring, for a step that opens it (-1: none)
  std::string runs;        // "life cpu-lut" (the demo and its running variants)
  std::string falls_back;  // what the lesson band says ("gpu-global cannot run here (...): cpu-lut is shown")
  std::vector<std::string> missing;  // one line each
};

struct LessonCheck {
  std::string file;     // as given (escaped when printed)
  std::string title;    // the lesson's
  std::string machine;  // "CPU backend: no NVIDIA driver ..." / "CUDA: NVIDIA H100 ..."; the GL renderer
  double read_s = 0;    // reading and checking the file (every step configured on fresh demos)
  std::string refused;  // the lesson does not read (or could not be prepared): why; no steps then
  std::vector<std::string> missing;  // the whole lesson's (the fonts)
  std::vector<LessonCheckStep> steps;
};

// What of a step's text the fonts cannot draw: "caption: U+65E5 日, ..." (the caption in `caption_font`,
// the title and the notes in `ui_font`); empty when everything is drawn.
std::vector<std::string> missing_glyph_lines(const LessonStep& step, const ImFont& caption_font,
                                             const ImFont& ui_font);

// The report, as printed (a header, one line a step with indented lines under it, a summary).
std::string format_lesson_check(const LessonCheck& check);
// 1 when the lesson was refused or something is missing, else 0.
int lesson_check_status(const LessonCheck& check);

}  // namespace gpulab::presenter

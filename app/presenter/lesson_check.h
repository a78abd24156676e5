#pragma once
// `gpulab --lesson FILE --check`: before class, every step of a lesson prepared on this machine
// without a window (the shell steps through it headless and fills a LessonCheck), then one line a
// step: how long it took to prepare, what runs, what falls back (a variant that cannot run here and
// what stands in) and what is missing (a character the fonts cannot draw, the fonts themselves, a demo
// that does not start, a results file the lesson names that does not read); where recorded results
// are loaded (the lesson's file or --results), each step that falls back says whether they have its
// variant's figures. The exit status is 1 when something is missing (or the lesson does not read),
// else 0: a step that falls back is what the room will see here, not an error.
#include <string>
#include <string_view>
#include <vector>

struct ImFont;

namespace gpulab {
struct RecordedResults;
}

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
  // A step that falls back while recorded results are loaded: the figures shown for its variant
  // (recorded_step_line), "" otherwise.
  std::string recorded;
  bool recorded_found = false;  // the file has figures for it (recorded does not say "none")
};

struct LessonCheck {
  std::string file;     // as given (escaped when printed)
  std::string title;    // the lesson's
  std::string machine;  // "CPU backend: no NVIDIA driver ..." / "CUDA: NVIDIA H100 ..."; the GL renderer
  double read_s = 0;    // reading and checking the file (every step configured on fresh demos)
  std::string refused;  // the lesson does not read (or could not be prepared): why; no steps then
  std::vector<std::string> missing;  // the whole lesson's (the fonts, its results file)
  // The recorded results loaded: "'life-h100.json', recorded on NVIDIA H100 80GB HBM3, 2026-11-27" ("":
  // none).
  std::string recorded;
  std::vector<LessonCheckStep> steps;
};

// What of a step's text the fonts cannot draw: "caption: U+65E5 日, ..." (the caption in `caption_font`,
// the title and the notes in `ui_font`); empty when everything is drawn.
std::vector<std::string> missing_glyph_lines(const LessonStep& step, const ImFont& caption_font,
                                             const ImFont& ui_font);

// What recorded results give a step whose variant `asked` cannot run here, for its case of
// `items_per_step` items (0: unknown): "gpu-global: 4.00 µs, ×200 vs cpu-naive", the same with
// " at 4096x4096" where only another size is recorded, or "none for gpu-swar" (or "none: the file is
// nbody's" for another demo); *found says whether it has figures. Values from the file are escaped.
std::string recorded_step_line(const RecordedResults& recorded, std::string_view demo,
                               const std::string& asked, double items_per_step, bool* found = nullptr);
// "'FILE', recorded on DEVICE, DATE" (escaped), for LessonCheck::recorded.
std::string recorded_source_line(const RecordedResults& recorded);

// The report, as printed (a header, one line a step with indented lines under it, a summary).
std::string format_lesson_check(const LessonCheck& check);
// 1 when the lesson was refused or something is missing, else 0.
int lesson_check_status(const LessonCheck& check);

}  // namespace gpulab::presenter

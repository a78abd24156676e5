#pragma once
// Lesson scripts: a lecture as a TOML file of ordered steps that the lesson player (lesson_player.h)
// walks through on a clicker. A step is a Setup: it names a demo, its variant (two for A/B), block
// size and the demo's own parameters, spelled as the demo's command-line options without the dashes,
// so that a step is exactly what `gpulab --demo D --variant V --block B --KEY VALUE...` would start
// and is checked by the same code (the demo's option group, apply_choices(), configure()).
//
//   title = "Game of Life: from the CPU to bit packing"
//   results = "life-h100.json"             # figures recorded on a GPU (gpulab bench/ladder --json), shown
//                                          # where a step cannot run here; --results wins over it
//   [[step]]
//   title = "The CPU reference"           # the short name "next: ..." shows (default: the variant)
//   demo = "life"                          # the first step must name one; later ones inherit it
//   variant = "cpu-naive"                  # or ["cpu-naive", "cpu-lut"] for A/B; inherited when left out
//   block = 16                             # or "STAGE=N", or a list of those; default: the variant's
//   params = { grid = "256x256", pattern = "../patterns/gosper-glider-gun.rle" }
//   ladder = false                         # the speed-up ladder (F5) at this step only
//   code = true                            # the code panel (F4) from this step on (until code = false)
//   overlay = "histogram"                  # histeq: the histograms and CDFs over the view from this step
//                                          # on (until overlay = "none"; it is --histogram-overlay)
//   caption = "One or two sentences, shown large under the HUD."
//   notes = "For the presenter: shown in the window's panel only, never in projector mode."
//
// Parameters carry over from step to step while the demo stays the same (a step changes only what it
// names); a step naming another demo starts from that demo's defaults. A string parameter naming a
// file that exists relative to the lesson's folder is given as that path. A true boolean is a flag
// (--per-channel), false leaves it out. Output options (--save-...) are refused: a lesson writes
// nothing.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/setup.h"

namespace gpulab {
class Demo;
}

namespace gpulab::presenter {

struct LessonStep {
  int line = 0;       // where the step's [[step]] table starts (1-based)
  std::string title;  // short name for "next: ..."
  std::string demo;
  std::vector<std::string> variants;  // as written: 0 (the demo's default), 1, or 2 (A/B: first and second)
  std::vector<std::string> blocks;    // as written, as --block takes them: "N" or "STAGE=N"
  std::vector<std::pair<std::string, std::string>> params;  // as written: option name (no dashes), value
  std::optional<bool> ladder;  // true: start the ladder at this step (closed at steps without it)
  std::optional<bool> code;    // the code panel; left out: as the step before (none: as the user left it)
  // The code's lines the step points at (1-based, inclusive, in the snippet): marked and scrolled to.
  std::optional<std::pair<int, int>> code_lines;
  // Or the lines between "// mark NAME" and "// end mark" in the step's kernel (checked when read).
  std::string code_mark;
  std::string caption, notes;

  // What the step runs: the demo, its parameters and shared inputs, the picks (the first variant's,
  // and the blocks), the defaults of the device the lesson was read for.
  Setup setup;
  // An A/B step's B half: `setup` with the second variant picked.
  std::optional<Setup> b;
};
struct Lesson {
  std::filesystem::path file;
  std::string title;
  // The results file the lesson names (`results`), relative to the lesson's folder; empty: none. It is
  // read when the lesson opens (a file that does not read is said, and the lesson opens without it).
  std::filesystem::path results;
  std::vector<LessonStep> steps;
};

// The notice shown when a lesson opens: its title (control bytes escaped: the title is the file's
// text) and how to step through it.
std::string lesson_opened_notice(const Lesson& lesson);

struct LessonLoad {
  std::optional<Lesson> lesson;
  std::string error;  // "FILE:LINE: step K: what is wrong" when lesson is empty
};

// Makes a fresh set of every demo (the shell's make_demos): a step is checked on fresh instances, so
// that its parameters start from the demo's defaults.
using DemoFactory = std::function<std::vector<std::unique_ptr<Demo>>()>;

// Parses and checks a lesson: TOML, keys, types, every step's Setup made and configured on a fresh demo
// as the command line's would be (unknown variant ids, values out of range, missing files are refused
// here, not when the step is reached). `file` names the source in messages and anchors relative
// paths; `device`: a CUDA device is present (the picks a step does not name are its defaults).
LessonLoad parse_lesson(std::string_view text, const std::filesystem::path& file,
                        const DemoFactory& make_demos, bool device = false);
// Reads `file` (a regular file of at most 1 MiB) and parses it.
LessonLoad load_lesson(const std::filesystem::path& file, const DemoFactory& make_demos, bool device = false);

// The keys the reader accepts: at the top of the file, in a [[step]] table, and in a step's params for
// `demo` (its command-line options without the dashes, less those naming outputs, plus image, seed and
// init; sorted). docs/lesson-format.md describes every one (a test compares them).
std::vector<std::string> lesson_top_keys();
std::vector<std::string> lesson_step_keys();
std::vector<std::string> lesson_param_keys(const Demo& demo);

// The lessons shipped in `assets`/lessons, sorted by file name.
std::vector<std::filesystem::path> shipped_lessons(const std::filesystem::path& assets);

}  // namespace gpulab::presenter

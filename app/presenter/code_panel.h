#pragma once
// The code panel (F4; a lesson step can ask for it): the source of the kernel the chosen stage's
// variant runs, from the build's embedded regions (code_source.h), in the monospace font with a
// minimal C++ highlighting, the lines that differ from the previous rung of the ladder (the variant
// before it in the stage's table) marked, and beside it what the compiler made of it: registers and
// shared / local / stack bytes a kernel and, where the build had cuobjdump, its SASS in a second tab.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/demo.h"
#include "presenter/code_source.h"

struct ImFont;

namespace gpulab::presenter {

struct CodeLine {
  std::string text;
  bool changed = false;  // differs from the previous rung
  bool header = false;   // the "// FILE:LINE" line before a region
};

// What the panel shows for one stage: its current variant's snippet against the previous rung's.
struct CodeView {
  std::string variant, previous;  // ids; previous is "" on the first rung
  std::string snippet;            // the variant's VariantRecord::snippet
  bool same_as_previous = false;  // both rungs run the same code (they differ in how it is launched)
  std::vector<CodeLine> lines;    // empty when the snippet has no region (a build defect; a test checks)
  std::vector<const KernelBuild*> kernels;
};
// A source line too long for `per_row` characters, cut into rows [begin, end) at token boundaries:
// after a space where one falls in the row's last two thirds, else between a word and punctuation,
// mid-token only where one token is longer than a row. Continued rows lose their leading spaces and
// hold per_row - code_hang(line, per_row) characters: they are drawn indented by the hang.
std::vector<std::pair<size_t, size_t>> wrap_code_line(std::string_view line, size_t per_row);
// The hanging indent of a continued row, in characters: the line's own indent and 4 more, at most
// half a row.
size_t code_hang(std::string_view line, size_t per_row);

// The lines (1-based among the snippet's own, headers not counted) between "// mark NAME" and the next
// "// end mark": what a lesson step's code_mark points at; {0, 0} when the snippet has no such marker.
std::pair<int, int> marked_lines(const CodeView& v, std::string_view name);
// The variant `shown` picks in its stage's `table`, compared with the rung before it, or with the
// variant `against` picks when given (A/B shows B's code against A's).
CodeView code_view(const StageTable& table, const Pick& shown, std::optional<Pick> against = std::nullopt);

// The panel's view between frames, with each line's highlighting: made again only when the stage
// shown or its variant (or the rung before it) changes.
class CodePanelCache {
 public:
  const CodeView& view(const StageTable& table, const Pick& shown,
                       std::optional<Pick> against = std::nullopt);
  const std::vector<TokenSpan>& tokens(size_t line) const { return tokens_[line]; }

 private:
  bool made_ = false;
  const StageTable* table_ = nullptr;
  Pick shown_;
  std::optional<Pick> against_;
  CodeView view_;
  std::vector<std::vector<TokenSpan>> tokens_;  // a line's spans (block comments carried over lines)
  std::string scrolled_for_;

 public:
  // The view and marking the source was last scrolled for (it scrolls to the marked lines once).
  const std::string& scrolled_for() const { return scrolled_for_; }
  void set_scrolled_for(std::string k) { scrolled_for_ = std::move(k); }
};
// "NAME: 32 registers, shared 4096 B a block (static), local 0 B (spills and local arrays), stack 0 B"
// (and " (first of N builds)" for a kernel built several times), or "NAME: " and why it is not known.
std::string resource_line(const KernelBuild& k);

// Where it went and what it showed on the last frame (window points), for the layout report.
struct CodePanelShown {
  bool shown = false;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::string variant, previous, snippet;
  int lines = 0, changed = 0;
  bool sass = false;    // the SASS tab has instructions
  float font_px = 0;    // the source's text size as drawn (shrunk to fit, not below the room's minimum)
  int rows = 0;         // the rows the source took (long lines wrap)
  float mark_y = -1;    // the first line a lesson step marks, in the source's content (-1: none)
  float stages_x1 = 0;  // where the stages' radios end on the right (0: one stage, no radios)
};

// Where the panel goes (window points): its region of the screen layout, the smallest text size the
// room can read (0: no minimum), and the lines a lesson step marks (1-based, inclusive; 0: none).
struct CodePanelPlace {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float min_px = 0;
  int mark_first = 0, mark_last = 0;
  std::string mark_name;  // or the lines between "// mark NAME" and "// end mark" in the snippet
};

// What the panel shows: a pick a stage of the demo's tables (the running Setup's, A/B's B half's, or
// a lesson step's that cannot run here), the stages it may choose among (those that run), and in A/B
// the picks compared with (A's).
struct CodePicks {
  const StageTables* tables = nullptr;
  Picks picks;
  std::vector<size_t> active;
  std::optional<Picks> against;
};

// Draws the panel as a window over `at` with a picker of the active stages (`*stage` is the stage
// chosen), its view from `cache`: the source shrunk to fit (not below at.min_px) and wrapped, the
// marked lines scrolled to the top. `mono_small`: the mono face rasterised smaller, used for code set
// at or below its size (may be `mono` or null). Returns false when the window was closed.
bool draw_code_panel(const CodePicks& what, size_t* stage, CodePanelCache* cache, ImFont* mono,
                     ImFont* mono_small, bool light_theme, const CodePanelPlace& at, CodePanelShown* shown);

}  // namespace gpulab::presenter

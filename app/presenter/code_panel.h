#pragma once
// The code panel (F4; a lesson step can ask for it): the source of the kernel the chosen stage's
// variant runs, from the build's embedded regions (code_source.h), in the monospace font with a
// minimal C++ highlighting, the lines that differ from the previous rung of the ladder (the variant
// before it in the stage's table) marked, and beside it what the compiler made of it: registers and
// shared / local / stack bytes a kernel and, where the build had cuobjdump, its SASS in a second tab.
#include <string>
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
CodeView code_view(const Stage& stage);

// The panel's view between frames, with each line's highlighting: made again only when the stage
// shown or its variant (or the rung before it) changes.
class CodePanelCache {
 public:
  const CodeView& view(size_t stage_index, const Stage& stage);
  const std::vector<TokenSpan>& tokens(size_t line) const { return tokens_[line]; }

 private:
  bool made_ = false;
  size_t stage_ = 0;
  std::string key_;  // the ids and snippets of the rung shown and the previous one
  CodeView view_;
  std::vector<std::vector<TokenSpan>> tokens_;  // a line's spans (block comments carried over lines)
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
  bool sass = false;  // the SASS tab has instructions
};

// Draws the panel as a window over [x0, x1] x [y0, y1] with a picker of the active stages
// (`*stage` is the index chosen into `stages`), its view from `cache`. Returns false when the window
// was closed.
bool draw_code_panel(const std::vector<Stage>& stages, size_t* stage, CodePanelCache* cache, ImFont* mono,
                     bool light_theme, float x0, float y0, float x1, float y1, CodePanelShown* shown);

}  // namespace gpulab::presenter

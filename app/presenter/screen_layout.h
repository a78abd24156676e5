#pragma once
// The screen, cut into regions by one function of (display size, UI scale, what is on), so that no two
// of them overlap: the docked panel on the left, then, right of it, the caption line along the bottom,
// the lesson's caption band above it, the HUD band above that, the code column at the right and the
// view (where the demo is fitted, A/B's halves side by side) in what is left. Modal lists (F1), the
// ladder and the toasts are drawn above everything and take no region. Window points throughout.
#include <functional>
#include <string>
#include <vector>

#include "presenter/rect.h"

namespace gpulab::presenter {

// Two regions overlap when they share an area (touching edges do not count; an empty one never does).
bool overlaps(const Rect& a, const Rect& b);

struct LayoutInput {
  float width = 0, height = 0;  // the display
  float ui_scale = 1;
  bool panel = true;       // the panel is drawn (hidden with Tab / --no-ui)
  bool compact = false;    // projector mode's panel: the pickers only
  bool collapsed = false;  // the compact panel folded to a strip (the mouse is idle)
  float panel_w = 0;       // the width the panel asks for (its content's, in compact mode)
  bool caption = false;    // the demo's caption line
  float caption_h = 0;     // its height
  bool lesson = false;     // a lesson step with a caption
  bool hud = false;        // the HUD band
  bool code = false;       // the code column
  bool ab = false;         // A/B: the view split in two halves
  bool projector = false;
  // The lesson band's and the HUD band's heights for a band `width` points wide (their text wraps).
  std::function<float(float width)> lesson_height, hud_height;
};

struct ScreenLayout {
  Rect display;
  Rect panel;    // empty when no panel is drawn
  Rect view;     // the demo's picture
  Rect ab[2];    // A/B's halves of the view (empty without A/B)
  Rect code;     // the code column
  Rect hud;      // the HUD band
  Rect lesson;   // the lesson's caption band
  Rect caption;  // the demo's caption line
  // The regions that are on, with their names ("panel", "view", ...), in the order above.
  std::vector<std::pair<std::string, Rect>> regions() const;
};

// The share of the display's width the panel may take, and the share of the view's width the code
// column takes (in projector mode the view keeps at least half of the display's width).
constexpr float kPanelShareMax = 0.30f;
constexpr float kCodeShare = 0.45f;
constexpr float kProjectorViewShareMin = 0.5f;
// The strip a collapsed compact panel leaves (points at UI scale 1).
constexpr float kCollapsedPanelW = 18.0f;

ScreenLayout layout_screen(const LayoutInput& in);

}  // namespace gpulab::presenter

// The one layout function: see screen_layout.h.
#include "presenter/screen_layout.h"

#include <algorithm>
#include <cmath>

namespace gpulab::presenter {

bool overlaps(const Rect& a, const Rect& b) { return !a.empty() && !b.empty() && a.overlaps(b); }

std::vector<std::pair<std::string, Rect>> ScreenLayout::regions() const {
  std::vector<std::pair<std::string, Rect>> out;
  auto add = [&](const char* name, const Rect& r) {
    if (!r.empty()) out.emplace_back(name, r);
  };
  add("panel", panel);
  add("view", view);
  add("code", code);
  add("hud", hud);
  add("lesson", lesson);
  add("caption", caption);
  return out;
}

ScreenLayout layout_screen(const LayoutInput& in) {
  ScreenLayout out;
  const float W = std::max(in.width, 1.0f), H = std::max(in.height, 1.0f);
  out.display = {0, 0, W, H};
  // The panel, docked on the left: at most kPanelShareMax of the width (its content scrolls).
  float pw = 0;
  if (in.panel) {
    const float strip = kCollapsedPanelW * std::max(in.ui_scale, 1.0f);
    pw = std::floor(in.compact && in.collapsed ? strip
                                               : std::min(std::max(in.panel_w, strip), W * kPanelShareMax));
    out.panel = {0, 0, pw, H};
  }
  const float x0 = pw, x1 = W;
  const float band_w = x1 - x0;
  // The bands along the bottom, each at most a share of the height so that the view keeps some.
  float y = H;
  if (in.caption && in.caption_h > 0) {
    const float h = std::ceil(std::min(in.caption_h, H * 0.15f));
    out.caption = {x0, y - h, x1, y};
    y -= h;
  }
  // The lesson band, then the HUD band with what is left of two thirds of the height (the HUD drops
  // its last rows of figures when its band is shorter than it asks).
  const float budget = H * (2.0f / 3.0f) - (H - y);
  if (in.lesson && in.lesson_height) {
    const float h = std::ceil(std::min({in.lesson_height(band_w), H * 0.30f, std::max(budget, 0.0f)}));
    if (h > 0) {
      out.lesson = {x0, y - h, x1, y};
      y -= h;
    }
  }
  if (in.hud && in.hud_height) {
    const float h = std::floor(std::min(
        {std::ceil(in.hud_height(band_w)), H * 0.30f, std::max(budget - out.lesson.height(), 0.0f)}));
    if (h > 0) {
      out.hud = {x0, y - h, x1, y};
      y -= h;
    }
  }
  // The code column at the right, above the bands.
  float vx1 = x1;
  if (in.code) {
    float cw = std::floor(band_w * kCodeShare);
    if (in.projector) cw = std::min(cw, std::floor(std::max(0.0f, x1 - x0 - W * kProjectorViewShareMin)));
    if (in.projector && x1 - x0 - cw < W * kProjectorViewShareMin) cw = 0;
    if (cw > 0) {
      out.code = {x1 - cw, 0, x1, y};
      vx1 = x1 - cw;
    }
  }
  out.view = {x0, 0, vx1, y};
  if (in.ab) {
    const float mid = out.view.x0 + out.view.width() * 0.5f;
    out.ab[0] = {out.view.x0, out.view.y0, mid, out.view.y1};
    out.ab[1] = {mid, out.view.y0, out.view.x1, out.view.y1};
  }
  return out;
}

}  // namespace gpulab::presenter

#pragma once
// How an image demo shows its image: fitted into the view region the layout gives it, with its aspect
// kept, zoomed (1 = fitted) around a centre in image pixels, panned; screen coordinates in pixels,
// y down. Shared by the histogram-equalization and texture-rotation demos.
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "core/demo.h"

namespace gpulab {

// The scale of a mark drawn over the view (an outline, a warp's strip, the magnifier and its label, a
// body's smallest sprite), in framebuffer pixels per pixel of the mark's design: the framebuffer's
// height over 720 px (1.5 on the 1080-px reference, 3 at 2160), never below 1 (a 1-px line stays a
// pixel wide). The height alone decides, not the UI scale: projector mode pins the UI scale at 2
// whatever the projector's resolution, so a mark sized by it would be half as large on a 4K
// projection as on a 1080p one, and a back row reads both screens at the same size.
inline constexpr float kViewMarkScale1080 = 1.5f;
inline float view_mark_scale(int framebuffer_height) {
  return std::max(1.0f, kViewMarkScale1080 * static_cast<float>(framebuffer_height) / 1080.0f);
}
inline float view_mark_scale(const Frame& f) { return view_mark_scale(f.height); }

// Records mark `m` (framebuffer pixels) as drawn over the view `v`: its part inside the view, nothing
// when none of it is (the layout report's ViewMark list, which the demo clears each render).
inline void add_view_mark(std::vector<ViewMark>& marks, const Frame::Rect& v, ViewMark m) {
  m.x0 = std::max(m.x0, float(v.x)), m.y0 = std::max(m.y0, float(v.y));
  m.x1 = std::min(m.x1, float(v.x + v.w)), m.y1 = std::min(m.y1, float(v.y + v.h));
  if (m.x1 > m.x0 && m.y1 > m.y0) marks.push_back(std::move(m));
}

struct ImageView {
  static constexpr double kMinZoom = 0.25;        // relative to the fitted view
  static constexpr double kMaxPixelScale = 64.0;  // screen pixels per image pixel, at most
  static constexpr double kFitMargin = 0.96;      // the fitted image leaves a little room around it

  double zoom = 1.0;
  double centre_x = 0, centre_y = 0;  // the image point at the centre of the free area
  bool fitted = false;                // false: fit on the next layout
  int fb_w = 1, fb_h = 1;             // the framebuffer
  Frame::Rect area{0, 0, 1, 1};       // the view region the image is fitted into (pixels, y down)
  double scale = 1.0;                 // screen pixels per image pixel
  double left = 0, top = 0;           // the image's top-left corner on screen

  void fit(int img_w, int img_h) {
    zoom = 1.0;
    centre_x = img_w * 0.5;
    centre_y = img_h * 0.5;
    fitted = true;
  }
  // Places the image for this frame (fits it first when asked to).
  void layout(const Frame& frame, int img_w, int img_h) {
    fb_w = std::max(1, frame.width);
    fb_h = std::max(1, frame.height);
    area = frame.view_or_all();
    area.w = std::max(1, area.w);
    area.h = std::max(1, area.h);
    if (!fitted) fit(img_w, img_h);
    const double free_w = area.w, free_h = area.h;
    const double fit_scale = std::min(free_w / std::max(1, img_w), free_h / std::max(1, img_h)) * kFitMargin;
    scale = fit_scale * zoom;
    left = area.x + free_w * 0.5 - centre_x * scale;
    top = area.y + free_h * 0.5 - centre_y * scale;
  }
  bool over(double mx, double my, int img_w, int img_h) const {
    return mx >= left && mx < left + img_w * scale && my >= top && my < top + img_h * scale && mx >= area.x &&
           mx < area.x + area.w && my >= area.y && my < area.y + area.h;
  }
  // Wheel clicks zoom around the cursor: the image point under it stays put.
  void zoom_at(double mx, double my, double wheel) {
    if (wheel == 0.0 || scale <= 0) return;
    const double ix = (mx - left) / scale, iy = (my - top) / scale;
    const double fit_scale = scale / zoom;
    zoom = std::clamp(zoom * std::pow(1.25, wheel), kMinZoom, std::max(1.0, kMaxPixelScale / fit_scale));
    scale = fit_scale * zoom;
    const double cx = area.x + area.w * 0.5, cy = area.y + area.h * 0.5;
    centre_x = ix - (mx - cx) / scale;
    centre_y = iy - (my - cy) / scale;
  }
  // A drag of (dx, dy) screen pixels moves the image with the cursor.
  void pan(double dx, double dy) {
    if (scale <= 0) return;
    centre_x -= dx / scale;
    centre_y -= dy / scale;
  }
};

}  // namespace gpulab

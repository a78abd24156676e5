#pragma once
// A rectangle of the screen or of a chart, [x0, x1] x [y0, y1] with y down: the screen layout's
// regions, the ladder chart's boxes.
namespace gpulab::presenter {

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  // Overlap of positive area (touching edges do not count).
  bool overlaps(const Rect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool inside(const Rect& o) const { return x0 >= o.x0 && y0 >= o.y0 && x1 <= o.x1 && y1 <= o.y1; }
};

}  // namespace gpulab::presenter

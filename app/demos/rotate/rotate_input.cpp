// Texture rotation: the view and its input. Keys (quarter turns, filter, address mode, output path,
// compare, magnifier, fit), the mouse (turning by drag, the split, the scale on the wheel, zoom, pan).
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "demos/rotate/rotate_demo.h"

namespace gpulab {
namespace {

using rotate::Filter;

}  // namespace

// ---------------------------------------------------------------------------------------------
// View and input.

void RotateDemo::layout(const Frame& frame) { view_.layout(frame, image_.width, image_.height); }

double RotateDemo::screen_angle(double mx, double my) const {
  const double cx = view_.left + image_.width * view_.scale * 0.5,
               cy = view_.top + image_.height * view_.scale * 0.5;
  // Screen y grows downwards: counter-clockwise as displayed is a growing atan2(−dy, dx).
  return std::atan2(-(my - cy), mx - cx) * (180.0 / 3.14159265358979323846);
}

std::vector<KeyBinding> RotateDemo::keys() const {
  const std::string_view g = title();
  return {
      {GLFW_KEY_Q, 0, 0, false, "Q / Shift+Q", "a quarter turn counter-clockwise / clockwise", g},
      {GLFW_KEY_LEFT_BRACKET, 0, 0, false, "[", "a quarter turn counter-clockwise", g},
      {GLFW_KEY_RIGHT_BRACKET, 0, 0, false, "]", "a quarter turn clockwise", g},
      {GLFW_KEY_LEFT, 0, GLFW_KEY_RIGHT, false, "Left / Right", "turn by 1° (Shift: 15°)", g},
      {GLFW_KEY_L, 0, 0, false, "L", "point or linear filtering", g},
      {GLFW_KEY_A, 0, 0, false, "A / Shift+A", "next / previous addressing mode", g},
      {GLFW_KEY_P, 0, 0, false, "P", "output path: surface or pixel buffer", g},
      {GLFW_KEY_S, 0, 0, false, "S", "compare side by side with the CPU", g},
      {GLFW_KEY_M, 0, 0, false, "M", "magnifier", g},
      {GLFW_KEY_F, 0, 0, false, "F", "fit the image to the view", g},
  };
}

void RotateDemo::handle_input(const Frame& frame) {
  const Input& in = frame.input;
  for (int key : in.keys) {
    switch (key) {
      case GLFW_KEY_Q:  // a quarter turn: counter-clockwise, Shift: clockwise
        set_angle(angle() + (in.shift ? -90.0f : 90.0f));
        break;
      case GLFW_KEY_LEFT_BRACKET:
        set_angle(angle() + 90.0f);
        break;
      case GLFW_KEY_RIGHT_BRACKET:
        set_angle(angle() - 90.0f);
        break;
      case GLFW_KEY_LEFT:
        set_angle(angle() + (in.shift ? 15.0f : 1.0f));
        break;
      case GLFW_KEY_RIGHT:
        set_angle(angle() - (in.shift ? 15.0f : 1.0f));
        break;
      case GLFW_KEY_L: {
        rotate::Settings s = settings_;
        s.params.filter = s.params.filter == Filter::Point ? Filter::Linear : Filter::Point;
        set_settings(s);
        break;
      }
      case GLFW_KEY_A: {
        const auto& all = rotate::kAddresses;
        const int n = static_cast<int>(std::size(all));
        int i = 0;
        while (i < n && all[i] != settings_.params.address) ++i;
        rotate::Settings s = settings_;
        s.params.address = all[(i + (in.shift ? n - 1 : 1)) % n];
        set_settings(s);
        break;
      }
      case GLFW_KEY_P:
        set_output_path(output_ == RotateOutput::Surface ? RotateOutput::Pbo : RotateOutput::Surface);
        break;
      case GLFW_KEY_S:
        compare_ = !compare_;
        break;
      case GLFW_KEY_M:
        magnifier_ = !magnifier_;
        break;
      case GLFW_KEY_F:
        view_.fitted = false;
        break;
      default:
        break;
    }
  }
  if (!in.down[0]) dragging_angle_ = dragging_split_ = false;
  mouse_x_ = in.mouse_x;
  mouse_y_ = in.mouse_y;
  if (!frame.mouse_free) {
    hovering_ = false;
    return;
  }
  const double w = image_.width * view_.scale;
  const bool over_image = view_.over(in.mouse_x, in.mouse_y, image_.width, image_.height);
  hovering_ = over_image && view_.scale > 0;
  if (hovering_) {
    hover_x_ = std::clamp(static_cast<int>(std::floor((in.mouse_x - view_.left) / view_.scale)), 0,
                          image_.width - 1);
    hover_y_ = std::clamp(static_cast<int>(std::floor((in.mouse_y - view_.top) / view_.scale)), 0,
                          image_.height - 1);
    inspect_x_ = hover_x_;
    inspect_y_ = hover_y_;
  }
  // Left button: on the comparison's split line it moves the split, elsewhere on the image it turns
  // the picture about its centre, following the cursor.
  if (in.pressed[0] && over_image) {
    const double split_x = view_.left + split_ * w;
    if (compare_ && std::abs(in.mouse_x - split_x) <= 6.0 * std::max(1.0f, frame.ui_scale)) {
      dragging_split_ = true;
    } else {
      dragging_angle_ = true;
      drag_angle_ = screen_angle(in.mouse_x, in.mouse_y);
    }
  }
  if (dragging_split_ && in.down[0] && w > 0)
    split_ = static_cast<float>(std::clamp((in.mouse_x - view_.left) / w, 0.0, 1.0));
  if (dragging_angle_ && in.down[0]) {
    const double a = screen_angle(in.mouse_x, in.mouse_y);
    double d = a - drag_angle_;
    if (d > 180.0) d -= 360.0;
    if (d < -180.0) d += 360.0;
    if (d != 0.0) set_angle(static_cast<float>(angle() + d));
    drag_angle_ = a;
  }
  if (in.wheel != 0.0f && view_.scale > 0) {
    if (in.ctrl) {
      view_.zoom_at(in.mouse_x, in.mouse_y, in.wheel);  // Ctrl+wheel: zoom the view around the cursor
    } else {
      // Wheel: the rotation's scale, four clicks a doubling.
      rotate::Settings s = settings_;
      s.params.scale = static_cast<float>(std::clamp(double(s.params.scale) * std::pow(2.0, in.wheel / 4.0),
                                                     double(rotate::kMinScale), double(rotate::kMaxScale)));
      set_settings(s);
    }
  }
  if (in.dragging[1] || in.dragging[2]) view_.pan(in.delta_x, in.delta_y);  // right or middle drag
}

}  // namespace gpulab

// Histogram equalization: the view and its input. Keys (mode, colour handling, the split, fit) and the
// mouse (the split follows a click or drag, wheel zoom, pan).
#include <GLFW/glfw3.h>

#include <algorithm>

#include "demos/histeq/histeq_demo.h"

namespace gpulab {
namespace {

using histeq::Colour;
using histeq::Mode;

}  // namespace

// ---------------------------------------------------------------------------------------------
// View and input.

void HisteqDemo::layout(const Frame& frame) { view_.layout(frame, image_.width, image_.height); }

std::vector<KeyBinding> HisteqDemo::keys() const {
  const std::string_view g = title();
  return {
      {GLFW_KEY_E, 0, 0, false, "E", "equalize or stretch the contrast", g},
      {GLFW_KEY_C, 0, 0, false, "C", "luminance or each channel (colour images)", g},
      {GLFW_KEY_LEFT, 0, GLFW_KEY_RIGHT, false, "Left / Right", "move the before/after split", g},
      {GLFW_KEY_F, 0, 0, false, "F", "fit the image to the view", g},
  };
}

void HisteqDemo::handle_input(const Frame& frame) {
  for (int key : frame.input.keys) {
    switch (key) {
      case GLFW_KEY_E:
        set_mode(mode_ == Mode::Equalize ? Mode::Stretch : Mode::Equalize);
        break;
      case GLFW_KEY_C:
        if (image_.is_colour())
          set_colour(colour_ == Colour::Luminance ? Colour::PerChannel : Colour::Luminance);
        else
          notify("a grey image has one plane: luminance and per channel are the same");
        break;
      case GLFW_KEY_LEFT:
        split_ = std::max(0.0f, split_ - 0.05f);
        break;
      case GLFW_KEY_RIGHT:
        split_ = std::min(1.0f, split_ + 0.05f);
        break;
      case GLFW_KEY_F:
        view_.fitted = false;
        break;
      default:
        break;
    }
  }
  const Input& in = frame.input;
  if (!in.down[0]) dragging_split_ = false;
  if (!frame.mouse_free) return;
  const double w = image_.width * view_.scale;
  const bool over_image = view_.over(in.mouse_x, in.mouse_y, image_.width, image_.height);
  // Left button on the image: the split follows the cursor (a click moves it there, a drag slides it).
  if (in.pressed[0] && over_image) dragging_split_ = true;
  if (dragging_split_ && in.down[0] && w > 0)
    split_ = static_cast<float>(std::clamp((in.mouse_x - view_.left) / w, 0.0, 1.0));
  view_.zoom_at(in.mouse_x, in.mouse_y, in.wheel);
  if (in.dragging[1] || in.dragging[2]) view_.pan(in.delta_x, in.delta_y);  // right or middle drag
}

}  // namespace gpulab

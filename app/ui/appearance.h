#pragma once
// The UI's scale and theme made real between frames: the style re-scaled from a pristine one, and
// the font atlas rebuilt at the pixel sizes the scale (and, for the HUD, the framebuffer height)
// needs, its texture re-uploaded through ImGui's OpenGL3 backend.
#include <string>

#include "core/settings.h"
#include "ui/fonts.h"

namespace gpulab::ui {

// UI scales the panel and Ctrl+= / Ctrl+- step through.
inline constexpr float kScaleSteps[] = {0.75f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};
// The next step above (direction > 0) or below `scale`, clamped to 0.75..4.
float step_scale(float scale, int direction);
// `scale` clamped to 0.75..4 (a display's content scale may be anything).
float clamp_scale(float scale);

class Appearance {
 public:
  // Call before ImGui_ImplOpenGL3_NewFrame. `backend_ready`: the renderer's device objects exist (it
  // has drawn a frame), so a rebuilt atlas must be re-uploaded here; before that the backend uploads
  // it itself. Returns true when anything changed.
  bool update(float scale, Theme theme, int framebuffer_height, bool backend_ready);

  const Fonts& fonts() const { return fonts_; }
  float scale() const { return fonts_.scale; }
  // Why the TrueType fonts are not in use, once per change ("" when nothing new to say).
  std::string take_problem();

 private:
  Fonts fonts_;
  Theme theme_ = Theme::Dark;
  bool styled_ = false;
  std::string told_;
  std::string pending_;
};

}  // namespace gpulab::ui

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
// The screen's height in lines of UI text that a scale may not go below: 1080 px at 3x holds 25.7,
// which is as large as text is useful; a 720-px window at 3x (17 lines) would leave the picture a strip
// under the bands, so there the scale is held at what gives the same share of the height (2.06x).
inline constexpr float kMinTextLines = 25.0f;
// `scale` (clamped) held to the framebuffer's height: at most height / (kBaseFontPx × kMinTextLines),
// and never below 1 for it.
float fit_scale(float scale, int framebuffer_height);

class Appearance {
 public:
  // Call before ImGui_ImplOpenGL3_NewFrame. `backend_ready`: the renderer's device objects exist (it
  // has drawn a frame), so a rebuilt atlas must be re-uploaded here; before that the backend uploads
  // it itself. Returns true when anything changed.
  bool update(float scale, Theme theme, int framebuffer_height, bool backend_ready);

  const Fonts& fonts() const { return fonts_; }
  float scale() const { return fonts_.scale; }  // the scale in use (fit_scale of the one asked for)
  float asked() const { return asked_; }        // the scale asked for, clamped
  // Why the TrueType fonts are not in use, once per change ("" when nothing new to say).
  std::string take_problem();

 private:
  Fonts fonts_;
  Theme theme_ = Theme::Dark;
  float asked_ = 1.0f;
  bool styled_ = false;
  std::string told_;
  std::string pending_;
};

}  // namespace gpulab::ui

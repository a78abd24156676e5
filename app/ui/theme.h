#pragma once
// ImGui's look: the dark theme, or a high-contrast light one for washed-out projectors, with every
// size scaled from a pristine style each time (never ScaleAllSizes on an already scaled style, which
// would compound), and the few colours the panels choose themselves, per theme.
#include <imgui.h>

#include "core/settings.h"

namespace gpulab::ui {

// Replaces ImGui's current style with `theme`'s, every size multiplied by `scale`.
void apply_style(Theme theme, float scale);
// The theme apply_style last set (Dark before the first call).
Theme current_theme();

enum class Tone { Warning, Error, Good, Accent };
// A text colour that reads on the current theme's background.
ImVec4 tone(Tone t);

}  // namespace gpulab::ui

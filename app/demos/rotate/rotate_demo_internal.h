#pragma once
// What several of the rotation demo's files share: the default spin (the constructor and --spin), the
// throughput label (the HUD, the caption, the probe) and the panel's colours (the panel and the
// inspector). Internal to app/demos/rotate.
#include <imgui.h>

namespace gpulab::rotate_internal {

// Degrees a second while playing, unless --angle fixes the angle.
inline constexpr float kDefaultSpin = 10.0f;

// What a step is (one rotation of the image, a frame's): the HUD's, the caption's, the bench's and
// the ladder's words (per_words).
inline constexpr char kThroughputLabel[] = "rotate (per frame)";

inline const ImVec4 kRed(1.0f, 0.4f, 0.3f, 1.0f);
inline const ImVec4 kGreen(0.4f, 0.9f, 0.4f, 1.0f);
inline const ImVec4 kYellow(1.0f, 0.85f, 0.2f, 1.0f);

}  // namespace gpulab::rotate_internal

#pragma once
// Verify of the rotation demo: an output compared with the CPU reference of its variant's kind
// (rotate_cpu, or rotate_lecture_cpu for the lecture's kernel). CPU variants must match byte for
// byte; a GPU variant does what the texture unit does, so against the float definition point
// filtering is exact away from texel-edge ties and linear filtering is within the bound of the
// unit's 8-bit weights (rotate.h). Used by the verify button and the ladder's probe.
#include <string>

#include "image/image.h"
#include "rotate/rotate.h"

namespace gpulab {

struct RotateVerdict {
  bool ok = false;
  std::string text;  // the verify button's line
};

RotateVerdict verify_rotation(const image::Image& got, const image::Image& source,
                              const rotate::Variant& variant, const rotate::Settings& settings,
                              const std::string& settings_text);

}  // namespace gpulab

#pragma once
// What every demo's display does around its InteropTexture / InteropBuffer: resizing the target
// (telling the user when CUDA could not register it, so that the host-copy path runs) and the timing
// row of the path an update took.
#include <chrono>

#include "core/demo.h"
#include "cuda/display_target.h"

namespace gpulab {

class Timings;

// Makes `target` w x h when it is not (InteropTexture::ensure_size); when the new texture could not be
// registered though interop was allowed, ctx.notify says that the host-copy path runs and why. True
// when the texture was made anew.
bool resize_display_target(InteropTexture& target, int w, int h, const Context& ctx);

// The timing row of the path a display target's update (InteropTexture, InteropBuffer) took since
// `start`: interop map/unmap, the host copy and upload, or the CPU fill; nothing without Timings.
void time_display_path(Timings* t, DisplayPath path, double map_ms,
                       std::chrono::steady_clock::time_point start);
template <class Target>
void time_display_path(Timings* t, const Target& target, std::chrono::steady_clock::time_point start) {
  time_display_path(t, target.last_path(), target.last_map_ms(), start);
}

}  // namespace gpulab

#include "demos/common/display_path.h"

#include "core/timings.h"

namespace gpulab {

bool resize_display_target(InteropTexture& target, int w, int h, const Context& ctx) {
  if (!target.ensure_size(w, h)) return false;
  if (target.interop_allowed() && !target.interop_active() && ctx.notify)
    ctx.notify("interop registration failed, using the host-copy path: " +
               target.interop_unavailable_reason());
  return true;
}

void time_display_path(Timings* t, DisplayPath path, double map_ms,
                       std::chrono::steady_clock::time_point start) {
  if (!t) return;
  // The host-copy path waits for the GPU (the copy back): the fallback, not the normal frame.
  switch (path) {
    case DisplayPath::Interop:
      t->cpu("interop map/unmap", map_ms);
      break;
    case DisplayPath::DeviceCopy:
      t->cpu("host copy + upload", detail::ms_since(start));
      break;
    case DisplayPath::Host:
      t->cpu("display (CPU)", detail::ms_since(start));
      break;
    case DisplayPath::None:
      break;
  }
}

}  // namespace gpulab

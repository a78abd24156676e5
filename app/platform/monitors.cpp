// Where the windows of a lecture go: see monitors.h.
#include "platform/monitors.h"

#include <algorithm>

namespace gpulab::platform {

Monitor first_window(const Monitor& work) {
  Monitor w = work;
  if (w.w <= 0 || w.h <= 0) {
    w.x = w.y = 0;
    w.w = 1600;
    w.h = 900;
  }
  w.w = std::max(w.w, 640);
  w.h = std::max(w.h, 480);
  return w;
}

int monitor_of(const std::vector<Monitor>& monitors, int x, int y, int w, int h) {
  int best = -1;
  long long best_area = 0;
  for (size_t i = 0; i < monitors.size(); ++i) {
    const Monitor& m = monitors[i];
    const long long ow = std::max(0, std::min(x + w, m.x + m.w) - std::max(x, m.x));
    const long long oh = std::max(0, std::min(y + h, m.y + m.h) - std::max(y, m.y));
    if (ow * oh > best_area) {
      best_area = ow * oh;
      best = static_cast<int>(i);
    }
  }
  return best;
}

Placement place_windows(const std::vector<Monitor>& monitors, int win_x, int win_y, int win_w, int win_h,
                        int chosen) {
  Placement p;
  const int n = static_cast<int>(monitors.size());
  if (n == 0) {
    p.note = "no monitor is reported: the window stays as it is";
    return p;
  }
  if (chosen >= n || chosen < -1) {
    p.note = "there is no monitor " + std::to_string(chosen) + " (" + std::to_string(n) +
             (n == 1 ? " monitor, 0)" : " monitors, 0-" + std::to_string(n - 1) + ")") + "; chose one";
    chosen = -1;
  }
  int on = monitor_of(monitors, win_x, win_y, win_w, win_h);
  if (on < 0) on = 0;
  if (n == 1) {
    p.projected = 0;
    return p;
  }
  if (chosen >= 0) {
    p.projected = chosen;
    if (on != chosen) {
      p.presenter = on;
    } else {
      for (int i = 0; i < n && p.presenter < 0; ++i)
        if (i != chosen && monitors[i].primary) p.presenter = i;
      for (int i = 0; i < n && p.presenter < 0; ++i)
        if (i != chosen) p.presenter = i;
    }
    return p;
  }
  p.presenter = on;
  long long best = -1;
  for (int i = 0; i < n; ++i) {
    if (i == on) continue;
    const long long area = static_cast<long long>(monitors[i].w) * monitors[i].h;
    const bool better =
        area > best || (area == best && !monitors[i].primary && monitors[p.projected].primary);
    if (better) {
      best = area;
      p.projected = i;
    }
  }
  return p;
}

}  // namespace gpulab::platform

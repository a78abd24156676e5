#pragma once
// Where the windows of a lecture go, as a function of the monitors' rectangles (virtual desktop
// coordinates, as GLFW reports them): the projected window (view, caption, HUD) full-screen on one
// monitor, and with two or more monitors the presenter's window (panel, notes, next step, clock) on
// another. Pure, so that it is tested for any arrangement without the monitors.
#include <string>
#include <vector>

namespace gpulab::platform {

struct Monitor {
  std::string name;
  int x = 0, y = 0, w = 0, h = 0;  // its place on the virtual desktop (screen coordinates)
  bool primary = false;            // the system's primary monitor (on a laptop, usually its own panel)
};

struct Placement {
  int projected = -1;  // the monitor the projected window fills (-1: none: stay windowed)
  int presenter = -1;  // the monitor of the presenter's window (-1: one window, as on one monitor)
  std::string note;    // what was chosen and why, or why a choice was not honoured
};

// A first window's rectangle on a monitor whose work area (the desktop less panels and docks) is
// `work`: all of it, as a maximised window would have it; a work area that is not known (0 x 0) gives
// 1600 x 900 at (0, 0), never less than 640 x 480.
Monitor first_window(const Monitor& work);

// The monitor holding most of the window's rectangle (-1 when it overlaps none, or there are none).
int monitor_of(const std::vector<Monitor>& monitors, int x, int y, int w, int h);

// `chosen`: the monitor asked for (--monitor N or the settings file, 0-based), -1: choose.
//  - one monitor: the projected window fills it; no presenter window.
//  - two or more: the presenter's window stays on the monitor the app's window is on (the laptop the
//    lecturer looks at); the projected window goes to `chosen`, else to the largest other monitor
//    (ties: the first not primary). A chosen monitor that the window is on moves the presenter's
//    window to the primary monitor, or the first other.
//  - a chosen monitor that does not exist is said in `note` and the choice made as if none was given.
Placement place_windows(const std::vector<Monitor>& monitors, int win_x, int win_y, int win_w, int win_h,
                        int chosen);

}  // namespace gpulab::platform

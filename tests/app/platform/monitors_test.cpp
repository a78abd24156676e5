// Where the projected window and the presenter's window go, for the arrangements a lecture meets:
// one monitor, a laptop with a projector left or right of it, different sizes, three monitors, a
// chosen monitor (--monitor N), one that does not exist.
#include "platform/monitors.h"

#include <gtest/gtest.h>

using gpulab::platform::Monitor;
using gpulab::platform::monitor_of;
using gpulab::platform::place_windows;
using gpulab::platform::Placement;

namespace {
const Monitor kLaptop{"eDP-1", 0, 0, 1920, 1200, true};
const Monitor kProjectorRight{"HDMI-1", 1920, 0, 1920, 1080, false};
const Monitor kProjectorLeft{"HDMI-1", -1280, 0, 1280, 720, false};
}  // namespace

TEST(Monitors, TheWindowIsOnTheMonitorHoldingMostOfIt) {
  const std::vector<Monitor> two = {kLaptop, kProjectorRight};
  EXPECT_EQ(monitor_of(two, 100, 100, 800, 600), 0);
  EXPECT_EQ(monitor_of(two, 1800, 100, 800, 600), 1) << "680 of 800 columns on the right one";
  EXPECT_EQ(monitor_of(two, 1500, 100, 800, 600), 0) << "420 of 800 columns on the laptop";
  EXPECT_EQ(monitor_of(two, 5000, 5000, 10, 10), -1);
  EXPECT_EQ(monitor_of({}, 0, 0, 10, 10), -1);
}

TEST(Monitors, OneMonitorTheProjectedWindowFillsItAndThereIsNoPresenterWindow) {
  const Placement p = place_windows({kLaptop}, 100, 100, 800, 600, -1);
  EXPECT_EQ(p.projected, 0);
  EXPECT_EQ(p.presenter, -1);
  EXPECT_TRUE(p.note.empty());
}

TEST(Monitors, ALaptopAndAProjectorEitherSide) {
  // The window on the laptop: the notes stay there, the picture goes to the projector.
  for (const Monitor& projector : {kProjectorRight, kProjectorLeft}) {
    for (const std::vector<Monitor>& order :
         {std::vector{kLaptop, projector}, std::vector{projector, kLaptop}}) {
      const int laptop = order[0].primary ? 0 : 1;
      const Placement p = place_windows(order, 200, 200, 1200, 800, -1);
      EXPECT_EQ(p.presenter, laptop) << projector.x;
      EXPECT_EQ(p.projected, 1 - laptop) << projector.x;
    }
  }
  // The window dragged to the projector first: the presenter's window goes where the window is.
  const Placement moved = place_windows({kLaptop, kProjectorRight}, 2000, 100, 1200, 800, -1);
  EXPECT_EQ(moved.presenter, 1);
  EXPECT_EQ(moved.projected, 0);
}

TEST(Monitors, ThreeMonitorsTheLargestOtherOneIsProjected) {
  const Monitor small{"DP-2", 3840, 0, 1280, 1024, false};
  const Monitor big{"DP-3", 5120, 0, 3840, 2160, false};
  const Placement p = place_windows({kLaptop, kProjectorRight, small, big}, 0, 0, 1600, 900, -1);
  EXPECT_EQ(p.presenter, 0);
  EXPECT_EQ(p.projected, 3);
}

TEST(Monitors, AChosenMonitorIsProjectedAndOneThatDoesNotExistIsSaid) {
  const std::vector<Monitor> two = {kLaptop, kProjectorRight};
  const Placement chosen = place_windows(two, 0, 0, 800, 600, 1);
  EXPECT_EQ(chosen.projected, 1);
  EXPECT_EQ(chosen.presenter, 0);
  // Choosing the monitor the window is on: the presenter's window moves to the other one.
  const Placement same = place_windows(two, 0, 0, 800, 600, 0);
  EXPECT_EQ(same.projected, 0);
  EXPECT_EQ(same.presenter, 1);
  const Placement none = place_windows(two, 0, 0, 800, 600, 5);
  EXPECT_EQ(none.projected, 1);
  EXPECT_NE(none.note.find("no monitor 5"), std::string::npos) << none.note;
  EXPECT_NE(none.note.find("0-1"), std::string::npos) << none.note;
}

// A first start's window: the monitor's work area (a laptop's screen less its panel), whatever it is;
// a work area that is not known gives a window that still fits a small screen.
TEST(Monitors, AFirstWindowFillsTheWorkArea) {
  Monitor work;
  work.x = 0, work.y = 32, work.w = 2560, work.h = 1408;  // 2560x1440 less a 32-px panel at the top
  const Monitor w = gpulab::platform::first_window(work);
  EXPECT_EQ(w.x, 0);
  EXPECT_EQ(w.y, 32);
  EXPECT_EQ(w.w, 2560);
  EXPECT_EQ(w.h, 1408);
  const Monitor unknown = gpulab::platform::first_window(Monitor{});
  EXPECT_EQ(unknown.w, 1600);
  EXPECT_EQ(unknown.h, 900);
  Monitor tiny;
  tiny.w = 320, tiny.h = 200;
  EXPECT_EQ(gpulab::platform::first_window(tiny).w, 640);
  EXPECT_EQ(gpulab::platform::first_window(tiny).h, 480);
}

#pragma once
// What the last frame drawn showed and where (window points): the panel, the regions of the screen
// layout, and what each presenter element drew. The layout tests check it and --layout-report writes
// it as JSON.
#include <string>
#include <utility>
#include <vector>

#include "presenter/ab.h"
#include "presenter/code_panel.h"
#include "presenter/screen_layout.h"

namespace gpulab::presenter {

struct LayoutReport {
  struct Item {
    std::string name;
    float y0 = 0, y1 = 0;
  };
  bool drawn = false;
  float display_w = 0, display_h = 0;
  float x = 0, y = 0, w = 0, h = 0;                              // the panel window
  float inner_x0 = 0, inner_y0 = 0, inner_x1 = 0, inner_y1 = 0;  // inside title bar and scrollbars
  float work_x1 = 0;                                             // right end of the space widgets may use
  float content_x1 = 0, content_y1 = 0;                          // right and bottom end of what was laid out
  bool scrollbar_x = false, scrollbar_y = false;
  bool compact = false;
  std::vector<Item> sections;  // the collapsing headers, top to bottom
  float ui_scale = 0, ui_scale_asked = 0, font_px = 0, font_global_scale = 0, hud_px = 0, hud_digit_px = 0;
  bool truetype = false;
  std::string theme;
  // The HUD as drawn on that frame (window points) and the view's middle it must leave free.
  struct Hud {
    bool shown = false;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float view_x0 = 0, view_x1 = 0, view_y1 = 0;
    std::string title;
    std::vector<std::string> values, captions;  // the figures drawn
  } hud;
  // The key list (F1 / ?) as drawn on that frame.
  struct Help {
    bool shown = false;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::vector<std::string> keys;  // the keys listed, as written ("F5", "F1 / ?")
    bool scroll_y = false;          // it did not fit: scrolls
  } help;
  // The lesson as shown on that frame: its step, the demo and variants running, the overlay.
  struct LessonShown {
    bool running = false;
    int step = 0, steps = 0;  // 1-based
    std::string title, progress, caption, problem, demo;
    std::vector<std::string> variants;  // the running variant of each active stage
    float caption_y0 = 0, caption_y1 = 0;
    bool notes_shown = false;  // the step's notes are in the panel
  } lesson;
  CodePanelShown code;     // the code panel (F4)
  bool recording = false;  // a clip is being recorded (the red dot is drawn in a window)
  AbShown ab;              // A/B (F8)
  // The Counters tab as drawn on that frame (only when it is the open tab).
  struct CountersShown {
    bool tab_open = false;
    std::string unavailable;            // why nothing can be measured ("" when something may be)
    std::string meters;                 // the live meters' status ("" while sampling)
    size_t meter_samples = 0;           // samples in the meters' history
    double meter_span_s = 0;            // the time they cover
    std::vector<std::string> measured;  // the variants with counters, in the order measured
  } counters;
  ScreenLayout screen;  // the regions of the frame (screen_layout.h)
  struct Toasts {
    bool shown = false;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::vector<std::string> lines;  // as drawn (merged: "text (3x)")
  } toasts;
  bool blanked = false;  // the projected view is blanked (B / W)
  bool ladder = false;   // the ladder has the screen
  struct Pointer {       // the spotlight (Ctrl+P)
    bool shown = false;
    float x = 0, y = 0, radius = 0;
    std::string from;  // what placed it: "mouse" (on the projected window) or "presenter" (its pad)
  } pointer;
  // The presenter's window (projector mode with two monitors, or --presenter-window).
  struct Presenter {
    bool shown = false;
    int monitor = -1;
    bool notes_shown = false;                              // the step's notes are there
    bool blanked = false;                                  // it says the projected view is blanked
    float pad_x0 = 0, pad_y0 = 0, pad_x1 = 0, pad_y1 = 0;  // the pointer pad (presenter window points)
    std::string next, clock;  // the next step's title, the time since the lesson opened
  } presenter;
  std::vector<std::string> running;  // the running demo's variant of each active stage
  // The ladder's chart as drawn on that frame (while it has the screen).
  struct LadderShown {
    std::string style;                // "detailed" or "slide"
    std::string recorded;             // the line naming where recorded figures come from, as drawn ("": none)
    int bars = 0, recorded_bars = 0;  // bars of times measured here, hatched bars of recorded ones
    // A rung with recorded figures: its name and the texts of its row, as drawn ("gpu-global: 4.00 µs
    // | recorded | ×200 vs cpu-naive (recorded)").
    std::vector<std::string> recorded_rungs;
    std::string footnote;  // the slide's rows that cannot run here, as drawn
  } ladder_chart;
};

}  // namespace gpulab::presenter

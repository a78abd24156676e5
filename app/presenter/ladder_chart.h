#pragma once
// The speed-up ladder chart: what it shows (ChartData, filled from measurements elsewhere) and where
// everything goes (layout_chart), pure CPU. One horizontal bar per variant in the lecture's order,
// its length log-scaled time per step on an axis shared by the panel, the speed-ups written under
// it; failed rungs are tagged red with the reason and never drawn as a bar, unavailable rungs are
// greyed with the reason; a rung that cannot run here but has figures recorded on the GPU that ran it
// (--results) gets a hatched bar tagged "recorded", and the chart names where they were recorded. The
// layout is a list of rectangles and text runs with their pixel sizes, so ladder_draw.h draws it with
// ImGui (the window and the PNG alike) and the tests check it with a deterministic text measure and no
// GL.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "presenter/rect.h"

namespace gpulab::presenter {

// Recorded: the rung cannot run here; its time and speed-up are figures recorded on another machine
// (ChartData::recorded says which), the speed-up over that file's own baseline (recorded_baseline).
enum class ChartRungState { Measured, Failed, Unavailable, Recorded };

struct ChartRung {
  std::string name;    // variant id, e.g. "gpu-shared", or "pipeline (best)"
  std::string lesson;  // the variant's one-line lesson, shown under its name
  std::string block;   // "32x32", "256", "-"
  ChartRungState state = ChartRungState::Measured;
  std::string reason;      // Unavailable: why; Failed: where it differs from the reference, or the error
  double ms_per_step = 0;  // Measured (a Failed rung may carry its time too; it is not charted)
  double speedup_vs_baseline = 0;  // over the chart's baseline (0: none)
  double speedup_vs_previous = 0;  // over the previous measured rung (0: none, e.g. the first)
  double pct_peak = 0;             // % of the device's peak the demo is bound by (0: not known)
  std::string peak_label;          // "of DRAM bandwidth", "of FP32 peak"
  std::string note;                // e.g. "measured at 2048x2048: the CPU at full size takes 40 s"
  std::string counters;            // one compact line of the GPU's counters under the bar ("" none), e.g.
                                   // "DRAM 2.00 B/cell update · 0 bank conflicts · 87% occupancy"
  bool counters_slot = false;  // a line is kept under the bar for the counters (the window's measure button)
  int source = -1;             // the index of the ladder's rung it shows (-1: none)
  bool gpu = true;             // a GPU rung (the slide names the CPU ones in its legend)
  bool yardstick = false;  // not a rung: a bound the rungs are read against (no speed-up, an outlined bar)
  std::string bounds;      // a yardstick: the rungs it bounds ("gemm-tensor-bf16")
  bool library = false;    // a library's call (CUB, Thrust, cuBLAS...): tagged "library" after its time
  std::string recorded_baseline;  // Recorded: the baseline of its speed-up, as measured where it was recorded
};

struct ChartPanel {              // one ladder: a demo's only stage, or one stage of several
  std::string id;                // the stage's id ("histogram", "pipeline"): a slide's file name
  bool whole_pipeline = false;   // the last panel of a pipeline demo: its slide by default
  std::string title;             // "step", "histogram", "whole pipeline"
  std::string baseline;          // the variant speed-ups are over, e.g. "cpu-naive"
  std::string per = "per step";  // what a step is, the HUD's words: "time per generation" on the axis
  std::vector<ChartRung> rungs;  // in the lecture's order (top to bottom)
};

struct ChartData {
  std::string title;   // the demo: "Game of Life"
  std::string input;   // "16384x16384, B3/S23, density 0.25"
  std::string device;  // "NVIDIA H100 80GB HBM3"
  std::string date;    // "2026-11-25"
  // Where the Recorded rungs' figures come from: "recorded on NVIDIA H100 80GB HBM3, 2026-11-27" ("":
  // none; the chart then looks as it did before recorded results existed).
  std::string recorded;
  std::vector<ChartPanel> panels;
};

// ---- layout ------------------------------------------------------------------------------------

enum class TextFace { Sans, SansBold, Mono };

// Colours by role; a ChartTheme gives each one its RGBA.
enum class ChartColour : uint8_t {
  Background,
  PanelBackground,
  Title,
  Text,
  Dim,
  Grid,
  Axis,
  Bar,
  Speedup,
  Slowdown,
  Failed,
  OnFailed,
  Unavailable,
  Yardstick,  // a yardstick row's outlined bar and its name
  Count
};

enum class TextRole {
  Title,
  Subtitle,
  Heading,
  HeadingNote,
  Tick,
  Name,
  Lesson,
  Time,
  SpeedupBaseline,
  SpeedupPrevious,
  Peak,
  Note,
  FailedTag,
  Reason,
  Message,
  Counters,
  AxisTitle,  // the slide's "time per step (log scale)"
  Footnote,   // the slide's rows that cannot run here, folded into one note
  Legend,     // the slide's line saying what bars and "×" mean
  Recorded,   // the line naming where recorded figures come from (rung -1), a rung's "recorded" tag
  Library     // a library rung's "library" tag, after its time
};
// Point: a dot (drawn round); Yardstick: a yardstick row's bar, drawn as an outline; Recorded: the bar of
// figures recorded elsewhere, drawn pale and hatched inside an outline.
enum class BoxRole { Panel, Grid, Axis, Bar, FailedTag, Point, Yardstick, Recorded };

// One line of text at (x, y) = its top-left corner, `size` pixels high (the font's pixel size:
// the glyphs fit in [y, y + size]), `width` as the measure gave it.
struct TextRun {
  std::string text;
  float x = 0, y = 0, size = 0, width = 0;
  TextFace face = TextFace::Sans;
  ChartColour colour = ChartColour::Text;
  TextRole role = TextRole::Message;
  int panel = -1, rung = -1;  // where it belongs (-1: the whole chart / the whole panel)
  Rect box() const { return {x, y, x + width, y + size}; }
};

struct ChartBox {
  Rect rect;
  ChartColour colour = ChartColour::Bar;
  BoxRole role = BoxRole::Bar;
  int panel = -1, rung = -1;
};

// A straight line (the roofline chart's roofs), drawn over the boxes and under the texts.
struct ChartLine {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0, thickness = 2;
  ChartColour colour = ChartColour::Axis;
};

// The line kept under a measured rung's bar for its counters (ChartRung::counters_slot).
struct ChartSlot {
  Rect rect;
  int panel = -1, rung = -1;
};

struct ChartLayout {
  float width = 0, height = 0;
  std::vector<ChartSlot> slots;  // not drawn: where the window puts a rung's measure action
  std::vector<ChartBox> boxes;   // drawn first, in order
  std::vector<ChartLine> lines;  // then these
  std::vector<TextRun> texts;    // drawn over the boxes
  std::vector<double> ticks_ms;  // the slide's grid lines, ms (1, 2 and 5 times a power of ten)
  // The bar of a rung (a recorded rung's hatched one too), or null (failed, unavailable, no time).
  const ChartBox* bar(int panel, int rung) const;
  // The first text of a role for a rung (panel/rung -1 for the chart's own), or null.
  const TextRun* text(TextRole role, int panel = -1, int rung = -1) const;
};

// Width in pixels of `text` (UTF-8) drawn in `face` at `px` pixels.
using TextMeasure = std::function<float(std::string_view text, TextFace face, float px)>;

// A deterministic stand-in for a real font (widths per code point, proportional to px), for the
// tests and for laying out where no font is loaded. Wider than DejaVu for most text.
TextMeasure approximate_text_measure();

// Lays the chart out in a width × height image. Text is shrunk (never below legibility, where there
// is room) or elided with "…" to fit; no two text runs overlap and nothing leaves the image.
ChartLayout layout_chart(const ChartData& data, float width, float height, const TextMeasure& measure);

// ---- the slide style ---------------------------------------------------------------------------

// The detailed chart (every panel, lessons, speed-ups over the baseline and the previous rung, % of
// peak) or a slide for a projector: one panel, each row the rung's name, its bar and its speed-up
// (the largest label), an axis titled with 1-2-5 ticks, the rows that cannot run here folded into one
// footnote.
enum class ChartStyle { Detailed, Slide };

// DejaVu Sans Bold's cap height (and digit height) as a fraction of the pixel size ImGui draws it at
// (ImGui scales the font so that ascent - descent is the pixel size: 1493 of 1901 + 483 units).
inline constexpr float kCapHeightPerPx = 1493.0f / 2384.0f;
// The slide's speed-up labels at 1080 lines: a cap height of at least 28 px.
inline constexpr float kSlideSpeedupPx = 48.0f;
// No text of a slide is smaller than this at 1080 lines (what does not fit is left out instead).
inline constexpr float kSlideMinPx = 22.0f;

// The panel a slide shows by default: the whole pipeline where there is one, else the first (the lead
// stage's); -1 when there is none.
int default_slide_panel(const ChartData& data);
// The slide of panel `panel` of `data` at width × height. Its type is sized for a screen of
// `screen_height` lines where that is more (the window: the framebuffer, the chart under a strip).
ChartLayout layout_slide(const ChartData& data, int panel, float width, float height,
                         const TextMeasure& measure, float screen_height = 0);
// Grid lines of a log time axis from lo_ms to hi_ms: every 1, 2 and 5 times a power of ten in range.
std::vector<double> ticks_125(double lo_ms, double hi_ms);
// A tick's label: "1 ms", "20 µs", "500 ns", "2 s".
std::string format_tick_ms(double ms);
// The footnote of the rows that cannot run here, grouped by reason: "Not run here: gpu-a, gpu-b (no
// CUDA device); gpu-c (too slow)"; "" when every row runs.
std::string slide_footnote(const ChartPanel& panel);

// What is wrong with a layout: text runs that overlap each other or a box they do not belong on,
// anything outside the image, sizes that are not positive. Empty when all is well.
std::vector<std::string> layout_problems(const ChartLayout& layout);

// "12.3 µs", "1.23 ms", "4.56 s" (three significant figures); "-" for a time that is not positive.
std::string format_time_ms(double ms);
// "×1.23", "×12.3", "×123", "×1234", "×0.52"
std::string format_speedup(double factor);
// Axis tick labels at decades: "1 ns" ... "100 µs", "1 ms", "10 s", "1000 s".
std::string format_decade_ms(int exponent_of_ms);

// ---- colours -----------------------------------------------------------------------------------

struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Rgba&) const = default;
};

struct ChartTheme {
  std::array<Rgba, size_t(ChartColour::Count)> colours{};
  Rgba operator[](ChartColour c) const { return colours[size_t(c)]; }
  static ChartTheme dark();   // the app's dark look
  static ChartTheme light();  // high contrast for washed-out projectors and slides
  // Black with white text and Okabe-Ito colours that stay bright on it: the slide for a dark hall.
  static ChartTheme projector();
};

// The Okabe-Ito palette (Color Universal Design): eight colours told apart with every common form of
// colour blindness. The charts' bars, speed-ups, failures and yardsticks take their colours from it.
namespace okabe_ito {
inline constexpr Rgba kBlack{0, 0, 0, 255}, kOrange{230, 159, 0, 255}, kSkyBlue{86, 180, 233, 255},
    kBluishGreen{0, 158, 115, 255}, kYellow{240, 228, 66, 255}, kBlue{0, 114, 178, 255},
    kVermillion{213, 94, 0, 255}, kReddishPurple{204, 121, 167, 255};
inline constexpr Rgba kAll[] = {kBlack,  kOrange, kSkyBlue,    kBluishGreen,
                                kYellow, kBlue,   kVermillion, kReddishPurple};
}  // namespace okabe_ito

// WCAG 2 contrast ratio of two colours (1 to 21).
double contrast_ratio(Rgba a, Rgba b);

}  // namespace gpulab::presenter

#pragma once
// The heads-up display (F2; on in projector mode): the demo and variant, the time per step, the
// speed-up over the stage's CPU baseline (measured live since the app started, or by the ladder) and
// the % of the peak the demo is bound by, in digits at least 48 px high at 1080p, laid out along the
// bottom of the view so that it never covers the picture's centre, and refreshed at most twice a
// second so that the numbers can be read.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/demo.h"
#include "core/setup.h"
#include "core/timings.h"

struct ImFont;

namespace gpulab::presenter {

// The case of a baseline: the Setup whose input it ran on, the read-out, the items a step.
struct HudCase {
  std::optional<Setup> input;  // none: unknown (no Setup bound): no baseline is kept
  std::string readout;         // the throughput row's label, "|pipeline" for the whole pipeline
  double items = 0;
  // The same case: same_input, the same read-out and size.
  bool same(const HudCase& o) const;
};

// What the HUD reads from the demo each frame (hud_input builds it).
struct HudInput {
  std::string demo_title;        // "Game of Life"
  std::string variant;           // "gpu-shared 32x32" (every active stage's, joined with " + ")
  std::string baseline_variant;  // the lead stage's CPU baseline ("cpu-naive"), "" when it has none
  std::optional<Pick> baseline;  // its pick (its variant; the block is none)
  bool on_baseline = false;      // the baseline variant is the one running
  // The case a baseline time is valid for: the demo's input (its Setup: same_input), the read-out and
  // its items a step (the size the panel may change without a new Setup).
  HudCase baseline_case;
  bool whole_pipeline = false;  // the read-out times every stage as one step (its baseline: the CPU pipeline)
  std::optional<double> ms_per_step;
  size_t samples = 0;       // the steps' times ms_per_step is the median of
  std::string per;          // "per generation"
  double pct_peak = 0;      // 0: unknown (CPU backend) or not measured
  std::string peak_label;   // "of DRAM bandwidth", "of FP32 peak"
  bool peak_known = false;  // the device's peak is known (a CUDA device)
  // A lesson step's variant that cannot run here ("gpu-global needs an NVIDIA GPU"): the speed-up is
  // its, so it says "not run here" rather than the stand-in's.
  std::string not_run_here;
  // Where figures recorded on a GPU stand in for the live ones (--results): their label ("recorded on
  // NVIDIA H100 80GB HBM3, 2026-11-27"; the title carries it, each figure says "(recorded)"), and the
  // recorded speed-up over its baseline.
  std::string recorded;
  std::optional<double> recorded_speedup;
  std::string recorded_baseline;
  // The baseline's time is being measured in the background (BaselineJob), or why it could not be.
  bool baseline_measuring = false;
  bool baseline_holds = false;  // ... alone, the live step waiting for it
  std::string baseline_error;
};

// From the demo's stages and first throughput read-out, the timings and the device's peaks.
HudInput hud_input(const Demo& demo, const Timings& timings, const Context& ctx);

// One big number and its caption under it.
struct HudFigure {
  std::string value;    // "0.213 ms", "412×", "78%"
  std::string caption;  // "per generation", "vs cpu-naive", "of DRAM bandwidth"
};
struct HudReading {
  std::string title;  // "Game of Life — gpu-shared 32x32"
  std::vector<HudFigure> figures;
};

// "0.213 ms", "12.3 µs", "1.25 s"; "412×", "12.5×", "1.04×".
std::string hud_time(double ms);
std::string hud_speedup(double x);

class Hud {
 public:
  static constexpr double kRefreshSeconds = 0.5;
  static constexpr size_t kSettleSamples = 10;

  // Every frame: keeps the baseline's time while it runs; the reading is refreshed when
  // kRefreshSeconds have passed since the last refresh, or at once when it shows no time yet and
  // one is measured now, and every frame while its time is the median of fewer than kSettleSamples
  // steps (the first, cold step is not held for half a second).
  void update(double now_seconds, const HudInput& in);
  // A baseline measured elsewhere (the ladder's CPU rung on the same input, the background job);
  // `approximate`: timed while the cores were busy, so the speed-up over it is shown as "≈ 12×".
  void note_baseline(const HudCase& c, double ms, bool approximate = false);
  std::optional<double> baseline(const HudCase& c) const;
  const HudReading& reading() const { return reading_; }
  // The reading from `in` and the baselines known now (what update shows).
  HudReading read(const HudInput& in) const;

 private:
  struct Baseline {
    HudCase c;
    double ms = 0;  // per step
    bool approximate = false;
  };
  const Baseline* find(const HudCase& c) const;
  std::vector<Baseline> baselines_;
  HudReading reading_;
  double refreshed_at_ = -1;
  bool shows_time_ = false;  // the reading holds a measured time
};

// Where the HUD goes in the view (window points): a box at the bottom left of the part of the
// display the panel leaves free, its figures side by side, wrapped to more rows when they do not
// fit, and figures left out rather than reaching above the view's middle.
struct HudBox {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
struct HudPlaced {
  HudBox box;  // the backing box
  float title_x = 0, title_y = 0;
  struct Item {
    float x = 0, value_y = 0, caption_y = 0;
  };
  std::vector<Item> items;  // one per figure shown (the first items.size() figures)
};
struct HudSizes {  // measured text sizes
  float title_w = 0, title_h = 0;
  std::vector<float> value_w, caption_w;
  float value_h = 0, caption_h = 0;
};
// `band`: the view is the HUD's own band (sized by hud_band_height): every row is kept.
HudPlaced hud_layout(const HudSizes& sizes, HudBox view, float pad, bool band = false);
// The height of the HUD's band `width` points wide (the title wraps, the figures go in rows).
float hud_band_height(const HudReading& r, float width, ImFont* big, ImFont* small);

// Draws the reading into the foreground draw list with `big` for the values and `small` for the
// rest, in the view box; returns where it went (for the layout report).
HudPlaced draw_hud(const HudReading& r, HudBox view, ImFont* big, ImFont* small, bool light_theme,
                   bool band = false);

// The colours of every overlay over the view (HUD, lesson caption, A/B labels): the backing box
// and the text, for the light or the dark theme (packed as ImU32).
struct OverlayColours {
  unsigned back, ink;
};
OverlayColours overlay_colours(bool light_theme);

}  // namespace gpulab::presenter

#pragma once
// The transfers demo's pictures as data, then drawn: the timeline of a pipeline run (one lane per copy
// engine, the SMs and each stream, a bar per chunk's op, the achieved time against the bound
// max(H2D, kernel, D2H) and the serial sum) and the bandwidth curve (GB/s over sizes, log-log, the
// link's line rate and the latency region). Layouts are plain numbers (tested from recorded spans);
// a Painter draws them, into the window (ImDrawList, transfers_panel.cpp) or into an RGBA image for
// the slide PNG (RasterPainter, with ImGui's built-in font rasterised on the CPU). No GL here.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "transfers/transfers.h"

namespace gpulab::transfers_view {

using transfers::Op;

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float w() const { return x1 - x0; }
  float h() const { return y1 - y0; }
};

// ---------------------------------------------------------------------------------------------
// Timeline.
struct Bar {
  int lane = 0;
  Op op = Op::H2D;
  int stream = 0, chunk = 0;
  double begin_ms = 0, end_ms = 0;
};
struct TimelineLayout {
  std::vector<std::string> lanes;  // "H2D copy engine", "SMs (kernels)", "D2H copy engine", "stream 0"...
  std::vector<Bar> bars;
  double axis_ms = 1;   // the time axis runs 0..axis_ms
  double tick_ms = 1;   // a grid line every tick_ms
  double total_ms = 0;  // achieved
  double bound_ms = 0;  // max(H2D, kernel, D2H) measured alone (0: unknown)
  double sum_ms = 0;    // their serial sum (0: unknown)
  std::string title, note;
};
inline constexpr int kEngineLanes = 3;
// Lanes: the H2D copy engine, the SMs, the D2H copy engine, then one per stream (`streams`). A bar on a
// copy engine's lane starts no earlier than the previous copy of that engine ended: events mark when
// a stream reached the copy, and one engine copies one thing at a time in each direction.
TimelineLayout layout_timeline(const std::vector<transfers::Span>& spans, int streams, double total_ms,
                               const transfers::PipelineBounds& bounds);
// A step for grid lines: 1, 2 or 5 times a power of ten, about `lines` of them over `range`.
double nice_step(double range, int lines);

// ---------------------------------------------------------------------------------------------
// Bandwidth curve.
struct CurvePoint {
  uint64_t bytes = 0;
  double gbps = 0;
};
struct Curve {
  std::string id;
  std::vector<CurvePoint> points;  // increasing bytes
};
struct BandwidthChart {
  std::vector<Curve> curves;
  double line_rate_gbps = 0;  // the link's (0: unknown)
  std::string title, note;
};
// Where a curve reaches half its best rate (the latency region lies below: time is mostly the fixed
// cost of a transfer); 0 when it has fewer than two points.
uint64_t half_rate_bytes(const Curve& c);
struct ChartAxes {
  double x_lo = 1, x_hi = 2;    // bytes (log)
  double y_lo = 0.1, y_hi = 1;  // GB/s (log)
};
ChartAxes chart_axes(const BandwidthChart& c);

// ---------------------------------------------------------------------------------------------
// Display paths: the per-frame time of each display rung at each frame size measured so far, drawn as
// bars (a group a size, largest frame last; a bar a rung, its milliseconds written beside it).
struct FrameTime {
  std::string rung;
  int width = 0, height = 0;
  double ms = 0;
};
struct DisplayChart {
  std::vector<FrameTime> times;  // grouped by size when drawn; rungs in the order recorded
  std::string title, note;
};
// Sets the time of (rung, size), adding it when new.
void record_frame_time(DisplayChart& c, const std::string& rung, int width, int height, double ms);
// The bars as data: where each goes (lane, 0..1 of the longest), for drawing and for tests.
struct DisplayBar {
  std::string label;  // "display-interop"
  std::string size;   // "1920x1080"
  double ms = 0, fraction = 0;
  int row = 0;  // 0.. top to bottom, size headers included
};
std::vector<DisplayBar> layout_display_bars(const DisplayChart& c, int* rows);
// The colour of a display rung's bar (interop green, PBO blue, host copy orange, CPU grey).
uint32_t display_colour(std::string_view rung);

// ---------------------------------------------------------------------------------------------
// Drawing.
class Painter {
 public:
  virtual ~Painter() = default;
  virtual void rect(Rect r, uint32_t rgba) = 0;  // filled, 0xAABBGGRR (ImGui's IM_COL32 order)
  virtual void line(float x0, float y0, float x1, float y1, uint32_t rgba, float width) = 0;
  virtual void text(float x, float y, const std::string& s, uint32_t rgba) = 0;  // top-left at (x, y)
  virtual float text_height() const = 0;
  virtual float text_width(const std::string& s) const = 0;
};
uint32_t op_colour(Op op);  // Okabe-Ito (colour-blind safe): H2D sky blue, kernel bluish green, D2H orange
// The timeline's look: the window's (style ""), or a slide's for --png-style: "projector" (on black)
// or "light" (on white, the lane colours darker where needed). Colours 0xAABBGGRR.
struct TimelinePalette {
  uint32_t background, text, dim, grid, frame, bound, sum, total, on_bar;
  uint32_t op[3];      // H2D, kernel, D2H
  bool slide = false;  // a slide: the axis is titled
};
TimelinePalette timeline_palette(const std::string& style);
void draw_timeline(Painter& p, const TimelineLayout& t, Rect view);
void draw_timeline(Painter& p, const TimelineLayout& t, Rect view, const TimelinePalette& palette);
void draw_bandwidth(Painter& p, const BandwidthChart& c, Rect view);
void draw_display_bars(Painter& p, const DisplayChart& c, Rect view);

// An RGBA8 image (row 0 at the top) with ImGui's default font (ProggyClean) at an integer scale.
class RasterPainter final : public Painter {
 public:
  RasterPainter(int width, int height, uint32_t background, int text_scale);
  ~RasterPainter() override;
  void rect(Rect r, uint32_t rgba) override;
  void line(float x0, float y0, float x1, float y1, uint32_t rgba, float width) override;
  void text(float x, float y, const std::string& s, uint32_t rgba) override;
  float text_height() const override;
  float text_width(const std::string& s) const override;
  int width() const { return w_; }
  int height() const { return h_; }
  const std::vector<uint8_t>& rgba() const { return px_; }
  uint32_t pixel(int x, int y) const;

 private:
  void blend(int x, int y, uint32_t rgba, float coverage);
  struct Font;
  int w_, h_, scale_;
  std::vector<uint8_t> px_;
  Font* font_;
};

// The timeline as a slide (1920x1080 PNG) in `style` (timeline_palette): "" or why not (names the file).
std::string save_timeline_png(const std::filesystem::path& path, const TimelineLayout& t, int width = 1920,
                              int height = 1080, const std::string& style = "");
// CSV: the sweep ("rung,bytes,ms,gbps,pct_line_rate") and the spans ("stream,chunk,op,begin_ms,end_ms").
struct SweepRow {
  std::string rung;
  uint64_t bytes = 0;
  double ms = 0, gbps = 0;
};
std::string sweep_csv(const std::vector<SweepRow>& rows, double line_rate_gbps);
std::string spans_csv(const std::vector<transfers::Span>& spans);
std::string_view op_name(Op op);

}  // namespace gpulab::transfers_view

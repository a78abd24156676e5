#pragma once
// The roofline chart: the device's FP32 roof (flat) and DRAM roof (slope = bandwidth) on log-log
// axes of arithmetic intensity (FLOP per DRAM byte) and achieved FP32 rate, with one labelled point
// per measured variant. A variant whose demo counts no floating-point work has no place on it: the
// chart lists it under the plot with its DRAM bandwidth instead. Laid out as a ChartLayout (boxes,
// lines and texts), so ladder_draw.h draws it in the window and ladder_png.h writes it as a PNG.
// Pure CPU.
#include <string>
#include <vector>

#include "presenter/ladder_chart.h"

namespace gpulab::presenter {

struct RooflinePoint {
  std::string label;     // "gpu-tiled"
  double intensity = 0;  // FLOP per DRAM byte
  double gflops = 0;     // achieved
};

struct RooflineData {
  std::string title;   // "N-body: roofline"
  std::string device;  // "NVIDIA H100 80GB HBM3"
  std::string date;
  double peak_gflops = 0;  // FP32
  double peak_gbps = 0;    // DRAM
  std::vector<RooflinePoint> points;
  std::vector<std::string> unplaced;  // one line a variant that has no point, with why
};

// The attainable rate at `intensity`: min(FP32 peak, bandwidth × intensity).
double roof_gflops(const RooflineData& d, double intensity);
// FLOP per byte where the roofs meet (0 without peaks).
double ridge_intensity(const RooflineData& d);

// The plot's axes: decades of intensity [x_lo, x_hi] and of GFLOP/s [y_lo, y_hi] (exponents of 10)
// that hold the ridge, the roofs' corner and every point.
struct RooflineAxes {
  int x_lo = -2, x_hi = 3, y_lo = 0, y_hi = 5;
};
RooflineAxes roofline_axes(const RooflineData& d);

// Where things went, besides the layout's own lists.
struct RooflineLayout {
  ChartLayout chart;
  Rect plot;  // the plotting area
  RooflineAxes axes;
  std::vector<Rect> point_dots;  // per point of d.points, its dot (empty rect: not drawn)
  // Pixel position of (intensity, GFLOP/s) in the plot.
  float x_of(double intensity) const;
  float y_of(double gflops) const;
};

// Lays the chart out in width × height. Without peaks it says so and draws no roofs. `text_scale`
// sizes the text (1: a 1080-pixel slide's); 0: height / 1080, as the PNG.
RooflineLayout layout_roofline(const RooflineData& d, float width, float height, const TextMeasure& measure,
                               float text_scale = 0);

// Every text of a layout: for the PNG's glyph list.
std::string roofline_glyph_text(const RooflineData& d);

}  // namespace gpulab::presenter

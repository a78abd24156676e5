// The timeline and bandwidth-curve layouts, their drawing through a Painter, and the raster painter
// behind the slide PNG.
#include "demos/transfers/transfers_view.h"

#include <imgui.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <tuple>
#include <utility>
#include <vector>

#include "base/text_fit.h"
#include "gl/image_io.h"

namespace gpulab::transfers_view {

using transfers::PipelineBounds;
using transfers::Span;

std::string_view op_name(Op op) {
  switch (op) {
    case Op::H2D:
      return "H2D";
    case Op::Kernel:
      return "kernel";
    default:
      return "D2H";
  }
}

double nice_step(double range, int lines) {
  if (!(range > 0) || lines < 1) return 1;
  const double raw = range / lines;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

TimelineLayout layout_timeline(const std::vector<Span>& spans, int streams, double total_ms,
                               const PipelineBounds& bounds) {
  TimelineLayout t;
  t.lanes = {"H2D copy engine", "SMs (kernels)", "D2H copy engine"};
  int max_stream = streams - 1;
  for (const Span& s : spans) max_stream = std::max(max_stream, s.stream);
  for (int s = 0; s <= max_stream; ++s) t.lanes.push_back("stream " + std::to_string(s));
  std::vector<Span> sorted = spans;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Span& a, const Span& b) { return a.begin_ms < b.begin_ms; });
  double engine_end[3] = {0, 0, 0};
  double latest = 0;
  for (const Span& s : sorted) {
    const int lane = s.op == Op::H2D ? 0 : s.op == Op::Kernel ? 1 : 2;
    Bar engine{lane, s.op, s.stream, s.chunk, s.begin_ms, s.end_ms};
    if (s.op != Op::Kernel) engine.begin_ms = std::min(s.end_ms, std::max(s.begin_ms, engine_end[lane]));
    engine_end[lane] = std::max(engine_end[lane], s.end_ms);
    t.bars.push_back(engine);
    t.bars.push_back({kEngineLanes + s.stream, s.op, s.stream, s.chunk, engine.begin_ms, s.end_ms});
    latest = std::max(latest, s.end_ms);
  }
  t.total_ms = total_ms;
  if (bounds.h2d_ms > 0 || bounds.kernel_ms > 0 || bounds.d2h_ms > 0) {
    t.bound_ms = bounds.bound_ms();
    t.sum_ms = bounds.sum_ms();
  }
  const double extent = std::max({latest, total_ms, t.sum_ms, 1e-3});
  t.tick_ms = nice_step(extent, 8);
  t.axis_ms = std::ceil(extent * 1.02 / t.tick_ms) * t.tick_ms;
  return t;
}

uint64_t half_rate_bytes(const Curve& c) {
  if (c.points.size() < 2) return 0;
  double best = 0;
  for (const CurvePoint& p : c.points) best = std::max(best, p.gbps);
  for (const CurvePoint& p : c.points)
    if (p.gbps >= best / 2) return p.bytes;
  return 0;
}

ChartAxes chart_axes(const BandwidthChart& c) {
  ChartAxes a;
  double xl = 1e300, xh = 0, yl = 1e300, yh = 0;
  for (const Curve& cv : c.curves)
    for (const CurvePoint& p : cv.points) {
      if (p.bytes == 0 || !(p.gbps > 0)) continue;
      xl = std::min(xl, double(p.bytes));
      xh = std::max(xh, double(p.bytes));
      yl = std::min(yl, p.gbps);
      yh = std::max(yh, p.gbps);
    }
  if (c.line_rate_gbps > 0) {
    yh = std::max(yh, c.line_rate_gbps);
    yl = std::min(yl, c.line_rate_gbps);
  }
  if (xh <= 0) xl = 4096, xh = double(1 << 30);
  if (yh <= 0) yl = 0.1, yh = 100;
  a.x_lo = std::pow(2.0, std::floor(std::log2(xl)));
  a.x_hi = std::pow(2.0, std::ceil(std::log2(xh)));
  if (a.x_hi <= a.x_lo) a.x_hi = a.x_lo * 2;
  a.y_lo = std::pow(10.0, std::floor(std::log10(yl)));
  a.y_hi = std::pow(10.0, std::ceil(std::log10(yh * 1.05)));
  if (a.y_hi <= a.y_lo) a.y_hi = a.y_lo * 10;
  return a;
}

// ---------------------------------------------------------------------------------------------
// Display paths.

void record_frame_time(DisplayChart& c, const std::string& rung, int width, int height, double ms) {
  for (FrameTime& t : c.times)
    if (t.rung == rung && t.width == width && t.height == height) {
      t.ms = ms;
      return;
    }
  c.times.push_back({rung, width, height, ms});
}

std::vector<DisplayBar> layout_display_bars(const DisplayChart& c, int* rows) {
  std::vector<std::pair<int, int>> sizes;
  double longest = 0;
  for (const FrameTime& t : c.times) {
    if (std::find(sizes.begin(), sizes.end(), std::pair{t.width, t.height}) == sizes.end())
      sizes.emplace_back(t.width, t.height);
    longest = std::max(longest, t.ms);
  }
  std::stable_sort(sizes.begin(), sizes.end(), [](const auto& a, const auto& b) {
    return double(a.first) * a.second < double(b.first) * b.second;
  });
  std::vector<DisplayBar> out;
  int row = 0;
  for (const auto& [w, h] : sizes) {
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    ++row;  // the size's header
    for (const FrameTime& t : c.times)
      if (t.width == w && t.height == h)
        out.push_back({t.rung, size, t.ms, longest > 0 ? t.ms / longest : 0, row++});
  }
  if (rows) *rows = row;
  return out;
}

uint32_t display_colour(std::string_view rung) {
  if (rung == "display-interop") return 0xFF50C050;
  if (rung == "display-pbo") return 0xFFE0A040;
  if (rung == "display-host-copy") return 0xFF4080F0;
  return 0xFFA0A0A0;
}

namespace {
constexpr uint32_t kText = 0xFFE8E8E8, kDim = 0xFF909090, kGrid = 0x40FFFFFF, kFrame = 0xFF606060;
// The bound and the serial sum: Okabe-Ito yellow and reddish purple.
constexpr uint32_t kBound = 0xFF42E4F0, kSum = 0xFFA779CC, kTotal = 0xFFFFFFFF;
constexpr uint32_t kCurveColours[] = {0xFFFFB040, 0xFF40C0FF, 0xFF60E060, 0xFFFF60FF, 0xFF4080FF,
                                      0xFFC0C0C0, 0xFF80FFFF, 0xFFFF8080, 0xFF8080FF, 0xFF40FFC0,
                                      0xFFB0B0FF, 0xFF60A0A0, 0xFFA060FF, 0xFFFFFF60};

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
}  // namespace

uint32_t op_colour(Op op) { return timeline_palette("").op[op == Op::H2D ? 0 : op == Op::Kernel ? 1 : 2]; }

TimelinePalette timeline_palette(const std::string& style) {
  // Okabe-Ito: sky blue 56B4E9 / blue 0072B2, bluish green 009E73, orange E69F00, yellow F0E442,
  // vermillion D55E00, reddish purple CC79A7 (0xAABBGGRR below).
  TimelinePalette pal{0xFF201A18, kText, kDim,   kGrid,      kFrame,
                      kBound,     kSum,  kTotal, 0xFF000000, {0xFFE9B456, 0xFF739E00, 0xFF009FE6}};
  if (style == "projector") {
    pal.background = 0xFF000000;
    pal.text = 0xFFFFFFFF;
    pal.dim = 0xFFCEC8C8;
    pal.total = 0xFFFFFFFF;
    pal.slide = true;
  } else if (style == "light") {
    pal.background = 0xFFFFFFFF;
    pal.text = 0xFF100A0A;
    pal.dim = 0xFF564A46;
    pal.grid = 0x30000000;
    pal.frame = 0xFF6A5E5A;
    pal.bound = 0xFF005ED5;  // vermillion: yellow is too pale on white
    pal.total = 0xFF000000;
    pal.op[0] = 0xFFB27200;  // blue: sky blue is too pale on white
    pal.slide = true;
  }
  return pal;
}

void draw_timeline(Painter& p, const TimelineLayout& t, Rect v) {
  draw_timeline(p, t, v, timeline_palette(""));
}

namespace {
// `text` as wide as `width` at most: whole " | " fields dropped from the end, then cut with "...".
std::string fit_text(const Painter& p, std::string text, float width) {
  while (p.text_width(text) > width) {
    const size_t bar = text.rfind(" | ");
    if (bar == std::string::npos || bar == 0) break;
    text.resize(bar);
  }
  return elide_to_width(std::move(text), width, [&](const std::string& s) { return p.text_width(s); });
}
}  // namespace

void draw_timeline(Painter& p, const TimelineLayout& t, Rect v, const TimelinePalette& pal) {
  const uint32_t kText = pal.text, kDim = pal.dim, kGrid = pal.grid, kFrame = pal.frame, kBound = pal.bound,
                 kSum = pal.sum, kTotal = pal.total;
  auto op_colour = [&](Op op) { return pal.op[op == Op::H2D ? 0 : op == Op::Kernel ? 1 : 2]; };
  const float th = p.text_height();
  float label_w = 0;
  for (const std::string& l : t.lanes) label_w = std::max(label_w, p.text_width(l));
  // Every line of text fits the view's width: the title, the markers' labels (on as many rows above
  // the plot as they need not to overlap), the legend (the ratios on a line of their own if need be).
  const float plot_x0 = v.x0 + label_w + th, plot_x1 = v.x1 - th;
  struct Marker {
    double ms;
    uint32_t colour;
    std::string label;
    float x = 0, tx = 0, w = 0;  // its line, its label's left edge and width
    int row = 0;
  };
  std::vector<Marker> markers;
  if (t.bound_ms > 0) markers.push_back({t.bound_ms, kBound, "bound " + fmt("%.2f ms", t.bound_ms)});
  if (t.total_ms > 0) markers.push_back({t.total_ms, kTotal, "achieved " + fmt("%.2f ms", t.total_ms)});
  if (t.sum_ms > 0) markers.push_back({t.sum_ms, kSum, "serial sum " + fmt("%.2f ms", t.sum_ms)});
  std::sort(markers.begin(), markers.end(), [](const Marker& a, const Marker& b) { return a.ms < b.ms; });
  const double axis_ms = t.axis_ms > 0 ? t.axis_ms : 1.0;
  // Each label goes on a row above the plot (row 0 nearest it), right of its line or left of it. A
  // line runs from its label down through the rows below, so the search (3 markers at most: every
  // placement is tried) takes the fewest collisions, then the fewest rows, then the fewest labels on
  // the left: labels on one row apart, and no line through a label of a lower row.
  const size_t n = markers.size();
  for (Marker& m : markers) {
    m.label = fit_text(p, m.label, std::max(plot_x1 - plot_x0, 1.0f));
    m.w = p.text_width(m.label);  // measured once: the search below only does arithmetic
    m.x = plot_x0 + float(m.ms / axis_ms) * (plot_x1 - plot_x0);
  }
  auto label_x = [&](const Marker& m, bool left) {
    return std::max(plot_x0, std::min(left ? m.x - 3 - m.w : m.x + 3, plot_x1 - m.w));
  };
  size_t label_rows = 0;
  if (n > 0) {
    size_t combos = 1;
    for (size_t i = 0; i < n; ++i) combos *= 2 * n;
    std::tuple<int, size_t, int> best{INT_MAX, 0, 0};
    std::vector<float> tx(n);
    std::vector<size_t> row(n);
    for (size_t c = 0; c < combos; ++c) {
      int lefts = 0;
      size_t rows = 0;
      for (size_t i = 0, k = c; i < n; ++i, k /= 2 * n) {
        row[i] = k % n;
        const bool left = (k / n) % 2 == 1;
        lefts += left;
        tx[i] = label_x(markers[i], left);
        rows = std::max(rows, row[i] + 1);
      }
      int collisions = 0;
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
          if (i == j) continue;
          const float wj = markers[j].w;
          if (row[i] == row[j] && i < j && tx[i] < tx[j] + wj + 0.5f * th &&
              tx[j] < tx[i] + markers[i].w + 0.5f * th)
            ++collisions;
          if (row[i] > row[j] && markers[i].x > tx[j] - 2 && markers[i].x < tx[j] + wj + 2) ++collisions;
        }
      const std::tuple<int, size_t, int> score{collisions, rows, lefts};
      if (score < best) {
        best = score;
        label_rows = rows;
        for (size_t i = 0; i < n; ++i) markers[i].tx = tx[i], markers[i].row = int(row[i]);
      }
    }
  }
  std::vector<std::string> bottom;
  if (!t.note.empty()) bottom.push_back(fit_text(p, t.note, v.x1 - plot_x0));
  const std::string colours = "blue H2D   green kernel   orange D2H";
  if (t.bound_ms > 0) {
    const std::string ratios = "achieved / bound = " + fmt("%.2fx", t.total_ms / t.bound_ms) +
                               "   sum / achieved = " + fmt("%.2fx", t.sum_ms / std::max(1e-9, t.total_ms));
    if (p.text_width(colours + "   " + ratios) <= plot_x1 - plot_x0) {
      bottom.push_back(colours + "   " + ratios);
    } else {
      bottom.push_back(fit_text(p, colours, v.x1 - plot_x0));
      bottom.push_back(fit_text(p, ratios, v.x1 - plot_x0));
    }
  } else {
    bottom.push_back(fit_text(p, colours, v.x1 - plot_x0));
  }
  const float top = v.y0 + (t.title.empty() ? 0.0f : 1.3f * th) + float(label_rows) * th + 0.3f * th;
  const Rect plot{plot_x0, std::max(top, v.y0 + 2.5f * th), plot_x1,
                  v.y1 - (2.4f + 1.1f * float(bottom.size())) * th};
  if (!t.title.empty()) p.text(v.x0, v.y0, fit_text(p, t.title, v.w()), kText);
  if (plot.w() < 10 || plot.h() < 10 || t.lanes.empty()) return;
  const float lane_h = plot.h() / float(t.lanes.size());
  auto x_of = [&](double ms) { return plot.x0 + float(ms / axis_ms) * plot.w(); };
  // Grid and axis labels.
  for (double ms = 0; t.tick_ms > 0 && ms <= t.axis_ms + 1e-9; ms += t.tick_ms) {
    const float x = x_of(ms);
    p.line(x, plot.y0, x, plot.y1, kGrid, 1);
    const std::string tick = fmt("%g", ms);
    p.text(std::min(x - p.text_width(tick) / 2, v.x1 - p.text_width(tick)), plot.y1 + 0.2f * th, tick, kDim);
  }
  const std::string axis_title = pal.slide ? "time (ms)" : "ms";
  p.text(plot.x1 - p.text_width(axis_title), plot.y1 + 1.2f * th, axis_title, kDim);
  for (size_t i = 0; i < t.lanes.size(); ++i) {
    const float y = plot.y0 + lane_h * float(i);
    p.text(v.x0, y + (lane_h - th) / 2, t.lanes[i], i < size_t(kEngineLanes) ? kText : kDim);
    p.line(plot.x0, y, plot.x1, y, i == size_t(kEngineLanes) ? kFrame : kGrid, 1);
  }
  p.line(plot.x0, plot.y1, plot.x1, plot.y1, kFrame, 1);
  // Bars: a pixel wide at least, a 1-pixel gap between chunks.
  for (const Bar& b : t.bars) {
    const float y = plot.y0 + lane_h * float(b.lane);
    float x0 = x_of(b.begin_ms), x1 = x_of(b.end_ms);
    if (x1 - x0 > 3) x1 -= 1;
    x1 = std::max(x1, x0 + 1);
    const uint32_t c = b.lane == 1 ? (op_colour(b.op) & 0x00FFFFFF) | 0xC0000000 : op_colour(b.op);
    p.rect({x0, y + lane_h * 0.15f, x1, y + lane_h * 0.85f}, c);
    if (x1 - x0 > p.text_width("00") + 4 && lane_h * 0.7f > th)
      p.text(x0 + 2, y + (lane_h - th) / 2, std::to_string(b.chunk), pal.on_bar);
  }
  // Achieved, bound, serial sum: each line from its label's row down through the plot.
  for (const Marker& m : markers) {
    const float ly = plot.y0 - 0.2f * th - float(m.row + 1) * th;
    p.line(m.x, ly + th, m.x, plot.y1, m.colour, 2);
    p.text(m.tx, ly, m.label, m.colour);
  }
  for (size_t i = 0; i < bottom.size(); ++i)
    p.text(plot.x0, v.y1 - 1.1f * th * float(bottom.size() - i), bottom[i], kDim);
}

void draw_bandwidth(Painter& p, const BandwidthChart& c, Rect v) {
  const float th = p.text_height();
  const Rect plot{v.x0 + p.text_width("1000 GB/s") + th, v.y0 + 2 * th,
                  v.x1 - p.text_width("managed-prefetch") - 2 * th, v.y1 - 3 * th};
  if (!c.title.empty()) p.text(v.x0, v.y0, c.title, kText);
  if (plot.w() < 20 || plot.h() < 20) return;
  const ChartAxes a = chart_axes(c);
  auto x_of = [&](double b) {
    return plot.x0 + float(std::log(b / a.x_lo) / std::log(a.x_hi / a.x_lo)) * plot.w();
  };
  auto y_of = [&](double g) {
    return plot.y1 - float(std::log(g / a.y_lo) / std::log(a.y_hi / a.y_lo)) * plot.h();
  };
  // Latency region: below the size where the best curve reaches half its rate.
  uint64_t half = 0;
  double best = 0;
  for (const Curve& cv : c.curves)
    for (const CurvePoint& pt : cv.points)
      if (pt.gbps > best) best = pt.gbps, half = half_rate_bytes(cv);
  if (half > 0 && double(half) > a.x_lo) {
    p.rect({plot.x0, plot.y0, x_of(double(half)), plot.y1}, 0x30FFFFFF);
    p.text(plot.x0 + 4, plot.y0 + 4, "latency region", kDim);
  }
  // A grid line every 4x; a label on every k-th line, k the fewest lines that keep the widest label
  // and a gap between two (a narrow chart labels fewer sizes rather than running them together).
  std::vector<double> ticks;
  for (double b = a.x_lo; b <= a.x_hi * 1.001; b *= 4) ticks.push_back(b);
  float widest = 0;
  for (double b : ticks) widest = std::max(widest, p.text_width(transfers::format_bytes(uint64_t(b))));
  const float spacing = ticks.size() > 1 ? plot.w() / float(ticks.size() - 1) : plot.w();
  size_t every = 1;
  while (every < ticks.size() && spacing * float(every) < widest + th) every *= 2;
  for (size_t i = 0; i < ticks.size(); ++i) {
    const float x = x_of(ticks[i]);
    p.line(x, plot.y0, x, plot.y1, kGrid, 1);
    if (i % every) continue;
    const std::string label = transfers::format_bytes(uint64_t(ticks[i]));
    const float w = p.text_width(label);
    p.text(std::clamp(x - w / 2, v.x0, v.x1 - w), plot.y1 + 0.3f * th, label, kDim);
  }
  for (double g = a.y_lo; g <= a.y_hi * 1.001; g *= 10) {
    const float y = y_of(g);
    p.line(plot.x0, y, plot.x1, y, kGrid, 1);
    const std::string l = fmt("%g GB/s", g);
    p.text(plot.x0 - p.text_width(l) - 4, y - th / 2, l, kDim);
  }
  p.line(plot.x0, plot.y1, plot.x1, plot.y1, kFrame, 1);
  p.line(plot.x0, plot.y0, plot.x0, plot.y1, kFrame, 1);
  if (c.line_rate_gbps > 0) {
    const float y = y_of(c.line_rate_gbps);
    p.line(plot.x0, y, plot.x1, y, kBound, 2);
    p.text(plot.x0 + 4, y - th - 2, "PCIe line rate " + fmt("%.1f GB/s", c.line_rate_gbps), kBound);
  }
  for (size_t i = 0; i < c.curves.size(); ++i) {
    const Curve& cv = c.curves[i];
    const uint32_t col = kCurveColours[i % std::size(kCurveColours)];
    float px = 0, py = 0;
    bool first = true;
    for (const CurvePoint& pt : cv.points) {
      if (pt.bytes == 0 || !(pt.gbps > 0)) continue;
      const float x = x_of(double(pt.bytes)), y = y_of(pt.gbps);
      if (!first) p.line(px, py, x, y, col, 2);
      p.rect({x - 2, y - 2, x + 2, y + 2}, col);
      px = x, py = y;
      first = false;
    }
    if (!first) p.text(px + 6, py - th / 2, cv.id, col);
  }
  // The axes' note, shortened where the view is narrow.
  for (const std::string& note :
       {c.note.empty() ? std::string("bytes per transfer (log) vs GB/s (log)") : c.note,
        std::string("bytes vs GB/s (log)")})
    if (plot.x0 + p.text_width(note) <= v.x1) {
      p.text(plot.x0, v.y1 - 1.2f * th, note, kDim);
      break;
    }
}

void draw_display_bars(Painter& p, const DisplayChart& c, Rect v) {
  const float th = p.text_height();
  if (!c.title.empty()) p.text(v.x0, v.y0, c.title, kText);
  int rows = 0;
  const std::vector<DisplayBar> bars = layout_display_bars(c, &rows);
  const float label_w = p.text_width("display-host-copy") + th;
  const float number_w = p.text_width("000.00 ms/frame") + th;
  const Rect plot{v.x0 + label_w, v.y0 + 1.5f * th, v.x1 - number_w,
                  v.y1 - (c.note.empty() ? 0.5f : 1.7f) * th};
  if (!c.note.empty()) p.text(v.x0, v.y1 - 1.2f * th, c.note, kDim);
  if (rows == 0 || plot.w() < 10 || plot.h() < 4) {
    if (rows == 0) p.text(v.x0, v.y0 + 1.5f * th, "no frame timed yet", kDim);
    return;
  }
  const float row_h = std::min(plot.h() / float(rows), 2.2f * th);
  std::string last_size;
  for (const DisplayBar& b : bars) {
    const float y = plot.y0 + row_h * float(b.row);
    if (b.size != last_size) {
      p.text(v.x0, y - row_h + (row_h - th) / 2, b.size + " frame", kText);
      last_size = b.size;
    }
    p.text(v.x0, y + (row_h - th) / 2, b.label, kDim);
    const float x1 = plot.x0 + std::max(1.0f, float(b.fraction) * plot.w());
    p.rect({plot.x0, y + row_h * 0.15f, x1, y + row_h * 0.85f}, display_colour(b.label));
    p.text(x1 + 0.4f * th, y + (row_h - th) / 2, fmt("%.2f ms/frame", b.ms), kText);
  }
}

// ---------------------------------------------------------------------------------------------
// The raster painter.

struct RasterPainter::Font {
  ImFontAtlas atlas;
  ImFont* font = nullptr;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
};

RasterPainter::RasterPainter(int width, int height, uint32_t background, int text_scale)
    : w_(width),
      h_(height),
      scale_(std::max(1, text_scale)),
      px_(size_t(width) * size_t(height) * 4),
      font_(new Font) {
  for (size_t i = 0; i < size_t(w_) * size_t(h_); ++i)
    for (int c = 0; c < 4; ++c) px_[i * 4 + size_t(c)] = uint8_t(background >> (8 * c));
  font_->font = font_->atlas.AddFontDefault();
  font_->atlas.GetTexDataAsAlpha8(&font_->pixels, &font_->w, &font_->h);
}

RasterPainter::~RasterPainter() { delete font_; }

uint32_t RasterPainter::pixel(int x, int y) const {
  const size_t i = (size_t(y) * size_t(w_) + size_t(x)) * 4;
  return uint32_t(px_[i]) | uint32_t(px_[i + 1]) << 8 | uint32_t(px_[i + 2]) << 16 |
         uint32_t(px_[i + 3]) << 24;
}

void RasterPainter::blend(int x, int y, uint32_t rgba, float coverage) {
  if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
  const float a = float(rgba >> 24) / 255.0f * coverage;
  uint8_t* d = &px_[(size_t(y) * size_t(w_) + size_t(x)) * 4];
  for (int c = 0; c < 3; ++c)
    d[c] = uint8_t(std::lround(d[c] * (1 - a) + float((rgba >> (8 * c)) & 0xFF) * a));
  d[3] = 255;
}

void RasterPainter::rect(Rect r, uint32_t rgba) {
  const int x0 = std::max(0, int(std::lround(r.x0))), x1 = std::min(w_, int(std::lround(r.x1)));
  const int y0 = std::max(0, int(std::lround(r.y0))), y1 = std::min(h_, int(std::lround(r.y1)));
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) blend(x, y, rgba, 1);
}

void RasterPainter::line(float x0, float y0, float x1, float y1, uint32_t rgba, float width) {
  const float len = std::max(std::abs(x1 - x0), std::abs(y1 - y0));
  const int n = std::max(1, int(std::ceil(len)));
  const int half = std::max(0, int(width) / 2);
  const bool steep = std::abs(y1 - y0) > std::abs(x1 - x0);
  int px = -1 << 30, py = -1 << 30;
  for (int i = 0; i <= n; ++i) {
    const int x = int(std::lround(x0 + (x1 - x0) * float(i) / float(n)));
    const int y = int(std::lround(y0 + (y1 - y0) * float(i) / float(n)));
    if (x == px && y == py) continue;
    px = x, py = y;
    for (int k = -half; k <= (int(width) > 1 ? half : 0); ++k)
      steep ? blend(x + k, y, rgba, 1) : blend(x, y + k, rgba, 1);
  }
}

float RasterPainter::text_height() const { return font_->font->FontSize * float(scale_); }

float RasterPainter::text_width(const std::string& s) const {
  float w = 0;
  for (unsigned char ch : s) {
    const ImFontGlyph* g = font_->font->FindGlyph(ImWchar(ch < 128 ? ch : '?'));
    if (g) w += g->AdvanceX;
  }
  return w * float(scale_);
}

void RasterPainter::text(float x, float y, const std::string& s, uint32_t rgba) {
  float pen = x;
  for (unsigned char ch : s) {
    const ImFontGlyph* g = font_->font->FindGlyph(ImWchar(ch < 128 ? ch : '?'));
    if (!g) continue;
    const int gw = int(std::lround((g->U1 - g->U0) * float(font_->w)));
    const int gh = int(std::lround((g->V1 - g->V0) * float(font_->h)));
    const int u0 = int(std::lround(g->U0 * float(font_->w))), v0 = int(std::lround(g->V0 * float(font_->h)));
    for (int gy = 0; gy < gh; ++gy)
      for (int gx = 0; gx < gw; ++gx) {
        const unsigned char a = font_->pixels[size_t(v0 + gy) * size_t(font_->w) + size_t(u0 + gx)];
        if (!a) continue;
        for (int sy = 0; sy < scale_; ++sy)
          for (int sx = 0; sx < scale_; ++sx)
            blend(int(pen + g->X0 * float(scale_)) + gx * scale_ + sx,
                  int(y + g->Y0 * float(scale_)) + gy * scale_ + sy, rgba, float(a) / 255.0f);
      }
    pen += g->AdvanceX * float(scale_);
  }
}

std::string save_timeline_png(const std::filesystem::path& path, const TimelineLayout& t, int width,
                              int height, const std::string& style) {
  const TimelinePalette pal = timeline_palette(style);
  RasterPainter p(width, height, pal.background, std::max(1, height / 540));
  const float m = float(height) / 30;
  draw_timeline(p, t, {m, m, float(width) - m, float(height) - m}, pal);
  return gl::write_png(path, width, height, p.rgba().data());
}

std::string sweep_csv(const std::vector<SweepRow>& rows, double line_rate_gbps) {
  std::string out = "rung,bytes,ms,gbps,pct_line_rate\n";
  char buf[256];
  for (const SweepRow& r : rows) {
    std::snprintf(buf, sizeof buf, "%s,%llu,%.6g,%.6g,%s\n", r.rung.c_str(), (unsigned long long)r.bytes,
                  r.ms, r.gbps, line_rate_gbps > 0 ? fmt("%.1f", 100 * r.gbps / line_rate_gbps).c_str() : "");
    out += buf;
  }
  return out;
}

std::string spans_csv(const std::vector<Span>& spans) {
  std::string out = "stream,chunk,op,begin_ms,end_ms\n";
  char buf[160];
  for (const Span& s : spans) {
    std::snprintf(buf, sizeof buf, "%d,%d,%s,%.6f,%.6f\n", s.stream, s.chunk,
                  std::string(op_name(s.op)).c_str(), s.begin_ms, s.end_ms);
    out += buf;
  }
  return out;
}

}  // namespace gpulab::transfers_view

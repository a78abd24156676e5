#include "presenter/roofline.h"

#include <algorithm>
#include <cmath>

#include "presenter/counter_readings.h"

namespace gpulab::presenter {

double roof_gflops(const RooflineData& d, double intensity) {
  if (!(d.peak_gflops > 0) || !(d.peak_gbps > 0) || !(intensity > 0)) return 0;
  return std::min(d.peak_gflops, d.peak_gbps * intensity);
}

double ridge_intensity(const RooflineData& d) {
  return d.peak_gflops > 0 && d.peak_gbps > 0 ? d.peak_gflops / d.peak_gbps : 0;
}

RooflineAxes roofline_axes(const RooflineData& d) {
  RooflineAxes a;
  const double ridge = ridge_intensity(d);
  double x_min = ridge > 0 ? ridge / 100 : 0.01, x_max = ridge > 0 ? ridge * 10 : 1000;
  double y_max = d.peak_gflops > 0 ? d.peak_gflops : 1e5;
  double y_min = y_max / 1e4;
  for (const RooflinePoint& p : d.points) {
    if (!(p.intensity > 0) || !(p.gflops > 0)) continue;
    x_min = std::min(x_min, p.intensity);
    x_max = std::max(x_max, p.intensity);
    y_min = std::min(y_min, p.gflops);
    y_max = std::max(y_max, p.gflops);
  }
  a.x_lo = int(std::floor(std::log10(x_min)));
  a.x_hi = int(std::ceil(std::log10(x_max) + 1e-9));
  a.y_lo = int(std::floor(std::log10(y_min)));
  a.y_hi = int(std::ceil(std::log10(y_max * 1.5)));
  if (a.x_hi <= a.x_lo) a.x_hi = a.x_lo + 1;
  if (a.y_hi <= a.y_lo) a.y_hi = a.y_lo + 1;
  return a;
}

float RooflineLayout::x_of(double intensity) const {
  const double t = (std::log10(intensity) - axes.x_lo) / double(axes.x_hi - axes.x_lo);
  return plot.x0 + float(t) * plot.width();
}

float RooflineLayout::y_of(double gflops) const {
  const double t = (std::log10(gflops) - axes.y_lo) / double(axes.y_hi - axes.y_lo);
  return plot.y1 - float(t) * plot.height();
}

namespace {

// "100 G", "1 T", "10 T": FLOP/s at a decade of GFLOP/s.
std::string flops_decade(int e) {
  static const char* kPrefix[] = {"", "k", "M", "G", "T", "P", "E"};
  const int total = e + 9;  // exponent of FLOP/s
  if (total < 0 || total > 20) return "1e" + std::to_string(total);
  const int p = total / 3;
  const int rest = total % 3;
  return std::string(rest == 0 ? "1" : rest == 1 ? "10" : "100") + " " + kPrefix[p];
}

std::string intensity_decade(int e) {
  if (e >= 0 && e <= 6) return std::to_string(int(std::lround(std::pow(10.0, e))));
  if (e < 0 && e >= -4) {
    std::string s = "0.";
    for (int i = -1; i > e; --i) s += "0";
    return s + "1";
  }
  return "1e" + std::to_string(e);
}

// Cuts `s` (UTF-8, at code point boundaries) to fit `width` at `px`, ending it with "…".
std::string fit(const std::string& s, TextFace face, float px, float width, const TextMeasure& m) {
  if (m(s, face, px) <= width) return s;
  std::string t = s;
  while (!t.empty()) {
    do t.pop_back();
    while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80);
    if (!t.empty()) t.pop_back();
    if (m(t + "\xE2\x80\xA6", face, px) <= width) return t + "\xE2\x80\xA6";
  }
  return "";
}

}  // namespace

std::string roofline_glyph_text(const RooflineData& d) {
  std::string s = d.title + d.device + d.date + "0123456789.,:·×…µ%/()-+ kMGTPEFLOPbytesroofDRAMridgeB";
  s += "FP32 rate (FLOP/s)arithmetic intensity (FLOP per DRAM byte)not on the roofline no peaks";
  for (const RooflinePoint& p : d.points) s += p.label;
  for (const std::string& u : d.unplaced) s += u;
  return s;
}

RooflineLayout layout_roofline(const RooflineData& d, float width, float height, const TextMeasure& measure,
                               float text_scale) {
  RooflineLayout L;
  ChartLayout& c = L.chart;
  c.width = width;
  c.height = height;
  const float s = text_scale > 0 ? text_scale : height / 1080.0f;
  const float pad = 24 * s;
  auto text = [&](std::string t, float x, float y, float px, TextFace face, ChartColour col, TextRole role,
                  int rung = -1) {
    TextRun r;
    r.width = measure(t, face, px);
    r.text = std::move(t);
    r.x = x, r.y = y, r.size = px, r.face = face, r.colour = col, r.role = role, r.rung = rung;
    c.texts.push_back(std::move(r));
    return c.texts.back().box();
  };
  const float title_px = 44 * s, sub_px = 26 * s, tick_px = 22 * s, label_px = 24 * s, note_px = 22 * s;
  text(fit(d.title, TextFace::SansBold, title_px, width - 2 * pad, measure), pad, pad, title_px,
       TextFace::SansBold, ChartColour::Title, TextRole::Title);
  const double ridge = ridge_intensity(d);
  std::string sub = d.device;
  if (ridge > 0)
    sub += (sub.empty() ? "" : " · ") + std::string("FP32 roof ") + format_sig3(d.peak_gflops / 1000) +
           " TFLOP/s · DRAM roof " + format_sig3(d.peak_gbps) + " GB/s · ridge " + format_sig3(ridge) +
           " FLOP/byte";
  else
    sub += (sub.empty() ? "" : " · ") + std::string("no peaks known for this device: no roofs drawn");
  if (!d.date.empty()) sub += " · " + d.date;
  const float sub_y = pad + title_px + 8 * s;
  text(fit(sub, TextFace::Sans, sub_px, width - 2 * pad, measure), pad, sub_y, sub_px, TextFace::Sans,
       ChartColour::Dim, TextRole::Subtitle);

  // The plot: room on the left for the y ticks, below for the x ticks, the axis title and the notes.
  const float y_tick_w = measure("100 T", TextFace::Sans, tick_px) + 12 * s;
  const float notes_h = float(d.unplaced.size()) * note_px * 1.25f;
  L.plot.x0 = pad + y_tick_w;
  L.plot.x1 = width - pad;
  L.plot.y0 = sub_y + sub_px + 40 * s + tick_px;
  L.plot.y1 = std::max(L.plot.y0 + 0.3f * height, height - pad - notes_h - tick_px * 2.6f - label_px);
  L.axes = roofline_axes(d);
  c.boxes.push_back({L.plot, ChartColour::PanelBackground, BoxRole::Panel});
  const float line = std::max(1.0f, 1.5f * s);
  text("FP32 rate (FLOP/s)", L.plot.x0, L.plot.y0 - tick_px - 10 * s, tick_px, TextFace::Sans,
       ChartColour::Dim, TextRole::Heading);
  for (int e = L.axes.x_lo; e <= L.axes.x_hi; ++e) {
    const float x = L.x_of(std::pow(10.0, e));
    c.boxes.push_back({{x - line / 2, L.plot.y0, x + line / 2, L.plot.y1}, ChartColour::Grid, BoxRole::Grid});
    const std::string t = intensity_decade(e);
    const float w = measure(t, TextFace::Sans, tick_px);
    // The end ticks align with the plot's edges (the first clear of the y axis' lowest label).
    const float tx = e == L.axes.x_lo ? x : e == L.axes.x_hi ? x - w : x - w / 2;
    text(t, std::clamp(tx, 0.0f, width - w), L.plot.y1 + 6 * s, tick_px, TextFace::Sans, ChartColour::Dim,
         TextRole::Tick);
  }
  for (int e = L.axes.y_lo; e <= L.axes.y_hi; ++e) {
    const float y = L.y_of(std::pow(10.0, e));
    c.boxes.push_back({{L.plot.x0, y - line / 2, L.plot.x1, y + line / 2}, ChartColour::Grid, BoxRole::Grid});
    const std::string t = flops_decade(e);
    const float w = measure(t, TextFace::Sans, tick_px);
    text(t, L.plot.x0 - 8 * s - w, std::clamp(y - tick_px / 2, 0.0f, height - tick_px), tick_px,
         TextFace::Sans, ChartColour::Dim, TextRole::Tick);
  }
  {
    const std::string t = "arithmetic intensity (FLOP per DRAM byte)";
    const float w = measure(t, TextFace::Sans, label_px);
    text(t, L.plot.x0 + (L.plot.width() - w) / 2, L.plot.y1 + tick_px + 14 * s, label_px, TextFace::Sans,
         ChartColour::Text, TextRole::Heading);
  }

  // The roofs.
  const float roof_w = std::max(2.0f, 4 * s);
  if (ridge > 0) {
    const double x_left = std::max(std::pow(10.0, L.axes.x_lo), std::pow(10.0, L.axes.y_lo) / d.peak_gbps);
    const double x_right = std::pow(10.0, L.axes.x_hi);
    c.lines.push_back({L.x_of(x_left), L.y_of(d.peak_gbps * x_left), L.x_of(ridge), L.y_of(d.peak_gflops),
                       roof_w, ChartColour::Slowdown});
    c.lines.push_back({L.x_of(ridge), L.y_of(d.peak_gflops), L.x_of(x_right), L.y_of(d.peak_gflops), roof_w,
                       ChartColour::Speedup});
    const std::string fp = "FP32 " + format_sig3(d.peak_gflops / 1000) + " TFLOP/s";
    const float fw = measure(fp, TextFace::Sans, tick_px);
    text(fp, L.plot.x1 - fw - 8 * s, L.y_of(d.peak_gflops) - tick_px - 8 * s, tick_px, TextFace::Sans,
         ChartColour::Speedup, TextRole::Peak);
    const std::string bw = "DRAM " + format_sig3(d.peak_gbps) + " GB/s";
    // Under the sloped roof's middle: the roof rises to the right, so the text stays clear of it.
    const double xm = std::sqrt(x_left * ridge);
    const float bx = L.x_of(xm) + 6 * s;
    const float by = std::min(L.plot.y1 - tick_px - 4 * s, L.y_of(d.peak_gbps * xm) + 10 * s);
    text(bw, std::clamp(bx, L.plot.x0 + 4 * s, L.plot.x1 - measure(bw, TextFace::Sans, tick_px) - 4 * s), by,
         tick_px, TextFace::Sans, ChartColour::Slowdown, TextRole::Peak);
  }

  // The points, each labelled; a label that would overlap another moves down.
  const float r = std::max(4.0f, 9 * s);
  std::vector<Rect> taken;
  for (const TextRun& t : c.texts)
    if (t.role == TextRole::Peak) taken.push_back(t.box());
  for (size_t i = 0; i < d.points.size(); ++i) {
    const RooflinePoint& p = d.points[i];
    if (!(p.intensity > 0) || !(p.gflops > 0)) {
      L.point_dots.push_back({});
      continue;
    }
    const float x = L.x_of(p.intensity), y = L.y_of(p.gflops);
    const Rect dot{x - r, y - r, x + r, y + r};
    L.point_dots.push_back(dot);
    c.boxes.push_back({dot, ChartColour::Bar, BoxRole::Point, -1, int(i)});
    const std::string label = fit(p.label, TextFace::SansBold, label_px, L.plot.width() * 0.45f, measure);
    const float w = measure(label, TextFace::SansBold, label_px);
    float lx = dot.x1 + 8 * s;
    if (lx + w > L.plot.x1 - 4 * s) lx = dot.x0 - 8 * s - w;
    float ly = std::clamp(y - label_px / 2, L.plot.y0 + 2 * s, L.plot.y1 - label_px - 2 * s);
    for (int tries = 0; tries < 12; ++tries) {
      const Rect box{lx, ly, lx + w, ly + label_px};
      const bool clash =
          std::any_of(taken.begin(), taken.end(), [&](const Rect& t) { return t.overlaps(box); });
      if (!clash) break;
      ly += label_px * 1.1f;
      if (ly + label_px > L.plot.y1) ly = L.plot.y0 + 2 * s + label_px * 1.1f * float(tries);
    }
    const Rect placed =
        text(label, lx, ly, label_px, TextFace::SansBold, ChartColour::Text, TextRole::Name, int(i));
    taken.push_back(placed);
    // A label moved off its dot gets a thin leader line to it.
    if (std::fabs(placed.y0 + label_px / 2 - y) > label_px * 0.75f) {
      const float ex = placed.x0 >= x ? placed.x0 - 2 * s : placed.x1 + 2 * s;
      c.lines.push_back({x, y, ex, placed.y0 + label_px / 2, std::max(1.0f, 1.5f * s), ChartColour::Dim});
    }
  }
  float ny = L.plot.y1 + tick_px + 14 * s + label_px + 12 * s;
  for (const std::string& u : d.unplaced) {
    text(fit(u, TextFace::Sans, note_px, width - 2 * pad, measure), pad, ny, note_px, TextFace::Sans,
         ChartColour::Dim, TextRole::Note);
    ny += note_px * 1.25f;
  }
  return L;
}

}  // namespace gpulab::presenter

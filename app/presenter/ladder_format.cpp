// The ladder chart's numbers as text, its themes, a deterministic text measure, the layout's look-ups
// and the check that nothing in a layout overlaps or leaves the image.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "presenter/ladder_chart.h"

namespace gpulab::presenter {

namespace {

// Three significant figures: 1.23, 12.3, 123, 1234; from 10,000 on, whole numbers with thousands
// separators, which a hall reads at a glance (195,238 rather than 195238).
std::string three_figures(double v) {
  char buf[64];
  if (v >= 9999.5 && v < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    std::string digits = buf, grouped;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
      grouped += digits[i];
    }
    return grouped;
  }
  if (v >= 99.95)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (v >= 9.995)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::string format_time_ms(double ms) {
  if (!(ms > 0) || !std::isfinite(ms)) return "-";
  struct Unit {
    double ms;
    const char* name;
  };
  static constexpr Unit units[] = {{1e3, "s"}, {1.0, "ms"}, {1e-3, "\xC2\xB5s"}, {1e-6, "ns"}};
  for (const Unit& u : units) {
    // 999.7 µs would print as "1000 µs": such values move up a unit.
    if (ms >= u.ms * 0.9995 || u.ms == 1e-6) return three_figures(ms / u.ms) + " " + u.name;
  }
  return "-";
}

std::string format_speedup(double factor) {
  if (!(factor > 0) || !std::isfinite(factor)) return "-";
  return "\xC3\x97" + three_figures(factor);
}

std::string format_decade_ms(int e) {
  // e is the power of ten in milliseconds: -6 -> 1 ns, -3 -> 1 µs, 0 -> 1 ms, 3 -> 1 s.
  if (e < -6 || e > 6) return "1e" + std::to_string(e - 3) + " s";
  const char* unit = "s";
  int rel = e - 3;
  if (e < -3) {
    unit = "ns";
    rel = e + 6;
  } else if (e < 0) {
    unit = "\xC2\xB5s";
    rel = e + 3;
  } else if (e < 3) {
    unit = "ms";
    rel = e;
  }
  static constexpr const char* mantissa[] = {"1", "10", "100", "1000"};
  return std::string(mantissa[rel]) + " " + unit;
}

TextMeasure approximate_text_measure() {
  return [](std::string_view text, TextFace face, float px) {
    const float per = face == TextFace::Mono ? 0.62f : face == TextFace::SansBold ? 0.66f : 0.60f;
    float w = 0;
    for (unsigned char c : text) {
      if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte: the same code point
      w += (c == ' ' || c == '.' || c == ',' || c == 'i' || c == 'l') ? per * 0.55f : per;
      if (c >= 'A' && c <= 'Z' && face != TextFace::Mono) w += per * 0.2f;
    }
    return w * px;
  };
}

const ChartBox* ChartLayout::bar(int panel, int rung) const {
  for (const ChartBox& b : boxes)
    if ((b.role == BoxRole::Bar || b.role == BoxRole::Recorded) && b.panel == panel && b.rung == rung)
      return &b;
  return nullptr;
}

const TextRun* ChartLayout::text(TextRole role, int panel, int rung) const {
  for (const TextRun& t : texts)
    if (t.role == role && t.panel == panel && t.rung == rung) return &t;
  return nullptr;
}

std::vector<std::string> layout_problems(const ChartLayout& layout) {
  std::vector<std::string> out;
  constexpr float eps = 0.01f;
  const Rect image{-eps, -eps, layout.width + eps, layout.height + eps};
  auto name = [](const TextRun& t) {
    return "\"" + t.text + "\" (panel " + std::to_string(t.panel) + ", rung " + std::to_string(t.rung) + ")";
  };
  auto shrunk = [](Rect r) {
    r.x0 += eps, r.y0 += eps, r.x1 -= eps, r.y1 -= eps;
    return r;
  };
  for (size_t i = 0; i < layout.texts.size(); ++i) {
    const TextRun& a = layout.texts[i];
    if (a.text.empty()) out.push_back("empty text run at " + std::to_string(i));
    if (!(a.size > 0) || !(a.width >= 0)) out.push_back(name(a) + " has no size");
    if (!a.box().inside(image)) out.push_back(name(a) + " leaves the image");
    for (size_t j = i + 1; j < layout.texts.size(); ++j)
      if (shrunk(a.box()).overlaps(layout.texts[j].box()))
        out.push_back(name(a) + " overlaps " + name(layout.texts[j]));
    for (const ChartBox& b : layout.boxes) {
      const bool solid = b.role == BoxRole::Bar || b.role == BoxRole::FailedTag ||
                         b.role == BoxRole::Yardstick || b.role == BoxRole::Recorded;
      const bool own_tag = b.role == BoxRole::FailedTag && a.role == TextRole::FailedTag &&
                           a.panel == b.panel && a.rung == b.rung;
      if (solid && !own_tag && shrunk(a.box()).overlaps(b.rect))
        out.push_back(name(a) + " overlaps a bar (panel " + std::to_string(b.panel) + ", rung " +
                      std::to_string(b.rung) + ")");
      if (own_tag && !a.box().inside(b.rect)) out.push_back(name(a) + " sticks out of its tag");
    }
  }
  // A rung's counters line (where the window draws its measure button) holds no other text.
  for (const ChartSlot& s : layout.slots) {
    const std::string where = "(panel " + std::to_string(s.panel) + ", rung " + std::to_string(s.rung) + ")";
    if (!s.rect.inside(image) || !(s.rect.width() > 0) || !(s.rect.height() > 0))
      out.push_back("the counters line " + where + " leaves the image or is empty");
    for (const TextRun& t : layout.texts)
      if (!(t.role == TextRole::Counters && t.panel == s.panel && t.rung == s.rung) &&
          shrunk(s.rect).overlaps(t.box()))
        out.push_back(name(t) + " overlaps the counters line " + where);
  }
  for (const ChartBox& b : layout.boxes) {
    if (!b.rect.inside(image) || b.rect.width() < 0 || b.rect.height() < 0)
      out.push_back("a box (panel " + std::to_string(b.panel) + ", rung " + std::to_string(b.rung) +
                    ") leaves the image");
  }
  return out;
}

ChartTheme ChartTheme::dark() {
  ChartTheme t;
  auto set = [&](ChartColour c, uint8_t r, uint8_t g, uint8_t b) { t.colours[size_t(c)] = {r, g, b, 255}; };
  set(ChartColour::Background, 16, 18, 24);
  set(ChartColour::PanelBackground, 28, 31, 40);
  set(ChartColour::Title, 250, 250, 252);
  set(ChartColour::Text, 232, 234, 240);
  set(ChartColour::Dim, 160, 166, 180);
  set(ChartColour::Grid, 44, 48, 60);
  set(ChartColour::Axis, 140, 146, 160);
  // Bars, speed-ups, failures and yardsticks in Okabe-Ito colours (told apart with colour blindness).
  t.colours[size_t(ChartColour::Bar)] = okabe_ito::kSkyBlue;
  t.colours[size_t(ChartColour::Speedup)] = okabe_ito::kBluishGreen;
  t.colours[size_t(ChartColour::Slowdown)] = okabe_ito::kOrange;
  t.colours[size_t(ChartColour::Failed)] = okabe_ito::kVermillion;
  t.colours[size_t(ChartColour::Yardstick)] = okabe_ito::kReddishPurple;
  set(ChartColour::OnFailed, 255, 255, 255);
  set(ChartColour::Unavailable, 120, 124, 136);
  return t;
}

ChartTheme ChartTheme::light() {
  ChartTheme t;
  auto set = [&](ChartColour c, uint8_t r, uint8_t g, uint8_t b) { t.colours[size_t(c)] = {r, g, b, 255}; };
  set(ChartColour::Background, 255, 255, 255);
  set(ChartColour::PanelBackground, 240, 242, 246);
  set(ChartColour::Title, 0, 0, 0);
  set(ChartColour::Text, 10, 10, 16);
  set(ChartColour::Dim, 70, 74, 86);
  set(ChartColour::Grid, 222, 225, 231);
  set(ChartColour::Axis, 90, 94, 106);
  t.colours[size_t(ChartColour::Bar)] = okabe_ito::kBlue;
  t.colours[size_t(ChartColour::Speedup)] = okabe_ito::kBlue;
  t.colours[size_t(ChartColour::Slowdown)] = okabe_ito::kVermillion;
  t.colours[size_t(ChartColour::Failed)] = okabe_ito::kVermillion;
  t.colours[size_t(ChartColour::Yardstick)] = okabe_ito::kReddishPurple;
  set(ChartColour::OnFailed, 255, 255, 255);
  set(ChartColour::Unavailable, 118, 122, 130);
  return t;
}

ChartTheme ChartTheme::projector() {
  ChartTheme t;
  auto set = [&](ChartColour c, uint8_t r, uint8_t g, uint8_t b) { t.colours[size_t(c)] = {r, g, b, 255}; };
  set(ChartColour::Background, 0, 0, 0);
  set(ChartColour::PanelBackground, 22, 22, 26);
  set(ChartColour::Title, 255, 255, 255);
  set(ChartColour::Text, 255, 255, 255);
  set(ChartColour::Dim, 200, 200, 206);
  set(ChartColour::Grid, 70, 70, 78);
  set(ChartColour::Axis, 210, 210, 216);
  t.colours[size_t(ChartColour::Bar)] = okabe_ito::kSkyBlue;
  t.colours[size_t(ChartColour::Speedup)] = okabe_ito::kYellow;
  t.colours[size_t(ChartColour::Slowdown)] = okabe_ito::kOrange;
  t.colours[size_t(ChartColour::Failed)] = okabe_ito::kVermillion;
  t.colours[size_t(ChartColour::Yardstick)] = okabe_ito::kReddishPurple;
  set(ChartColour::OnFailed, 255, 255, 255);
  set(ChartColour::Unavailable, 150, 150, 158);
  return t;
}

double contrast_ratio(Rgba a, Rgba b) {
  auto luminance = [](Rgba c) {
    auto lin = [](uint8_t v) {
      const double x = v / 255.0;
      return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

std::vector<double> ticks_125(double lo_ms, double hi_ms) {
  std::vector<double> out;
  if (!(lo_ms > 0) || !(hi_ms >= lo_ms) || !std::isfinite(hi_ms)) return out;
  for (int e = int(std::floor(std::log10(lo_ms))) - 1; e <= int(std::ceil(std::log10(hi_ms))) + 1; ++e)
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, e);
      if (v >= lo_ms * (1 - 1e-9) && v <= hi_ms * (1 + 1e-9)) out.push_back(v);
    }
  return out;
}

std::string format_tick_ms(double ms) {
  if (!(ms > 0) || !std::isfinite(ms)) return "-";
  struct Unit {
    double ms;
    const char* name;
  };
  static constexpr Unit units[] = {{1e3, "s"}, {1.0, "ms"}, {1e-3, "\xC2\xB5s"}, {1e-6, "ns"}};
  for (const Unit& u : units)
    if (ms >= u.ms * 0.9995 || u.ms == 1e-6) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.3g %s", ms / u.ms, u.name);
      return buf;
    }
  return "-";
}

}  // namespace gpulab::presenter

// The ladder chart's layout. Sizes follow the image's height (s = 1 at 1080 lines) and the room a
// rung gets; every text is measured and shrunk or elided into the space it owns, so that the
// columns (names | bars), the lines of a rung (name and bar | lesson and speed-ups) and the panels
// never share a pixel of text. Font sizes are whole pixels, so a renderer loads few font sizes.
#include "presenter/ladder_chart.h"

#include <algorithm>
#include <cmath>

namespace gpulab::presenter {

namespace {

constexpr const char* kEllipsis = "\xE2\x80\xA6";
constexpr float kMinPx = 6.0f;  // text smaller than this is left out, not drawn as a smudge

// std::clamp without its precondition: `hi` wins when lo > hi (tiny images).
float clampf(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

struct Fitted {
  std::string text;
  float size = 0, width = 0;
};

class Builder {
 public:
  Builder(ChartLayout& layout, const TextMeasure& measure, float min_px = kMinPx)
      : out_(layout), measure_(measure), min_px_(std::max(kMinPx, min_px)) {}
  float min_px() const { return min_px_; }

  float width(std::string_view text, TextFace face, float px) const { return measure_(text, face, px); }

  // The longest prefix of `text` (whole code points, trailing spaces dropped) that fits in max_w
  // with "…" after it; "" when not even "…" fits.
  std::string elide(const std::string& text, TextFace face, float px, float max_w) const {
    if (width(text, face, px) <= max_w) return text;
    std::vector<size_t> cuts;  // byte offsets of code point starts
    for (size_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
    auto candidate = [&](size_t n) {
      std::string s = text.substr(0, cuts[n]);
      while (!s.empty() && s.back() == ' ') s.pop_back();
      return s + kEllipsis;
    };
    size_t lo = 0, hi = cuts.size();  // candidate(lo) is tried first; find the largest that fits
    if (width(candidate(0), face, px) > max_w) return "";
    while (hi - lo > 1) {
      const size_t mid = (lo + hi) / 2;
      if (width(candidate(mid), face, px) <= max_w)
        lo = mid;
      else
        hi = mid;
    }
    return candidate(lo);
  }

  // Shrinks from max_px in steps toward min_px until the text fits; elides at min_px.
  Fitted fit(const std::string& text, TextFace face, float max_px, float min_px, float max_w) const {
    float px = std::floor(max_px);
    min_px = std::min(std::floor(min_px), px);
    while (true) {
      const float w = width(text, face, px);
      if (w <= max_w) return {text, px, w};
      if (px <= min_px) break;
      px = std::max(min_px, std::floor(std::min(px - 1, px * 0.92f)));
    }
    Fitted f{elide(text, face, px, max_w), px, 0};
    f.width = f.text.empty() ? 0 : width(f.text, face, px);
    return f;
  }

  // Greedy word wrap into at most max_lines lines, the last one elided when the text goes on.
  // `complete` says whether everything fitted unshortened.
  std::vector<std::string> wrap(const std::string& text, TextFace face, float px, float max_w, int max_lines,
                                bool* complete) const {
    std::vector<std::string> words, lines;
    for (size_t i = 0; i <= text.size();) {
      const size_t j = std::min(text.find(' ', i), text.size());
      if (j > i) words.push_back(text.substr(i, j - i));
      i = j + 1;
    }
    bool whole = true;
    std::string cur;
    for (const std::string& w : words) {
      const std::string cand = cur.empty() ? w : cur + " " + w;
      if (width(cand, face, px) <= max_w) {
        cur = cand;
        continue;
      }
      if (!cur.empty()) lines.push_back(cur);
      cur = w;
      if (width(cur, face, px) > max_w) {  // one word wider than the line
        lines.push_back(elide(cur, face, px, max_w));
        cur.clear();
        whole = false;
      }
    }
    if (!cur.empty()) lines.push_back(cur);
    if (int(lines.size()) > max_lines) {
      std::string rest;
      for (size_t k = size_t(std::max(0, max_lines - 1)); k < lines.size(); ++k)
        rest += (rest.empty() ? "" : " ") + lines[k];
      lines.resize(size_t(std::max(0, max_lines - 1)));
      if (max_lines > 0) lines.push_back(elide(rest, face, px, max_w));
      whole = false;
    }
    std::erase_if(lines, [](const std::string& l) { return l.empty(); });
    if (complete) *complete = whole;
    return lines;
  }

  void text(const Fitted& f, float x, float y, TextFace face, ChartColour colour, TextRole role, int panel,
            int rung) {
    if (f.text.empty() || f.size < min_px_) return;
    out_.texts.push_back({f.text, x, y, f.size, f.width, face, colour, role, panel, rung});
  }
  void box(Rect r, ChartColour colour, BoxRole role, int panel = -1, int rung = -1) {
    out_.boxes.push_back({r, colour, role, panel, rung});
  }
  void slot(Rect r, int panel, int rung) { out_.slots.push_back({r, panel, rung}); }

 private:
  ChartLayout& out_;
  const TextMeasure& measure_;
  float min_px_ = kMinPx;
};

// Sizes that depend on a panel's height and the number of rungs it shows.
struct PanelMetrics {
  float heading_px = 0, heading_h = 0, tick_px = 0, axis_h = 0, line_w = 0;
  float row_h = 0, name_px = 0;
};

PanelMetrics panel_metrics(float s, float panel_h, size_t rungs) {
  PanelMetrics m;
  m.line_w = std::max(1.0f, std::round(1.5f * s));
  const float name_cap = 34.0f * s;
  // The heading and the tick labels follow the rung names' size, which follows the room they leave:
  // a few rounds settle it.
  float name_guess = name_cap;
  for (int round = 0; round < 4; ++round) {
    m.heading_px = std::floor(clampf(name_guess * 1.1f, 9.0f, 30.0f * s));
    m.heading_h = m.heading_px * 1.45f;
    m.tick_px = std::floor(clampf(name_guess * 0.7f, 9.0f, 22.0f * s));
    m.axis_h = m.line_w + m.tick_px * 1.45f;
    const float rows_h = std::max(0.0f, panel_h - m.heading_h - m.axis_h);
    m.row_h = rows_h / float(std::max<size_t>(1, rungs));
    m.row_h = std::min(m.row_h, name_cap * 3.4f);  // a short ladder keeps its rows together
    m.name_px = std::floor(std::min(name_cap, 0.42f * m.row_h));
    name_guess = m.name_px;
  }
  return m;
}

bool has_time(const ChartRung& r) {
  return (r.state == ChartRungState::Measured || r.state == ChartRungState::Recorded) && r.ms_per_step > 0 &&
         std::isfinite(r.ms_per_step);
}

// Figures recorded on another machine: a hatched bar, this tag after its time, the chart's label line.
constexpr const char* kRecordedTag = "recorded";
bool is_recorded(const ChartRung& r) { return r.state == ChartRungState::Recorded; }
// The small word after a row's time: "recorded" (not measured here), "library" (a library's call, not
// a kernel of ours), both, or none.
std::string tag_of(const ChartRung& r) {
  if (is_recorded(r)) return r.library ? std::string("library, ") + kRecordedTag : kRecordedTag;
  return r.library ? "library" : "";
}
TextRole tag_role(const ChartRung& r) { return is_recorded(r) ? TextRole::Recorded : TextRole::Library; }
std::string recorded_line(const ChartData& data) {
  return "hatched bars: " + data.recorded +
         " (cannot run here; their speed-ups are over the baseline measured there)";
}

std::string format_percent(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, pct < 9.95 ? "%.1f%%" : "%.0f%%", pct);
  return buf;
}

// The line under a measured bar: speed-ups, % of peak, the note. Each of the first three has
// forms from longest to shortest; all get their shortest form before any gets a longer one.
struct Piece {
  std::vector<std::string> forms;
  TextFace face;
  ChartColour colour;
  TextRole role;
};

void lay_out_details(Builder& b, const std::vector<Piece>& pieces, const std::string& note, float x0,
                     float x1, float y_line, float line_h, float px, int panel, int rung) {
  const float avail = x1 - x0;
  for (float size : {px, std::floor(px * 0.85f), std::floor(px * 0.72f)}) {
    size = std::max(size, b.min_px());
    const float gap = std::floor(size * 0.9f);
    std::vector<size_t> form(pieces.size());
    std::vector<float> w(pieces.size());
    size_t kept = pieces.size();
    auto total = [&] {
      float t = 0;
      for (size_t i = 0; i < kept; ++i) t += w[i] + (i ? gap : 0);
      return t;
    };
    for (size_t i = 0; i < pieces.size(); ++i) {
      form[i] = pieces[i].forms.size() - 1;
      w[i] = b.width(pieces[i].forms[form[i]], pieces[i].face, size);
    }
    while (kept > 0 && total() > avail) --kept;
    for (size_t i = 0; i < kept; ++i) {
      for (size_t f = 0; f < form[i]; ++f) {
        const float wf = b.width(pieces[i].forms[f], pieces[i].face, size);
        if (total() - w[i] + wf <= avail) {
          form[i] = f;
          w[i] = wf;
          break;
        }
      }
    }
    const bool all_long =
        kept == pieces.size() && std::all_of(form.begin(), form.end(), [](size_t f) { return f == 0; });
    const bool last_size = size <= std::max(b.min_px(), std::floor(px * 0.72f));
    if (!all_long && !last_size) continue;  // a smaller size may show it all
    float x = x0;
    const float y = y_line + (line_h - size) * 0.5f;
    for (size_t i = 0; i < kept; ++i) {
      b.text({pieces[i].forms[form[i]], size, w[i]}, x, y, pieces[i].face, pieces[i].colour, pieces[i].role,
             panel, rung);
      x += w[i] + gap;
    }
    if (!note.empty() && x1 - x > 4 * size) {
      Fitted f{b.elide(note, TextFace::Sans, size, x1 - x), size, 0};
      f.width = f.text.empty() ? 0 : b.width(f.text, TextFace::Sans, size);
      b.text(f, x, y, TextFace::Sans, ChartColour::Dim, TextRole::Note, panel, rung);
    }
    return;
  }
}

void lay_out_panel(Builder& b, const ChartPanel& panel, int p, Rect outer, bool framed, float s,
                   const PanelMetrics& m) {
  if (framed) b.box(outer, ChartColour::PanelBackground, BoxRole::Panel, p);
  const float pad = framed ? std::floor(12 * s) : 0;
  const Rect in{outer.x0 + pad, outer.y0 + pad, outer.x1 - pad, outer.y1 - pad};

  // Heading: the stage's title, then what the axis and the speed-ups mean.
  {
    const float y = in.y0;
    float x = in.x0;
    if (!panel.title.empty()) {
      const Fitted t = b.fit(panel.title, TextFace::SansBold, m.heading_px, m.heading_px * 0.7f, in.width());
      b.text(t, x, y, TextFace::SansBold, ChartColour::Title, TextRole::Heading, p, -1);
      if (!t.text.empty()) x += t.width + std::floor(m.heading_px * 0.6f);
    }
    std::string note = "time " + panel.per + ", log scale";
    if (!panel.baseline.empty()) note += " \xC2\xB7 speed-ups over " + panel.baseline;
    const float px = std::floor(m.heading_px * 0.75f);
    const Fitted n = b.fit(note, TextFace::Sans, px, std::max(b.min_px(), px * 0.8f), in.x1 - x);
    b.text(n, x, y + (m.heading_px - n.size) * 0.8f, TextFace::Sans, ChartColour::Dim, TextRole::HeadingNote,
           p, -1);
  }

  const float fn = m.name_px;
  // The second line (lesson, speed-ups) at two thirds of the name, but never under the legible floor
  // where the row has room for it.
  float fs = std::floor(fn * 0.66f);
  if (fs < b.min_px() && fn * 1.25f + b.min_px() * 1.2f <= m.row_h) fs = b.min_px();
  const float line1 = fn * 1.25f, line2 = fs * 1.2f;
  const float rows_top = in.y0 + m.heading_h;
  const float name_w = std::floor(in.width() * 0.40f);
  const float zone_x0 = in.x0 + name_w + std::floor(fn * 0.6f);
  const float tp = std::floor(fn * 0.8f);  // times, tags
  const float bar_h = std::floor(fn * 0.95f);
  const size_t n = panel.rungs.size();
  const float rows_bottom = rows_top + m.row_h * float(n);

  // The axis: whole decades around the measured times, shared by the panel's bars.
  double lo_ms = 0, hi_ms = 0;
  float time_px = tp, reserve = 0;
  for (const ChartRung& r : panel.rungs) {
    if (!has_time(r)) continue;
    lo_ms = lo_ms == 0 ? r.ms_per_step : std::min(lo_ms, r.ms_per_step);
    hi_ms = std::max(hi_ms, r.ms_per_step);
  }
  const int lo_e = lo_ms > 0 ? int(std::floor(std::log10(lo_ms) - 0.1)) : 0;
  int hi_e = hi_ms > 0 ? int(std::ceil(std::log10(hi_ms))) : 1;
  if (hi_e <= lo_e) hi_e = lo_e + 1;
  if (hi_ms > 0) {
    // Room after the longest bar for its time: the widest time label (shrunk to a fifth of the panel).
    for (int pass = 0; pass < 8; ++pass) {
      reserve = 0;
      for (const ChartRung& r : panel.rungs)
        if (has_time(r))
          reserve = std::max(
              reserve,
              b.width(format_time_ms(r.ms_per_step), TextFace::SansBold, time_px) +
                  (tag_of(r).empty() ? 0.0f
                                     : std::floor(fn * 0.3f) + b.width(tag_of(r), TextFace::Sans, time_px)));
      reserve += std::floor(fn * 0.4f);
      if (reserve <= in.width() * 0.2f || time_px <= b.min_px()) break;
      time_px = std::max(b.min_px(), std::floor(time_px * 0.85f));
    }
  }
  const float ax0 = zone_x0, ax1 = std::max(zone_x0 + 1, in.x1 - reserve);
  auto x_of = [&](double ms) {
    const double f = (std::log10(ms) - lo_e) / double(hi_e - lo_e);
    return ax0 + float(f) * (ax1 - ax0);
  };
  if (hi_ms > 0 && n > 0) {
    const float axis_y = rows_bottom;
    float last_label_x1 = -1e9f;
    for (int e = lo_e; e <= hi_e; ++e) {
      const float gx = x_of(std::pow(10.0, e));
      b.box({gx - m.line_w * 0.5f, rows_top, gx + m.line_w * 0.5f, axis_y}, ChartColour::Grid, BoxRole::Grid,
            p);
      const std::string label = format_decade_ms(e);
      const float w = b.width(label, TextFace::Sans, m.tick_px);
      const float lx = std::max(zone_x0, std::min(gx - w * 0.5f, in.x1 - w));
      // Crowded: a label overlapping the previous one is left out (every other decade).
      if (lx < last_label_x1 + m.tick_px * 0.6f || lx + w > in.x1) continue;
      b.text({label, m.tick_px, w}, lx, axis_y + m.line_w + m.tick_px * 0.2f, TextFace::Sans,
             ChartColour::Dim, TextRole::Tick, p, -1);
      last_label_x1 = lx + w;
    }
    b.box({ax0, axis_y, ax1, axis_y + m.line_w}, ChartColour::Axis, BoxRole::Axis, p);
  }

  for (size_t i = 0; i < n; ++i) {
    const ChartRung& r = panel.rungs[i];
    const int ri = int(i);
    const float top = rows_top + m.row_h * float(i);
    const float mid1 = top + line1 * 0.5f;
    const float y2 = top + line1;
    const ChartColour name_colour = r.state == ChartRungState::Failed        ? ChartColour::Failed
                                    : r.state == ChartRungState::Unavailable ? ChartColour::Unavailable
                                    : r.yardstick                            ? ChartColour::Yardstick
                                                                             : ChartColour::Text;
    // Left column: the name (and block size, where there is room), the lesson under it.
    const Fitted nm = b.fit(r.name, TextFace::SansBold, fn, fn * 0.7f, name_w);
    b.text(nm, in.x0, mid1 - nm.size * 0.5f, TextFace::SansBold, name_colour, TextRole::Name, p, ri);
    if (!r.block.empty() && r.block != "-" && !nm.text.empty()) {
      const std::string blk = "block " + r.block;
      const float bw = b.width(blk, TextFace::Sans, fs), gap = std::floor(fs * 0.8f);
      if (nm.width + gap + bw <= name_w)
        b.text({blk, fs, bw}, in.x0 + nm.width + gap, mid1 - fs * 0.5f, TextFace::Sans, ChartColour::Dim,
               TextRole::Message, p, ri);
    }
    if (!r.lesson.empty() && fs >= b.min_px()) {
      const float room = m.row_h - line1 - fn * 0.1f;
      const int max_lines = std::clamp(int(std::floor(room / (fs * 1.2f))), 0, 3);
      if (max_lines > 0) {
        float px = fs;
        std::vector<std::string> lines;
        for (;; px = std::floor(px * 0.9f)) {
          bool whole = false;
          lines = b.wrap(r.lesson, TextFace::Sans, px, name_w, max_lines, &whole);
          if (whole || px * 0.9f < std::max(b.min_px(), fs * 0.75f)) break;
        }
        const ChartColour c =
            r.state == ChartRungState::Unavailable ? ChartColour::Unavailable : ChartColour::Dim;
        for (size_t k = 0; k < lines.size(); ++k)
          b.text({lines[k], px, b.width(lines[k], TextFace::Sans, px)}, in.x0, y2 + float(k) * fs * 1.2f,
                 TextFace::Sans, c, TextRole::Lesson, p, ri);
      }
    }

    // Right of it: the bar and its numbers, or why there is none.
    const float zone_w = in.x1 - zone_x0;
    if (has_time(r)) {
      const float x_end = std::max(ax0 + 1.0f, x_of(r.ms_per_step));
      if (r.yardstick)  // a bound, not a rung: an outline in its own colour
        b.box({ax0, mid1 - bar_h * 0.5f, x_end, mid1 + bar_h * 0.5f}, ChartColour::Yardstick,
              BoxRole::Yardstick, p, ri);
      else
        b.box({ax0, mid1 - bar_h * 0.5f, x_end, mid1 + bar_h * 0.5f}, ChartColour::Bar,
              is_recorded(r) ? BoxRole::Recorded : BoxRole::Bar, p, ri);
      const std::string t = format_time_ms(r.ms_per_step);
      const float tw = b.width(t, TextFace::SansBold, time_px);
      b.text({t, time_px, tw}, x_end + std::floor(fn * 0.3f), mid1 - time_px * 0.5f, TextFace::SansBold,
             ChartColour::Text, TextRole::Time, p, ri);
      if (const std::string tag = tag_of(r); !tag.empty()) {  // said after its time
        const float x = x_end + std::floor(fn * 0.3f) * 2 + tw;
        b.text({tag, time_px, b.width(tag, TextFace::Sans, time_px)}, x, mid1 - time_px * 0.5f,
               TextFace::Sans, ChartColour::Dim, tag_role(r), p, ri);
      }
      std::vector<Piece> pieces;
      if (is_recorded(r)) {
        if (r.speedup_vs_baseline > 0) {
          const std::string x = format_speedup(r.speedup_vs_baseline);
          const ChartColour c = r.speedup_vs_baseline >= 1 ? ChartColour::Speedup : ChartColour::Slowdown;
          std::vector<std::string> forms;
          if (!r.recorded_baseline.empty()) forms.push_back(x + " vs " + r.recorded_baseline + " (recorded)");
          forms.push_back(x + " (recorded)");
          pieces.push_back({forms, TextFace::SansBold, c, TextRole::SpeedupBaseline});
        }
      } else if (r.yardstick) {
        std::vector<std::string> forms;
        if (!r.bounds.empty()) forms.push_back("yardstick \xC2\xB7 the ceiling of " + r.bounds);
        forms.push_back("yardstick");
        pieces.push_back({forms, TextFace::SansBold, ChartColour::Yardstick, TextRole::Message});
      } else if (!panel.baseline.empty() && r.name == panel.baseline) {
        pieces.push_back({{"the baseline"}, TextFace::SansBold, ChartColour::Dim, TextRole::SpeedupBaseline});
      } else if (r.speedup_vs_baseline > 0) {
        const std::string x = format_speedup(r.speedup_vs_baseline);
        const ChartColour c = r.speedup_vs_baseline >= 1 ? ChartColour::Speedup : ChartColour::Slowdown;
        std::vector<std::string> forms;
        if (!panel.baseline.empty()) forms.push_back(x + " vs " + panel.baseline);
        forms.push_back(x);
        pieces.push_back({forms, TextFace::SansBold, c, TextRole::SpeedupBaseline});
      }
      if (r.speedup_vs_previous > 0 && !r.yardstick) {
        const std::string x = format_speedup(r.speedup_vs_previous);
        const ChartColour c = r.speedup_vs_previous >= 1 ? ChartColour::Speedup : ChartColour::Slowdown;
        pieces.push_back(
            {{x + " vs previous", x + " vs prev."}, TextFace::Sans, c, TextRole::SpeedupPrevious});
      }
      if (r.pct_peak > 0) {
        const std::string pc = format_percent(r.pct_peak);
        std::vector<std::string> forms;
        if (!r.peak_label.empty()) forms.push_back(pc + " " + r.peak_label);
        forms.push_back(pc + " of peak");
        pieces.push_back({forms, TextFace::Sans, ChartColour::Text, TextRole::Peak});
      }
      // The counters get a line of their own under the details where the row has room (shrunk to
      // fit it), else they join the details line as its last piece.
      const float room3 = m.row_h - line1 - line2;
      const float counters_px = std::floor(std::min(fs, room3 / 1.15f));
      const bool counters_line = (r.counters_slot || !r.counters.empty()) && counters_px >= b.min_px();
      if (!counters_line && !r.counters.empty())
        pieces.push_back({{r.counters}, TextFace::Sans, ChartColour::Text, TextRole::Counters});
      if (fs >= b.min_px()) lay_out_details(b, pieces, r.note, zone_x0, in.x1, y2, line2, fs, p, ri);
      if (counters_line) {
        const float y3 = y2 + line2;
        const float h = std::min(room3, std::max(line2, counters_px * 1.2f));
        b.slot({zone_x0, y3, in.x1, y3 + h}, p, ri);
        if (!r.counters.empty()) {
          const Fitted f = b.fit(r.counters, TextFace::Sans, counters_px, counters_px * 0.8f, zone_w);
          b.text(f, zone_x0, y3 + (h - f.size) * 0.5f, TextFace::Sans, ChartColour::Text, TextRole::Counters,
                 p, ri);
        }
      }
    } else if (r.state == ChartRungState::Failed) {
      const std::string tag = "FAILED";
      const float tw = b.width(tag, TextFace::SansBold, time_px), tpad = std::floor(fn * 0.3f);
      const float tag_x1 = std::min(zone_x0 + tw + 2 * tpad, in.x1);
      b.box({zone_x0, mid1 - bar_h * 0.5f, tag_x1, mid1 + bar_h * 0.5f}, ChartColour::Failed,
            BoxRole::FailedTag, p, ri);
      if (tw + 2 * tpad <= zone_w)
        b.text({tag, time_px, tw}, zone_x0 + tpad, mid1 - time_px * 0.5f, TextFace::SansBold,
               ChartColour::OnFailed, TextRole::FailedTag, p, ri);
      if (r.ms_per_step > 0 && std::isfinite(r.ms_per_step)) {
        const float x = tag_x1 + std::floor(fn * 0.4f);
        const Fitted f = b.fit(format_time_ms(r.ms_per_step) + " " + panel.per + ", not charted",
                               TextFace::Sans, fs, fs * 0.8f, in.x1 - x);
        b.text(f, x, mid1 - f.size * 0.5f, TextFace::Sans, ChartColour::Dim, TextRole::Message, p, ri);
      }
      const Fitted why = b.fit(r.reason.empty() ? "differs from the CPU reference" : r.reason, TextFace::Sans,
                               fs, fs * 0.8f, zone_w);
      b.text(why, zone_x0, y2 + (line2 - why.size) * 0.5f, TextFace::Sans, ChartColour::Failed,
             TextRole::Reason, p, ri);
    } else {
      const bool unavailable = r.state == ChartRungState::Unavailable;
      const Fitted head = b.fit(unavailable ? "unavailable here" : "no time measured", TextFace::Sans,
                                time_px, time_px * 0.8f, zone_w);
      b.text(head, zone_x0, mid1 - head.size * 0.5f, TextFace::Sans, ChartColour::Unavailable,
             TextRole::Message, p, ri);
      if (!r.reason.empty()) {
        const Fitted why = b.fit(r.reason, TextFace::Sans, fs, fs * 0.8f, zone_w);
        b.text(why, zone_x0, y2 + (line2 - why.size) * 0.5f, TextFace::Sans, ChartColour::Unavailable,
               TextRole::Reason, p, ri);
      }
    }
  }
}

}  // namespace

ChartLayout layout_chart(const ChartData& data, float width, float height, const TextMeasure& measure) {
  ChartLayout out;
  out.width = width;
  out.height = height;
  if (!(width > 0) || !(height > 0) || !measure) return out;
  const float s = std::min(width / 1920.0f, height / 1080.0f);
  // Text under 9 px at 1080 lines is left out rather than drawn as an illegible smudge.
  Builder b(out, measure, std::floor(9 * s));
  const float margin = std::floor(24 * s);
  const Rect page{margin, margin, width - margin, height - margin};

  // The title line (the demo), then what was measured, where and when.
  float y = page.y0;
  {
    const std::string title = data.title.empty() ? "speed-up ladder" : data.title;
    const Fitted t = b.fit(title, TextFace::SansBold, 44 * s, 20 * s, page.width());
    b.text(t, page.x0, y, TextFace::SansBold, ChartColour::Title, TextRole::Title, -1, -1);
    y += std::floor(44 * s * 1.2f);
    std::string sub;
    for (const std::string* part : {&data.input, &data.device, &data.date})
      if (!part->empty()) sub += (sub.empty() ? "" : "   \xC2\xB7   ") + *part;
    if (!sub.empty()) {
      const Fitted f = b.fit(sub, TextFace::Sans, 24 * s, 14 * s, page.width());
      b.text(f, page.x0, y, TextFace::Sans, ChartColour::Dim, TextRole::Subtitle, -1, -1);
    }
    if (!data.recorded.empty()) {  // figures recorded elsewhere: where, under the subtitle
      y += std::floor(24 * s * 1.3f);
      const Fitted f = b.fit(recorded_line(data), TextFace::Sans, 24 * s, 14 * s, page.width());
      b.text(f, page.x0, y, TextFace::Sans, ChartColour::Text, TextRole::Recorded, -1, -1);
    }
    y += std::floor(24 * s * 1.3f + 14 * s);
  }
  const Rect region{page.x0, y, page.x1, page.y1};
  const size_t n = data.panels.size();
  if (n == 0 || region.height() <= 0) {
    const Fitted f = b.fit("nothing measured", TextFace::Sans, 30 * s, 12 * s, page.width());
    if (region.height() >= f.size)
      b.text(f, region.x0, region.y0, TextFace::Sans, ChartColour::Dim, TextRole::Message, -1, -1);
    return out;
  }

  // Tile the panels: the arrangement whose rung names can be largest (by the rows' height and by
  // the name column's width), fewer columns on a tie.
  const float gap = std::floor(20 * s);
  size_t most_rungs = 1;
  for (const ChartPanel& p : data.panels) most_rungs = std::max(most_rungs, p.rungs.size());
  size_t best_cols = 1;
  float best_score = -1;
  for (size_t cols = 1; cols <= n; ++cols) {
    const size_t rows = (n + cols - 1) / cols;
    const float pw = (region.width() - gap * float(cols - 1)) / float(cols);
    const float ph = (region.height() - gap * float(rows - 1)) / float(rows);
    const float framed_pad = n > 1 ? 2 * std::floor(12 * s) : 0;
    const PanelMetrics m = panel_metrics(s, ph - framed_pad, most_rungs);
    const float score = std::min(m.name_px, (pw - framed_pad) * 0.025f);
    if (score > best_score + 0.01f) {
      best_score = score;
      best_cols = cols;
    }
  }
  const size_t cols = best_cols, rows = (n + cols - 1) / cols;
  const float pw = (region.width() - gap * float(cols - 1)) / float(cols);
  const float ph = (region.height() - gap * float(rows - 1)) / float(rows);
  const bool framed = n > 1;
  const float pad = framed ? 2 * std::floor(12 * s) : 0;
  const PanelMetrics m = panel_metrics(s, ph - pad, most_rungs);
  for (size_t i = 0; i < n; ++i) {
    const float x0 = std::floor(region.x0 + float(i % cols) * (pw + gap));
    const float y0 = std::floor(region.y0 + float(i / cols) * (ph + gap));
    // A framed panel ends under its last rung's axis when its rows are capped.
    const float used =
        m.heading_h + m.row_h * float(std::max<size_t>(1, data.panels[i].rungs.size())) + m.axis_h + pad;
    const float y1 = framed ? std::min(y0 + ph, y0 + used) : y0 + ph;
    lay_out_panel(b, data.panels[i], int(i), {x0, y0, x0 + pw, y1}, framed, s, m);
  }
  return out;
}

// ---- the slide style ---------------------------------------------------------------------------

int default_slide_panel(const ChartData& data) {
  for (size_t i = 0; i < data.panels.size(); ++i)
    if (data.panels[i].whole_pipeline) return int(i);
  return data.panels.empty() ? -1 : 0;
}

std::string slide_footnote(const ChartPanel& panel) {
  // Reasons in the order they first come, each with the rows it keeps from running.
  std::vector<std::pair<std::string, std::string>> groups;
  for (const ChartRung& r : panel.rungs) {
    if (r.state != ChartRungState::Unavailable) continue;
    const std::string why = r.reason.empty() ? "not available here" : r.reason;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == why; });
    if (it == groups.end())
      groups.push_back({why, r.name});
    else
      it->second += ", " + r.name;
  }
  if (groups.empty()) return {};
  std::string out = "Not run here: ";
  for (size_t i = 0; i < groups.size(); ++i)
    out += (i ? "; " : "") + groups[i].second + " (" + groups[i].first + ")";
  return out;
}

ChartLayout layout_slide(const ChartData& data, int panel_index, float width, float height,
                         const TextMeasure& measure, float screen_height) {
  ChartLayout out;
  out.width = width;
  out.height = height;
  if (!(width > 0) || !(height > 0) || !measure) return out;
  // Type follows the screen (1 at 1080 lines), the rows the room they are given.
  const float s = std::min(width / 1920.0f, std::max(height, screen_height) / 1080.0f);
  const float min_px = std::floor(kSlideMinPx * s);
  Builder b(out, measure, min_px);
  const float margin = std::floor(32 * s);
  const Rect page{margin, margin, width - margin, height - margin};
  const bool have_panel = panel_index >= 0 && size_t(panel_index) < data.panels.size();
  const ChartPanel empty;
  const ChartPanel& panel = have_panel ? data.panels[size_t(panel_index)] : empty;

  // The title (the demo, and the panel where the demo has several), what was measured, where and when.
  const float speed_px = std::floor(kSlideSpeedupPx * s);
  const float title_px = std::floor(44 * s);  // under the speed-ups: they are the largest label
  const float small_px = std::floor(26 * s);
  float y = page.y0;
  {
    std::string title = data.title.empty() ? "speed-up ladder" : data.title;
    if (data.panels.size() > 1 && !panel.title.empty()) title += " \xC2\xB7 " + panel.title;
    const Fitted t = b.fit(title, TextFace::SansBold, title_px, min_px, page.width());
    b.text(t, page.x0, y, TextFace::SansBold, ChartColour::Title, TextRole::Title, -1, -1);
    y += std::floor(title_px * 1.2f);
    std::string sub;
    for (const std::string* part : {&data.input, &data.device, &data.date})
      if (!part->empty()) sub += (sub.empty() ? "" : "   \xC2\xB7   ") + *part;
    if (!sub.empty()) {
      const Fitted f = b.fit(sub, TextFace::Sans, small_px, min_px, page.width());
      b.text(f, page.x0, y, TextFace::Sans, ChartColour::Dim, TextRole::Subtitle, -1, -1);
      y += std::floor(small_px * 1.3f);
    }
    if (!panel.baseline.empty()) {
      const Fitted f = b.fit("bar: time " + panel.per + "   \xC3\x97: speed-up over " + panel.baseline,
                             TextFace::Sans, small_px, min_px, page.width());
      b.text(f, page.x0, y, TextFace::Sans, ChartColour::Dim, TextRole::Legend, panel_index, -1);
      y += std::floor(small_px * 1.3f);
    }
    if (!data.recorded.empty() && std::any_of(panel.rungs.begin(), panel.rungs.end(), is_recorded)) {
      const Fitted f = b.fit(recorded_line(data), TextFace::Sans, small_px, min_px, page.width());
      b.text(f, page.x0, y, TextFace::Sans, ChartColour::Text, TextRole::Recorded, panel_index, -1);
      y += std::floor(small_px * 1.3f);
    }
    y += std::floor(6 * s);
  }
  if (!have_panel) {
    const Fitted f = b.fit("nothing measured", TextFace::Sans, small_px, min_px, page.width());
    if (page.y1 - y >= f.size)
      b.text(f, page.x0, y, TextFace::Sans, ChartColour::Dim, TextRole::Message, -1, -1);
    return out;
  }

  // The rows: every rung that ran (measured or failed) and the yardsticks; the others go to the
  // footnote. Rows that do not fit at the speed-up's size join it too.
  std::vector<size_t> rows;
  for (size_t i = 0; i < panel.rungs.size(); ++i)
    if (panel.rungs[i].state != ChartRungState::Unavailable) rows.push_back(i);
  const float foot_px = min_px;
  const float tick_px = std::floor(24 * s);
  const float line_w = std::max(1.0f, std::round(2 * s));
  const float axis_h = line_w + tick_px * 1.35f + tick_px * 1.4f;  // tick labels, then the axis title
  const float row_min = std::ceil(speed_px * 1.12f);
  auto footnote_for = [&](size_t shown) {
    std::string note = slide_footnote(panel);
    if (shown < rows.size()) {
      std::string rest;
      for (size_t k = shown; k < rows.size(); ++k)
        rest += (rest.empty() ? "" : ", ") + panel.rungs[rows[k]].name;
      note += std::string(note.empty() ? "" : "; ") + "not shown (no room): " + rest;
    }
    return note;
  };
  size_t shown = rows.size();
  std::vector<std::string> foot_lines;
  float rows_h = 0;
  for (;;) {
    bool whole = true;
    const std::string note = footnote_for(shown);
    foot_lines = note.empty() ? std::vector<std::string>{}
                              : b.wrap(note, TextFace::Sans, foot_px, page.width(), 3, &whole);
    const float foot_h =
        foot_lines.empty() ? 0 : float(foot_lines.size()) * foot_px * 1.3f + std::floor(8 * s);
    rows_h = page.y1 - y - axis_h - foot_h;
    if (shown == 0 || float(shown) * row_min <= rows_h) break;
    shown = size_t(std::max(0.0f, std::floor(rows_h / row_min)));
    shown = std::min(shown, rows.size());
    if (float(shown) * row_min <= rows_h && footnote_for(shown) == note) break;
  }
  rows.resize(shown);
  const float row_h = rows.empty() ? 0 : std::min(rows_h / float(rows.size()), std::floor(120 * s));
  const float rows_top = y;
  const float rows_bottom = rows_top + row_h * float(rows.size());

  // The name column: as wide as the widest name needs at the name size, at most a third of the page.
  const float name_px = std::floor(std::min(40 * s, std::max(min_px, row_h * 0.5f)));
  float name_w = 0;
  for (size_t i : rows) name_w = std::max(name_w, b.width(panel.rungs[i].name, TextFace::SansBold, name_px));
  name_w = std::min(name_w, std::floor(page.width() * 0.34f));
  const float zone_x0 = page.x0 + name_w + std::floor(24 * s);

  // The axis: 1-2-5 ticks around the measured times; room kept after the longest bar for its label.
  double lo_ms = 0, hi_ms = 0;
  for (size_t i : rows) {
    const ChartRung& r = panel.rungs[i];
    if (!has_time(r)) continue;
    lo_ms = lo_ms == 0 ? r.ms_per_step : std::min(lo_ms, r.ms_per_step);
    hi_ms = std::max(hi_ms, r.ms_per_step);
  }
  std::vector<double> ticks;
  double axis_lo = 1, axis_hi = 10;
  if (hi_ms > 0) {
    // The axis starts at the 1-2-5 value below two thirds of the fastest time, so its bar has length.
    const std::vector<double> below = ticks_125(lo_ms / 30, lo_ms / 1.5);
    axis_lo = below.empty() ? lo_ms / 2 : below.back();
    const std::vector<double> above = ticks_125(hi_ms, hi_ms * 3);
    axis_hi = above.empty() ? hi_ms * 1.2 : above.front();
    ticks = ticks_125(axis_lo, axis_hi);
  }
  const float time_px = std::floor(26 * s);
  const float gap = std::floor(14 * s);
  auto label_of = [&](const ChartRung& r) -> std::pair<std::string, float> {  // the big label and its size
    if (r.yardstick) return {"yardstick", std::floor(30 * s)};
    if (!panel.baseline.empty() && r.name == panel.baseline) return {"baseline", std::floor(30 * s)};
    if (r.speedup_vs_baseline > 0) return {format_speedup(r.speedup_vs_baseline), speed_px};
    return {"", speed_px};
  };
  float reserve = 0;
  bool show_times = true;
  for (int pass = 0; pass < 2; ++pass) {
    reserve = 0;
    for (size_t i : rows) {
      const ChartRung& r = panel.rungs[i];
      if (!has_time(r)) continue;
      const auto [label, px] = label_of(r);
      float w = label.empty() ? 0 : b.width(label, TextFace::SansBold, px);
      if (show_times) w += gap + b.width(format_time_ms(r.ms_per_step), TextFace::Sans, time_px);
      if (!tag_of(r).empty()) w += gap + b.width(tag_of(r), TextFace::Sans, time_px);
      reserve = std::max(reserve, w + gap);
    }
    if (reserve <= (page.x1 - zone_x0) * 0.45f) break;
    show_times = false;
  }
  const float ax0 = zone_x0, ax1 = std::max(zone_x0 + 1, page.x1 - reserve);
  auto x_of = [&](double ms) {
    const double f = (std::log10(ms) - std::log10(axis_lo)) / (std::log10(axis_hi) - std::log10(axis_lo));
    return ax0 + float(std::clamp(f, 0.0, 1.0)) * (ax1 - ax0);
  };
  if (hi_ms > 0 && !rows.empty()) {
    out.ticks_ms = ticks;
    // Grid lines at every tick; labels at every tick where they fit, else at the powers of ten.
    auto is_decade = [](double v) {
      const double m = v / std::pow(10.0, std::floor(std::log10(v) + 1e-9));
      return std::abs(m - 1) < 1e-6;
    };
    auto labels_fit = [&](bool decades_only) {
      float last = -1e9f;
      for (double v : ticks) {
        if (decades_only && !is_decade(v)) continue;
        const float w = b.width(format_tick_ms(v), TextFace::Sans, tick_px);
        const float lx = x_of(v) - w * 0.5f;
        if (lx < last + tick_px * 0.8f) return false;
        last = lx + w;
      }
      return true;
    };
    const bool decades_only = !labels_fit(false);
    float last_x1 = -1e9f;
    for (double v : ticks) {
      const float gx = x_of(v);
      const bool labelled = !decades_only || is_decade(v);
      b.box({gx - line_w * 0.5f, rows_top, gx + line_w * 0.5f, rows_bottom}, ChartColour::Grid, BoxRole::Grid,
            panel_index);
      if (!labelled) continue;
      const std::string label = format_tick_ms(v);
      const float w = b.width(label, TextFace::Sans, tick_px);
      const float lx = std::max(page.x0, std::min(gx - w * 0.5f, page.x1 - w));
      if (lx < last_x1 + tick_px * 0.5f) continue;  // every other decade where even those crowd
      b.text({label, tick_px, w}, lx, rows_bottom + line_w + tick_px * 0.2f, TextFace::Sans,
             ChartColour::Text, TextRole::Tick, panel_index, -1);
      last_x1 = lx + w;
    }
    b.box({ax0, rows_bottom, ax1, rows_bottom + line_w}, ChartColour::Axis, BoxRole::Axis, panel_index);
    const Fitted at = b.fit("time " + panel.per + " (log scale)", TextFace::Sans, tick_px, min_px, ax1 - ax0);
    b.text(at, ax0 + (ax1 - ax0 - at.width) * 0.5f, rows_bottom + line_w + tick_px * 1.35f, TextFace::Sans,
           ChartColour::Dim, TextRole::AxisTitle, panel_index, -1);
  }

  for (size_t k = 0; k < rows.size(); ++k) {
    const ChartRung& r = panel.rungs[rows[k]];
    const int ri = int(rows[k]);
    const float top = rows_top + row_h * float(k);
    // One line, or the name with its detail under it (a pipeline row: what ran; a yardstick: what it
    // bounds) where the row has room for both at a legible size.
    const std::string detail = r.yardstick ? (r.bounds.empty() ? r.lesson : "the ceiling of " + r.bounds)
                               : panel.whole_pipeline ? r.lesson
                                                      : std::string();
    const float detail_px = std::floor(std::max(min_px, 24 * s));
    const bool two_lines = !detail.empty() && row_h >= name_px * 1.2f + detail_px * 1.3f;
    const float mid =
        two_lines ? top + name_px * 0.6f + std::max(0.0f, (row_h - name_px * 1.2f - detail_px * 1.3f) * 0.5f)
                  : top + row_h * 0.5f;
    const ChartColour name_colour = r.state == ChartRungState::Failed ? ChartColour::Failed
                                    : r.yardstick                     ? ChartColour::Yardstick
                                                                      : ChartColour::Text;
    const Fitted nm = b.fit(r.name, TextFace::SansBold, name_px, std::max(min_px, name_px * 0.75f), name_w);
    b.text(nm, page.x0, mid - nm.size * 0.5f, TextFace::SansBold, name_colour, TextRole::Name, panel_index,
           ri);
    if (two_lines) {
      const Fitted d =
          b.fit(detail, TextFace::Sans, detail_px, min_px, r.yardstick ? name_w : page.x1 - page.x0);
      // A pipeline's "what ran" may run under the bar's row: the bar sits on the name's line.
      b.text(d, page.x0, mid + name_px * 0.6f + detail_px * 0.15f, TextFace::Sans,
             r.yardstick ? ChartColour::Yardstick : ChartColour::Dim, TextRole::Lesson, panel_index, ri);
    }
    const float bar_h = std::floor(std::min({row_h * 0.6f, speed_px * 0.95f, two_lines ? name_px : 1e9f}));
    if (has_time(r)) {
      const float x_end = std::max(ax0 + 2.0f, x_of(r.ms_per_step));
      const Rect bar{ax0, mid - bar_h * 0.5f, x_end, mid + bar_h * 0.5f};
      if (r.yardstick)
        b.box(bar, ChartColour::Yardstick, BoxRole::Yardstick, panel_index, ri);
      else
        b.box(bar, ChartColour::Bar, is_recorded(r) ? BoxRole::Recorded : BoxRole::Bar, panel_index, ri);
      float x = x_end + gap;
      const auto [label, px] = label_of(r);
      if (!label.empty()) {
        const ChartColour c = r.yardstick                                             ? ChartColour::Yardstick
                              : (!panel.baseline.empty() && r.name == panel.baseline) ? ChartColour::Dim
                              : r.speedup_vs_baseline >= 1                            ? ChartColour::Speedup
                                                                                      : ChartColour::Slowdown;
        const float w = b.width(label, TextFace::SansBold, px);
        const TextRole role = r.yardstick ? TextRole::Message : TextRole::SpeedupBaseline;
        b.text({label, px, w}, x, mid - px * 0.5f, TextFace::SansBold, c, role, panel_index, ri);
        x += w + gap;
      }
      if (show_times) {
        const std::string t = format_time_ms(r.ms_per_step);
        const float w = b.width(t, TextFace::Sans, time_px);
        if (x + w <= page.x1)
          b.text({t, time_px, w}, x, mid - time_px * 0.5f, TextFace::Sans, ChartColour::Dim, TextRole::Time,
                 panel_index, ri);
        x += w + gap;
      }
      if (const std::string tag = tag_of(r); !tag.empty()) {  // recorded (its bar hatched too), library
        const float w = b.width(tag, TextFace::Sans, time_px);
        if (x + w <= page.x1)
          b.text({tag, time_px, w}, x, mid - time_px * 0.5f, TextFace::Sans, ChartColour::Text, tag_role(r),
                 panel_index, ri);
      }
    } else if (r.state == ChartRungState::Failed) {
      const float tpx = std::floor(26 * s), tpad = std::floor(10 * s);
      const float tw = b.width("FAILED", TextFace::SansBold, tpx);
      const float tag_x1 = std::min(zone_x0 + tw + 2 * tpad, page.x1);
      b.box({zone_x0, mid - bar_h * 0.5f, tag_x1, mid + bar_h * 0.5f}, ChartColour::Failed,
            BoxRole::FailedTag, panel_index, ri);
      if (tw + 2 * tpad <= page.x1 - zone_x0 && tpx <= bar_h)
        b.text({"FAILED", tpx, tw}, zone_x0 + tpad, mid - tpx * 0.5f, TextFace::SansBold,
               ChartColour::OnFailed, TextRole::FailedTag, panel_index, ri);
      const float x = tag_x1 + gap;
      const Fitted why = b.fit(r.reason.empty() ? "differs from the CPU reference" : r.reason, TextFace::Sans,
                               tpx, min_px, page.x1 - x);
      b.text(why, x, mid - why.size * 0.5f, TextFace::Sans, ChartColour::Failed, TextRole::Reason,
             panel_index, ri);
    } else {
      const Fitted f = b.fit("no time measured", TextFace::Sans, time_px, min_px, page.x1 - zone_x0);
      b.text(f, zone_x0, mid - f.size * 0.5f, TextFace::Sans, ChartColour::Dim, TextRole::Message,
             panel_index, ri);
    }
  }

  // The footnote: what cannot run here, one note at the foot of the slide.
  float fy = page.y1 - float(foot_lines.size()) * foot_px * 1.3f;
  for (const std::string& line : foot_lines) {
    b.text({line, foot_px, b.width(line, TextFace::Sans, foot_px)}, page.x0, fy, TextFace::Sans,
           ChartColour::Dim, TextRole::Footnote, panel_index, -1);
    fy += foot_px * 1.3f;
  }
  return out;
}

}  // namespace gpulab::presenter

#include "presenter/hud.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/stats.h"
#include "ui/timings_panel.h"

namespace gpulab::presenter {
namespace {

std::string printf_string(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

std::string hud_time(double ms) {
  // The tables' and captions' figure (format_time), with the HUD's dash for none.
  const std::string t = format_time(ms);
  return t == "-" ? "–" : t;
}

std::string hud_speedup(double x) {
  if (!std::isfinite(x) || x <= 0) return "–";
  const char* fmt = x >= 99.95 ? "%.0f×" : x >= 9.995 ? "%.1f×" : "%.2f×";
  return printf_string(fmt, x);
}

HudInput hud_input(const Demo& demo, const Timings& timings, const Context& ctx) {
  HudInput in;
  in.demo_title = std::string(demo.title());
  const std::vector<Stage> stages = demo.stages();
  bool on_baseline = true;
  std::string baseline;
  for (size_t s = 0; s < stages.size(); ++s) {
    const Stage& st = stages[s];
    if (!st.active || st.variants.empty()) continue;
    const VariantChoice& v = st.current();
    std::string label = std::string(v.id);
    if (!v.blocks.empty()) {
      label += ' ';
      label += block_label(v, st.block);
    }
    if (!in.variant.empty()) in.variant += " + ";
    in.variant += label;
    // The stage's baseline: its first CPU variant, as the ladder takes it.
    const auto cpu = std::find_if(st.variants.begin(), st.variants.end(),
                                  [](const VariantChoice& c) { return !c.needs_cuda; });
    if (cpu == st.variants.end()) {
      on_baseline = false;
      continue;
    }
    if (s == demo.lead_stage()) {
      baseline = std::string(cpu->id);
      in.baseline = Pick{s, static_cast<int>(cpu - st.variants.begin()), 0};
    }
    on_baseline = on_baseline && cpu->id == v.id;
  }
  in.baseline_variant = baseline;
  in.on_baseline = on_baseline && !baseline.empty();
  in.peak_known = ctx.peak_bandwidth_gbps > 0 || ctx.peak_fp32_gflops > 0;
  const std::vector<Throughput> rows = demo.throughput();
  if (rows.empty()) return in;
  const Throughput& t = rows.front();
  in.per = per_words(t.label);
  if (demo.bound()) in.baseline_case.input = demo.setup();
  in.baseline_case.readout = t.label + (t.whole_pipeline ? "|pipeline" : "");
  in.whole_pipeline = t.whole_pipeline;
  in.baseline_case.items = t.items_per_step;
  ui::ThroughputRow row;
  row.series = timings.find(t.timed);
  row.steps_per_sample = t.steps;
  row.bytes_per_step = t.bytes_per_step;
  row.items_per_step = t.items_per_step;
  row.item_unit = t.item_unit;
  row.flops_per_step = t.flops_per_step;
  if (!row.series) return in;
  const ui::ThroughputFigures f = ui::throughput_figures(row, ctx.peak_bandwidth_gbps, ctx.peak_fp32_gflops);
  if (!f.valid) return in;
  in.ms_per_step = f.seconds_per_step * 1000.0;
  in.samples = row.series->size();
  if (t.flops_per_step > 0 && f.percent_of_fp32_peak > 0) {
    in.pct_peak = f.percent_of_fp32_peak;
    in.peak_label = "of FP32 peak";
  } else if (f.percent_of_peak > 0) {
    in.pct_peak = f.percent_of_peak;
    in.peak_label = "of DRAM bandwidth";
  }
  return in;
}

bool HudCase::same(const HudCase& o) const {
  return input && o.input && same_input(*input, *o.input) && readout == o.readout && items == o.items;
}

void Hud::update(double now_seconds, const HudInput& in) {
  if (in.on_baseline && in.ms_per_step) note_baseline(in.baseline_case, *in.ms_per_step);
  // Twice a second at most, but a first measurement is shown at once rather than a blank held, and
  // another variant (a lesson step, a pick) at once rather than the last one's figures under its name.
  const bool first_time = !shows_time_ && in.ms_per_step.has_value();
  const HudReading next = read(in);
  const bool renamed = next.title != reading_.title;
  const bool settling = in.ms_per_step.has_value() && in.samples < kSettleSamples;
  if (refreshed_at_ >= 0 && now_seconds - refreshed_at_ < kRefreshSeconds && !first_time && !renamed &&
      !settling)
    return;
  shows_time_ = in.ms_per_step.has_value();
  reading_ = next;
  refreshed_at_ = now_seconds;
}

void Hud::note_baseline(const HudCase& c, double ms, bool approximate) {
  if (!c.input || !std::isfinite(ms) || !(ms > 0)) return;
  for (Baseline& b : baselines_)
    if (b.c.same(c)) {
      b.ms = ms;
      b.approximate = approximate;
      return;
    }
  baselines_.push_back({c, ms, approximate});
}

const Hud::Baseline* Hud::find(const HudCase& c) const {
  for (const Baseline& b : baselines_)
    if (b.c.same(c)) return &b;
  return nullptr;
}

std::optional<double> Hud::baseline(const HudCase& c) const {
  const Baseline* b = find(c);
  return b ? std::optional<double>(b->ms) : std::nullopt;
}

HudReading Hud::read(const HudInput& in) const {
  HudReading r;
  r.title = in.demo_title + " — " + in.variant;
  HudFigure time;
  if (in.ms_per_step) {
    time.value = hud_time(*in.ms_per_step);
    time.caption = in.recorded.empty() ? in.per : in.per + " (recorded)";
  } else {
    time.value = "–";
    time.caption = in.per + ": not measured (paused?)";
  }
  r.figures.push_back(time);
  HudFigure speedup;
  const Baseline* base = find(in.baseline_case);
  if (!in.recorded.empty() && in.recorded_speedup) {
    speedup.value = hud_speedup(*in.recorded_speedup);
    speedup.caption = "vs " + in.recorded_baseline + " (recorded)";
  } else if (!in.not_run_here.empty()) {
    speedup.value = "not run here";
    speedup.caption = in.not_run_here;
  } else if (in.baseline_variant.empty()) {
    speedup.value = "–";
    speedup.caption = "no CPU baseline in this demo";
  } else if (in.on_baseline) {
    speedup.value = "1×";
    speedup.caption = "the CPU baseline (" + in.baseline_variant + ")";
  } else if (base && in.ms_per_step) {
    // Timed while the cores were busy: the order of magnitude, said as such.
    speedup.value = (base->approximate ? "≈ " : "") + hud_speedup(base->ms / *in.ms_per_step);
    speedup.caption = "vs " + in.baseline_variant + (base->approximate ? " (CPU), on busy cores" : " (CPU)");
  } else if (in.baseline_measuring) {
    speedup.value = "measuring…";
    speedup.caption = "vs " + in.baseline_variant +
                      (in.baseline_holds ? " (CPU), the demo held" : " (CPU), in the background");
  } else if (!in.baseline_error.empty()) {
    speedup.value = "–";
    speedup.caption = "vs " + in.baseline_variant + " (CPU): " + in.baseline_error;
  } else {
    speedup.value = "not measured yet";
    speedup.caption = "vs " + in.baseline_variant + " (CPU): F5 measures it";
  }
  r.figures.push_back(speedup);
  // The % of peak where the device's peak is known (the CPU backend has none: the HUD stays one row).
  if (!in.peak_known) return r;
  HudFigure peak;
  if (in.pct_peak > 0) {
    peak.value = printf_string(in.pct_peak < 9.95 ? "%.1f%%" : "%.0f%%", in.pct_peak);
    peak.caption = in.peak_label;
  } else {
    peak.value = "–";
    peak.caption = "of peak: not measured";
  }
  r.figures.push_back(peak);
  return r;
}

HudPlaced hud_layout(const HudSizes& sz, HudBox view, float pad, bool band) {
  HudPlaced p;
  const float avail_w =
      std::max(0.0f, view.x1 - view.x0 - 4 * pad);  // the box is inset by pad, its text by pad again
  const float middle = (view.y0 + view.y1) * 0.5f;
  const float row_h = sz.value_h + sz.caption_h;
  const float gap = std::max(pad * 2, sz.value_h * 0.6f);
  // Rows of figures, filled left to right; a figure wider than the view gets a row of its own.
  std::vector<std::vector<size_t>> rows;
  std::vector<float> widths;
  float x = 0;
  for (size_t i = 0; i < sz.value_w.size(); ++i) {
    const float w = std::max(sz.value_w[i], i < sz.caption_w.size() ? sz.caption_w[i] : 0.0f);
    if (rows.empty() || (x > 0 && x + gap + w > avail_w)) {
      rows.emplace_back();
      widths.push_back(0);
      x = 0;
    }
    x += (x > 0 ? gap : 0) + w;
    rows.back().push_back(i);
    widths.back() = x;
  }
  // From the bottom up: drop the last rows while the box would reach above the middle of the view.
  auto height = [&](size_t n) { return pad + sz.title_h + pad * 0.5f + static_cast<float>(n) * row_h + pad; };
  size_t n = rows.size();
  // In its own band: drop the last rows that do not fit the band.
  while (n > 0 &&
         (band ? view.y1 - pad - height(n) < view.y0 + pad - 0.5f : view.y1 - pad - height(n) < middle))
    --n;
  rows.resize(n);
  float box_w = sz.title_w;
  for (size_t i = 0; i < n; ++i) box_w = std::max(box_w, widths[i]);
  box_w = std::min(box_w, avail_w) + 2 * pad;
  p.box.x0 = view.x0 + pad;
  p.box.x1 = p.box.x0 + box_w;
  p.box.y1 = view.y1 - pad;
  p.box.y0 = p.box.y1 - height(n);
  p.title_x = p.box.x0 + pad;
  p.title_y = p.box.y0 + pad;
  float y = p.title_y + sz.title_h + pad * 0.5f;
  for (const auto& row : rows) {
    float cx = p.box.x0 + pad;
    for (size_t i : row) {
      HudPlaced::Item it;
      it.x = cx;
      it.value_y = y;
      it.caption_y = y + sz.value_h;
      p.items.push_back(it);
      cx += std::max(sz.value_w[i], i < sz.caption_w.size() ? sz.caption_w[i] : 0.0f) + gap;
    }
    y += row_h;
  }
  return p;
}

OverlayColours overlay_colours(bool light_theme) {
  return {light_theme ? IM_COL32(255, 255, 255, 225) : IM_COL32(0, 0, 0, 200),
          light_theme ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255)};
}

namespace {
// The reading's text sizes with `big` for the values and `small` for the rest; the title wraps at
// `width` (the box's inner width) rather than being cut.
struct HudMeasure {
  HudSizes sz;
  float small_px = 0, big_px = 0, pad = 0;
  ImFont *big = nullptr, *cap = nullptr;
};
// `shrink` (<= 1) scales every size down: a band too short for one row of figures at full size.
HudMeasure measure_hud(const HudReading& r, float width, ImFont* big, ImFont* small, float shrink = 1.0f) {
  HudMeasure m;
  if (!big) big = ImGui::GetFont();
  if (!small) small = ImGui::GetFont();
  // Captions and the title at 40% of the digits' size (readable from the back too), never smaller
  // than the panel's text.
  m.big_px = big->FontSize * shrink;
  m.small_px = std::max(small->FontSize, big->FontSize * 0.4f) * shrink;
  m.big = m.cap = big;
  m.pad = std::max(6.0f, m.small_px * 0.5f);
  auto measure = [](ImFont* f, float px, const std::string& s, float wrap) {
    return f->CalcTextSizeA(px, 1e9f, wrap, s.c_str());
  };
  const float wrap = std::max(width - 4 * m.pad, m.small_px * 4);
  const ImVec2 t = measure(m.cap, m.small_px, r.title, wrap);
  m.sz.title_w = t.x;
  m.sz.title_h = t.y;
  m.sz.value_h = m.big_px;
  m.sz.caption_h = m.small_px;
  for (const HudFigure& f : r.figures) {
    m.sz.value_w.push_back(measure(big, m.big_px, f.value, 0.0f).x);
    m.sz.caption_w.push_back(measure(m.cap, m.small_px, f.caption, 0.0f).x);
  }
  return m;
}
}  // namespace

float hud_band_height(const HudReading& r, float width, ImFont* big, ImFont* small) {
  const HudMeasure m = measure_hud(r, width, big, small);
  const HudPlaced p = hud_layout(m.sz, HudBox{0, 0, width, 1e6f}, m.pad, true);
  return p.box.y1 - p.box.y0 + 2 * m.pad;
}

HudPlaced draw_hud(const HudReading& r, HudBox view, ImFont* big, ImFont* small, bool light_theme,
                   bool band) {
  HudMeasure m = measure_hud(r, view.x1 - view.x0, big, small);
  HudPlaced p = hud_layout(m.sz, view, m.pad, band);
  if (band && p.items.empty() && !r.figures.empty()) {
    // Its band cannot hold one row at full size (a small screen at a large UI scale): smaller, down
    // to half, so that the time per step is still there.
    const HudPlaced full = hud_layout(m.sz, HudBox{view.x0, 0, view.x1, 1e6f}, m.pad, true);
    const float needed = full.items.empty() ? 1.0f
                                            : (full.items.front().caption_y + m.sz.caption_h + m.pad) -
                                                  full.box.y0 + 2 * m.pad;
    const float shrink = std::clamp((view.y1 - view.y0) / std::max(needed, 1.0f), 0.5f, 1.0f);
    m = measure_hud(r, view.x1 - view.x0, big, small, shrink * 0.98f);
    p = hud_layout(m.sz, view, m.pad, band);
  }
  const float small_px = m.small_px, big_px = m.big_px, pad = m.pad;
  ImFont* const cap = m.cap;
  big = m.big;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const auto [back, ink] = overlay_colours(light_theme);
  const ImU32 dim = light_theme ? IM_COL32(40, 40, 40, 255) : IM_COL32(200, 200, 200, 255);
  dl->AddRectFilled(ImVec2(p.box.x0, p.box.y0), ImVec2(p.box.x1, p.box.y1), back, pad * 0.5f);
  const ImVec4 clip(p.box.x0, p.box.y0, p.box.x1, p.box.y1);
  // Wrapped where it was measured: a pixel more than the width it measured (the word wrap sums the
  // same glyphs word by word, which may round a hair wider than one measurement of the line).
  dl->AddText(cap, small_px, ImVec2(p.title_x, p.title_y), dim, r.title.c_str(), nullptr,
              std::max(p.box.x1 - p.box.x0 - 2 * pad, 1.0f) + 1.0f, &clip);
  for (size_t i = 0; i < p.items.size(); ++i) {
    dl->AddText(big, big_px, ImVec2(p.items[i].x, p.items[i].value_y), ink, r.figures[i].value.c_str(),
                nullptr, 0.0f, &clip);
    dl->AddText(cap, small_px, ImVec2(p.items[i].x, p.items[i].caption_y), dim, r.figures[i].caption.c_str(),
                nullptr, 0.0f, &clip);
  }
  return p;
}

}  // namespace gpulab::presenter

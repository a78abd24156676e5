// A/B on identical input (ab.h).
#include "presenter/ab.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "presenter/hud.h"

namespace gpulab::presenter {

double ab_ratio(double a_ms, double b_ms) {
  if (!(a_ms > 0) || !(b_ms > 0) || !std::isfinite(a_ms) || !std::isfinite(b_ms)) return 0;
  return a_ms / b_ms;
}

std::string ab_ratio_text(const std::string& a, const std::string& b, double ratio) {
  if (!(ratio > 0)) return {};
  if (std::abs(ratio - 1.0) <= 0.02) return b + " is as fast as " + a;
  if (ratio > 1) return b + " is " + hud_speedup(ratio) + " faster than " + a;
  return b + " is " + hud_speedup(1.0 / ratio) + " slower than " + a;
}

AbSetups ab_setups(const StageTables& tables, const Setup& running, size_t stage, int a, int b) {
  AbSetups h;
  h.a = running;
  choose(tables, h.a, pick_of(tables, stage, a));
  h.b = h.a;
  choose(tables, h.b, pick_of(tables, stage, b));
  return h;
}

AbCompare::AbCompare(Setup setup, std::unique_ptr<Demo> demo)
    : setup_(std::move(setup)), b_(std::move(demo)) {
  b_->bind(setup_);
}

std::string AbCompare::configure(const Options& options) { return b_->configure(options); }

AbCompare::~AbCompare() {
  if (attached_) {
    try {
      b_->detach();
    } catch (...) {
    }
  }
}

void AbCompare::attach(const Context& app) {
  ctx_ = app;
  ctx_.timings = &timings_;
  try {
    b_->attach(ctx_);
    Picks runnable = setup_.picks;
    if (runnable_picks(*b_, runnable)) {
      const Picks before = std::exchange(setup_.picks, runnable);
      std::string why;
      if (!b_->picks_changed(before, &why)) throw std::runtime_error(why);
    }
  } catch (...) {
    // Whatever it made before failing goes (a half-attached demo must not be drawn or kept).
    try {
      b_->detach();
    } catch (...) {
    }
    throw;
  }
  attached_ = true;
}

void AbCompare::size_halves(int w, int h) {
  w = std::max(w, 1), h = std::max(h, 1);
  for (auto& f : halves_)
    if (f.width() != w || f.height() != h) f = gl::Framebuffer(w, h);
}

AbShown draw_ab_overlay(const std::string& a, double a_ms, const std::string& b, double b_ms, float x0,
                        float x1, float y1, ImFont* big, ImFont* small, bool light_theme) {
  if (!big) big = ImGui::GetFont();
  if (!small) small = ImGui::GetFont();
  AbShown s;
  s.shown = true;
  s.variant_a = a;
  s.variant_b = b;
  s.ratio = ab_ratio(a_ms, b_ms);
  s.ratio_text = ab_ratio_text(a, b, s.ratio);
  s.time_a = a_ms > 0 ? hud_time(a_ms) : "measuring";
  s.time_b = b_ms > 0 ? hud_time(b_ms) : "measuring";
  s.x0 = x0, s.x1 = x1;
  s.split_x = (x0 + x1) * 0.5f;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const auto [back, ink] = overlay_colours(light_theme);
  const float px = std::max(small->FontSize * 1.3f, big->FontSize * 0.45f);
  const float pad = px * 0.3f;
  // The border between the halves.
  dl->AddLine(ImVec2(s.split_x, 0), ImVec2(s.split_x, y1), ink, std::max(1.0f, pad * 0.3f));
  // Each half's label at its top: "A  cpu-naive  1.23 ms", or, where that is wider than the half,
  // the variant and its time on two lines, set smaller still if a line does not fit.
  const float half = std::max(s.split_x - x0, 1.0f);
  const float room = std::max(half - 4 * pad, 1.0f);
  const std::string names[2] = {"A  " + a, "B  " + b}, times[2] = {s.time_a, s.time_b};
  for (int i = 0; i < 2; ++i) {
    const float hx = i == 0 ? x0 : s.split_x;
    std::string text = names[i] + "  " + times[i];
    float size = px;
    ImVec2 ts = big->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str());
    if (ts.x > room) {
      text = names[i] + "\n   " + times[i];
      ts = big->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str());
      if (ts.x > room) {
        size *= room / ts.x;
        ts = big->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str());
      }
    }
    dl->AddRectFilled(ImVec2(hx + pad, pad), ImVec2(hx + 3 * pad + ts.x, 3 * pad + ts.y), back, pad * 0.5f);
    dl->AddText(big, size, ImVec2(hx + 2 * pad, 2 * pad), ink, text.c_str());
    s.label_y1 = std::max(s.label_y1, 3 * pad + ts.y);
    s.label_x1[i] = hx + 3 * pad + ts.x;
  }
  // The ratio, large, centred under the labels; its sentence wraps to the view's width.
  if (!s.ratio_text.empty()) {
    const std::string big_ratio = hud_speedup(s.ratio >= 1 ? s.ratio : 1.0 / s.ratio);
    const float wrap = std::max(x1 - x0 - 4 * pad, 1.0f);
    const ImVec2 rs = big->CalcTextSizeA(big->FontSize, 1e9f, 0.0f, big_ratio.c_str());
    const ImVec2 cs = big->CalcTextSizeA(px * 0.8f, 1e9f, wrap, s.ratio_text.c_str());
    const float w = std::min(std::max(rs.x, cs.x) + 2 * pad, x1 - x0);
    const float top = s.label_y1 + pad;
    s.ratio_x0 = std::clamp(s.split_x - w / 2, x0, std::max(x0, x1 - w));
    s.ratio_x1 = s.ratio_x0 + w;
    const float mid = (s.ratio_x0 + s.ratio_x1) / 2;
    s.ratio_y1 = top + rs.y + cs.y + 2 * pad;
    dl->AddRectFilled(ImVec2(s.ratio_x0, top), ImVec2(s.ratio_x1, s.ratio_y1), back, pad);
    dl->AddText(big, big->FontSize, ImVec2(mid - rs.x / 2, top + pad), ink, big_ratio.c_str());
    dl->AddText(big, px * 0.8f, ImVec2(mid - cs.x / 2, top + pad + rs.y), ink, s.ratio_text.c_str(), nullptr,
                wrap);
  }
  return s;
}

}  // namespace gpulab::presenter

// Texture rotation: the pixel inspector. The definition's arithmetic for one output pixel (inspect),
// the texture unit's (inspect_unit), and the panel section that shows them beside the displayed pixel.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "demos/rotate/rotate_demo.h"
#include "demos/rotate/rotate_demo_internal.h"

namespace gpulab {
namespace {

using rotate::Backend;
using rotate::Filter;
using rotate_internal::kGreen;
using rotate_internal::kRed;
using rotate_internal::kYellow;

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// A pixel's channels as text: "200", "(200, 10, 30)".
std::string values_text(const float* v, int channels, int digits) {
  if (channels == 1) return fixed(v[0], digits);
  std::string s = "(";
  for (int c = 0; c < channels; ++c) s += (c ? ", " : "") + fixed(v[c], digits);
  return s + ")";
}

const char* channel_name(int channels, int c) {
  static const char* grey_alpha[] = {"grey", "alpha"};
  static const char* rgba[] = {"R", "G", "B", "A"};
  return channels <= 2 ? grey_alpha[c] : rgba[c];
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The inspector's numbers.

std::optional<RotateInspection> RotateDemo::inspect(int x, int y) const {
  if (image_.empty() || x < 0 || y < 0 || x >= image_.width || y >= image_.height) return std::nullopt;
  RotateInspection r;
  const int w = image_.width, h = image_.height, c = image_.channels;
  r.x = x;
  r.y = y;
  r.width = w;
  r.height = h;
  r.channels = c;
  r.lecture = variant().kind() == rotate::Kind::Lecture;
  r.params = rotate::effective(variant(), settings_).params;
  const rotate::Coefficients k = rotate::coefficients(r.params);
  r.source = r.lecture ? rotate::lecture_source_coord(x, y, w, h, k) : rotate::source_coord(x, y, w, h, k);
  auto texel = [&](int i, int j, int ch) -> float {  // 0 for a border texel
    return i < 0 || j < 0
               ? 0.0f
               : float(image_.pixels[(size_t(j) * size_t(w) + size_t(i)) * size_t(c) + size_t(ch)]);
  };
  if (r.params.filter == Filter::Point) {
    const rotate::PointTap t = rotate::point_tap(r.source, w, h, r.params.address);
    r.taps = 1;
    r.raw_i[0] = int(std::floor(r.source.x));
    r.raw_j[0] = int(std::floor(r.source.y));
    r.i[0] = t.i;
    r.j[0] = t.j;
    r.weight[0] = 1.0f;
    for (int ch = 0; ch < c; ++ch) {
      r.texel[0][ch] = texel(t.i, t.j, ch);
      r.filtered[ch] = r.texel[0][ch];
      r.value[ch] = rotate::to_byte(r.filtered[ch]);
    }
    inspect_unit(r);
    return r;
  }
  const rotate::LinearTaps t = rotate::linear_taps(r.source, w, h, r.params.address);
  const float px = r.source.x - 0.5f, py = r.source.y - 0.5f;
  const float x0 = std::floor(px), y0 = std::floor(py);
  r.fx = px - x0;
  r.fy = py - y0;
  r.taps = 4;
  const int i0 = int(x0), j0 = int(y0);
  const int raw_i[4] = {i0, i0 + 1, i0, i0 + 1}, raw_j[4] = {j0, j0, j0 + 1, j0 + 1};
  const int ii[4] = {t.i0, t.i1, t.i0, t.i1}, jj[4] = {t.j0, t.j0, t.j1, t.j1};
  const float wt[4] = {t.w00, t.w10, t.w01, t.w11};
  for (int q = 0; q < 4; ++q) {
    r.raw_i[q] = raw_i[q];
    r.raw_j[q] = raw_j[q];
    r.i[q] = ii[q];
    r.j[q] = jj[q];
    r.weight[q] = wt[q];
    for (int ch = 0; ch < c; ++ch) r.texel[q][ch] = texel(ii[q], jj[q], ch);
  }
  for (int ch = 0; ch < c; ++ch) {
    r.filtered[ch] = rotate::blend(t, r.texel[0][ch], r.texel[1][ch], r.texel[2][ch], r.texel[3][ch]);
    r.value[ch] = rotate::to_byte(r.filtered[ch]);
  }
  inspect_unit(r);
  return r;
}

void RotateDemo::inspect_unit(RotateInspection& r) const {
  r.unit = variant().backend == Backend::Cuda;
  if (!r.unit) return;
  const rotate::Settings e = rotate::effective(variant(), settings_);
  const int w = r.width, h = r.height, c = std::clamp(r.channels, 1, 4);
  auto texel = [&](int i, int j, int ch) {  // 0 for a border texel
    return i < 0 || j < 0 ? 0
                          : int(image_.pixels[(size_t(j) * size_t(w) + size_t(i)) * size_t(c) + size_t(ch)]);
  };
  const rotate::Coord tc = rotate::texture_coord(r.source, w, h, e.normalized);
  if (e.params.filter == Filter::Point) {
    const rotate::PointTap t = rotate::unit_point_tap(tc, w, h, e.normalized, e.params.address);
    r.unit_i[0] = t.i;
    r.unit_j[0] = t.j;
    for (int ch = 0; ch < c; ++ch) r.unit_value[ch] = uint8_t(texel(t.i, t.j, ch));
    return;
  }
  const rotate::UnitTaps t = rotate::unit_linear_taps(tc, w, h, e.normalized, e.params.address);
  const int ii[4] = {t.i0, t.i1, t.i0, t.i1}, jj[4] = {t.j0, t.j0, t.j1, t.j1};
  const int wt[4] = {t.w00, t.w10, t.w01, t.w11};
  r.unit_a = t.a;
  r.unit_b = t.b;
  for (int q = 0; q < 4; ++q) {
    r.unit_i[q] = ii[q];
    r.unit_j[q] = jj[q];
    r.unit_weight[q] = wt[q];
  }
  for (int ch = 0; ch < c; ++ch)
    r.unit_value[ch] = rotate::unit_blend(t, texel(t.i0, t.j0, ch), texel(t.i1, t.j0, ch),
                                          texel(t.i0, t.j1, ch), texel(t.i1, t.j1, ch));
}

std::optional<std::pair<int, int>> RotateDemo::hovered_pixel() const {
  if (!hovering_) return std::nullopt;
  return std::make_pair(hover_x_, hover_y_);
}

// ---------------------------------------------------------------------------------------------
// The inspector's panel section.

void RotateDemo::ui_inspector(bool turning) {
  // The pixel under the cursor, else the last one there, else the centre.
  const int x = inspect_x_ >= 0 && inspect_x_ < image_.width ? inspect_x_ : image_.width / 2;
  const int y = inspect_y_ >= 0 && inspect_y_ < image_.height ? inspect_y_ : image_.height / 2;
  const auto r = inspect(x, y);
  if (!r) {
    ImGui::TextDisabled("pixel inspector: no image");
    return;
  }
  const int c = r->channels;
  ImGui::Text("pixel (%d, %d)%s", r->x, r->y, hovering_ ? "" : "  (hover over the image to inspect)");
  const rotate::Coefficients k = rotate::coefficients(r->params);
  const double cx = r->width * 0.5, cy = r->height * 0.5;
  if (r->lecture) {
    // The lecture's kernel: x where x + 0.5 belongs, and the aspect ratio inside the rotation.
    ImGui::Text("x - W/2 = %.1f, y - H/2 = %.1f  (the pixel's corner: no +0.5)", r->x - cx, r->y - cy);
    ImGui::Text("sx = W/2 + (x - W/2)*%.4f - (y - H/2)*(W/H)*%.4f = %.3f", double(k.cos_s), double(k.sin_s),
                double(r->source.x));
    ImGui::Text("sy = H/2 + (y - H/2)*%.4f + (x - W/2)*(H/W)*%.4f = %.3f", double(k.cos_s), double(k.sin_s),
                double(r->source.y));
  } else {
    ImGui::Text("dx = x + 0.5 - W/2 = %.1f, dy = y + 0.5 - H/2 = %.1f", r->x + 0.5 - cx, r->y + 0.5 - cy);
    ImGui::Text("sx = W/2 + (dx*cos t - dy*sin t) / s = %.3f", double(r->source.x));
    ImGui::Text("sy = H/2 + (dy*cos t + dx*sin t) / s = %.3f", double(r->source.y));
    ImGui::TextDisabled("(t = %g°, s = %g: cos t / s = %.4f, sin t / s = %.4f)", double(r->params.angle_deg),
                        double(r->params.scale), double(k.cos_s), double(k.sin_s));
  }
  auto index_text = [](int raw, int mapped) {
    if (mapped < 0) return std::to_string(raw) + "->border";
    return raw == mapped ? std::to_string(raw) : std::to_string(raw) + "->" + std::to_string(mapped);
  };
  if (r->taps == 1) {
    ImGui::Text("point: T[floor sx, floor sy] = T[%s, %s] = %s", index_text(r->raw_i[0], r->i[0]).c_str(),
                index_text(r->raw_j[0], r->j[0]).c_str(), values_text(r->texel[0], c, 0).c_str());
  } else {
    ImGui::Text("linear: i0 = floor(sx - 0.5) = %d, fx = %.4f", r->raw_i[0], double(r->fx));
    ImGui::Text("        j0 = floor(sy - 0.5) = %d, fy = %.4f", r->raw_j[0], double(r->fy));
    static const char* wname[4] = {"(1-fx)(1-fy)", "fx(1-fy)    ", "(1-fx)fy    ", "fx*fy       "};
    for (int q = 0; q < 4; ++q)
      ImGui::Text("  T[%s, %s] = %-16s w = %s = %.4f", index_text(r->raw_i[q], r->i[q]).c_str(),
                  index_text(r->raw_j[q], r->j[q]).c_str(), values_text(r->texel[q], c, 0).c_str(), wname[q],
                  double(r->weight[q]));
    for (int ch = 0; ch < c; ++ch) {
      std::string sum;
      for (int q = 0; q < 4; ++q)
        sum += (q ? " + " : "") + fixed(r->weight[q], 4) + "*" + fixed(r->texel[q][ch], 0);
      // Two lines, not wrapped: ImGui would break a wrapped line inside a number, at its '.'.
      ImGui::Text("%s = %s", c > 1 ? channel_name(c, ch) : "v", sum.c_str());
      ImGui::Text("%*s= %.3f", c > 1 ? int(std::strlen(channel_name(c, ch))) + 1 : 2, "",
                  double(r->filtered[ch]));
    }
  }
  float value[4];
  for (int ch = 0; ch < c; ++ch) value[ch] = r->value[ch];
  ImGui::Text("output = floor(v + 0.5) = %s  (%s, %s)", values_text(value, c, 0).c_str(),
              std::string(rotate::name(r->params.filter)).c_str(),
              std::string(rotate::name(r->params.address)).c_str());
  if (r->unit) {
    // The texture unit's own arithmetic (rotate.h's unit model): 8-bit fractions and weights.
    float unit_value[4];
    for (int ch = 0; ch < c; ++ch) unit_value[ch] = r->unit_value[ch];
    if (r->taps == 1) {
      const bool same = r->unit_i[0] == r->i[0] && r->unit_j[0] == r->j[0];
      ImGui::Text("texture unit: %s = %s",
                  same ? "the same texel" : "the next texel (a tie: 21-bit coordinates)",
                  values_text(unit_value, c, 0).c_str());
    } else {
      ImGui::Text("texture unit: fx = %d/256, fy = %d/256 (8 bits)", r->unit_a, r->unit_b);
      ImGui::Text("  w = %d, %d, %d, %d /256 -> %s", r->unit_weight[0], r->unit_weight[1], r->unit_weight[2],
                  r->unit_weight[3], values_text(unit_value, c, 0).c_str());
      ImGui::TextDisabled("  (w11 = round(fx*fy), the others sum to 256 with it)");
    }
  }

  // What the displayed texture holds there, read back once per change: a read waits for GL, so not
  // while the picture turns (it would change every frame anyway).
  if (turning) {
    ImGui::TextDisabled("displayed: read back when the picture holds still (pause, or spin 0)");
  } else if (display_ && display_->has_image() && !dirty_) {
    if (shown_.x != x || shown_.y != y || shown_.version != output_version_) {
      const auto px = display_->read_pixel(x, y);
      std::copy(px.begin(), px.end(), shown_.rgba);
      shown_.x = x;
      shown_.y = y;
      shown_.version = output_version_;
    }
    uint8_t want[4];
    want[0] = r->value[0];
    want[1] = c >= 3 ? r->value[1] : r->value[0];
    want[2] = c >= 3 ? r->value[2] : r->value[0];
    want[3] = c == 2 ? r->value[1] : c == 4 ? r->value[3] : 255;
    int diff = 0;
    for (int q = 0; q < 4; ++q) diff = std::max(diff, std::abs(int(want[q]) - int(shown_.rgba[q])));
    ImGui::PushStyleColor(ImGuiCol_Text, diff == 0 ? kGreen : diff <= 1 ? kYellow : kRed);
    ImGui::Text("displayed: RGBA (%d, %d, %d, %d)%s", shown_.rgba[0], shown_.rgba[1], shown_.rgba[2],
                shown_.rgba[3],
                diff == 0   ? ""
                : diff <= 1 ? "  (1 level off: 8-bit filter weights)"
                            : "  (differs)");
    ImGui::PopStyleColor();
  }

  // The lecture's figure with these numbers: the texels around the sample point, their values as
  // colours, and where the sample falls between their centres.
  const float cell = 40.0f * ImGui::GetIO().FontGlobalScale;
  const int cells = r->taps == 1 ? 1 : 2;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int q = 0; q < r->taps; ++q) {
    const int cx = q % 2, cy = q / 2;
    const ImVec2 a(at.x + cx * cell, at.y + cy * cell), b(a.x + cell, a.y + cell);
    const float* t = r->texel[q];
    const int g0 = int(t[0]), g1 = c >= 3 ? int(t[1]) : g0, g2 = c >= 3 ? int(t[2]) : g0;
    dl->AddRectFilled(a, b, IM_COL32(g0, g1, g2, 255));
    dl->AddRect(a, b, IM_COL32(120, 120, 120, 255));
    const bool light = (g0 + g1 + g2) > 3 * 128;
    const std::string label = fixed(r->weight[q], 2);
    dl->AddText(ImVec2(a.x + 3, a.y + 2), light ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255),
                label.c_str());
  }
  // The sample point: between the texel centres at (fx, fy) for linear; inside the texel for point.
  const float sx = r->taps == 1 ? (r->source.x - std::floor(r->source.x)) * cell : (0.5f + r->fx) * cell;
  const float sy = r->taps == 1 ? (r->source.y - std::floor(r->source.y)) * cell : (0.5f + r->fy) * cell;
  dl->AddCircleFilled(ImVec2(at.x + sx, at.y + sy), 4.0f, IM_COL32(255, 60, 40, 255));
  dl->AddCircle(ImVec2(at.x + sx, at.y + sy), 4.0f, IM_COL32(255, 255, 255, 255));
  ImGui::Dummy(ImVec2(cells * cell, cells * cell));
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextDisabled("squares: the texels (weights on them)");
  ImGui::TextDisabled("red dot: (sx, sy)");
  float out[4];
  for (int ch = 0; ch < c; ++ch) out[ch] = r->value[ch];
  ImGui::TextDisabled("blended: %s", values_text(out, c, 0).c_str());
  ImGui::EndGroup();
}

}  // namespace gpulab

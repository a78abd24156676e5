// The matrix demo's panel, keys and overlay: op and inputs, the heat map's colour scale, what the
// tensor variants' results differ by, verify; the tile overlay (which pixels one warp of a block
// reads and writes); the caption.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "base/stats.h"
#include "core/timings.h"
#include "demos/matrix/matrix_demo.h"
#include "demos/matrix/matrix_display.h"
#include "ui/verify_button.h"

namespace gpulab {
namespace {

using matrix::Kind;
using matrix::Op;
using matrix::Precision;

ImU32 im_colour(uint32_t rgba) { return IM_COL32(rgba & 0xFF, (rgba >> 8) & 0xFF, (rgba >> 16) & 0xFF, 255); }

// What one warp (threads 0..31 of block row 0) of the variant touches in its 32x32 tile, in the
// output's coordinates (row, column) relative to the tile's corner: reads (of the input, mapped to
// where they land) and writes.
struct WarpFootprint {
  bool read_row;   // the reads land along a row of the output (else down a column)
  bool write_row;  // the writes go along a row of the output (else down a column)
  int length;      // elements each way
};
WarpFootprint footprint(Kind k) {
  switch (k) {
    case Kind::TransposeNaive:
      return {false, false, 32};  // reads a row of the input = a column of the output; writes that column
    case Kind::TransposeVector:
      return {false, true, 64};  // 16 lanes x 4 words of two input rows; 16 x 4 words of two output rows
    case Kind::TransposeCpu:
      return {false, false, 32};
    default:
      return {false, true, 32};  // shared tiles: read a row of the input, write a row of the output
  }
}

}  // namespace

std::vector<KeyBinding> MatrixDemo::keys() const {
  const std::string_view g = title();
  return {
      {GLFW_KEY_O, 0, 0, false, "O", "transpose or multiply", g},
      {GLFW_KEY_T, 0, 0, false, "T", "transpose: the tile overlay (what one warp reads and writes)", g},
      {GLFW_KEY_I, 0, 0, false, "I", "multiply: the next generated input (random, identity, pattern)", g},
      {GLFW_KEY_G, 0, 0, false, "G", "multiply: new random inputs (the next seed)", g},
      {GLFW_KEY_F, 0, 0, false, "F", "fit the output to the view", g},
  };
}

void MatrixDemo::handle_input(const Frame& frame) {
  std::string err;
  for (int key : frame.input.keys) {
    switch (key) {
      case GLFW_KEY_O:
        set_op(op_ == Op::Transpose ? Op::Multiply : Op::Transpose);
        break;
      case GLFW_KEY_T:
        overlay_ = !overlay_;
        break;
      case GLFW_KEY_I:
        init_ = matrix::kInits[(size_t(init_) + 1) % std::size(matrix::kInits)];
        if (!generate_operands(&err)) notify(err);
        set_op(Op::Multiply);
        break;
      case GLFW_KEY_G:
        init_ = matrix::Init::Random;
        ++seed_;
        if (!generate_operands(&err)) notify(err);
        set_op(Op::Multiply);
        break;
      case GLFW_KEY_F:
        view_.fitted = false;
        break;
      default:
        break;
    }
  }
  const Input& in = frame.input;
  hovering_ = false;
  if (!frame.mouse_free) return;
  const int w = output_cols(), h = output_rows();
  if (view_.over(in.mouse_x, in.mouse_y, w, h)) {
    hovering_ = true;
    hover_x_ = std::clamp(int((in.mouse_x - view_.left) / view_.scale), 0, w - 1);
    hover_y_ = std::clamp(int((in.mouse_y - view_.top) / view_.scale), 0, h - 1);
  }
  view_.zoom_at(in.mouse_x, in.mouse_y, in.wheel);
  if (in.dragging[0] || in.dragging[1] || in.dragging[2]) view_.pan(in.delta_x, in.delta_y);
}

std::string MatrixDemo::input_label() const {
  if (op_ == Op::Transpose)
    return origin_.name + " " + std::to_string(words_->rows) + "x" + std::to_string(words_->cols);
  return ops_name_;
}

std::string MatrixDemo::caption() const {
  std::string s =
      "Matrix " + std::string(matrix::name(op_)) + " | " + std::string(variant().id) + " | " + input_label();
  if (const auto ms = ctx_ && ctx_->timings
                          ? ctx_->timings->median_per_step(TimingKey{pick(lead_stage())}, last_runs_)
                          : std::nullopt) {
    s += " | " + format_time_per(*ms, throughput().front().label);  // the HUD's words
  }
  return s;
}

void MatrixDemo::ui_inputs(float w) {
  int op = op_ == Op::Transpose ? 0 : 1;
  if (ImGui::RadioButton("transpose", &op, 0)) set_op(Op::Transpose);
  ImGui::SameLine();
  if (ImGui::RadioButton("multiply", &op, 1)) set_op(Op::Multiply);
  if (op_ == Op::Transpose) {
    pick_and_open(
        picker_, w, origin_,
        [&](const image::Generated& g, std::string* err) { return load_generated(g, err); },
        [&](const std::filesystem::path& p, std::string* err) { return load_path(p, err); },
        [&](std::string line) { notify(std::move(line)); });
    ImGui::Text("%dx%d words (RGBA8 pixels) -> %dx%d", words_->cols, words_->rows, words_->rows,
                words_->cols);
    ImGui::Checkbox("tile overlay (T)", &overlay_);
  } else {
    int init = int(init_);
    const char* names[] = {"random", "identity", "pattern"};
    ImGui::SetNextItemWidth(w * 0.5f);
    bool regen = ImGui::Combo("input (I)", &init, names, 3);
    int dims[3] = {m_, n_, k_};
    ImGui::SetNextItemWidth(w * 0.7f);
    if (ImGui::InputInt3("M N K", dims, ImGuiInputTextFlags_EnterReturnsTrue)) regen = true;
    if (regen) {
      const int keep[3] = {m_, n_, k_};
      init_ = matrix::Init(init);
      m_ = std::clamp(dims[0], 1, 16384);
      n_ = std::clamp(dims[1], 1, 16384);
      k_ = std::clamp(dims[2], 1, 16384);
      std::string err;
      if (!generate_operands(&err)) {
        notify(err);
        m_ = keep[0], n_ = keep[1], k_ = keep[2];
      }
    }
    ImGui::TextWrapped("%s", ops_name_.c_str());
    if (variant().aat())
      ImGui::TextWrapped("this variant computes A·Aᵀ (%dx%d), as the lab's kernel: B is not read", m_, m_);
    ui_scale(ImGui::GetContentRegionAvail().x);
    if (variant().precision != Precision::Fp32) {
      const bool bf = variant().precision == Precision::Bf16;
      ImGui::TextWrapped(
          "%s: each input keeps %s significant bits (float32 has 24), so every product is off by up to %s "
          "relative; "
          "the sums are float32 (fp32 accumulate). On random inputs C differs from the FP32 product in the "
          "%s "
          "decimal digit; integers up to %d and the identity stay exact. Verify allows %.2g x Σ|a||b| at "
          "this K.",
          bf ? "BF16" : "TF32", bf ? "8 (rounded)" : "11 (the tensor core ignores the low 13 mantissa bits)",
          bf ? "2^-8 (0.4%)" : "2^-10 (0.1%)", bf ? "third" : "fourth", bf ? 256 : 2048,
          matrix::tensor_bound(variant().precision, k_));
    }
  }
  ImGui::TextDisabled("display: %s", display_ ? display_->path_description().c_str() : "-");
}

void MatrixDemo::ui_scale(float w) {
  // The heat map's colour scale: the five stops, smallest value left, largest right.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  constexpr int kSteps = 48;
  for (int i = 0; i < kSteps; ++i) {
    const float t0 = float(i) / kSteps, t1 = float(i + 1) / kSteps;
    dl->AddRectFilledMultiColor(ImVec2(p.x + w * t0, p.y), ImVec2(p.x + w * t1, p.y + h),
                                im_colour(matrix::heat_colour(t0)), im_colour(matrix::heat_colour(t1)),
                                im_colour(matrix::heat_colour(t1)), im_colour(matrix::heat_colour(t0)));
  }
  ImGui::Dummy(ImVec2(w, h));
  ImGui::Text("%.4g", double(range_.first));
  ImGui::SameLine(std::max(0.0f, w - ImGui::CalcTextSize("0000000000").x));
  ImGui::Text("%10.4g", double(range_.second));
  if (hovering_ && op_ == Op::Multiply) ImGui::Text("C[%d][%d]", hover_y_, hover_x_);
}

void MatrixDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;  // the pickers' width, as the other image demos
  ui_inputs(w);
  ui::verify_button(
      "compare with the CPU reference (transpose: bit for bit; multiply: within the derived bound)",
      [&] { return verify(); }, &verify_result_, &verify_ok_);
  ui_overlay_legend();
}

void MatrixDemo::draw_overlay(const Frame& frame) {
  // Drawn with the render, not with the panel: in projector mode the demo's ui() is not called. Sizes
  // in framebuffer pixels (a design size times the view mark scale), drawn in ImGui's points.
  marks_.clear();
  if (!ImGui::GetCurrentContext() || op_ != Op::Transpose || !overlay_ || view_.scale <= 0) return;
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  auto pt = [&](double x, double y) {
    return ImVec2(static_cast<float>(x / sx), static_cast<float>(y / sy));
  };
  const Frame::Rect& v = view_.area;
  const float vx0 = float(v.x), vy0 = float(v.y), vx1 = float(v.x + v.w), vy1 = float(v.y + v.h);
  auto clipped = [&](const char* name, float x0, float y0, float x1, float y1, float line_px) {
    add_view_mark(marks_, v, {name, x0, y0, x1, y1, line_px, 0.0f});
  };
  ImDrawList* dl = ImGui::GetBackgroundDrawList();  // part of the picture: under every window (F1, code)
  dl->PushClipRect(pt(vx0, vy0), pt(vx1, vy1), false);
  const int w = output_cols(), h = output_rows();
  const WarpFootprint f = footprint(variant().kind());
  const int tile = f.length == 64 ? 64 : 32;
  // The tile under the cursor (else the second tile of the second row), its outline, and one warp.
  const int tx = (hovering_ ? hover_x_ : std::min(w - 1, tile)) / tile * tile,
            ty = (hovering_ ? hover_y_ : std::min(h - 1, tile)) / tile * tile;
  const double s = view_.scale;
  auto at = [&](double x, double y) {  // output coordinates to framebuffer pixels
    return std::pair<float, float>(float(view_.left + x * s), float(view_.top + y * s));
  };
  const float mark = view_mark_scale(frame);  // lines grow with the framebuffer (a projector)
  const float line = std::max(1.0f, 2.0f * mark);
  const auto [ox0, oy0] = at(tx, ty);
  const auto [ox1, oy1] = at(std::min(w, tx + tile), std::min(h, ty + tile));
  dl->AddRect(pt(ox0, oy0), pt(ox1, oy1), IM_COL32(255, 255, 255, 220), 0, 0, line / sx);
  clipped("tile", ox0, oy0, ox1, oy1, line);
  // Reads (of the input) in cyan where they land in the output; writes in orange, slightly inset.
  // One warp's strip as one band: at least 6 design pixels across so it shows at any zoom.
  auto strip = [&](const char* name, bool row, int len, ImU32 col, float shrink) {
    const int x1 = std::min(w, tx + (row ? len : 1)), y1 = std::min(h, ty + (row ? 1 : len));
    auto [ax, ay] = at(tx, ty);
    auto [bx, by] = at(x1, y1);
    const float min_px = 6.0f * mark;
    if (row && by - ay < min_px) by = ay + min_px;
    if (!row && bx - ax < min_px) bx = ax + min_px;
    dl->AddRectFilled(pt(ax + shrink, ay + shrink), pt(bx - shrink, by - shrink), col);
    clipped(name, ax + shrink, ay + shrink, bx - shrink, by - shrink, 0.0f);
  };
  strip("warp reads", f.read_row, f.length == 64 ? 32 : f.length, IM_COL32(60, 220, 255, 200), 0.0f);
  strip("warp writes", f.write_row, f.length == 64 ? 32 : f.length, IM_COL32(255, 150, 40, 230), 1.0f * mark);
  dl->PopClipRect();
}

void MatrixDemo::ui_overlay_legend() {
  if (op_ != Op::Transpose || !overlay_) return;
  const WarpFootprint f = footprint(variant().kind());
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.24f, 0.86f, 1.0f, 1.0f));
  ImGui::TextWrapped("cyan: where warp 0's reads land (one input row: coalesced)");
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.16f, 1.0f));
  ImGui::TextWrapped("orange: warp 0's writes: %s",
                     f.write_row ? "one output row, 128 contiguous bytes (coalesced)"
                                 : "down one output column, 32 rows apart (32 memory transactions)");
  ImGui::PopStyleColor();
}

}  // namespace gpulab

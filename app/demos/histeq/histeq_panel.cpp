// Histogram equalization: the panel and the labels. The image picker, mode and colour handling, the
// split, the histogram / CDF / LUT plots, verify; "before" and "after" over the image; the caption
// and the pipeline and size labels.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "base/stats.h"
#include "core/timings.h"
#include "demos/common/image_source.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/histeq/histeq_demo_internal.h"
#include "demos/histeq/histeq_display.h"
#include "ui/verify_button.h"

namespace gpulab {
namespace {

using histeq::Colour;
using histeq::Mode;
using histeq_internal::section_name;

const ImVec4 kRed(1.0f, 0.4f, 0.3f, 1.0f);

std::string plane_name(histeq::Layout layout, int plane) {
  if (layout == histeq::Layout::Grey) return "grey";
  if (layout == histeq::Layout::YCrCb) return "luminance Y";
  static const char* rgb[] = {"red", "green", "blue"};
  return rgb[std::clamp(plane, 0, 2)];
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Labels.

std::string HisteqDemo::pipeline_label() const {
  std::string s;
  for (size_t c = 0; c < histeq::kStageCount; ++c)
    if (stage_active(c)) s += (s.empty() ? "" : " > ") + std::string(variant(c).id);
  return s;
}

std::string HisteqDemo::size_label() const {
  std::string s = image_label(image_);
  if (image_.is_colour()) s += colour_ == Colour::PerChannel ? " per channel" : " (luminance)";
  return s;
}

std::string HisteqDemo::caption() const {
  std::string s = "Histogram equalization | " + pipeline_label() + " | " + size_label();
  if (const auto ms =
          ctx_ && ctx_->timings ? ctx_->timings->median_per_step(pipeline_key(), last_runs_) : std::nullopt) {
    s += " | " + format_time_per(*ms, "pipeline (per image)");  // the HUD's words
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// UI.

void HisteqDemo::ui_image(float w) {
  // The image: generated ones (from assets/images when the PNG is there), other files there, or any
  // path typed or dropped.
  pick_and_open(
      picker_, w, origin_,
      [&](const image::Generated& g, std::string* err) { return load_generated(g, err); },
      [&](const std::filesystem::path& p, std::string* err) { return load_path(p, err); },
      [&](std::string line) { notify(std::move(line)); });
  ImGui::Text("%s, %s", size_label().c_str(),
              format_count(static_cast<double>(image_.pixel_count()), "pixels").c_str());
  ImGui::TextDisabled("display: %s", display_ ? display_->path_description().c_str() : "-");
}

void HisteqDemo::ui_plots(float w) {
  if (!output_current_ || planes_.planes.empty()) {
    ImGui::TextDisabled("histograms: waiting for the pipeline");
    return;
  }
  if (!after_fresh_) read_after();  // waits for the GPU: once per change, only while shown
  const int planes = planes_.processed();
  if (planes > 1) {
    ImGui::TextUnformatted("channel");
    for (int p = 0; p < planes; ++p) {
      ImGui::SameLine();
      ImGui::RadioButton(plane_name(planes_.layout, p).c_str(), &channel_, p);
    }
  }
  const int p = std::clamp(channel_, 0, planes - 1);
  const double n = static_cast<double>(planes_.pixel_count());

  // The racy histogram: counts lost to overwritten updates, summed over the processed planes.
  if (mode_ == Mode::Equalize && !variant(0).exact) {
    double counted = 0;
    for (const auto& h : engine_hist_) counted += std::accumulate(h.begin(), h.end(), 0.0);
    const double lost = n * planes - counted;
    ImGui::PushStyleColor(ImGuiCol_Text, kRed);
    ImGui::TextWrapped("%s lost %.0f of %.0f counts (%.2f%%): the histogram is wrong, and so is the LUT",
                       std::string(variant(0).id).c_str(), lost, n * planes,
                       100.0 * lost / std::max(1.0, n * planes));
    ImGui::PopStyleColor();
  }

  auto values = [&](const histeq::Histogram& h) {
    std::vector<float> v(histeq::kBins);
    for (int i = 0; i < histeq::kBins; ++i)
      v[i] = log_scale_ ? std::log10(1.0f + static_cast<float>(h[i])) : static_cast<float>(h[i]);
    return v;
  };
  auto cdf = [&](const histeq::Histogram& h) {
    std::vector<float> v(histeq::kBins);
    double sum = 0, total = std::max(1.0, static_cast<double>(std::accumulate(h.begin(), h.end(), 0.0)));
    for (int i = 0; i < histeq::kBins; ++i) v[i] = static_cast<float>((sum += h[i]) / total);
    return v;
  };
  const float plot_h = 70.0f * ImGui::GetIO().FontGlobalScale;
  // A histogram with its CDF drawn over it (0..1 over the plot's height), the classic figure.
  auto plot = [&](const char* id, const std::string& title, const histeq::Histogram& h,
                  const ImVec4* colour) {
    const std::vector<float> bars = values(h), line = cdf(h);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (colour) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, *colour);
    ImGui::PlotHistogram(id, bars.data(), histeq::kBins, 0, title.c_str(), 0.0f, FLT_MAX, ImVec2(w, plot_h));
    if (colour) ImGui::PopStyleColor();
    const ImVec2 after_plot = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(at);
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_PlotLines, ImVec4(0.45f, 0.85f, 1.0f, 1.0f));
    ImGui::PlotLines((std::string(id) + "cdf").c_str(), line.data(), histeq::kBins, 0, nullptr, 0.0f, 1.0f,
                     ImVec2(w, plot_h));
    ImGui::PopStyleColor(2);
    ImGui::SetCursorScreenPos(after_plot);
  };
  const std::string plane = plane_name(planes_.layout, p);
  plot("##before", "before: " + plane + " histogram, CDF", before_[p], nullptr);
  if (mode_ == Mode::Equalize && engine_hist_[p] != before_[p]) {
    static const ImVec4 red(0.9f, 0.25f, 0.2f, 1.0f);
    plot("##counted", "as " + std::string(variant(0).id) + " counted it", engine_hist_[p], &red);
  }
  plot("##after", "after: histogram, CDF", after_[p], nullptr);
  {
    // The transfer function the pipeline built: out = lut[in].
    std::vector<float> lut(histeq::kBins);
    for (int i = 0; i < histeq::kBins; ++i) lut[i] = luts_[p][i];
    ImGui::PlotLines(
        "##lut", lut.data(), histeq::kBins, 0,
        mode_ == Mode::Equalize ? "LUT: out = lut[in] (the scaled CDF)" : "LUT: out = lut[in] (a line)", 0.0f,
        255.0f, ImVec2(w, plot_h * 0.7f));
  }
  if (mode_ == Mode::Stretch)
    ImGui::Text("%s: min %d, max %d stretched to 0..255", plane.c_str(), minmax_[p].min, minmax_[p].max);
  ImGui::Checkbox("log scale", &log_scale_);
  ImGui::SameLine();
  ImGui::TextDisabled("bars: histogram, blue line: CDF");
  ImGui::Checkbox("over the image", &overlay_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the histograms and CDFs over the image, large: on the projected screen too");
}

void HisteqDemo::ui_labels(const Frame& frame) {
  // "before" and "after" beside the split line, over the image (clipped to the free area).
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  const double w = image_.width * view_.scale, h = image_.height * view_.scale;
  const float split = static_cast<float>((view_.left + split_ * w) / sx);
  const float top = static_cast<float>(std::max(view_.top, 0.0) / sy);
  const float left = static_cast<float>(std::max(view_.left, static_cast<double>(view_.area.x)) / sx);
  const float right = static_cast<float>(std::min(view_.left + w, static_cast<double>(view_.fb_w)) / sx);
  const float bottom = static_cast<float>(std::min(view_.top + h, static_cast<double>(view_.fb_h)) / sy);
  if (right <= left || bottom <= top) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();  // part of the picture: under every window (F1, code)
  dl->PushClipRect(ImVec2(static_cast<float>(view_.area.x) / sx, static_cast<float>(view_.area.y) / sy),
                   ImVec2(static_cast<float>(view_.area.x + view_.area.w) / sx,
                          static_cast<float>(view_.area.y + view_.area.h) / sy));
  const float pad = 6.0f * frame.ui_scale;
  auto label = [&](const char* text, float x, bool right_aligned) {
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const float x0 = right_aligned ? x - pad - ts.x - 2 * pad : x + pad;
    if (x0 < left || x0 + ts.x + 2 * pad > right || top + ts.y + 2 * pad > bottom) return;
    const ImVec2 a(x0, top + pad), b(x0 + ts.x + 2 * pad, top + pad + ts.y + pad);
    dl->AddRectFilled(a, b, IM_COL32(0, 0, 0, 170), 3.0f);
    dl->AddText(ImVec2(a.x + pad, a.y + pad * 0.5f), IM_COL32(255, 255, 255, 255), text);
  };
  label("before", split, true);
  label(mode_ == Mode::Equalize ? "after: equalized" : "after: stretched", split, false);
  dl->PopClipRect();
}

void HisteqDemo::draw_overlay(const Frame& frame) {
  // Drawn with the render, not with the panel: in projector mode and with the panel hidden the demo's
  // ui() is not called, and the lecture's histogram must be on the projected screen. Sized by the
  // view's height, so that it reads the same on a 1080p projector as on a laptop.
  if (!ImGui::GetCurrentContext() || !output_current_ || planes_.planes.empty()) return;
  if (!after_fresh_) read_after();  // once per change
  const int planes = planes_.processed();
  if (planes <= 0 || static_cast<int>(after_.size()) < planes || static_cast<int>(before_.size()) < planes)
    return;
  const int p = std::clamp(channel_, 0, planes - 1);
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
  const Frame::Rect v = frame.view_or_all();
  const float vx = v.x / sx, vy = v.y / sy, vw = v.w / sx, vh = v.h / sy;
  // The text: at least 28 px at 1080p (cap heights a projector's back row reads), never below the UI's.
  const float text_px = std::max(ImGui::GetFontSize(), 28.0f * v.h / 1080.0f / sy);
  const float pad = text_px * 0.4f;
  ImFont* font = ImGui::GetFont();
  const std::string plane = plane_name(planes_.layout, p);
  const std::string title = "histogram and CDF (line): " + plane;
  const float title_w = font->CalcTextSizeA(text_px, FLT_MAX, 0.0f, title.c_str()).x;
  const float box_w = std::min(vw - 2 * pad, std::max(vw * 0.5f, title_w + 2 * pad));
  // In the lower half of the view, so that the picture stays in sight (a 720p screen at UI scale 2):
  // the plots give up height first, down to a line and a half of text.
  const float texts_h = 4 * pad + 2 * text_px;
  const float plot_w = (box_w - 3 * pad) / 2,
              plot_h =
                  std::min({vh * 0.22f, plot_w * 0.6f, std::max(vh * 0.5f - pad - texts_h, 1.5f * text_px)});
  const float box_h = texts_h + plot_h;
  if (box_w < 8 * text_px || box_h > vh) return;  // no room: the panel's plots are there
  const ImVec2 a(vx + pad, vy + vh - pad - box_h), b(a.x + box_w, a.y + box_h);
  add_view_mark(marks_, v, {"histogram", a.x * sx, a.y * sy, b.x * sx, b.y * sy, 0.0f, text_px * sy});
  ImDrawList* dl = ImGui::GetBackgroundDrawList();  // part of the picture: under every window (F1, code)
  dl->PushClipRect(ImVec2(vx, vy), ImVec2(vx + vw, vy + vh));
  dl->AddRectFilled(a, b, IM_COL32(12, 12, 16, 215), pad * 0.5f);
  const ImU32 white = IM_COL32(255, 255, 255, 255), bars = IM_COL32(200, 200, 200, 255),
              cdf_colour = IM_COL32(86, 180, 233, 255), counted = IM_COL32(230, 97, 0, 255);
  dl->AddText(font, text_px, ImVec2(a.x + pad, a.y + pad), white, title.c_str());
  const float line = std::max(1.5f, text_px / 10);
  auto plot = [&](float x0, const histeq::Histogram& h, const histeq::Histogram* also, const char* label) {
    const float y0 = a.y + pad + text_px + pad, y1 = y0 + plot_h;
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + plot_w, y1), IM_COL32(0, 0, 0, 160));
    auto value = [&](uint64_t c) {
      return log_scale_ ? std::log10(1.0 + static_cast<double>(c)) : static_cast<double>(c);
    };
    double top = 1;
    for (int i = 0; i < histeq::kBins; ++i) {
      top = std::max(top, value(h[i]));
      if (also) top = std::max(top, value((*also)[i]));
    }
    const float bw = plot_w / histeq::kBins;
    auto draw_bars = [&](const histeq::Histogram& hh, ImU32 colour) {
      for (int i = 0; i < histeq::kBins; ++i) {
        const float bh = static_cast<float>(value(hh[i]) / top) * plot_h;
        if (bh > 0) dl->AddRectFilled(ImVec2(x0 + i * bw, y1 - bh), ImVec2(x0 + (i + 1) * bw, y1), colour);
      }
    };
    draw_bars(h, bars);
    if (also && *also != h) draw_bars(*also, counted);
    double total = 0;
    for (int i = 0; i < histeq::kBins; ++i) total += static_cast<double>(h[i]);
    std::vector<ImVec2> pts;
    double sum = 0;
    for (int i = 0; i < histeq::kBins; ++i) {
      sum += static_cast<double>(h[i]);
      pts.emplace_back(x0 + (i + 0.5f) * bw, y1 - static_cast<float>(sum / std::max(1.0, total)) * plot_h);
    }
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), cdf_colour, 0, line);
    dl->AddText(font, text_px, ImVec2(x0, y1 + pad * 0.5f), white, label);
  };
  const bool racy = mode_ == Mode::Equalize && static_cast<int>(engine_hist_.size()) > p && !variant(0).exact;
  plot(a.x + pad, before_[p], racy ? &engine_hist_[p] : nullptr,
       racy ? "before (orange: as counted)" : "before");
  plot(a.x + 2 * pad + plot_w, after_[p], nullptr,
       mode_ == Mode::Equalize ? "after: equalized" : "after: stretched");
  dl->PopClipRect();
}

void HisteqDemo::ui(Frame& frame) {
  const float w = 220.0f * frame.ui_scale;
  ui_image(w);

  // Mode and colour handling.
  ImGui::Separator();
  int mode = mode_ == Mode::Equalize ? 0 : 1;
  bool changed = ImGui::RadioButton("equalize", &mode, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("stretch", &mode, 1);
  if (changed) set_mode(mode == 0 ? Mode::Equalize : Mode::Stretch);
  ImGui::SameLine();
  ImGui::TextDisabled("(E)");
  int colour = colour_ == Colour::Luminance ? 0 : 1;
  ImGui::BeginDisabled(!image_.is_colour());
  changed = ImGui::RadioButton("luminance", &colour, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("per channel", &colour, 1);
  ImGui::EndDisabled();
  if (changed) set_colour(colour == 0 ? Colour::Luminance : Colour::PerChannel);
  ImGui::SameLine();
  if (image_.is_colour()) {
    ImGui::TextDisabled("(C)");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "luminance: Y of YCrCb equalized, colours kept; per channel: R, G and B each on its own "
          "(colours shift)");
  } else {
    ImGui::TextDisabled("grey image: one plane");
  }

  // The split and the view.
  ImGui::SetNextItemWidth(w);
  ImGui::SliderFloat("split", &split_, 0.0f, 1.0f, "%.2f");
  ImGui::SameLine();
  if (ImGui::Button("fit (F)")) view_.fitted = false;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "left of the line: before, right: after. Click or drag on the image to move the split "
      "(Left/Right keys); wheel: zoom, right drag: pan. Keys: E equalize/stretch, C luminance/per "
      "channel, F fit");
  ImGui::PopStyleColor();

  ImGui::Separator();
  try {
    ui_plots(w * 1.8f);
  } catch (const std::exception& e) {
    ImGui::TextColored(kRed, "histograms: %s", e.what());
  }

  // Verify against the CPU reference.
  ImGui::Separator();
  if (ui::verify_button(
          "compare this pipeline's output with the CPU reference (histeq::process_cpu), byte for byte",
          [&] { return verify(); }, &verify_result_, &verify_ok_))
    notify(verify_result_);
  if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
  ui_labels(frame);
}

}  // namespace gpulab

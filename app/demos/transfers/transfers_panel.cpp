// The transfers demo's panel (size, streams, chunks, intensity, verify), its keys and caption, and
// the chart drawn in the view: the bandwidth curve or the live timeline, through an ImDrawList painter
// (the same layout code as the slide PNG).
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "demos/transfers/transfers_demo.h"
#include "ui/verify_button.h"

namespace gpulab {
namespace {

class ImPainter final : public transfers_view::Painter {
 public:
  explicit ImPainter(ImDrawList* dl) : dl_(dl) {}
  void rect(transfers_view::Rect r, uint32_t c) override {
    dl_->AddRectFilled({r.x0, r.y0}, {r.x1, r.y1}, c);
  }
  void line(float x0, float y0, float x1, float y1, uint32_t c, float w) override {
    dl_->AddLine({x0, y0}, {x1, y1}, c, w);
  }
  void text(float x, float y, const std::string& s, uint32_t c) override {
    dl_->AddText({x, y}, c, s.c_str());
  }
  float text_height() const override { return ImGui::GetFontSize(); }
  float text_width(const std::string& s) const override { return ImGui::CalcTextSize(s.c_str()).x; }

 private:
  ImDrawList* dl_;
};

}  // namespace

std::vector<KeyBinding> TransfersDemo::keys() const {
  const std::string_view g = title();
  return {
      {GLFW_KEY_RIGHT_BRACKET, 0, 0, false, "]", "overlap: one more stream", g},
      {GLFW_KEY_LEFT_BRACKET, 0, 0, false, "[", "overlap: one stream fewer", g},
  };
}

std::string TransfersDemo::caption() const {
  if (!bound()) return "Transfers and streams";
  const transfers::Variant& v = variant(stage_);
  char buf[256];
  if (stage_ == kBandwidthStage)
    std::snprintf(
        buf, sizeof buf, "Transfers | %s | %s | %.2f GB/s%s", std::string(v.id).c_str(),
        transfers::format_bytes(bytes_).c_str(), last_gbps_,
        line_rate_ > 0 ? (" of " + std::to_string(int(line_rate_ + 0.5)) + " GB/s line rate").c_str() : "");
  else
    std::snprintf(buf, sizeof buf, "Transfers | %s | %d chunks, %d streams | %.2f ms (bound %.2f, sum %.2f)",
                  std::string(v.id).c_str(), pipeline_.chunks, v.streams > 0 ? v.streams : pipeline_.streams,
                  timeline_.total_ms, timeline_.bound_ms, timeline_.sum_ms);
  return buf;
}

void TransfersDemo::draw_view(const Frame& frame) {
  const auto t0 = std::chrono::steady_clock::now();
  // The view region (framebuffer pixels) in ImGui's points, a margin inside it.
  const Frame::Rect area = frame.view_or_all();
  const ImVec2 fs = ImGui::GetIO().DisplayFramebufferScale;
  const float sx = std::max(fs.x, 1e-3f), sy = std::max(fs.y, 1e-3f);
  const float m = 20.0f * frame.ui_scale;
  const transfers_view::Rect view{float(area.x) / sx + m, float(area.y) / sy + m,
                                  float(area.x + area.w) / sx - m, float(area.y + area.h) / sy - m};
  ImPainter p(ImGui::GetBackgroundDrawList());
  if (stage_ == kBandwidthStage) {
    transfers_view::BandwidthChart c = chart_;
    c.title =
        "bandwidth: " + std::string(variant(kBandwidthStage).id) + " (curves of the rungs measured so far)";
    if (line_rate_ <= 0 && !line_rate_why_.empty()) c.note = "line rate unknown: " + line_rate_why_;
    transfers_view::draw_bandwidth(p, c, view);
  } else {
    transfers_view::draw_timeline(p, timeline_, view);
  }
  timeline_draw_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void TransfersDemo::ui(Frame& frame) {
  for (int key : frame.input.keys) {
    if (key == GLFW_KEY_RIGHT_BRACKET)
      pipeline_.streams = std::min(transfers::kMaxStreams, pipeline_.streams + 1);
    if (key == GLFW_KEY_LEFT_BRACKET)
      pipeline_.streams = std::max(transfers::kMinStreams, pipeline_.streams - 1);
  }
  draw_view(frame);
  const float w = ImGui::GetContentRegionAvail().x;
  if (stage_ == kBandwidthStage)
    ui_bandwidth(w);
  else
    ui_overlap(w);
  ui::verify_button(
      stage_ == kBandwidthStage ? "copy the pattern across and check every byte on the other side"
                                : "run the pipeline and compare its output with the CPU reference",
      [this] { return verify(); }, &verify_result_, &verify_ok_);
  ImGui::TextDisabled("chart drawn in %.2f ms", timeline_draw_ms_);
}

void TransfersDemo::ui_bandwidth(float w) {
  // Sizes as powers of two: 4 KiB (2^12) .. 1 GiB (2^30).
  int log2 = 0;
  while ((uint64_t(1) << (log2 + 1)) <= bytes_) ++log2;
  ImGui::SetNextItemWidth(w * 0.6f);
  if (ImGui::SliderInt("size", &log2, 12, 30, transfers::format_bytes(uint64_t(1) << log2).c_str()))
    bytes_ = uint64_t(1) << log2;
  ImGui::Text("%s: %.2f GB/s (%.3f ms)", std::string(variant(kBandwidthStage).id).c_str(), last_gbps_,
              last_ms_);
  if (line_rate_ > 0)
    ImGui::Text("PCIe line rate %.1f GB/s: %.0f%%", line_rate_, 100 * last_gbps_ / line_rate_);
  else if (!line_rate_why_.empty())
    ImGui::TextWrapped("line rate unknown: %s", line_rate_why_.c_str());
  if (ImGui::Button("clear curves")) {
    chart_.curves.clear();
    sweep_next_ = 0;
  }
  ImGui::TextWrapped("%s", std::string(variant(kBandwidthStage).lesson).c_str());
}

void TransfersDemo::ui_overlap(float w) {
  ImGui::SetNextItemWidth(w * 0.6f);
  ImGui::SliderInt("streams", &pipeline_.streams, transfers::kMinStreams, transfers::kMaxStreams);
  ImGui::SetNextItemWidth(w * 0.6f);
  ImGui::SliderInt("chunks", &pipeline_.chunks, transfers::kMinChunks, transfers::kMaxChunks);
  ImGui::SetNextItemWidth(w * 0.6f);
  ImGui::SliderInt("intensity", &pipeline_.intensity, transfers::kMinIntensity, 1024, "%d",
                   ImGuiSliderFlags_Logarithmic);
  if (transfers::check_pipeline(pipeline_) != "") pipeline_.chunks = transfers::kMinChunks;
  const transfers::Variant& v = variant(kOverlapStage);
  if (v.streams > 0) ImGui::TextDisabled("%s fixes %d streams", std::string(v.id).c_str(), v.streams);
  ImGui::Text("achieved %.3f ms", timeline_.total_ms);
  if (timeline_.bound_ms > 0)
    ImGui::Text("bound %.3f ms (x%.2f), serial sum %.3f ms", timeline_.bound_ms,
                timeline_.total_ms / timeline_.bound_ms, timeline_.sum_ms);
  if (!timeline_.note.empty()) ImGui::TextWrapped("%s", timeline_.note.c_str());
  ImGui::TextWrapped("%s", std::string(v.lesson).c_str());
}

}  // namespace gpulab

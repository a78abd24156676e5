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
  if (stage_ == kDisplayStage)
    std::snprintf(buf, sizeof buf, "Transfers | %s | %dx%d frame | %.2f ms a frame",
                  std::string(v.id).c_str(), frame_size_.width, frame_size_.height, last_ms_);
  else if (stage_ == kBandwidthStage)
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
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  ImPainter p(dl);
  if (stage_ == kDisplayStage) {
    // The frame the rung wrote, fitted into the upper part; the paths' times below it.
    const float split = view.y0 + view.h() * 0.58f;
    if (display_ && display_->texture()) {
      const gl::Texture2D& t = display_->texture();
      const float room_w = view.w(), room_h = split - view.y0 - ImGui::GetFontSize() * 1.5f;
      const float scale = std::min(room_w / float(t.width()), room_h / float(t.height()));
      const float w = float(t.width()) * scale, h = float(t.height()) * scale;
      const float x0 = view.x0 + (room_w - w) / 2, y0 = view.y0;
      dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(t.id())), {x0, y0}, {x0 + w, y0 + h});
      p.text(view.x0, y0 + h + 4, display_->path_description(), 0xFF909090);
    }
    transfers_view::DisplayChart c = display_chart_;
    c.title = "ms a frame until the texture is ready (" + std::string(variant(kDisplayStage).id) +
              " live; the panel's button times every path)";
    if (kernel_ms_ > 0) {
      char note[160];
      std::snprintf(note, sizeof note,
                    "the kernel alone at %dx%d: %.3f ms (CUDA events): the floor of every GPU path",
                    frame_size_.width, frame_size_.height, kernel_ms_);
      c.note = note;
    }
    transfers_view::draw_display_bars(p, c, {view.x0, split, view.x1, view.y1});
  } else if (stage_ == kBandwidthStage) {
    transfers_view::BandwidthChart c = chart_;
    c.title =
        "bandwidth: " + std::string(variant(kBandwidthStage).id) + " (curves of the rungs measured so far)";
    if (line_rate_ <= 0 && !line_rate_why_.empty()) c.note = "line rate unknown: " + line_rate_why_;
    if (pinning_) {
      char note[240];
      std::snprintf(note, sizeof note,
                    "the cost of pinning %s: cudaMallocHost %.1f ms, cudaHostRegister %.1f ms (free %.1f ms, "
                    "unregister %.1f ms)",
                    transfers::format_bytes(pinning_->bytes).c_str(), pinning_->malloc_host_ms,
                    pinning_->register_ms, pinning_->free_host_ms, pinning_->unregister_ms);
      c.note = c.note.empty() ? note : c.note + "; " + note;
    }
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
  const float w = ImGui::GetContentRegionAvail().x;
  if (stage_ == kBandwidthStage)
    ui_bandwidth(w);
  else if (stage_ == kOverlapStage)
    ui_overlap(w);
  else
    ui_display(w);
  ui::verify_button(
      stage_ == kBandwidthStage ? "copy the pattern across and check every byte on the other side"
      : stage_ == kOverlapStage
          ? "run the pipeline and compare its output with the CPU reference"
          : "write a frame, read the texture back and compare every pixel with the CPU's",
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
  // What pinning itself costs (it is why a program pins once and reuses the buffer).
  if (ImGui::Button("time pinning")) time_pinning(bytes_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("cudaMallocHost / cudaFreeHost and cudaHostRegister / cudaHostUnregister of %s",
                      transfers::format_bytes(bytes_).c_str());
  if (pinning_) {
    ImGui::Text("pinning %s: cudaMallocHost %.1f ms, cudaHostRegister %.1f ms",
                transfers::format_bytes(pinning_->bytes).c_str(), pinning_->malloc_host_ms,
                pinning_->register_ms);
    ImGui::TextDisabled("cudaFreeHost %.1f ms, cudaHostUnregister %.1f ms", pinning_->free_host_ms,
                        pinning_->unregister_ms);
  }
  if (!pinning_error_.empty()) ImGui::TextWrapped("%s", pinning_error_.c_str());
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

void TransfersDemo::ui_display(float w) {
  (void)w;
  int pick = frame_size_ == transfers::FrameSize{3840, 2160}   ? 1
             : frame_size_ == transfers::FrameSize{1920, 1080} ? 0
                                                               : -1;
  if (ImGui::RadioButton("1920x1080", pick == 0)) frame_size_ = {1920, 1080};
  ImGui::SameLine();
  if (ImGui::RadioButton("3840x2160", pick == 1)) frame_size_ = {3840, 2160};
  if (pick < 0) {
    ImGui::SameLine();
    ImGui::Text("(%dx%d)", frame_size_.width, frame_size_.height);
  }
  const transfers::Variant& v = variant(kDisplayStage);
  ImGui::Text("%s: %.3f ms a frame", std::string(v.id).c_str(), last_ms_);
  if (kernel_ms_ > 0) ImGui::TextDisabled("the kernel alone: %.3f ms (CUDA events)", kernel_ms_);
  if (display_ && !display_->path_description().empty())
    ImGui::TextWrapped("%s", display_->path_description().c_str());
  if (ImGui::Button("time every path")) time_display_paths(20);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("every display rung, 20 frames at 1920x1080 and 3840x2160: the median of each");
  // The rungs that cannot run here, with the reason.
  const std::vector<const transfers::Variant*> rungs = transfers::variants_of(transfers::Stage::Display);
  for (size_t i = 0; i < rungs.size(); ++i) {
    std::string why = why_unavailable(kDisplayStage, int(i));
    if (why.empty() && display_) why = display_->why_unavailable(*rungs[i], frame_size_);
    if (!why.empty()) ImGui::TextDisabled("%s: %s", std::string(rungs[i]->id).c_str(), why.c_str());
  }
  ImGui::TextWrapped("%s", std::string(v.lesson).c_str());
}

}  // namespace gpulab

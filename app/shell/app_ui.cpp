// The App's panel: the pickers and controls, the demo's own section and the shared ones, laid out
// for the UI scale (re-laid out when it or the display changes), and the compact panel of projector
// mode (the pickers only).
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>

#include "platform/platform.h"
#include "presenter/counters_view.h"
#include "shell/app.h"
#include "ui/panels.h"
#include "ui/theme.h"

#if defined(GPULAB_HAVE_CUDA)
#include "cuda/device_info.h"
#endif

namespace gpulab {
namespace {
double seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Text wraps at the panel's visible right edge: a long message, lesson or reason goes onto the
// next line instead of being cut off.
void push_wrap_at_visible_edge() {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float right = w->InnerRect.Max.x - ImGui::GetStyle().WindowPadding.x;
  ImGui::PushTextWrapPos(std::max(right - w->Pos.x + w->Scroll.x, 1.0f));
}

// A collapsing header, and a tab (the caller draws its contents and ends it when it returns true),
// whose places the layout report keeps (the tests check what is in view).
bool section(std::vector<App::PanelLayout::Item>& out, const std::string& title, bool open_at_first) {
  const bool open =
      ImGui::CollapsingHeader(title.c_str(), open_at_first ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  out.push_back({title, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().y});
  return open;
}

bool tab(std::vector<App::PanelLayout::Item>& out, const char* title, ImGuiTabItemFlags flags = 0) {
  const bool open = ImGui::BeginTabItem(title, nullptr, flags);
  out.push_back({title, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().y});
  return open;
}
}  // namespace

void App::draw_pickers(Frame& f, bool compact) {
  Demo& d = *demos_[demo_];
  // Demo picker, each with its key.
  // In the compact panel the combos are as wide as their longest entry (the window fits them).
  auto width = [&](std::string_view longest) {
    if (compact)
      ImGui::SetNextItemWidth(ImGui::CalcTextSize(std::string(longest).c_str()).x +
                              ImGui::GetFrameHeight() * 2);
  };
  std::string longest_title;
  for (const auto& demo : demos_)
    if (demo->title().size() > longest_title.size()) longest_title = demo->title();
  width(longest_title);
  if (ImGui::BeginCombo("demo", std::string(d.title()).c_str())) {
    for (size_t i = 0; i < demos_.size(); ++i) {
      if (ImGui::Selectable(std::string(demos_[i]->title()).c_str(), i == demo_)) select_demo(i);
      if (i < 9) {
        ImGui::SameLine();
        ImGui::TextDisabled("%zu", i + 1);
      }
    }
    ImGui::EndCombo();
  }
  if (!attached_) {
    // The demo could not start: say why, keep the picker, offer another try.
    ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Error));
    ImGui::TextWrapped("%s", attach_error_.c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("try again")) attach_current();
    return;
  }
  // One variant picker (with each lesson) and block picker per stage.
  const std::vector<Stage> stages = d.stages();
  for (size_t si = 0; si < stages.size(); ++si) {
    const Stage& st = stages[si];
    if (compact && !st.active) continue;  // the compact panel shows only what runs
    ImGui::PushID(static_cast<int>(si));
    if (stages.size() > 1) ImGui::TextDisabled("%s", std::string(st.title).c_str());
    if (!st.active) {
      ImGui::SameLine();
      ImGui::TextDisabled("(not run: %s)", st.inactive_reason.c_str());
    }
    const VariantChoice& cur = st.variants[st.variant];
    std::string_view longest_id;
    for (const auto& v : st.variants)
      if (v.id.size() > longest_id.size()) longest_id = v.id;
    width(longest_id);
    if (st.variants.size() > 1 && ImGui::BeginCombo("variant", std::string(cur.id).c_str())) {
      for (size_t vi = 0; vi < st.variants.size(); ++vi) {
        const VariantChoice& v = st.variants[vi];
        const std::string label = std::string(v.id) + "  -  " + std::string(v.title);
        const ImGuiSelectableFlags flags = v.available ? 0 : ImGuiSelectableFlags_Disabled;
        if (ImGui::Selectable(label.c_str(), v.id == cur.id, flags)) choose_variant(si, static_cast<int>(vi));
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
          ImGui::SetTooltip("%s%s%s", std::string(v.lesson).c_str(), v.available ? "" : "\nunavailable: ",
                            v.available ? "" : v.unavailable_reason.c_str());
      }
      ImGui::EndCombo();
    } else if (st.variants.size() == 1) {
      ImGui::Text("%s", std::string(cur.id).c_str());
    }
    if (compact) {
      ImGui::PopID();
      continue;
    }
    if (st.active) ImGui::TextWrapped("%s", std::string(cur.lesson).c_str());
    if (!cur.blocks.empty() && st.active) {
      auto label = [&](int b) {
        return cur.square_blocks ? std::to_string(b) + " x " + std::to_string(b)
                                 : std::to_string(b) + " threads";
      };
      if (ImGui::BeginCombo("block", label(st.block).c_str())) {
        for (int b : cur.blocks)
          if (ImGui::Selectable(label(b).c_str(), b == st.block)) choose_block(si, b);
        ImGui::EndCombo();
      }
    }
    ImGui::PopID();
  }
}

void App::draw_controls(Frame& f) {
  draw_pickers(f, false);
  if (!attached_) return;
  if (ImGui::Button("compare all (F5)")) start_ladder();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the speed-up ladder: every variant on a copy of this input, verified, timed and charted");
  // Play / pause / step / reset, speed.
  if (ImGui::Button(playing_ ? "pause" : "play")) playing_ = !playing_;
  ImGui::SameLine();
  if (ImGui::Button("step")) {
    playing_ = false;
    step_once_ = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("reset")) reset_ = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120 * f.ui_scale);
  if (ImGui::InputInt("steps/frame", &steps_per_frame_))
    steps_per_frame_ = std::clamp(steps_per_frame_, 1, 1 << 16);
  if (!platform_->headless()) {
    if (ImGui::Checkbox("vsync", &vsync_)) platform_->set_vsync(vsync_);
    ImGui::SameLine();
  }
  // Screenshots.
  if (ImGui::Button("screenshot (F12)")) shot_pending_ = true;
  ImGui::SameLine();
  ImGui::Checkbox("with UI", &shot_with_ui_);
  ImGui::SameLine();
  ImGui::Checkbox("caption", &caption_);
}

void App::draw_caption() {
  if (!caption_) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const std::string text = demos_[demo_]->caption();
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  const float pad = 6.0f;
  dl->AddRectFilled(ImVec2(0, size.y - ts.y - 2 * pad), size, IM_COL32(0, 0, 0, 200));
  dl->AddText(ImVec2(pad, size.y - ts.y - pad), IM_COL32(255, 255, 255, 255), text.c_str());
}

void App::draw_ui(Frame& f) {
  Demo& d = *demos_[demo_];
  const float s = f.ui_scale;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float margin = 8 * s;
  // Laid out afresh when the scale or the display changes (the user's own resizing stays otherwise).
  const bool relayout =
      s != panel_laid_out_for_ || display.x != panel_display_w_ || display.y != panel_display_h_;
  const ImGuiCond cond = relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  panel_laid_out_for_ = s;
  panel_display_w_ = display.x;
  panel_display_h_ = display.y;
  const ImVec2 room(std::max(display.x - 2 * margin, 50.0f), std::max(display.y - 2 * margin, 50.0f));
  ImGui::SetNextWindowPos(ImVec2(margin, margin), cond);
  layout_.sections.clear();
  layout_.counters = {};
  if (compact_panel_) {
    // The pickers alone, sized to them.
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), room);
    ImGui::Begin("gpulab##compact", nullptr,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_HorizontalScrollbar);
    panel_right_ = static_cast<int>((ImGui::GetWindowPos().x + ImGui::GetWindowSize().x) *
                                    ImGui::GetIO().DisplayFramebufferScale.x);
    draw_messages();
    draw_pickers(f, true);
    ImGui::TextDisabled("F7: leave projector mode");
    record_layout();
    ImGui::End();
    return;
  }
  ImGui::SetNextWindowSize(ImVec2(std::min(500 * s, room.x), room.y), cond);
  // No horizontal scrolling: ImGui widens a window's work area to last frame's content when it may
  // scroll sideways, so stretched tables and wrapped text would never shrink back into view.
  ImGui::Begin("gpulab", nullptr);
  // Where the panel ends, so a demo can centre its view in the part of the screen left free.
  panel_right_ = static_cast<int>((ImGui::GetWindowPos().x + ImGui::GetWindowSize().x) *
                                  ImGui::GetIO().DisplayFramebufferScale.x);
  push_wrap_at_visible_edge();  // messages, lessons, reasons (not tables: their columns clip)
  draw_messages();
  draw_controls(f);
  ImGui::PopTextWrapPos();
  ImGui::Separator();
  ui::PanelInputs in;
  in.series = timings_.series();
  in.frame_ms = &frame_ms_;
  if (attached_) {
    in.throughput = d.throughput();
    in.kernels = d.kernels();
  }
  in.peak_bandwidth_gbps = ctx_.peak_bandwidth_gbps;
  in.peak_fp32_gflops = ctx_.peak_fp32_gflops;
  in.device = cuda_device_info();
  in.cpu_only_reason = ctx_.cuda ? std::string() : ctx_.cuda_reason;
  in.gl_renderer = platform_->info().gl_renderer + " — " + platform_->info().gl_version;
  // The shared sections as tabs right under the pickers, so that every one of them is one click
  // away at any panel height (Timings open); then the demo's own controls.
  auto& secs = layout_.sections;
  if (ImGui::BeginTabBar("sections", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
    if (tab(secs, "Timings")) {
      ui::timings_section(in);
      ImGui::EndTabItem();
    }
    if (tab(secs, "Occupancy")) {
      ui::occupancy_section(in);
      ImGui::EndTabItem();
    }
    // F3 brings the Counters tab (its readings and live meters) to the front.
    if (tab(secs, "Counters", counters_tab_select_ ? ImGuiTabItemFlags_SetSelected : 0)) {
      counters_tab_select_ = false;
      if (!counters_) counters_ = std::make_unique<presenter::CountersView>();
      if (attached_)
        guarded("counters", [&] {
          counters_->draw(
              d, ctx_, s,
              theme_ == Theme::Light ? presenter::ChartTheme::light() : presenter::ChartTheme::dark());
        });
      PanelLayout::CountersShown& cs = layout_.counters;
      cs.tab_open = true;
      cs.unavailable = counters_->unavailable(ctx_);
      cs.meters = counters_->meters_status();
      cs.meter_samples = counters_->meters().size();
      cs.meter_span_s = counters_->meters().span_s();
      cs.measured.clear();
      for (const presenter::CounterRow& r : counters_->rows())
        if (r.measured()) cs.measured.push_back(r.variant);
      ImGui::EndTabItem();
    }
    if (tab(secs, "Device")) {
      ui::device_section(in);
      ImGui::EndTabItem();
    }
    if (tab(secs, "View")) {
      draw_view_controls();
      ImGui::EndTabItem();
    }
    // A lesson just opened brings its tab (the step list and the presenter's notes) to the front.
    if (tab(secs, "Lesson", lesson_tab_select_ ? ImGuiTabItemFlags_SetSelected : 0)) {
      push_wrap_at_visible_edge();
      draw_lesson_section();
      ImGui::PopTextWrapPos();
      lesson_tab_select_ = false;
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  if (attached_ && section(secs, std::string(d.title()), true)) {
    // While A/B runs, a change to one half's own settings would make the halves differ in more than
    // their variant: the demo's own controls wait until it ends.
    if (ab_)
      ImGui::TextWrapped("A/B is running: the demo's own controls are off until it ends (F8).");
    else
      guarded("ui", [&] { d.ui(f); });
  }
  record_layout();
  ImGui::End();
}

void App::draw_messages() {
  // The backend banner and the recent messages, wrapped to the panel's width.
  ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Warning));
  if (!backend_banner_.empty()) ImGui::TextWrapped("%s", backend_banner_.c_str());
  if (ctx_.cuda && !ctx_.interop) ImGui::TextWrapped("host-copy display: %s", ctx_.interop_reason.c_str());
  ImGui::PopStyleColor();
  const double t = seconds();
  for (const auto& m : messages_) {
    if (t - m.time > 20.0) continue;
    ImGui::TextWrapped("%s", m.text.c_str());
  }
}

}  // namespace gpulab

// The App's panel: the pickers and controls, the demo's own section and the shared ones, laid out
// for the UI scale (re-laid out when it or the display changes), and the compact panel of projector
// mode (the pickers only).
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>

#include "platform/platform.h"
#include "presenter/elements.h"
#include "presenter/ladder_view.h"
#include "shell/app.h"
#include "shell/session.h"
#include "ui/fonts.h"
#include "ui/panels.h"
#include "ui/theme.h"

#if defined(GPULAB_HAVE_CUDA)
#include "cuda/device_info.h"
#endif

namespace gpulab {
namespace {
// Text wraps at the panel's visible right edge: a long message, lesson or reason goes onto the
// next line instead of being cut off.
void push_wrap_at_visible_edge() {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float right = w->InnerRect.Max.x - ImGui::GetStyle().WindowPadding.x;
  ImGui::PushTextWrapPos(std::max(right - w->Pos.x + w->Scroll.x, 1.0f));
}

// A collapsing header, and a tab (the caller draws its contents and ends it when it returns true),
// whose places the layout report keeps (the tests check what is in view).
bool section(std::vector<presenter::LayoutReport::Item>& out, const std::string& title, bool open_at_first) {
  const bool open =
      ImGui::CollapsingHeader(title.c_str(), open_at_first ? ImGuiTreeNodeFlags_DefaultOpen : 0);
  out.push_back({title, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().y});
  return open;
}

bool tab(std::vector<presenter::LayoutReport::Item>& out, const char* title, ImGuiTabItemFlags flags = 0) {
  const bool open = ImGui::BeginTabItem(title, nullptr, flags);
  out.push_back({title, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().y});
  return open;
}
}  // namespace

void App::draw_pickers(Frame& f, bool compact) {
  ShellSession& s = *session_;
  // Demo picker, each with its key.
  // In the compact panel the combos are as wide as their longest entry (the window fits them).
  auto width = [&](std::string_view longest) {
    if (compact)
      ImGui::SetNextItemWidth(ImGui::CalcTextSize(std::string(longest).c_str()).x +
                              ImGui::GetFrameHeight() * 2);
  };
  std::string longest_title;
  for (size_t i = 0; i < s.demo_count(); ++i)
    if (s.demo_at(i).title().size() > longest_title.size()) longest_title = s.demo_at(i).title();
  width(longest_title);
  if (ImGui::BeginCombo("demo", std::string(s.demo_at(s.index()).title()).c_str())) {
    for (size_t i = 0; i < s.demo_count(); ++i) {
      if (ImGui::Selectable(std::string(s.demo_at(i).title()).c_str(), i == s.index())) select_demo(i);
      if (i < 9) {
        ImGui::SameLine();
        ImGui::TextDisabled("%zu", i + 1);
      }
    }
    ImGui::EndCombo();
  }
  Demo* d = s.demo();
  if (!d) {
    // The demo could not start: say why, keep the picker, offer another try.
    ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Error));
    ImGui::TextWrapped("%s", s.attach_error().c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("try again")) s.attach_current();
    return;
  }
  // One variant picker (with each lesson) and block picker per stage.
  const std::vector<Stage> stages = d->stages();
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
        if (ImGui::Selectable(label.c_str(), v.id == cur.id, flags))
          s.choose_variant(si, static_cast<int>(vi));
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
          if (ImGui::Selectable(label(b).c_str(), b == st.block)) s.choose_block(si, b);
        ImGui::EndCombo();
      }
    }
    ImGui::PopID();
  }
}

void App::draw_controls(Frame& f) {
  draw_pickers(f, false);
  if (!session_->demo()) return;
  if (ImGui::Button("speed-up ladder (F5)")) element<presenter::LadderElement>()->start(*session_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the speed-up ladder: every variant on a copy of this input, verified, timed and charted");
  // Play / pause / step / reset, speed.
  presenter::Playback& pb = session_->playback();
  if (ImGui::Button(pb.playing ? "pause" : "play")) pb.playing = !pb.playing;
  ImGui::SameLine();
  if (ImGui::Button("step")) {
    pb.playing = false;
    pb.step_once = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("reset")) pb.reset = true;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120 * f.ui_scale);
  if (ImGui::InputInt("steps/frame", &pb.steps_per_frame))
    pb.steps_per_frame = std::clamp(pb.steps_per_frame, 1, 1 << 16);
  if (!platform_->headless()) {
    if (ImGui::Checkbox("vsync", &view_.vsync)) platform_->set_vsync(view_.vsync);
    ImGui::SameLine();
  }
  // Screenshots.
  if (ImGui::Button("screenshot (F12)")) shots_.pending = true;
  ImGui::SameLine();
  ImGui::Checkbox("with UI", &shots_.with_ui);
  ImGui::SameLine();
  ImGui::Checkbox("caption", &view_.caption);
  // Clips (F9): the view only, unless this is ticked.
  if (auto* r = element<presenter::RecorderElement>()) {
    bool clip_ui = r->with_ui();
    if (ImGui::Checkbox("clips (F9) with UI", &clip_ui)) r->set_with_ui(clip_ui);
  }
}

float App::caption_px() const {
  // At least 28 px at 1080p (a projector's back row), never below the UI's text.
  // (Window points: 28 x (points tall / 1080) is 28 x (pixels tall / 1080) pixels at any DPI.)
  return std::max(ImGui::GetFontSize(), 28.0f * ImGui::GetIO().DisplaySize.y / 1080.0f);
}

void App::draw_caption(const presenter::Rect& r) {
  Demo* d = session_->demo();
  if (!d) return;
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const std::string text = d->caption();
  const float pad = 6.0f;
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), IM_COL32(0, 0, 0, 200));
  const ImVec4 clip(r.x0, r.y0, r.x1, r.y1);
  // Large text from the HUD's large face (crisp when scaled down), the UI's at the UI's size.
  const float px = caption_px();
  const ui::Fonts& fonts = appearance_.fonts();
  ImFont* font = fonts.hud && px > ImGui::GetFontSize() * 1.1f ? fonts.hud : ImGui::GetFont();
  dl->AddText(font, px, ImVec2(r.x0 + pad, r.y0 + pad), IM_COL32(255, 255, 255, 255), text.c_str(), nullptr,
              0.0f, &clip);
}

void App::draw_ui(Frame& f, const presenter::Rect& region) {
  ShellSession& s = *session_;
  Demo* d = s.demo();
  report_.sections.clear();
  const ImGuiWindowFlags docked =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  if (view_.compact && region.width() <= presenter::kCollapsedPanelW * f.ui_scale + 1) {
    // Folded while the mouse rests: a strip (narrower than any window ImGui draws) that moving the
    // mouse opens.
    ImGui::GetBackgroundDrawList()->AddRectFilled(ImVec2(region.x0, region.y0), ImVec2(region.x1, region.y1),
                                                  ImGui::GetColorU32(ImGuiCol_WindowBg));
    presenter::LayoutReport& l = report_;
    l.drawn = true;
    l.compact = true;
    l.x = region.x0, l.y = region.y0, l.w = region.width(), l.h = region.height();
    l.inner_x0 = l.x, l.inner_y0 = l.y, l.inner_x1 = region.x1, l.inner_y1 = region.y1;
    l.work_x1 = l.content_x1 = region.x1;
    l.content_y1 = region.y0;
    l.scrollbar_x = l.scrollbar_y = false;
    record_appearance();
    return;
  }
  // Docked: the layout's panel region, every frame (its content scrolls).
  ImGui::SetNextWindowPos(ImVec2(region.x0, region.y0), ImGuiCond_Always);
  if (view_.compact) {
    // The pickers alone, as wide as they need (the layout keeps it within its share).
    ImGui::SetNextWindowSize(ImVec2(region.width(), region.height()), ImGuiCond_Always);
    ImGui::Begin("gpulab##compact", nullptr, docked | ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::BeginGroup();
    draw_pickers(f, true);
    ImGui::TextDisabled("F7: leave projector mode");
    ImGui::EndGroup();
    view_.compact_w =
        ImGui::GetItemRectSize().x + 2 * ImGui::GetStyle().WindowPadding.x + ImGui::GetStyle().ScrollbarSize;
    record_panel(true);
    ImGui::End();
    return;
  }
  ImGui::SetNextWindowSize(ImVec2(region.width(), region.height()), ImGuiCond_Always);
  // No horizontal scrolling: ImGui widens a window's work area to last frame's content when it may
  // scroll sideways, so stretched tables and wrapped text would never shrink back into view.
  // Held to its share of the screen at a large UI scale, it scrolls sideways too.
  const bool narrowed = region.width() < 500 * f.ui_scale - 1;
  ImGui::Begin("gpulab", nullptr, docked | (narrowed ? ImGuiWindowFlags_HorizontalScrollbar : 0));
  push_wrap_at_visible_edge();  // the status, lessons, reasons (not tables: their columns clip)
  draw_status();
  draw_controls(f);
  ImGui::PopTextWrapPos();
  ImGui::Separator();
  ui::PanelInputs in;
  in.series = s.timings().series();
  in.timings = &s.timings();
  in.frame_ms = &clock_.frame_ms;
  if (d) {
    in.throughput = d->throughput();
    in.kernels = d->kernels();
  }
  const Context& ctx = s.context();
  in.peak_bandwidth_gbps = ctx.peak_bandwidth_gbps;
  in.peak_fp32_gflops = ctx.peak_fp32_gflops;
  in.device = s.device();
  in.cpu_only_reason = ctx.cuda ? std::string() : ctx.cuda_reason;
  in.gl_renderer = platform_->info().gl_renderer + " — " + platform_->info().gl_version;
  // The shared sections as tabs right under the pickers, so that every one of them is one click
  // away at any panel height (Timings open); then the demo's own controls. The elements' tabs (the
  // counters, the lesson) go among them.
  auto& secs = report_.sections;
  auto element_tab = [&](std::string_view name) {
    for (auto& e : elements_) {
      if (e->name() != name || !e->tab()) continue;
      if (tab(secs, e->tab(), e->tab_to_front() ? ImGuiTabItemFlags_SetSelected : 0)) {
        if (name == presenter::LessonElement::kName && !store_.settings.hint_used) {
          store_.settings.hint_used = true;  // the first start's hint has done its work
          store_.dirty = true;
        }
        push_wrap_at_visible_edge();
        e->tab_ui(s);
        ImGui::PopTextWrapPos();
        ImGui::EndTabItem();
      }
    }
  };
  if (ImGui::BeginTabBar("sections", ImGuiTabBarFlags_FittingPolicyResizeDown)) {
    if (tab(secs, "Timings")) {
      ui::timings_section(in);
      // How the frames fared while the ladder measured (on stderr too; never a toast over its toolbar).
      if (const auto* ladder = element<presenter::LadderElement>(); ladder && ladder->view())
        if (const std::string& line = ladder->view()->measured_line(); !line.empty())
          ImGui::TextDisabled("%s", line.c_str());
      ImGui::EndTabItem();
    }
    if (tab(secs, "Occupancy")) {
      occupancy_.draw(in);
      ImGui::EndTabItem();
    }
    element_tab(presenter::CountersElement::kName);
    if (tab(secs, "Device")) {
      if (!s.gpu_lost().empty()) {
        // After a GPU fault the demo runs on the CPU. The CUDA driver gives a faulted context back
        // only with its process (cudaDeviceReset and a new context in the same process are refused).
        ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Warning));
        ImGui::TextWrapped("The GPU failed (%s); the demo runs on the CPU.", s.gpu_lost().c_str());
        ImGui::PopStyleColor();
        ImGui::TextWrapped(
            "The CUDA driver gives a faulted GPU back only to a new process: start gpulab "
            "again to use it (the settings and the lesson's file are kept). On some machines (an H100 "
            "with driver 580) a fault leaves the GPU unusable for OpenGL until the computer restarts: "
            "if gpulab then shows 0 ms GPU times or does not end, restart the computer.");
      }
      ui::device_section(in);
      ImGui::EndTabItem();
    }
    if (tab(secs, "View")) {
      draw_view_controls();
      ImGui::EndTabItem();
    }
    element_tab(presenter::LessonElement::kName);
    ImGui::EndTabBar();
  }
  if (d && section(secs, std::string(d->title()), true)) {
    // While A/B runs, a change to one half's own settings would make the halves differ in more than
    // their variant: the demo's own controls wait until it ends.
    if (element<presenter::AbElement>()->running())
      ImGui::TextWrapped("A/B is running: the demo's own controls are off until it ends (F8).");
    else
      s.guarded("ui", [&] { d->ui(f); });
  }
  record_panel(false);
  ImGui::End();
}

void App::draw_status() {
  // The backend's line and the interop's: what holds for the whole session (notices are toasts).
  const Context& ctx = session_->context();
  if (!backend_banner_.empty()) {
    // The chip: green on a CUDA device, amber on the CPU backend; why in the Device tab.
    const ImVec4 ink = ui::tone(ctx.cuda ? ui::Tone::Good : ui::Tone::Warning);
    const std::string chip = ctx.cuda                        ? std::string("GPU · CUDA")
                             : !session_->gpu_lost().empty() ? std::string("CPU · the GPU failed")
                                                             : backend_banner_;
    ImGui::PushStyleColor(ImGuiCol_Text, ink);
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(ink.x, ink.y, ink.z, 0.15f));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(ink.x, ink.y, ink.z, 0.25f));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(ink.x, ink.y, ink.z, 0.25f));
    ImGui::SmallButton(chip.c_str());
    ImGui::PopStyleColor(4);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the Device tab says which device runs, or why none does");
    // Until they are used once (remembered in the settings): the three keys a first start needs.
    if (!store_.path.empty() && !store_.settings.hint_used) {
      ImGui::SameLine();
      ImGui::TextDisabled("F1 keys · Lesson tab · F7 projector");
    }
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ui::tone(ui::Tone::Warning));
  if (ctx.cuda && !ctx.interop) ImGui::TextWrapped("host-copy display: %s", ctx.interop_reason.c_str());
  ImGui::PopStyleColor();
}

}  // namespace gpulab

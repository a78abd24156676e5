// The App's presentation state (UI scale, theme, projector mode) and the per-user settings: read when
// a window run starts, the command line over them, written when changed (at most once a second) and
// when the app exits normally. Headless runs neither read nor write them.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/text.h"
#include "platform/platform.h"
#include "shell/app.h"
#include "ui/theme.h"

namespace gpulab {
namespace {
double seconds_now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

void App::load_settings_for_run() {
  // A headless run is a reproducible capture: it depends on its command line alone.
  std::string why;
  const std::filesystem::path path = settings_path(&why);
  if (options_.reset_settings && !path.empty()) {
    if (const std::string err = forget_settings(path); !err.empty())
      notify(err);
    else if (!options_.headless)
      notify("settings forgotten (--reset-settings)");
  }
  if (!options_.headless) {
    settings_path_ = path;
    if (path.empty()) {
      notify(why);
    } else if (!options_.reset_settings) {
      SettingsLoad loaded = load_settings(path);
      for (const std::string& p : loaded.problems) notify("settings: " + p);
      settings_ = loaded.settings;
      // Written only when something changes, and then patched (save_settings): a rejected line stays
      // for the user to see and fix. A file gpulab could not read is never written.
      settings_on_disk_ = loaded.settings;
      if (!loaded.readable) {
        notify("settings: " + text::quote(path.string()) +
               " is left as it is; changes made now last for this session only");
        settings_path_.clear();
      }
    }
    if (options_.reset_settings) settings_dirty_ = true;
    if (!options_.size_given) {
      options_.width = settings_.window_width;
      options_.height = settings_.window_height;
    }
    // The last demo, unless the command line chose one or gave options of the default one.
    const bool chose = options_.demo_given || options_.demo_options_given || !options_.variants.empty() ||
                       !options_.blocks.empty() || !options_.image.empty() || !options_.save_image.empty() ||
                       options_.steps >= 0;
    if (!chose && !settings_.last_demo.empty()) {
      bool known = false;
      for (const auto& d : demos_) known = known || d->name() == settings_.last_demo;
      if (known)
        options_.demo = settings_.last_demo;
      else
        notify("settings: the last demo " + text::quote(settings_.last_demo) + " is not one of this build's");
    }
  }
  chosen_scale_ = options_.ui_scale ? options_.ui_scale : settings_.ui_scale;
  theme_ = settings_.theme;
  hud_ = settings_.hud;
}

void App::save_settings_if_due(bool at_exit) {
  if (settings_path_.empty()) return;
  const double t = seconds_now();
  if (!at_exit && (!settings_dirty_ || t - settings_saved_at_ < 1.0)) return;
  if (at_exit && settings_ == settings_on_disk_ && !settings_dirty_) return;
  settings_saved_at_ = t;
  settings_dirty_ = false;
  if (settings_ == settings_on_disk_ && !at_exit) return;
  if (const std::string err = save_settings(settings_path_, settings_); !err.empty()) {
    notify(err);
    settings_path_.clear();  // said once: the rest of the session keeps them in memory only
    return;
  }
  settings_on_disk_ = settings_;
}

float App::ui_scale() const {
  return ui::clamp_scale(chosen_scale_.value_or(platform_ ? platform_->content_scale() : 1.0f));
}

void App::set_ui_scale(std::optional<float> chosen) {
  chosen_scale_ = chosen ? std::optional<float>(ui::clamp_scale(*chosen)) : std::nullopt;
  settings_.ui_scale = chosen_scale_;
  settings_dirty_ = true;
}

void App::set_theme(Theme theme) {
  theme_ = theme;
  settings_.theme = theme;
  settings_dirty_ = true;
}

void App::set_projector(bool on) {
  // Projector mode is for this session: what it changes is put back when it ends, and not saved.
  if (on == projector_.has_value()) return;
  platform::Platform& pf = *platform_;
  if (on) {
    projector_ = ProjectorRestore{chosen_scale_, theme_, hud_, compact_panel_, pf.fullscreen()};
    chosen_scale_ = 2.0f;
    theme_ = Theme::Light;
    hud_ = true;
    compact_panel_ = true;
    ui_visible_ = true;
    pf.set_fullscreen(true);
  } else {
    const ProjectorRestore r = *projector_;
    projector_.reset();
    chosen_scale_ = r.scale;
    theme_ = r.theme;
    hud_ = r.hud;
    compact_panel_ = r.compact;
    pf.set_fullscreen(r.fullscreen);
  }
}

void App::draw_view_controls() {
  // UI scale, theme, projector mode: also on keys, named here so that nobody has to remember them.
  char cur[32];
  std::snprintf(cur, sizeof cur, "%.2gx%s", static_cast<double>(ui_scale()),
                chosen_scale_ ? "" : " (display)");
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("0.75x (display)").x + ImGui::GetFrameHeight() * 2);
  if (ImGui::BeginCombo("UI scale", cur)) {
    for (float s : ui::kScaleSteps) {
      char label[16];
      std::snprintf(label, sizeof label, "%.2gx", static_cast<double>(s));
      if (ImGui::Selectable(label, chosen_scale_ && *chosen_scale_ == s)) set_ui_scale(s);
    }
    if (ImGui::Selectable("the display's (Ctrl+0)", !chosen_scale_)) set_ui_scale(std::nullopt);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+= larger, Ctrl+- smaller, Ctrl+0 the display's scale");
  int theme = theme_ == Theme::Light ? 1 : 0;
  ImGui::TextUnformatted("theme (F6)");
  ImGui::SameLine();
  if (ImGui::RadioButton("dark", &theme, 0)) set_theme(Theme::Dark);
  ImGui::SameLine();
  if (ImGui::RadioButton("light, high contrast", &theme, 1)) set_theme(Theme::Light);
  bool hud = hud_;
  if (ImGui::Checkbox("heads-up display (F2)", &hud)) {
    hud_ = hud;
    if (!projector_) {
      settings_.hud = hud_;
      settings_dirty_ = true;
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("time per step, speed-up over the CPU and %% of peak in large digits");
  bool projector = projector_.has_value();
  if (ImGui::Checkbox("projector mode (F7)", &projector)) set_projector(projector);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "fullscreen, light theme, UI scale 2, the panel reduced to the pickers; F7 again to leave");
  if (!settings_path_.empty())
    ImGui::TextDisabled("saved in %s", text::escape(settings_path_.string()).c_str());
}

void App::record_layout() {
  // Called inside the panel window, after everything in it was laid out.
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  PanelLayout& l = layout_;
  const ImGuiIO& io = ImGui::GetIO();
  l.drawn = true;
  l.display_w = io.DisplaySize.x;
  l.display_h = io.DisplaySize.y;
  l.x = w->Pos.x;
  l.y = w->Pos.y;
  l.w = w->Size.x;
  l.h = w->Size.y;
  l.inner_x0 = w->InnerRect.Min.x;
  l.inner_y0 = w->InnerRect.Min.y;
  l.inner_x1 = w->InnerRect.Max.x;
  l.inner_y1 = w->InnerRect.Max.y;
  l.work_x1 = w->WorkRect.Max.x;
  l.content_x1 = w->DC.CursorMaxPos.x;
  l.content_y1 = w->DC.CursorMaxPos.y;
  l.scrollbar_x = w->ScrollbarX;
  l.scrollbar_y = w->ScrollbarY;
  l.compact = compact_panel_;
  const ui::Fonts& f = appearance_.fonts();
  l.ui_scale = appearance_.scale();
  l.font_px = f.ui ? f.ui->FontSize : 0.0f;
  l.font_global_scale = io.FontGlobalScale;
  l.hud_px = f.hud ? f.hud->FontSize : 0.0f;
  const ImFontGlyph* zero = f.hud ? f.hud->FindGlyphNoFallback('0') : nullptr;
  l.hud_digit_px = zero ? zero->Y1 - zero->Y0 : 0.0f;
  l.truetype = f.truetype;
  l.theme = theme_name(theme_);
}

bool App::write_layout_report(const std::filesystem::path& path) const {
  const PanelLayout& l = layout_;
  nlohmann::json j = {{"drawn", l.drawn},
                      {"display", {l.display_w, l.display_h}},
                      {"window", {l.x, l.y, l.w, l.h}},
                      {"inner", {l.inner_x0, l.inner_y0, l.inner_x1, l.inner_y1}},
                      {"work_x1", l.work_x1},
                      {"content", {l.content_x1, l.content_y1}},
                      {"scrollbar_x", l.scrollbar_x},
                      {"scrollbar_y", l.scrollbar_y},
                      {"compact", l.compact},
                      {"ui_scale", l.ui_scale},
                      {"font_px", l.font_px},
                      {"base_font_px", ui::kBaseFontPx},
                      {"font_global_scale", l.font_global_scale},
                      {"hud_px", l.hud_px},
                      {"hud_digit_px", l.hud_digit_px},
                      {"truetype", l.truetype},
                      {"theme", l.theme}};
  nlohmann::json sections = nlohmann::json::array();
  for (const auto& s : l.sections) sections.push_back({{"name", s.name}, {"y0", s.y0}, {"y1", s.y1}});
  j["sections"] = sections;
  j["hud"] = {{"shown", l.hud.shown},
              {"box", {l.hud.x0, l.hud.y0, l.hud.x1, l.hud.y1}},
              {"view", {l.hud.view_x0, l.hud.view_x1, l.hud.view_y1}},
              {"title", l.hud.title},
              {"values", l.hud.values},
              {"captions", l.hud.captions}};
  const PanelLayout::LessonShown& ls = l.lesson;
  j["lesson"] = {{"running", ls.running},
                 {"step", ls.step},
                 {"steps", ls.steps},
                 {"title", ls.title},
                 {"progress", ls.progress},
                 {"caption", ls.caption},
                 {"problem", ls.problem},
                 {"demo", ls.demo},
                 {"variants", ls.variants},
                 {"caption_band", {ls.caption_y0, ls.caption_y1}},
                 {"notes_shown", ls.notes_shown}};
  const presenter::CodePanelShown& c = l.code;
  j["code"] = {{"shown", c.shown},     {"box", {c.x0, c.y0, c.x1, c.y1}},
               {"variant", c.variant}, {"previous", c.previous},
               {"snippet", c.snippet}, {"lines", c.lines},
               {"changed", c.changed}, {"sass", c.sass}};
  j["recording"] = l.recording;
  j["counters"] = {{"tab_open", l.counters.tab_open},
                   {"unavailable", l.counters.unavailable},
                   {"meters", l.counters.meters},
                   {"meter_samples", l.counters.meter_samples},
                   {"meter_span_s", l.counters.meter_span_s},
                   {"measured", l.counters.measured}};
  j["ab"] = {{"shown", l.ab.shown},       {"a", l.ab.variant_a},           {"b", l.ab.variant_b},
             {"ratio", l.ab.ratio},       {"ratio_text", l.ab.ratio_text}, {"time_a", l.ab.time_a},
             {"time_b", l.ab.time_b},     {"split_x", l.ab.split_x},       {"view", {l.ab.x0, l.ab.x1}},
             {"label_y1", l.ab.label_y1}, {"ratio_y1", l.ab.ratio_y1}};
  j["help"] = {{"shown", l.help.shown},
               {"box", {l.help.x0, l.help.y0, l.help.x1, l.help.y1}},
               {"keys", l.help.keys},
               {"scrolls", l.help.scroll_y}};
  const std::string err = files::write_regular_file(path, j.dump(2) + "\n");
  if (!err.empty()) std::fprintf(stderr, "gpulab: --layout-report: %s\n", err.c_str());
  return err.empty();
}

}  // namespace gpulab

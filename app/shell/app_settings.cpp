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
#include "presenter/elements.h"
#include "shell/app.h"
#include "shell/presenter_window.h"
#include "shell/session.h"
#include "ui/theme.h"

namespace gpulab {

PresenterWindow::KeyCallback app_key_callback();  // app.cpp: the app's key queue
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
      session_->notify(err);
    else if (!options_.headless)
      session_->notify("settings forgotten (--reset-settings)");
  }
  bool first_start = options_.reset_settings;
  if (!options_.headless) {
    store_.path = path;
    if (path.empty()) {
      session_->notify(why);
    } else if (!options_.reset_settings) {
      SettingsLoad loaded = load_settings(path);
      first_start = !loaded.found;
      for (const std::string& p : loaded.problems) session_->notify("settings: " + p);
      store_.settings = loaded.settings;
      // Written only when something changes, and then patched (save_settings): a rejected line stays
      // for the user to see and fix. A file gpulab could not read is never written.
      store_.on_disk = loaded.settings;
      if (!loaded.readable) {
        session_->notify("settings: " + text::quote(path.string()) +
                         " is left as it is; changes made now last for this session only");
        store_.path.clear();
      }
    }
    if (options_.reset_settings) store_.dirty = true;
    if (!options_.size_given) {
      options_.width = store_.settings.window_width;
      options_.height = store_.settings.window_height;
      // A first start (no settings yet): the window fills the monitor's work area (0 x 0 asks for it).
      if (first_start) options_.width = options_.height = 0;
    }
    // The last demo, unless the command line chose one or gave options of the default one.
    const bool chose = options_.demo_given || options_.demo_options_given || !options_.variants.empty() ||
                       !options_.blocks.empty() || !options_.image.empty() || !options_.save_image.empty() ||
                       options_.steps >= 0;
    if (!chose && !store_.settings.last_demo.empty()) {
      bool known = false;
      for (size_t i = 0; i < session_->demo_count(); ++i)
        known = known || session_->demo_at(i).name() == store_.settings.last_demo;
      if (known)
        options_.demo = store_.settings.last_demo;
      else
        session_->notify("settings: the last demo " + text::quote(store_.settings.last_demo) +
                         " is not one of this build's");
    }
  }
  view_.chosen_scale = options_.ui_scale ? options_.ui_scale : store_.settings.ui_scale;
  // The keys remapped in the settings ([keys]), checked against the shell's and every demo's keys.
  std::vector<KeyBinding> demo_keys;
  for (size_t i = 0; i < session_->demo_count(); ++i) {
    const std::vector<KeyBinding> own = session_->demo_at(i).keys();
    demo_keys.insert(demo_keys.end(), own.begin(), own.end());
  }
  for (const std::string& p : set_key_remaps(store_.settings.keys, demo_keys))
    session_->notify("settings: keys: " + p);
  view_.theme = store_.settings.theme;
  element<presenter::HudElement>()->set_on(store_.settings.hud);
}

void App::save_settings_if_due(bool at_exit) {
  if (store_.path.empty()) return;
  const double t = seconds_now();
  if (!at_exit && (!store_.dirty || t - store_.saved_at < 1.0)) return;
  if (at_exit && store_.settings == store_.on_disk && !store_.dirty) return;
  store_.saved_at = t;
  store_.dirty = false;
  if (store_.settings == store_.on_disk && !at_exit) return;
  if (const std::string err = save_settings(store_.path, store_.settings); !err.empty()) {
    session_->notify(err);
    store_.path.clear();  // said once: the rest of the session keeps them in memory only
    return;
  }
  store_.on_disk = store_.settings;
}

float App::ui_scale() const {
  return ui::clamp_scale(view_.chosen_scale.value_or(platform_ ? platform_->content_scale() : 1.0f));
}

void App::set_ui_scale(std::optional<float> chosen) {
  view_.chosen_scale = chosen ? std::optional<float>(ui::clamp_scale(*chosen)) : std::nullopt;
  store_.settings.ui_scale = view_.chosen_scale;
  store_.dirty = true;
}

void App::set_theme(Theme theme) {
  view_.theme = theme;
  store_.settings.theme = theme;
  store_.dirty = true;
}

void App::set_projector(bool on) {
  // Projector mode is for this session: what it changes is put back when it ends, and not saved.
  if (on == view_.projector.has_value()) return;
  platform::Platform& pf = *platform_;
  if (on) {
    presenter::HudElement* hud = element<presenter::HudElement>();
    view_.projector =
        View::ProjectorRestore{view_.chosen_scale, view_.theme, hud->on(), view_.compact, pf.fullscreen()};
    view_.chosen_scale =
        options_.ui_scale ? options_.ui_scale : std::optional<float>(2.0f);  // --ui-scale wins
    view_.theme = Theme::Light;
    hud->set_on(true);
    view_.compact = true;
    view_.ui_visible = true;
    // Full-screen on the projector; with two monitors (or --presenter-window) the presenter's window
    // on the other (platform/monitors.h).
    const std::vector<platform::Monitor> monitors = pf.monitors();
    int x = 0, y = 0, w = 0, h = 0;
    pf.window_rect(&x, &y, &w, &h);
    const int chosen = options_.monitor ? *options_.monitor : store_.settings.monitor.value_or(-1);
    const platform::Placement p = platform::place_windows(monitors, x, y, w, h, chosen);
    if (!p.note.empty() && !monitors.empty()) session_->notify("projector mode: " + p.note);
    if ((p.presenter >= 0 || options_.presenter_window) && !pf.headless()) {
      std::string why;
      presenter_ = PresenterWindow::open(pf, p.presenter, app_key_callback(), &why);
      if (!presenter_) session_->notify("no presenter's window: " + why);
    }
    if (p.projected >= 0)
      pf.set_fullscreen_on(p.projected);
    else
      pf.set_fullscreen(true);
  } else {
    presenter_.reset();
    const View::ProjectorRestore r = *view_.projector;
    view_.projector.reset();
    view_.chosen_scale = r.scale;
    view_.theme = r.theme;
    element<presenter::HudElement>()->set_on(r.hud);
    view_.compact = r.compact;
    pf.set_fullscreen(r.fullscreen);
  }
}

void App::draw_view_controls() {
  // UI scale, theme, projector mode: also on keys, named here so that nobody has to remember them.
  char cur[32];
  std::snprintf(cur, sizeof cur, "%.2gx%s", static_cast<double>(ui_scale()),
                view_.chosen_scale ? "" : " (display)");
  const bool held = appearance_.scale() < appearance_.asked() - 1e-3f;
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("0.75x (display)").x + ImGui::GetFrameHeight() * 2);
  if (ImGui::BeginCombo("UI scale", cur)) {
    for (float s : ui::kScaleSteps) {
      char label[16];
      std::snprintf(label, sizeof label, "%.2gx", static_cast<double>(s));
      if (ImGui::Selectable(label, view_.chosen_scale && *view_.chosen_scale == s)) set_ui_scale(s);
    }
    if (ImGui::Selectable("the display's (Ctrl+0)", !view_.chosen_scale)) set_ui_scale(std::nullopt);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+= larger, Ctrl+- smaller, Ctrl+0 the display's scale");
  if (held)  // a short window: the text is held to a share of its height (ui::fit_scale)
    ImGui::TextDisabled("%.2gx on this window's %d-px height", static_cast<double>(appearance_.scale()),
                        platform_ ? platform_->framebuffer_height() : 0);
  int theme = view_.theme == Theme::Light ? 1 : 0;
  ImGui::TextUnformatted("theme (F6)");
  ImGui::SameLine();
  if (ImGui::RadioButton("dark", &theme, 0)) set_theme(Theme::Dark);
  ImGui::SameLine();
  if (ImGui::RadioButton("light, high contrast", &theme, 1)) set_theme(Theme::Light);
  presenter::HudElement* hud_element = element<presenter::HudElement>();
  bool hud = hud_element->on();
  if (ImGui::Checkbox("heads-up display (F2)", &hud)) {
    hud_element->set_on(hud);
    if (!view_.projector) {
      store_.settings.hud = hud;
      store_.dirty = true;
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("time per step, speed-up over the CPU and %% of peak in large digits");
  bool projector = view_.projector.has_value();
  if (ImGui::Checkbox("projector mode (F7)", &projector)) set_projector(projector);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "fullscreen, light theme, UI scale 2, the panel reduced to the pickers; F7 again to leave");
  if (!store_.path.empty()) ImGui::TextDisabled("saved in %s", text::escape(store_.path.string()).c_str());
}

void App::record_panel(bool compact) {
  // Called inside the panel window, after everything in it was laid out.
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  PanelLayout& l = report_;
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
  l.compact = compact;
  record_appearance();
}

void App::record_appearance() {
  PanelLayout& l = report_;
  const ImGuiIO& io = ImGui::GetIO();
  l.display_w = io.DisplaySize.x;
  l.display_h = io.DisplaySize.y;
  const ui::Fonts& f = appearance_.fonts();
  l.ui_scale = appearance_.scale();
  l.ui_scale_asked = appearance_.asked();
  l.font_px = f.ui ? f.ui->FontSize : 0.0f;
  l.font_global_scale = io.FontGlobalScale;
  l.hud_px = f.hud ? f.hud->FontSize : 0.0f;
  const ImFontGlyph* zero = f.hud ? f.hud->FindGlyphNoFallback('0') : nullptr;
  l.hud_digit_px = zero ? zero->Y1 - zero->Y0 : 0.0f;
  l.truetype = f.truetype;
  l.theme = theme_name(view_.theme);
}

bool App::write_layout_report(const std::filesystem::path& path) const {
  const PanelLayout& l = report_;
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
                      {"ui_scale_asked", l.ui_scale_asked},
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
  j["code"]["font_px"] = c.font_px;
  j["code"]["rows"] = c.rows;
  j["code"]["mark_y"] = c.mark_y;
  j["code"]["stages_x1"] = c.stages_x1;
  j["recording"] = l.recording;
  nlohmann::json regions = nlohmann::json::object();
  for (const auto& [name, r] : l.screen.regions()) regions[name] = {r.x0, r.y0, r.x1, r.y1};
  if (!l.screen.ab[0].empty())
    regions["ab"] = {{l.screen.ab[0].x0, l.screen.ab[0].y0, l.screen.ab[0].x1, l.screen.ab[0].y1},
                     {l.screen.ab[1].x0, l.screen.ab[1].y0, l.screen.ab[1].x1, l.screen.ab[1].y1}};
  j["regions"] = regions;
  j["toasts"] = {{"shown", l.toasts.shown},
                 {"box", {l.toasts.x0, l.toasts.y0, l.toasts.x1, l.toasts.y1}},
                 {"lines", l.toasts.lines}};
  j["blanked"] = l.blanked;
  j["ladder"] = l.ladder;
  j["ladder_chart"] = {{"style", l.ladder_chart.style},
                       {"recorded", l.ladder_chart.recorded},
                       {"bars", l.ladder_chart.bars},
                       {"recorded_bars", l.ladder_chart.recorded_bars},
                       {"recorded_rungs", l.ladder_chart.recorded_rungs},
                       {"footnote", l.ladder_chart.footnote}};
  j["pointer"] = {{"shown", l.pointer.shown},
                  {"at", {l.pointer.x, l.pointer.y}},
                  {"radius", l.pointer.radius},
                  {"from", l.pointer.from}};
  j["presenter"] = {{"shown", l.presenter.shown},
                    {"monitor", l.presenter.monitor},
                    {"notes_shown", l.presenter.notes_shown},
                    {"blanked", l.presenter.blanked},
                    {"pad", {l.presenter.pad_x0, l.presenter.pad_y0, l.presenter.pad_x1, l.presenter.pad_y1}},
                    {"next", l.presenter.next},
                    {"clock", l.presenter.clock}};
  j["running"] = l.running;
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
  j["ab"]["label_x1"] = {l.ab.label_x1[0], l.ab.label_x1[1]};
  j["ab"]["ratio_box"] = {l.ab.ratio_x0, l.ab.ratio_x1};
  // What the demo drew over its view on the last frame (the magnifier, the tile overlay): boxes in
  // window points as the regions are, line widths and text sizes in framebuffer pixels.
  nlohmann::json marks = nlohmann::json::array();
  if (const Demo* d = session_ ? session_->demo() : nullptr) {
    ImVec2 fs(1, 1);
    if (ImGui::GetCurrentContext()) fs = ImGui::GetIO().DisplayFramebufferScale;
    const float sx = fs.x > 0 ? fs.x : 1.0f, sy = fs.y > 0 ? fs.y : 1.0f;
    for (const ViewMark& m : d->view_marks())
      marks.push_back({{"name", m.name},
                       {"box", {m.x0 / sx, m.y0 / sy, m.x1 / sx, m.y1 / sy}},
                       {"line_px", m.line_px},
                       {"text_px", m.text_px}});
  }
  j["view_marks"] = marks;
  j["help"] = {{"shown", l.help.shown},
               {"box", {l.help.x0, l.help.y0, l.help.x1, l.help.y1}},
               {"keys", l.help.keys},
               {"scrolls", l.help.scroll_y}};
  const std::string err = files::write_regular_file(path, j.dump(2) + "\n");
  if (!err.empty()) std::fprintf(stderr, "gpulab: --layout-report: %s\n", err.c_str());
  return err.empty();
}

}  // namespace gpulab

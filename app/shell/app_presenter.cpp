// The App's presenter overlays: the heads-up display (F2) and the list of keys (F1 / ?).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/keymap.h"
#include "presenter/ladder.h"
#include "presenter/ladder_view.h"
#include "shell/app.h"

namespace gpulab {

presenter::HudBox App::view_box(const Frame& f, bool above_lesson_band) const {
  const ImGuiIO& io = ImGui::GetIO();
  presenter::HudBox view;
  view.x0 = static_cast<float>(f.inset_left) / std::max(io.DisplayFramebufferScale.x, 1e-3f);
  view.x1 = io.DisplaySize.x;
  view.y0 = 0;
  view.y1 = io.DisplaySize.y - (caption_ ? ImGui::GetFontSize() + 12.0f : 0.0f) -
            (above_lesson_band ? lesson_band_ : 0.0f);
  return view;
}

void App::draw_hud(const Frame& f) {
  const presenter::HudBox view = view_box(f);
  const ui::Fonts& fonts = appearance_.fonts();
  const presenter::HudReading& r = hud_view_.reading();
  const presenter::HudPlaced p = presenter::draw_hud(r, view, fonts.hud, fonts.ui, theme_ == Theme::Light);
  PanelLayout::Hud& h = layout_.hud;
  h.shown = true;
  h.x0 = p.box.x0;
  h.y0 = p.box.y0;
  h.x1 = p.box.x1;
  h.y1 = p.box.y1;
  h.view_x0 = view.x0;
  h.view_x1 = view.x1;
  h.view_y1 = view.y1;
  h.title = r.title;
  h.values.clear();
  h.captions.clear();
  for (size_t i = 0; i < p.items.size(); ++i) {
    h.values.push_back(r.figures[i].value);
    h.captions.push_back(r.figures[i].caption);
  }
}

void App::feed_hud_from_ladder() {
  // The ladder ran on the demo's current input, left unchanged: its CPU rung is the baseline of the
  // HUD's read-out, the first stage's when the read-out times that stage, the CPU pipeline's when it
  // times the whole pipeline.
  Demo& d = *demos_[demo_];
  const std::vector<Throughput> rows = d.throughput();
  if (rows.empty()) return;
  const bool pipeline = rows.front().whole_pipeline;
  const presenter::HudInput in = presenter::hud_input(d, timings_, ctx_);
  for (const presenter::Rung& r : ladder_->rungs()) {
    if (r.state != presenter::RungState::Measured) continue;
    const bool base =
        pipeline ? r.stage_id == "pipeline" && !r.gpu : in.baseline && same_variant(r.pick, *in.baseline);
    if (base) hud_view_.note_baseline(in.baseline_case, r.row.ms_median);
  }
}

void App::draw_help() {
  const ImGuiIO& io = ImGui::GetIO();
  // The clicker's keys are listed while a lesson runs, the only time they act (--help lists them always).
  std::vector<KeyBinding> keys;
  for (const KeyBinding& k : shell_keys())
    if (!k.lesson || lesson_) keys.push_back(k);
  if (attached_) {
    const std::vector<KeyBinding> own = demos_[demo_]->keys();
    keys.insert(keys.end(), own.begin(), own.end());
  }
  // Rows: one per action (F1 and ? share one), in groups, in two halves side by side, so that the
  // list fits the screen at a large UI scale.
  const std::vector<KeyRow> rows = key_rows(keys);
  const ImVec2 room(io.DisplaySize.x * 0.95f, io.DisplaySize.y * 0.95f);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), room);
  ImGui::SetNextWindowBgAlpha(1.0f);
  bool open = true;
  PanelLayout::Help& h = layout_.help;
  h.keys.clear();
  if (ImGui::Begin("Keys (F1 or ? to close)", &open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    // Each half as lines (a group's title, then its keys), drawn side by side in one table.
    struct Line {
      std::string keys;
      std::string_view what;
      bool title = false;
    };
    std::vector<Line> lines;
    std::vector<size_t> group_starts;
    std::string_view group;
    for (const KeyRow& r : rows) {
      if (r.group != group || lines.empty()) {
        group = r.group;
        group_starts.push_back(lines.size());
        lines.push_back({std::string(group), {}, true});
      }
      lines.push_back({r.keys, r.what, false});
      h.keys.push_back(r.keys);
    }
    // The right half starts at the group boundary nearest the middle (never a group cut in two).
    size_t cut = lines.size();
    for (size_t g : group_starts)
      if (g > 0 &&
          (cut == lines.size() || std::abs(2.0 * g - lines.size()) < std::abs(2.0 * cut - lines.size())))
        cut = g;
    std::vector<Line> half[2] = {std::vector<Line>(lines.begin(), lines.begin() + cut),
                                 std::vector<Line>(lines.begin() + cut, lines.end())};
    // The descriptions wrap at what the screen leaves them (a 3x UI on 1080p still fits).
    float keys_w[2] = {0, 0};
    for (int side = 0; side < 2; ++side)
      for (const Line& l : half[side])
        keys_w[side] =
            std::max(keys_w[side], ImGui::CalcTextSize(l.keys.c_str()).x);  // keys and group titles
    const ImGuiStyle& st = ImGui::GetStyle();
    const float chrome = 2 * st.WindowPadding.x + 8 * st.CellPadding.x + ImGui::GetFontSize() * 2;
    const float what_w = std::max(ImGui::GetFontSize() * 10, (room.x - chrome - keys_w[0] - keys_w[1]) / 2);
    if (ImGui::BeginTable("keys", 4, ImGuiTableFlags_SizingFixedFit)) {
      for (int side = 0; side < 2; ++side) {
        float longest = 0;
        for (const Line& l : half[side])
          if (!l.title)
            longest = std::max(longest, ImGui::CalcTextSize(l.what.data(), l.what.data() + l.what.size()).x);
        ImGui::TableSetupColumn(side ? "keys2" : "keys1", ImGuiTableColumnFlags_WidthFixed, keys_w[side]);
        ImGui::TableSetupColumn(side ? "what2" : "what1", ImGuiTableColumnFlags_WidthFixed,
                                std::min(longest, what_w) + (side ? 0 : ImGui::GetFontSize() * 2));
      }
      const size_t n = std::max(half[0].size(), half[1].size());
      for (size_t i = 0; i < n; ++i) {
        ImGui::TableNextRow();
        for (int side = 0; side < 2; ++side) {
          if (i >= half[side].size()) continue;
          const Line& l = half[side][i];
          ImGui::TableSetColumnIndex(side * 2);
          if (l.title) {
            ImGui::TextDisabled("%s", l.keys.c_str());
            continue;
          }
          ImGui::TextUnformatted(l.keys.c_str());
          ImGui::TableSetColumnIndex(side * 2 + 1);
          ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(what_w, ImGui::GetContentRegionAvail().x));
          ImGui::TextWrapped("%.*s", static_cast<int>(l.what.size()), l.what.data());
          ImGui::PopTextWrapPos();
        }
      }
      ImGui::EndTable();
    }
    h.shown = true;
    h.x0 = ImGui::GetWindowPos().x;
    h.y0 = ImGui::GetWindowPos().y;
    h.x1 = h.x0 + ImGui::GetWindowSize().x;
    h.y1 = h.y0 + ImGui::GetWindowSize().y;
    h.scroll_y = ImGui::GetScrollMaxY() > 0 || ImGui::GetScrollMaxX() > 0;
  }
  ImGui::End();
  if (!open) help_ = false;
}

}  // namespace gpulab

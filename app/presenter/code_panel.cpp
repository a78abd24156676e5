// The code panel (code_panel.h).
#include "presenter/code_panel.h"

#include <imgui.h>

#include <algorithm>

#include "common/text.h"

namespace gpulab::presenter {
namespace {

// The snippet's lines, each region after its "// FILE:LINE" header.
std::vector<CodeLine> lines_of(std::string_view snippet) {
  std::vector<CodeLine> out;
  for (const SourceRegion* r : find_snippet(snippet)) {
    out.push_back({"// " + std::string(r->file) + ":" + std::to_string(r->line), false, true});
    for (std::string_view l : text::split_lines(r->text)) out.push_back({std::string(l), false, false});
  }
  return out;
}

ImU32 colour(Token t, bool light) {
  switch (t) {
    case Token::Keyword:
      return light ? IM_COL32(0, 60, 170, 255) : IM_COL32(120, 170, 255, 255);
    case Token::Cuda:
      return light ? IM_COL32(150, 0, 120, 255) : IM_COL32(240, 130, 220, 255);
    case Token::Comment:
      return light ? IM_COL32(0, 120, 40, 255) : IM_COL32(120, 190, 120, 255);
    case Token::String:
      return light ? IM_COL32(160, 60, 0, 255) : IM_COL32(230, 170, 110, 255);
    case Token::Number:
      return light ? IM_COL32(120, 80, 0, 255) : IM_COL32(220, 210, 130, 255);
    case Token::Preprocessor:
      return light ? IM_COL32(100, 100, 100, 255) : IM_COL32(170, 170, 170, 255);
    case Token::Text:
      break;
  }
  return light ? IM_COL32(0, 0, 0, 255) : IM_COL32(230, 230, 230, 255);
}

void draw_source(const CodeView& v, const CodePanelCache& cache, bool light) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float h = ImGui::GetTextLineHeightWithSpacing();
  const ImU32 mark = light ? IM_COL32(255, 220, 120, 255) : IM_COL32(90, 70, 10, 255);
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(v.lines.size()), h);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const CodeLine& l = v.lines[static_cast<size_t>(i)];
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = std::max(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(l.text.c_str()).x);
      if (l.changed) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), mark);
      float x = p.x;
      for (const TokenSpan& t : cache.tokens(static_cast<size_t>(i))) {
        const char* b = l.text.data() + t.begin;
        const char* e = l.text.data() + t.end;
        dl->AddText(ImVec2(x, p.y), l.header ? colour(Token::Preprocessor, light) : colour(t.kind, light), b,
                    e);
        x += ImGui::CalcTextSize(b, e).x;
      }
      ImGui::Dummy(ImVec2(w, h));
    }
  }
}

}  // namespace

CodeView code_view(const Stage& stage) {
  CodeView v;
  if (stage.variants.empty()) return v;
  const size_t i = std::min(static_cast<size_t>(std::max(stage.variant, 0)), stage.variants.size() - 1);
  const VariantChoice& cur = stage.variants[i];
  v.variant = std::string(cur.id);
  v.snippet = std::string(cur.snippet);
  v.lines = lines_of(cur.snippet);
  for (const SourceRegion* r : find_snippet(cur.snippet))
    for (const KernelBuild& k : r->kernels) v.kernels.push_back(&k);
  if (i == 0) return v;
  const VariantChoice& prev = stage.variants[i - 1];
  v.previous = std::string(prev.id);
  v.same_as_previous = prev.snippet == cur.snippet;
  const std::vector<CodeLine> before = lines_of(prev.snippet);
  std::vector<std::string> a, b;
  for (const CodeLine& l : before)
    if (!l.header) a.push_back(l.text);
  for (const CodeLine& l : v.lines)
    if (!l.header) b.push_back(l.text);
  const std::vector<bool> changed = changed_lines(a, b);
  size_t k = 0;
  for (CodeLine& l : v.lines)
    if (!l.header) l.changed = changed[k++];
  return v;
}

const CodeView& CodePanelCache::view(size_t stage_index, const Stage& stage) {
  // The key: the rung shown and the one before it (what code_view reads of the stage).
  std::string key;
  if (!stage.variants.empty()) {
    const size_t i = std::min(static_cast<size_t>(std::max(stage.variant, 0)), stage.variants.size() - 1);
    for (size_t r = i > 0 ? i - 1 : i; r <= i; ++r)
      key.append(stage.variants[r].id).append("\n").append(stage.variants[r].snippet).append("\n");
  }
  if (made_ && stage_ == stage_index && key_ == key) return view_;
  made_ = true;
  stage_ = stage_index;
  key_ = std::move(key);
  view_ = code_view(stage);
  tokens_.clear();
  bool in_comment = false;
  for (const CodeLine& l : view_.lines) tokens_.push_back(highlight(l.text, &in_comment));
  return view_;
}

std::string resource_line(const KernelBuild& k) {
  if (k.regs < 0) {
    const std::string why = sass_unavailable();
    return std::string(k.name) + ": " + (why.empty() ? "not listed by cuobjdump" : why);
  }
  return std::string(k.name) + ": " + std::to_string(k.regs) + " registers, shared " +
         std::to_string(k.shared) + " B a block (static), local " + std::to_string(k.local) +
         " B (spills and local arrays), stack " + std::to_string(k.stack) + " B" +
         (k.instances > 1 ? " (first of " + std::to_string(k.instances) + " builds)" : "");
}

bool draw_code_panel(const std::vector<Stage>& stages, size_t* stage, CodePanelCache* cache, ImFont* mono,
                     bool light_theme, float x0, float y0, float x1, float y1, CodePanelShown* shown) {
  *shown = {};
  std::vector<size_t> active;
  for (size_t s = 0; s < stages.size(); ++s)
    if (stages[s].active) active.push_back(s);
  if (active.empty()) return true;
  if (std::find(active.begin(), active.end(), *stage) == active.end()) *stage = active.front();
  const Stage& st = stages[*stage];
  const CodeView& v = cache->view(*stage, st);
  ImGui::SetNextWindowPos(ImVec2(x0, y0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::max(x1 - x0, 100.0f), std::max(y1 - y0, 100.0f)), ImGuiCond_Always);
  bool open = true;
  const std::string title = "Code: " + v.variant + "###code";
  if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    if (active.size() > 1) {
      for (size_t s : active) {
        const Stage& a = stages[s];
        const std::string label = std::string(a.title) + ": " + std::string(a.current().id);
        if (ImGui::RadioButton(label.c_str(), s == *stage)) *stage = s;
        ImGui::SameLine();
      }
      ImGui::NewLine();
    }
    if (!v.previous.empty())
      ImGui::TextDisabled(v.same_as_previous
                              ? "the same code as the previous rung, %s (it differs in its launch or memory)"
                              : "marked: the lines that differ from the previous rung, %s",
                          v.previous.c_str());
    for (const KernelBuild* k : v.kernels) ImGui::TextWrapped("%s", resource_line(*k).c_str());
    bool any_sass = false;
    for (const KernelBuild* k : v.kernels) any_sass = any_sass || (k->sass && *k->sass);
    if (ImGui::BeginTabBar("code_tabs")) {
      if (ImGui::BeginTabItem("Source")) {
        ImGui::BeginChild("source", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
        if (mono) ImGui::PushFont(mono);
        if (v.lines.empty())
          ImGui::TextWrapped("no source region named %s was found at build time", v.snippet.c_str());
        draw_source(v, *cache, light_theme);
        if (mono) ImGui::PopFont();
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      if (ImGui::BeginTabItem("SASS")) {
        ImGui::BeginChild("sass", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
        if (mono) ImGui::PushFont(mono);
        if (v.kernels.empty())
          ImGui::TextWrapped("%s runs no CUDA kernel of ours: no SASS", v.variant.c_str());
        else if (!any_sass)
          ImGui::TextWrapped(
              "%s", *sass_unavailable() ? sass_unavailable() : "cuobjdump listed none of these kernels");
        for (const KernelBuild* k : v.kernels) {
          if (!k->sass || !*k->sass) continue;
          ImGui::TextDisabled("%s  (%s)", k->name, k->symbol);
          ImGui::TextUnformatted(k->sass);
        }
        if (mono) ImGui::PopFont();
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
    shown->shown = true;
    shown->x0 = ImGui::GetWindowPos().x;
    shown->y0 = ImGui::GetWindowPos().y;
    shown->x1 = shown->x0 + ImGui::GetWindowSize().x;
    shown->y1 = shown->y0 + ImGui::GetWindowSize().y;
  }
  ImGui::End();
  shown->variant = v.variant;
  shown->previous = v.previous;
  shown->snippet = v.snippet;
  shown->lines = static_cast<int>(v.lines.size());
  for (const CodeLine& l : v.lines) shown->changed += l.changed;
  for (const KernelBuild* k : v.kernels) shown->sass = shown->sass || (k->sass && *k->sass);
  return open;
}

}  // namespace gpulab::presenter

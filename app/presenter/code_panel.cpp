// The code panel (code_panel.h).
#include "presenter/code_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string_view>
#include <tuple>

#include "base/text_fit.h"
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

// A lesson's marker line: "// mark NAME" (its name) or "// end mark" ("" for the end), with nothing
// before it on the line but spaces; none for any other line. marked_lines finds a step's lines by
// them, and the panel does not show them to the room.
std::optional<std::string_view> marker_of(std::string_view line) {
  const size_t b = line.find_first_not_of(" \t");
  if (b == std::string_view::npos) return std::nullopt;
  line.remove_prefix(b);
  if (line.rfind("// end mark", 0) == 0) return std::string_view();
  constexpr std::string_view kStart = "// mark ";
  if (line.rfind(kStart, 0) != 0) return std::nullopt;
  line.remove_prefix(kStart.size());
  return line.substr(0, line.find_first_of(" \t"));
}

// The source, each line wrapped at the width it is given (monospace: a fixed number of characters a
// row), the lines that differ from the previous rung marked, and those a lesson step marks
// [mark_first, mark_last] (1-based) in a second colour. Returns the rows drawn and, in *mark_y, the
// first marked line's y in the child's content (or -1).
int draw_source(const CodeView& v, const CodePanelCache& cache, bool light, int mark_first, int mark_last,
                float* mark_y) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Rows one after another as in an editor (a marked block is one band), not spaced as widgets are
  // (at UI scale 3 the item spacing was half a row).
  const float h = std::ceil(ImGui::GetTextLineHeight() * 1.25f);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
  const ImU32 mark = light ? IM_COL32(255, 220, 120, 255) : IM_COL32(90, 70, 10, 255);
  const ImU32 lesson_mark = light ? IM_COL32(170, 215, 255, 255) : IM_COL32(20, 60, 110, 255);
  const float char_w = std::max(ImGui::CalcTextSize("M").x, 1.0f);
  const float avail = std::max(ImGui::GetContentRegionAvail().x, char_w * 8);
  const size_t per_row = std::max<size_t>(8, static_cast<size_t>(avail / char_w));
  *mark_y = -1;
  int rows_drawn = 0;
  int source_line = 0;  // 1-based number among the snippet's own lines (headers not counted)
  for (size_t i = 0; i < v.lines.size(); ++i) {
    const CodeLine& l = v.lines[i];
    if (!l.header) ++source_line;
    const bool marked = !l.header && mark_first > 0 && source_line >= mark_first && source_line <= mark_last;
    if (marked && *mark_y < 0) *mark_y = ImGui::GetCursorPosY();
    if (marker_of(l.text)) continue;  // "// mark NAME" and "// end mark" are for lessons, not the room
    const std::vector<std::pair<size_t, size_t>> rows = wrap_code_line(l.text, per_row);
    const float hang = char_w * static_cast<float>(code_hang(l.text, per_row));
    for (size_t r = 0; r < rows.size(); ++r) {
      const auto [c0, c1] = rows[r];
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (marked || l.changed)
        dl->AddRectFilled(p, ImVec2(p.x + avail, p.y + h), marked ? lesson_mark : mark);
      float x = p.x + (r > 0 ? hang : 0.0f);  // a continued line hangs under its own indent
      for (const TokenSpan& t : cache.tokens(i)) {
        const size_t b = std::max(t.begin, c0), e = std::min(t.end, c1);
        if (b >= e) continue;
        const char* tb = l.text.data() + b;
        const char* te = l.text.data() + e;
        dl->AddText(ImVec2(x, p.y + (h - ImGui::GetTextLineHeight()) * 0.5f),
                    l.header ? colour(Token::Preprocessor, light) : colour(t.kind, light), tb, te);
        x += ImGui::CalcTextSize(tb, te).x;
      }
      ImGui::Dummy(ImVec2(avail, h));
      ++rows_drawn;
    }
  }
  ImGui::PopStyleVar();
  return rows_drawn;
}

}  // namespace

size_t code_hang(std::string_view line, size_t per_row) {
  const size_t indent = std::min(line.find_first_not_of(" \t"), line.size());
  return std::min(indent + 4, per_row / 2);
}

std::vector<std::pair<size_t, size_t>> wrap_code_line(std::string_view line, size_t per_row) {
  per_row = std::max<size_t>(per_row, 8);
  const size_t n = line.size();
  const size_t rest_width = per_row - code_hang(line, per_row);
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::vector<std::pair<size_t, size_t>> rows;
  size_t c0 = 0;
  do {
    const size_t width = rows.empty() ? per_row : rest_width;
    if (n - c0 <= width) {
      rows.emplace_back(c0, n);
      break;
    }
    const size_t limit = c0 + width;
    size_t cut = 0;
    // After a space, in the row's last two thirds.
    for (size_t b = limit; b > c0 + width / 3 && !cut; --b)
      if (line[b - 1] == ' ' && line[b] != ' ') cut = b;
    // Between a word and what is not one (never inside a name or a number).
    for (size_t b = limit; b > c0 + 1 && !cut; --b)
      if (word(line[b - 1]) != word(line[b])) cut = b;
    if (!cut) cut = limit;  // one token longer than a row
    rows.emplace_back(c0, cut);
    c0 = cut;
    while (c0 < n && line[c0] == ' ') ++c0;
  } while (c0 < n);
  return rows;
}

std::pair<int, int> marked_lines(const CodeView& v, std::string_view name) {
  // The source lines (1-based, headers not counted) between the marker and its end.
  int n = 0, first = 0, last = 0;
  for (const CodeLine& l : v.lines) {
    if (l.header) continue;
    ++n;
    const std::optional<std::string_view> m = marker_of(l.text);
    if (!m) continue;
    if (!first && !m->empty() && *m == name)
      first = n + 1;
    else if (first && !last && m->empty())
      last = n - 1;
  }
  if (first && !last) last = n;
  return first && last >= first ? std::pair{first, last} : std::pair{0, 0};
}

CodeView code_view(const StageTable& table, const Pick& shown, std::optional<Pick> against_pick) {
  CodeView v;
  if (table.variants.empty()) return v;
  const size_t i = std::min(static_cast<size_t>(std::max(shown.variant, 0)), table.variants.size() - 1);
  const VariantChoice& cur = table.variants[i];
  const int against = against_pick ? against_pick->variant : -1;
  v.variant = std::string(cur.id);
  v.snippet = std::string(cur.snippet);
  v.lines = lines_of(cur.snippet);
  for (const SourceRegion* r : find_snippet(cur.snippet))
    for (const KernelBuild& k : r->kernels) v.kernels.push_back(&k);
  // Against the rung before it, or the variant asked for (A/B: B's code against A's).
  const bool other = against >= 0 && static_cast<size_t>(against) < table.variants.size() &&
                     static_cast<size_t>(against) != i;
  if (i == 0 && !other) return v;
  const VariantChoice& prev = table.variants[other ? static_cast<size_t>(against) : i - 1];
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

const CodeView& CodePanelCache::view(const StageTable& table, const Pick& shown,
                                     std::optional<Pick> against) {
  // The picks are the key (the tables are data, made once): the variant shown and the one compared.
  auto same = [](const std::optional<Pick>& a, const std::optional<Pick>& b) {
    return a.has_value() == b.has_value() && (!a || same_variant(*a, *b));
  };
  if (made_ && table_ == &table && same_variant(shown_, shown) && same(against_, against)) return view_;
  made_ = true;
  table_ = &table;
  shown_ = shown;
  against_ = against;
  view_ = code_view(table, shown, against);
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

bool draw_code_panel(const CodePicks& what, size_t* stage, CodePanelCache* cache, ImFont* mono,
                     ImFont* mono_small, bool light_theme, const CodePanelPlace& at, CodePanelShown* shown) {
  const float x0 = at.x0, y0 = at.y0, x1 = at.x1, y1 = at.y1;
  *shown = {};
  std::vector<size_t> active;
  for (size_t s : what.active)
    if (what.tables && s < what.tables->stages.size() && s < what.picks.size()) active.push_back(s);
  if (active.empty()) return true;
  if (std::find(active.begin(), active.end(), *stage) == active.end()) *stage = active.front();
  const StageTable& table = what.tables->stages[*stage];
  const std::optional<Pick> against = what.against && *stage < what.against->size()
                                          ? std::optional<Pick>((*what.against)[*stage])
                                          : std::nullopt;
  const CodeView& v = cache->view(table, what.picks[*stage], against);
  ImGui::SetNextWindowPos(ImVec2(x0, y0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::max(x1 - x0, 100.0f), std::max(y1 - y0, 100.0f)), ImGuiCond_Always);
  bool open = true;
  const std::string title =
      (what.against ? "Code: B " + v.variant + " against A" : "Code: " + v.variant) + "###code";
  if (ImGui::Begin(title.c_str(), &open,
                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                       ImGuiWindowFlags_NoResize)) {
    ImGui::PushTextWrapPos(0.0f);  // the window's text wraps at its right edge
    if (active.size() > 1) {
      // One radio a stage, as many to a row as fit the panel's width (a large UI scale puts each on
      // its own row); a label wider than the panel drops the stage's title, then is cut with "...".
      const ImGuiStyle& style = ImGui::GetStyle();
      const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
      const float row = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
      const float box = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
      bool first = true;
      for (size_t s : active) {
        const StageTable& a = what.tables->stages[s];
        const int vi = what.picks[s].variant;
        const std::string_view id =
            vi >= 0 && size_t(vi) < a.variants.size() ? a.variants[size_t(vi)].id : std::string_view("?");
        std::string label = std::string(a.title) + ": " + std::string(id);
        auto text_w = [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; };
        if (box + text_w(label) > row) label = elide_to_width(std::string(id), row - box, text_w);
        const float w = box + ImGui::CalcTextSize(label.c_str()).x;
        if (!first) {
          ImGui::SameLine();
          if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
        }
        first = false;
        ImGui::PushID(static_cast<int>(s));
        if (ImGui::RadioButton(label.c_str(), s == *stage)) *stage = s;
        ImGui::PopID();
        shown->stages_x1 = std::max(shown->stages_x1, ImGui::GetItemRectMax().x);
      }
    }
    // A short column (a small screen at a large UI scale) keeps its height for the code itself.
    const bool roomy = y1 - y0 > ImGui::GetTextLineHeightWithSpacing() * 14;
    if (!v.previous.empty() && roomy) {
      const char* whose = what.against ? "A, " : "the previous rung, ";
      ImGui::TextDisabled(v.same_as_previous ? "the same code as %s%s (it differs in its launch or memory)"
                                             : "marked: the lines that differ from %s%s",
                          whose, v.previous.c_str());
    }
    if (roomy)
      for (const KernelBuild* k : v.kernels) ImGui::TextWrapped("%s", resource_line(*k).c_str());
    bool any_sass = false;
    for (const KernelBuild* k : v.kernels) any_sass = any_sass || (k->sass && *k->sass);
    if (ImGui::BeginTabBar("code_tabs")) {
      if (ImGui::BeginTabItem("Source")) {
        ImGui::BeginChild("source", ImVec2(0, 0), false);
        if (mono) ImGui::PushFont(mono);
        // Shrunk to fit the longest line, but never below the smallest size the room can read.
        float longest = 0;
        for (const CodeLine& l : v.lines) longest = std::max(longest, ImGui::CalcTextSize(l.text.c_str()).x);
        const float avail = std::max(ImGui::GetContentRegionAvail().x, 1.0f);
        const float px = ImGui::GetFontSize();
        float scale = longest > avail ? avail / longest : 1.0f;
        if (at.min_px > 0) scale = std::max(scale, std::min(1.0f, at.min_px / std::max(px, 1.0f)));
        // Set small: from the glyphs rasterised near that size (up to 10% enlarged).
        const bool small =
            mono_small && mono_small != ImGui::GetFont() && px * scale <= mono_small->FontSize * 1.1f;
        if (small) {
          ImGui::PushFont(mono_small);
          scale = px * scale / std::max(mono_small->FontSize, 1.0f);
        }
        ImGui::SetWindowFontScale(scale);
        shown->font_px = ImGui::GetFontSize();
        if (v.lines.empty())
          ImGui::TextWrapped("no source region named %s was found at build time", v.snippet.c_str());
        float mark_y = -1;
        int mark_first = at.mark_first, mark_last = at.mark_last;
        if (!at.mark_name.empty()) std::tie(mark_first, mark_last) = marked_lines(v, at.mark_name);
        shown->rows = draw_source(v, *cache, light_theme, mark_first, mark_last, &mark_y);
        // The first marked line at the top, once for each marking, view and size the rows are set at (a
        // new font or width moves the line).
        const std::string scrolled = v.variant + "|" + std::to_string(mark_first) + "-" +
                                     std::to_string(mark_last) + "|" + std::to_string(shown->rows) + "|" +
                                     std::to_string(std::lround(ImGui::GetFontSize() * 8));
        if (mark_y >= 0 && cache->scrolled_for() != scrolled) {
          ImGui::SetScrollY(mark_y);
          cache->set_scrolled_for(scrolled);
        }
        shown->mark_y = mark_y;
        ImGui::SetWindowFontScale(1.0f);
        if (small) ImGui::PopFont();
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
    ImGui::PopTextWrapPos();
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

// The lesson check's report (lesson_check.h).
#include "presenter/lesson_check.h"

#include <algorithm>
#include <cstdio>

#include "common/text.h"
#include "core/recorded.h"
#include "presenter/ladder_chart.h"
#include "presenter/lesson.h"
#include "ui/fonts.h"

namespace gpulab::presenter {

namespace {
std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Characters a step's text is made of, counted as the screen counts them (UTF-8 code points).
size_t columns(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}
std::string pad(const std::string& s, size_t width) {
  const size_t n = columns(s);
  return n >= width ? s : s + std::string(width - n, ' ');
}
}  // namespace

std::vector<std::string> missing_glyph_lines(const LessonStep& step, const ImFont& caption_font,
                                             const ImFont& ui_font) {
  std::vector<std::string> out;
  auto check = [&](const char* what, const std::string& text, const ImFont& font) {
    const std::vector<std::string> m = ui::missing_glyphs(font, text);
    if (!m.empty()) out.push_back(std::string(what) + ": no glyph for " + joined(m) + " (drawn as '?')");
  };
  check("caption", step.caption, caption_font);
  check("title", step.title, ui_font);
  check("notes", step.notes, ui_font);
  return out;
}

std::string recorded_step_line(const RecordedResults& recorded, std::string_view demo,
                               const std::string& asked, double items_per_step, bool* found) {
  if (found) *found = false;
  if (recorded.demo != demo) return "none: the file is " + text::escape(recorded.demo) + "'s";
  bool other_size = false;
  const RecordedRow* row = recorded.find("", asked, items_per_step, &other_size);
  if (!row) return "none for " + asked;
  if (found) *found = true;
  std::string out = asked + (other_size ? " at " + text::escape(row->size) : std::string()) + ": " +
                    format_time_ms(row->ms_per_step);
  if (row->speedup)
    out += ", " + format_speedup(*row->speedup) +
           (row->speedup_baseline.empty() ? "" : " vs " + text::escape(row->speedup_baseline));
  return out;
}

std::string recorded_source_line(const RecordedResults& recorded) {
  return text::quote(recorded.path, 4096) + ", " + text::escape(recorded.label());
}

std::string format_lesson_check(const LessonCheck& c) {
  std::string out = "lesson " + text::quote(c.file, 4096);
  if (!c.title.empty()) out += ": " + text::escape(c.title);
  if (!c.steps.empty()) out += " (" + std::to_string(c.steps.size()) + " steps)";
  out += "\nmachine: " + c.machine + "\n";
  for (const std::string& m : c.missing) out += "missing: " + m + "\n";
  if (!c.recorded.empty()) out += "recorded results: " + c.recorded + "\n";
  if (!c.refused.empty()) {
    out += "refused: " + c.refused + "\n";
    return out + "summary: the lesson does not read; nothing was prepared\n";
  }
  size_t runs_w = 4;
  for (const LessonCheckStep& s : c.steps) runs_w = std::max(runs_w, columns(s.runs));
  char read[128];
  std::snprintf(read, sizeof read,
                "read and checked in %.2f s; each step started and its first frame drawn:\n", c.read_s);
  out += read;
  out += "step  prepare  " + pad("runs", runs_w) + "  \n";
  int fall = 0, missing = 0, recorded = 0;
  std::vector<int> slow;
  for (const LessonCheckStep& s : c.steps) {
    char head[48];
    std::snprintf(head, sizeof head, "%4d  %5.2f s  ", s.step, s.prepare_s);
    std::string line = head + pad(s.runs, runs_w);
    std::vector<std::string> notes;
    if (s.prepare_s > kSlowStepSeconds) {
      slow.push_back(s.step);
      notes.push_back("slow: over 1 s to prepare");
    }
    if (!s.falls_back.empty()) {
      ++fall;
      notes.push_back("falls back: " + s.falls_back);
    }
    if (!s.recorded.empty()) {
      recorded += s.recorded_found;
      notes.push_back("recorded figures: " + s.recorded);
    }
    if (s.ladder_s >= 0) {
      char l[64];
      std::snprintf(l, sizeof l, "ladder: measured in %.1f s", s.ladder_s);
      notes.push_back(l);
    }
    for (const std::string& m : s.missing) {
      ++missing;
      notes.push_back("missing: " + m);
    }
    // The first note on the step's line, the others under it.
    line += notes.empty() ? "  ok" : "  " + notes.front();
    out += line + "\n";
    for (size_t i = 1; i < notes.size(); ++i) out += std::string(15 + runs_w + 2, ' ') + notes[i] + "\n";
  }
  std::string slow_list;
  for (int k : slow) slow_list += (slow_list.empty() ? "" : ", ") + std::to_string(k);
  out += "summary: " + std::to_string(c.steps.size()) + " steps; " + std::to_string(fall) + " fall back" +
         (c.recorded.empty() ? "" : " (" + std::to_string(recorded) + " with recorded figures)") + "; " +
         std::to_string(missing + static_cast<int>(c.missing.size())) + " missing; " +
         std::to_string(slow.size()) + " over 1 s to prepare" +
         (slow.empty() ? "" : " (step" + std::string(slow.size() > 1 ? "s " : " ") + slow_list + ")") + "\n";
  return out;
}

int lesson_check_status(const LessonCheck& c) {
  if (!c.refused.empty() || !c.missing.empty()) return 1;
  for (const LessonCheckStep& s : c.steps)
    if (!s.missing.empty()) return 1;
  return 0;
}

}  // namespace gpulab::presenter

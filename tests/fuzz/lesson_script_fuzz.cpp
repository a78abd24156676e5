// Fuzz target: the lesson reader (app/presenter/lesson.h), parse_lesson with every demo, each step
// started on fresh demos as the app starts it (configure(), nothing attached, no GL).
// Oracles: the error names the file and holds no raw control byte; a lesson read has a title and 1 to
// 500 steps, each on a known demo, and no text longer than the player can draw (title 200 characters,
// caption 1000, notes 4000: ImGui aborts on longer ones).
//
// Nothing is written. So that no file of the machine is read, an input is skipped when a word of it
// (split at blanks, quotes and TOML's punctuation) names something that exists, as the command-line
// target does; the lesson's own folder does not exist, so relative paths name nothing.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/demo.h"
#include "fuzz_check.h"
#include "presenter/lesson.h"

using namespace gpulab;

namespace {

bool names_existing_path(std::string_view text) {
  std::string word;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ' ';
    if (std::string_view(" \t\r\n\"'=,{}[]").find(c) == std::string_view::npos && c != '\0') {
      word += c;
      continue;
    }
    std::error_code ec;
    if (word.find('/') != std::string::npos && std::filesystem::exists(word, ec)) return true;
    word.clear();
  }
  return false;
}

size_t chars(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (names_existing_path(text)) return 0;
  const presenter::LessonLoad r = presenter::parse_lesson(text, "no-such-folder/fuzz.toml", make_demos);
  if (!r.lesson) {
    fuzz::require(!r.error.empty(), "lesson: no lesson and no error");
    fuzz::require(r.error.rfind("no-such-folder/fuzz.toml:", 0) == 0,
                  "lesson: the error does not name the file");
    fuzz::check_message("lesson", r.error);
    return 0;
  }
  const presenter::Lesson& l = *r.lesson;
  static const std::vector<std::unique_ptr<Demo>> demos = make_demos();
  fuzz::require(!l.title.empty() && chars(l.title) <= 200, "lesson: the title");
  fuzz::require(!l.steps.empty() && l.steps.size() <= 500, "lesson: the step count");
  for (const presenter::LessonStep& s : l.steps) {
    fuzz::require(chars(s.title) <= 200 && chars(s.caption) <= 1000 && chars(s.notes) <= 4000,
                  "lesson: a text longer than the player draws");
    fuzz::require(s.variants.size() <= 2, "lesson: more than two variants");
    bool known = false;
    for (const auto& d : demos) known = known || d->name() == s.demo;
    fuzz::require(known, "lesson: a step on an unknown demo");
  }
  return 0;
}

// cpu label: docs/lesson-format.md describes every key the lesson reader accepts, and no other: its
// tables (top-level keys, a step's keys, each demo's params) are parsed and compared with the reader's
// own lists, so that the page and the reader cannot drift apart. The reader's lists are the ones it
// enforces: each listed key is taken, any other is refused naming exactly that list.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/demo.h"
#include "presenter/lesson.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using namespace gpulab;
using namespace gpulab::presenter;

namespace {

struct DocKeys {
  std::set<std::string> top, step;
  std::map<std::string, std::set<std::string>> params;  // by demo
};

// The page's tables: the first cell of each row, in backquotes, under the heading it belongs to.
DocKeys read_page() {
  const fs::path page = fs::path(GPULAB_TEST_ASSETS).parent_path() / "docs" / "lesson-format.md";
  std::ifstream in(page);
  EXPECT_TRUE(in) << page;
  DocKeys d;
  std::set<std::string>* into = nullptr;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#", 0) == 0) {
      into = nullptr;
      if (line == "## Keys at the top of the file") into = &d.top;
      if (line == "## Keys of a step") into = &d.step;
      const std::string params = "### params of `";
      if (line.rfind(params, 0) == 0)
        into = &d.params[line.substr(params.size(), line.size() - params.size() - 1)];
      continue;
    }
    if (!into || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) into->insert(line.substr(3, end - 3));
  }
  return d;
}

std::set<std::string> as_set(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST(LessonFormatPage, ListsEveryKeyTheReaderAcceptsAndNoOther) {
  const DocKeys doc = read_page();
  EXPECT_EQ(doc.top, as_set(lesson_top_keys()));
  EXPECT_EQ(doc.step, as_set(lesson_step_keys()));
  EXPECT_EQ(doc.step.size(), 12u);
  std::set<std::string> demos;
  for (const auto& d : make_demos()) {
    const std::string name(d->name());
    demos.insert(name);
    SCOPED_TRACE("params of " + name);
    ASSERT_TRUE(doc.params.count(name)) << "docs/lesson-format.md has no \"### params of `" << name << "`\"";
    EXPECT_EQ(doc.params.at(name), as_set(lesson_param_keys(*d)));
  }
  for (const auto& [demo, keys] : doc.params) EXPECT_TRUE(demos.count(demo)) << "no demo " << demo;
}

// The lists are what the reader enforces: a key of the list is never "unknown", any other is, and its
// message names the list.
TEST(LessonFormatPage, TheReadersListsAreTheKeysItTakes) {
  const fs::path file = fs::path(GPULAB_TEST_ASSETS) / "lessons" / "test.toml";
  auto parse = [&](const std::string& text) { return parse_lesson(text, file, make_demos); };
  const std::map<std::string, std::string> value = {
      {"title", "\"t\""},     {"demo", "\"life\""}, {"variant", "\"cpu-lut\""}, {"block", "16"},
      {"params", "{ }"},      {"ladder", "false"},  {"code", "true"},           {"code_lines", "\"1-2\""},
      {"code_mark", "\"x\""}, {"caption", "\"c\""}, {"notes", "\"n\""},         {"overlay", "\"none\""}};
  for (const std::string& k : lesson_step_keys()) {
    ASSERT_TRUE(value.count(k)) << "a value for the new key " << k;
    const LessonLoad r = parse("title = \"t\"\n[[step]]\ndemo = \"life\"\n" +
                               (k == "demo" ? std::string() : k + " = " + value.at(k) + "\n"));
    EXPECT_EQ(r.error.find("unknown key"), std::string::npos) << k << ": " << r.error;
  }
  std::string list;
  for (const std::string& k : lesson_step_keys()) list += (list.empty() ? "" : ", ") + k;
  const LessonLoad bad = parse("title = \"t\"\n[[step]]\ndemo = \"life\"\ncaptoin = \"c\"\n");
  EXPECT_NE(bad.error.find("unknown key 'captoin' (known: " + list + ")"), std::string::npos) << bad.error;
  const LessonLoad top = parse("titel = \"t\"\n[[step]]\ndemo = \"life\"\n");
  EXPECT_NE(top.error.find("unknown key 'titel' (known: title, results, step)"), std::string::npos)
      << top.error;
}

// gl label, through the binary: the HUD and `gpulab bench` say a step's time in the same words. For
// Game of Life on the CPU backend, the HUD's caption under its time figure ("per generation", from
// the layout report) names the bench table's time column ("time per generation"), and the HUD's figure
// and the table's cells are written alike ("18.2 µs", "2.09 ms"): a number and one of the same units.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/layout_report.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

// The cells of `column` in the rows of a bench table (measured rows only).
std::vector<std::string> column_cells(const std::string& table, const std::string& column) {
  std::vector<std::string> cells;
  std::istringstream in(table);
  std::string line;
  int index = -1;
  auto split = [](const std::string& l) {
    std::vector<std::string> out;
    size_t a = l.find('|');
    while (a != std::string::npos) {
      const size_t b = l.find('|', a + 1);
      if (b == std::string::npos) break;
      std::string c = l.substr(a + 1, b - a - 1);
      c.erase(0, c.find_first_not_of(' '));
      c.erase(c.find_last_not_of(' ') + 1);
      out.push_back(c);
      a = b;
    }
    return out;
  };
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '|') continue;
    const std::vector<std::string> c = split(line);
    if (index < 0) {
      for (size_t i = 0; i < c.size(); ++i)
        if (c[i] == column) index = int(i);
      if (index < 0) return {};
      continue;
    }
    if (line.find("not measured") != std::string::npos || line.find("---") != std::string::npos) continue;
    if (index < int(c.size())) cells.push_back(c[index]);
  }
  return cells;
}

const std::regex kFigure("[0-9][0-9.]* (\xC2\xB5s|ms|s)");

}  // namespace

TEST(UnitWords, TheHudAndTheBenchTableUseTheSameWordsForLife) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-unit-words");
  const gpulab::testing::ReportedRun hud = gpulab::testing::run_with_layout_report(
      "--headless --cpu --demo life --hud --grid 64x64 --frames 40 --size 1280x720", dir / "hud",
      "gpulab-unit-words");
  ASSERT_EQ(hud.process.status, 0) << hud.process.output;
  ASSERT_FALSE(hud.report.is_discarded());
  ASSERT_TRUE(hud.report["hud"]["shown"].get<bool>());
  const auto& values = hud.report["hud"]["values"];
  const auto& captions = hud.report["hud"]["captions"];
  ASSERT_GE(values.size(), 1u) << hud.report["hud"].dump();
  ASSERT_GE(captions.size(), 1u) << hud.report["hud"].dump();
  const std::string per = captions[0].get<std::string>();
  EXPECT_EQ(per, "per generation");
  EXPECT_TRUE(std::regex_match(values[0].get<std::string>(), kFigure)) << values[0];

  const gpulab::testing::ProcessResult bench = gpulab::testing::run_gpulab_in(
      "bench --cpu --demo life --size 64 --repeats 1 --steps 1", dir / "bench", "gpulab-unit-words");
  ASSERT_EQ(bench.status, 0) << bench.output;
  const std::vector<std::string> cells = column_cells(bench.output, "time " + per);
  ASSERT_GE(cells.size(), 2u) << "no column \"time " << per << "\" with the CPU rows:\n" << bench.output;
  for (const std::string& c : cells) EXPECT_TRUE(std::regex_match(c, kFigure)) << c;
  EXPECT_EQ(bench.output.find("ms/step"), std::string::npos) << bench.output;
  EXPECT_NE(bench.output.find("time " + per + ": median of the timed repeats"), std::string::npos)
      << bench.output;
}

// gl label, through the binary (headless EGL; Mesa and the CPU backend here): figures recorded on a GPU
// (--results) on the window's speed-up ladder and on `gpulab ladder --png`. The rung that cannot run
// here and is in the file for this case is drawn with the recorded time and the file's speed-up, as a
// hatched bar tagged "recorded", and the chart names the device and date (the layout report says what
// was drawn, in the detailed chart and in projector mode's slide); without --results nothing of it is
// drawn; the CSV and JSON of `gpulab ladder` hold only what was measured here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "support/layout_report.h"
#include "support/recorded_fixture.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;
using gpulab::testing::ReportedRun;

namespace {

const fs::path kResults = gpulab::testing::recorded_fixture();
const std::string& kLabel = gpulab::testing::kRecordedFixtureLabel;

ReportedRun ladder_window(const std::string& more, const fs::path& dir) {
  // Life at 512x512, the case the file has gpu-global for; the ladder from the first frame.
  return gpulab::testing::run_with_layout_report(
      "--headless --cpu --start-ladder --frames 2 --grid 512x512 --size 1920x1080" + more, dir,
      "gpulab-ladder-recorded");
}

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(LadderRecordedWindow, TheRungThatCannotRunHereShowsItsRecordedFiguresLabelled) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-ladder-recorded") / "window";
  const ReportedRun r = ladder_window(" --results " + kResults.string(), dir);
  ASSERT_EQ(r.process.status, 0) << r.process.output;
  ASSERT_TRUE(r.report["ladder"].get<bool>()) << r.report.dump();
  const nlohmann::json& c = r.report["ladder_chart"];
  EXPECT_EQ(c["style"].get<std::string>(), "detailed");
  EXPECT_NE(c["recorded"].get<std::string>().find(kLabel), std::string::npos) << c;
  EXPECT_EQ(c["recorded_bars"].get<int>(), 1) << c;
  EXPECT_GE(c["bars"].get<int>(), 2) << "cpu-naive and cpu-lut, measured here: " << c;
  ASSERT_EQ(c["recorded_rungs"].size(), 1u) << c;
  const std::string row = c["recorded_rungs"][0].get<std::string>();
  EXPECT_EQ(row.rfind("gpu-global: ", 0), 0u) << row;
  EXPECT_NE(row.find("4.00 \xC2\xB5s"), std::string::npos) << row;
  EXPECT_NE(row.find("| recorded"), std::string::npos) << row;
  EXPECT_NE(row.find("\xC3\x97"
                     "200 vs cpu-naive (recorded)"),
            std::string::npos)
      << row;
  // Projector mode: the slide, the recorded row with its big speed-up and tag, the label line.
  const ReportedRun s = ladder_window(" --projector --results " + kResults.string(), dir);
  ASSERT_EQ(s.process.status, 0) << s.process.output;
  const nlohmann::json& sc = s.report["ladder_chart"];
  EXPECT_EQ(sc["style"].get<std::string>(), "slide");
  EXPECT_NE(sc["recorded"].get<std::string>().find(kLabel), std::string::npos) << sc;
  EXPECT_EQ(sc["recorded_bars"].get<int>(), 1) << sc;
  ASSERT_EQ(sc["recorded_rungs"].size(), 1u) << sc;
  EXPECT_NE(sc["recorded_rungs"][0].get<std::string>().find("\xC3\x97"
                                                            "200 | "),
            std::string::npos)
      << sc;
  EXPECT_NE(sc["recorded_rungs"][0].get<std::string>().find("| recorded"), std::string::npos) << sc;
  const std::string foot = sc["footnote"].get<std::string>();
  EXPECT_EQ(foot.find("gpu-global"), std::string::npos) << "a row now, not in the footnote: " << foot;
  EXPECT_NE(foot.find("gpu-shared"), std::string::npos) << foot;
  fs::remove_all(dir);
}

TEST(LadderRecordedWindow, WithoutResultsTheLadderDrawsNothingRecorded) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-ladder-recorded") / "plain";
  for (const std::string more : {"", " --projector"}) {
    const ReportedRun r = ladder_window(more, dir);
    ASSERT_EQ(r.process.status, 0) << r.process.output;
    ASSERT_TRUE(r.report["ladder"].get<bool>());
    const nlohmann::json& c = r.report["ladder_chart"];
    EXPECT_EQ(c["recorded"].get<std::string>(), "") << c;
    EXPECT_EQ(c["recorded_bars"].get<int>(), 0) << c;
    EXPECT_TRUE(c["recorded_rungs"].empty()) << c;
    EXPECT_GE(c["bars"].get<int>(), 2) << c;
    if (!more.empty()) {
      EXPECT_NE(c["footnote"].get<std::string>().find("gpu-global"), std::string::npos) << c;
    }
  }
  fs::remove_all(dir);
}

TEST(LadderRecordedCommand, ThePngShowsTheRecordedRungsTheCsvAndJsonDoNot) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-ladder-recorded") / "command";
  fs::create_directories(dir);
  const fs::path png = dir / "l.png", csv = dir / "l.csv", json = dir / "l.json";
  ProcessResult r = gpulab::testing::run_gpulab(
      "ladder --cpu --demo life --grid 512x512 --png " + png.string() + " --csv " + csv.string() +
          " --json " + json.string() + " --png-style projector --results " + kResults.string(),
      "gpulab-ladder-recorded");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("ladder: --png shows 1 rung " + kLabel), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(png));
  EXPECT_EQ(text_of(csv).find("H100"), std::string::npos) << "measured here only";
  EXPECT_EQ(text_of(json).find("H100"), std::string::npos) << "measured here only";
  // A results file that does not read ends the command before it measures, naming the file.
  r = gpulab::testing::run_gpulab("ladder --cpu --demo life --grid 512x512 --png " + png.string() +
                                      " --results " + (dir / "no\x1b.json").string(),
                                  "gpulab-ladder-recorded");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("results file '" + (dir / "no\\x1B.json").string() + "'"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("ladder: step"), std::string::npos) << "nothing measured: " << r.output;
  // With no PNG there is nothing to show them on; bench takes none.
  r = gpulab::testing::run_gpulab("ladder --cpu --csv " + csv.string() + " --results " + kResults.string(),
                                  "gpulab-ladder-recorded");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--results with ladder goes with --png"), std::string::npos) << r.output;
  r = gpulab::testing::run_gpulab("bench --cpu --results " + kResults.string(), "gpulab-ladder-recorded");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("not with bench"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

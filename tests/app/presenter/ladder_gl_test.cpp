// gl label: the ladder on attached demos with the CPU backend (headless EGL; Mesa in CI): a ladder
// run leaves the demo's state untouched, `gpulab ladder` writes one CSV row per listed variant for
// every demo and lists the GPU variants as unavailable with the reason, and a bad output is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "demos/life/life_demo.h"
#include "gl/image_io.h"
#include "life/life.h"
#include "presenter/ladder.h"
#include "support/demo_gl_fixture.h"
#include "support/run_binary.h"

namespace gpulab {
namespace {

namespace fs = std::filesystem;

class LadderGl : public testing::CpuDemoGlTest<LadderGl, 160, 120> {};

TEST_F(LadderGl, ALadderRunLeavesTheLiveDemoAsItWas) {
  LifeDemo demo;
  configure(demo, {"--cpu", "--grid", "67x45", "--seed", "7"});
  demo.attach(ctx_);
  Frame f = frame(true);
  gl::Framebuffer fb(160, 120);
  for (int i = 0; i < 3; ++i) draw_frame(demo, f, fb);
  const uint64_t generation = demo.generation();
  const life::Grid before = demo.engine().download();
  Frame still = frame(false);
  const std::vector<uint8_t> pixels = draw_frame(demo, still, fb);

  presenter::LadderOptions o;
  o.repeats = 2;
  presenter::LadderRun run(demo, ctx_, o);
  run.start();
  while (!run.done()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::vector<presenter::Rung> rungs = run.rungs();
  ASSERT_GE(rungs.size(), 2u);
  int measured = 0;
  for (const presenter::Rung& r : rungs) {
    if (r.gpu) {
      EXPECT_EQ(r.state, presenter::RungState::Unavailable) << r.variant;
      EXPECT_FALSE(r.reason.empty()) << r.variant;
    } else {
      EXPECT_EQ(r.state, presenter::RungState::Measured) << r.variant << ": " << r.reason;
      EXPECT_GT(r.row.ms_median, 0) << r.variant;
      EXPECT_EQ(r.row.size, "67x45");
      measured += r.state == presenter::RungState::Measured;
    }
  }
  EXPECT_EQ(measured, 2);  // cpu-naive and cpu-lut, each verified against the other
  EXPECT_EQ(demo.generation(), generation);
  EXPECT_TRUE(life::first_difference(demo.engine().download(), before) == std::nullopt);
  EXPECT_EQ(draw_frame(demo, still, fb), pixels);
  demo.detach();
}

TEST_F(LadderGl, CancelStopsTheRunAndMarksWhatWasLeft) {
  LifeDemo demo;
  configure(demo, {"--cpu", "--grid", "512x512"});
  demo.attach(ctx_);
  presenter::LadderRun run(demo, ctx_, {});
  run.cancel();
  run.start();
  while (!run.done()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  for (const presenter::Rung& r : run.rungs())
    EXPECT_NE(r.state, presenter::RungState::Measured) << r.variant;
  EXPECT_TRUE(run.cancelled());
  demo.detach();
}

// Lines of a file, the header first.
std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(LadderCommand, EveryDemoWritesOneCsvRowAVariant) {
  const fs::path dir = testing::temp_dir("gpulab-ladder");
  // Every demo gpulab --list names (so a new demo is covered without editing this test), each at a
  // small size where its default would be slow on the CPU.
  const testing::ProcessResult listed = testing::run_gpulab("--list", "gpulab-ladder-list");
  ASSERT_EQ(listed.status, 0) << listed.output;
  std::vector<std::string> demos;
  {
    std::istringstream in(listed.output);
    for (std::string l; std::getline(in, l);)
      if (const size_t dash = l.find(" \xE2\x80\x94 ");
          !l.empty() && l[0] != ' ' && dash != std::string::npos)
        demos.push_back(l.substr(0, dash));
  }
  ASSERT_GE(demos.size(), 5u) << listed.output;
  const std::map<std::string, std::string> small = {{"life", "--grid 96x64"}, {"nbody", "--bodies 256"}};
  for (const std::string& demo : demos) {
    const std::string args = small.count(demo) ? small.at(demo) : "";
    const fs::path csv = dir / (demo + ".csv"), json = dir / (demo + ".json"), png = dir / (demo + ".png");
    const bool big = demo == "rotate";  // one demo at the 4K slide size
    const testing::ProcessResult r = testing::run_gpulab(
        "ladder --cpu --demo " + demo + " " + args + " --csv " + csv.string() + " --json " + json.string() +
            " --png " + png.string() + (big ? " --png-size 3840x2160" : ""),
        "gpulab-ladder");
    ASSERT_EQ(r.status, 0) << demo << ": " << r.output;
    // Why a rung was not measured is read once, in the progress lines and in the table: the rungs
    // after the first with the same reason name it ("the same reason as gpu-...").
    {
      std::map<std::string, int> reasons;
      size_t named = 0;
      std::istringstream out(r.output);
      for (std::string l; std::getline(out, l);) {
        for (const char* mark : {"| not measured: ", " unavailable: "}) {
          const size_t m = l.find(mark);
          if (m == std::string::npos) continue;
          std::string why = l.substr(m + std::string(mark).size());
          if (why.size() >= 2 && why.compare(why.size() - 2, 2, " |") == 0) why.resize(why.size() - 2);
          if (why.rfind("the same reason as ", 0) == 0)
            ++named;
          else
            ++reasons[std::string(mark) + why];
        }
      }
      for (const auto& [why, n] : reasons) EXPECT_EQ(n, 1) << demo << ": said " << n << " times: " << why;
      if (!reasons.empty()) EXPECT_GT(named, 0u) << demo << ": every GPU rung is unavailable with --cpu";
    }
    const std::vector<std::string> lines = lines_of(csv);
    // One row per variant of every stage, as gpulab --list gives them.
    std::istringstream in(listed.output);
    size_t variants = 0;
    bool in_demo = false;
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l[0] != ' ')
        in_demo = l.rfind(demo + " ", 0) == 0;
      else if (in_demo && l.rfind("  stage ", 0) != 0 && !l.empty())
        ++variants;
    }
    ASSERT_GT(variants, 1u) << listed.output;
    // Histogram equalization's stages make one picture: a last panel has its CPU pipeline and its
    // best GPU pipeline (unavailable here), and the CPU one takes about its stages' time together.
    const size_t pipeline_rows = demo == "histeq" ? 2 : 0;
    // The matrix demo's yardsticks (the mma.sync ceiling at TF32 and BF16) are rows, not variants:
    // its default op is the transpose, so they are listed with the multiply stage's reason.
    const size_t yardstick_rows = demo == "matrix" ? 2 : 0;
    EXPECT_EQ(lines.size(), variants + pipeline_rows + yardstick_rows + 1) << demo << "\n" << r.output;
    for (const std::string& l : lines) {
      if (l.find("mma-sync-peak") != std::string::npos) {
        EXPECT_NE(l.find(",unavailable,"), std::string::npos) << l;
      }
    }
    if (demo == "histeq") {
      auto ms_of = [&](const std::string& prefix) {
        for (const std::string& l : lines)
          if (l.rfind(prefix, 0) == 0) return std::stod(l.substr(l.find(",measured,") + 10));
        ADD_FAILURE() << "no measured row " << prefix;
        return 0.0;
      };
      const double stages =
          ms_of("histogram,hist-cpu,") + ms_of("scan,scan-cpu,") + ms_of("apply,apply-cpu,");
      const double whole = ms_of("pipeline,pipeline-cpu,");
      EXPECT_GT(whole, stages / 3) << "the CPU pipeline is not its three stages";
      EXPECT_LT(whole, stages * 3) << "the CPU pipeline is not its three stages";
      EXPECT_NE(lines.back().find("pipeline,pipeline-best,-,unavailable,"), std::string::npos)
          << lines.back();
    }
    size_t measured = 0, unavailable = 0;
    for (size_t i = 1; i < lines.size(); ++i) {
      measured += lines[i].find(",measured,") != std::string::npos;
      unavailable += lines[i].find(",unavailable,") != std::string::npos;
    }
    EXPECT_GE(measured, 1u) << demo;
    EXPECT_GE(unavailable, 1u) << demo;  // the GPU variants, with the reason
    EXPECT_NE(r.output.find("--cpu was given"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::file_size(json) > 0);
    std::string err;
    const gl::Image img = gl::read_image(png, &err);
    ASSERT_TRUE(err.empty()) << err;
    EXPECT_EQ(img.width, big ? 3840 : 1920);
    EXPECT_EQ(img.height, big ? 2160 : 1080);
    // Not blank: the background, bars and text make many distinct colours.
    std::set<uint32_t> colours;
    for (size_t i = 0; i + 3 < img.rgba.size() && colours.size() < 64; i += 4 * 97)
      colours.insert(uint32_t(img.rgba[i]) << 16 | uint32_t(img.rgba[i + 1]) << 8 | img.rgba[i + 2]);
    EXPECT_GE(colours.size(), 8u) << demo;
  }
  fs::remove_all(dir);
}

// The window's ladder (F5), headless: the frames go on while it measures on its worker thread, the
// chart is what the screenshot shows (the chart's dark background at the bottom-left, not the demo),
// and the app says how many frames it drew and the slowest.
TEST(LadderWindow, TheFramesGoOnWhileItMeasuresAndTheChartIsShown) {
  const fs::path dir = testing::temp_dir("gpulab-ladder-window");
  const fs::path shot = dir / "ladder.png";
  const testing::ProcessResult r = testing::run_gpulab(
      "--headless --cpu --start-ladder --frames 2 --grid 200x150 --size 960x540 --no-ui --screenshot " +
          shot.string(),
      "gpulab-ladder-window");
  ASSERT_EQ(r.status, 0) << r.output;
  const size_t at = r.output.find("ladder life: ");
  ASSERT_NE(at, std::string::npos) << r.output;
  const size_t line = r.output.find("frames while measuring, the slowest", at);
  ASSERT_NE(line, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("frames while measuring"), line) << r.output;
  EXPECT_EQ(r.output.find("frames while measuring", line + 1), std::string::npos)
      << "said once: " << r.output;
  // On stderr (and the Timings tab), never a toast over the chart's toolbar (a run with the UI, whose
  // last frame shows the toasts of the last 8 s).
  const testing::ProcessResult with_ui = testing::run_gpulab(
      "--headless --cpu --start-ladder --frames 2 --grid 64x48 --size 960x540 --layout-report " +
          (dir / "layout.json").string(),
      "gpulab-ladder-window");
  ASSERT_EQ(with_ui.status, 0) << with_ui.output;
  EXPECT_NE(with_ui.output.find("frames while measuring"), std::string::npos) << with_ui.output;
  std::ifstream report_file(dir / "layout.json");
  const std::string report((std::istreambuf_iterator<char>(report_file)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(report.empty());
  EXPECT_EQ(report.find("frames while measuring"), std::string::npos) << report;
  std::string err;
  const gl::Image img = gl::read_image(shot, &err);
  ASSERT_TRUE(err.empty()) << err;
  ASSERT_EQ(img.width, 960);
  // The chart's title is drawn in the top-left area: many distinct colours there, while Life's view
  // of a 200x150 grid would be cells on black.
  std::set<uint32_t> colours;
  for (int y = 40; y < 140; ++y)
    for (int x = 0; x < 400; x += 3) {
      const size_t i = (size_t(y) * size_t(img.width) + size_t(x)) * 4;
      colours.insert(uint32_t(img.rgba[i]) << 16 | uint32_t(img.rgba[i + 1]) << 8 | img.rgba[i + 2]);
    }
  EXPECT_GE(colours.size(), 4u);
  fs::remove_all(dir);
}

TEST(LadderCommand, ABadOutputOrSizeIsRefusedBeforeAnyWork) {
  testing::ProcessResult r =
      testing::run_gpulab("ladder --cpu --csv /nonexistent-dir/x.csv", "gpulab-ladder-bad");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("--csv"), std::string::npos) << r.output;
  r = testing::run_gpulab("ladder --cpu", "gpulab-ladder-bad");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("ladder needs an output"), std::string::npos) << r.output;
  r = testing::run_gpulab("ladder --cpu --csv /tmp/x.csv --png-size 1000x1000", "gpulab-ladder-bad");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("--png-size"), std::string::npos) << r.output;
}

// The matrix demo's mma.sync ceiling on the ladder: after the mma.sync rung it bounds, a row of the
// CSV and the JSON with no speed-up, skipped on the CPU backend with the reason; the slides in both
// styles, the lead stage first and (--png-stages) every other stage beside it.
TEST(LadderCommand, TheMatrixLadderListsTheMmaSyncCeilingAsAYardstick) {
  const fs::path dir = testing::temp_dir("gpulab-ladder-yardstick");
  const fs::path csv = dir / "m.csv", json = dir / "m.json", png = dir / "m.png";
  const testing::ProcessResult r = testing::run_gpulab(
      "ladder --cpu --demo matrix --op multiply --m 33 --n 17 --k 9 --csv " + csv.string() + " --json " +
          json.string() + " --png " + png.string() + " --png-style light --png-stages",
      "gpulab-ladder-yardstick");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::vector<std::string> lines = lines_of(csv);
  std::vector<std::string> ids;
  for (size_t i = 1; i < lines.size(); ++i)
    if (lines[i].rfind("multiply,", 0) == 0) ids.push_back(lines[i].substr(9, lines[i].find(',', 9) - 9));
  auto at = [&](const std::string& id) { return std::find(ids.begin(), ids.end(), id) - ids.begin(); };
  ASSERT_LT(size_t(at("mma-sync-peak-tf32")), ids.size()) << r.output;
  ASSERT_LT(size_t(at("mma-sync-peak-bf16")), ids.size());
  EXPECT_EQ(at("mma-sync-peak-tf32"), at("gemm-tensor-tf32") + 1);
  EXPECT_EQ(at("mma-sync-peak-bf16"), at("gemm-tensor-bf16") + 1);
  for (const std::string& l : lines)
    if (l.find("mma-sync-peak") != std::string::npos) {
      EXPECT_EQ(l.find("multiply,mma-sync-peak-"), 0u) << l;
      EXPECT_NE(l.find(",-,unavailable,"), std::string::npos) << l;
      EXPECT_NE(l.find("--cpu was given"), std::string::npos) << "the reason: " << l;
    }
  std::ifstream in(json);
  const std::string j((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(j.find("\"mma-sync-peak-bf16\""), std::string::npos);
  EXPECT_NE(j.find("mma-sync-peak-bf16: a yardstick, not a variant"), std::string::npos);
  // One stage runs (the multiply): one slide, on white.
  std::string err;
  const gl::Image img = gl::read_image(png, &err);
  ASSERT_EQ(err, "");
  EXPECT_EQ(img.width, 1920);
  EXPECT_EQ(img.rgba[0], 255);
  EXPECT_FALSE(fs::exists(dir / "m-transpose.png"));
  fs::remove_all(dir);
}

TEST(LadderCommand, HistogramEqualizationGetsThePipelineSlideAndOneSlideAStage) {
  const fs::path dir = testing::temp_dir("gpulab-ladder-slides");
  const fs::path png = dir / "h.png";
  testing::ProcessResult r = testing::run_gpulab(
      "ladder --cpu --demo histeq --png " + png.string() + " --png-style projector --png-stages",
      "gpulab-ladder-slides");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* f : {"h.png", "h-histogram.png", "h-scan.png", "h-apply.png"}) {
    std::string err;
    const gl::Image img = gl::read_image(dir / f, &err);
    ASSERT_EQ(err, "") << f << "\n" << r.output;
    EXPECT_EQ(img.width, 1920) << f;
    EXPECT_EQ(img.rgba[0], 0) << f << ": the projector style is on black";
  }
  EXPECT_FALSE(fs::exists(dir / "h-pipeline.png")) << "the pipeline is the first slide";
  r = testing::run_gpulab("ladder --cpu --csv " + (dir / "x.csv").string() + " --png-stages",
                          "gpulab-ladder-slides");
  EXPECT_EQ(r.status, 2) << r.output;
  r = testing::run_gpulab("ladder --cpu --png " + png.string() + " --png-stages", "gpulab-ladder-slides");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--png-style"), std::string::npos) << r.output;
  r = testing::run_gpulab("ladder --cpu --png " + png.string() + " --png-style dark", "gpulab-ladder-slides");
  EXPECT_EQ(r.status, 1) << r.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpulab

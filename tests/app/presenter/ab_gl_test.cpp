// gl label, end to end through the binary (headless EGL; Mesa here): A/B from a lesson step with two
// variants. Each demo is asked for its CPU reference against a GPU variant: where the GPU variant
// cannot run (no CUDA device) the step says so on screen and the lesson goes on; where it runs, the
// halves are labelled, the ratio is shown, and the halves agree where the variants' outputs agree
// (Life, histogram: exact) and differ where they differ (the lecture's rotation kernel, half a texel
// off). Life's two CPU variants run everywhere: their halves are the same picture, pixel for pixel.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "gl/image_io.h"
#include "support/layout_report.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-ab"); }

struct AbRun {
  ProcessResult r;
  nlohmann::json j;
  gpulab::gl::Image img;
};

AbRun run_ab(const std::string& name, const std::string& step_body, int frames,
             const std::string& screen = "--size 1280x720 --ui-scale 1") {
  const fs::path dir = temp_dir() / name;
  fs::create_directories(dir);
  const fs::path lesson = dir / "ab.toml", png = dir / "shot.png";
  std::ofstream(lesson) << "title = \"A/B\"\n[[step]]\n" << step_body << "caption = \"A/B\"\n";
  gpulab::testing::ReportedRun run = gpulab::testing::run_with_layout_report(
      "--headless --lesson " + lesson.string() + " --frames " + std::to_string(frames) + " " + screen +
          " --no-ui --screenshot " + png.string(),
      dir, "gpulab-ab");
  AbRun out;
  out.r = std::move(run.process);
  out.j = std::move(run.report);
  std::string err;
  out.img = gpulab::gl::read_image(png, &err);
  return out;
}

// Pixels of the two halves that differ, over the rows below the ratio and above the caption, and the
// number of distinct colours in half A there.
struct HalfCompare {
  size_t differing = 0, compared = 0, colours_a = 0;
};
HalfCompare compare_halves(const AbRun& a) {
  HalfCompare c;
  const nlohmann::json& ab = a.j["ab"];
  const int x0 = static_cast<int>(ab["view"][0].get<float>()) + 1;
  const int split = static_cast<int>(ab["split_x"].get<float>());
  const int half = split - x0;
  const int y0 = static_cast<int>(std::max(ab["ratio_y1"].get<float>(), ab["label_y1"].get<float>())) + 4;
  const int y1 = static_cast<int>(a.j["regions"]["view"][3].get<float>()) - 2;  // the view's bottom
  std::set<uint32_t> colours;
  for (int y = y0; y < y1; ++y)
    for (int x = 2; x < half - 2; ++x) {
      const uint8_t* p = &a.img.rgba[(size_t(y) * a.img.width + x0 + x) * 4];
      const uint8_t* q = &a.img.rgba[(size_t(y) * a.img.width + split + 1 + x) * 4];
      c.differing += p[0] != q[0] || p[1] != q[1] || p[2] != q[2];
      ++c.compared;
      colours.insert(p[0] | p[1] << 8 | p[2] << 16);
    }
  c.colours_a = colours.size();
  return c;
}

}  // namespace

TEST(AbGl, LifesTwoCpuVariantsShowTheSameGridSideBySide) {
  const AbRun a = run_ab(
      "life-cpu",
      "demo = \"life\"\nvariant = [\"cpu-naive\", \"cpu-lut\"]\nparams = { grid = \"128x128\" }\n", 20);
  ASSERT_EQ(a.r.status, 0) << a.r.output;
  ASSERT_FALSE(a.j.is_discarded());
  const nlohmann::json& ab = a.j["ab"];
  ASSERT_TRUE(ab.value("shown", false)) << a.j["lesson"];
  EXPECT_EQ(ab.value("a", std::string()), "cpu-naive");
  EXPECT_EQ(ab.value("b", std::string()), "cpu-lut");
  EXPECT_NE(ab.value("time_a", std::string()), "measuring");
  EXPECT_NE(ab.value("time_b", std::string()), "measuring");
  EXPECT_GT(ab.value("ratio", 0.0), 0.0);
  EXPECT_NE(ab.value("ratio_text", std::string()).find("cpu-lut is "), std::string::npos) << ab;
  EXPECT_EQ(a.j["lesson"].value("problem", std::string("?")), "");
  const HalfCompare c = compare_halves(a);
  ASSERT_GT(c.compared, 10000u);
  EXPECT_GE(c.colours_a, 2u) << "the grid is drawn";
  EXPECT_EQ(c.differing, 0u) << "same input, same generation, same camera: the same picture";
}

struct CpuVsGpu {
  const char* demo;
  const char* step;  // the lesson step's body
  enum { Agree, Differ, Either } halves;
};

class AbEveryDemo : public ::testing::TestWithParam<CpuVsGpu> {};

TEST_P(AbEveryDemo, CpuAgainstGpuRunsOrSaysWhyNot) {
  const CpuVsGpu& p = GetParam();
  const AbRun a = run_ab(std::string("gpu-") + p.demo, p.step, 12);
  ASSERT_EQ(a.r.status, 0) << a.r.output;
  ASSERT_FALSE(a.j.is_discarded());
  const nlohmann::json& ab = a.j["ab"];
  if (!ab.value("shown", false)) {
    // No CUDA device: the step says why on screen, and the demo runs the first variant.
    const std::string problem = a.j["lesson"].value("problem", std::string());
    EXPECT_TRUE(problem.find("cannot run here") != std::string::npos ||
                problem.find("needs an NVIDIA GPU") != std::string::npos)
        << problem;
    EXPECT_EQ(a.j["lesson"].value("demo", std::string()), p.demo);
    return;
  }
  EXPECT_GT(ab.value("ratio", 0.0), 0.0) << ab;
  const HalfCompare c = compare_halves(a);
  ASSERT_GT(c.compared, 10000u);
  EXPECT_GE(c.colours_a, 2u);
  if (p.halves == CpuVsGpu::Agree) {
    EXPECT_EQ(c.differing, 0u);
  }
  if (p.halves == CpuVsGpu::Differ) {
    EXPECT_GT(c.differing, c.compared / 100) << "the variants' outputs differ";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Demos, AbEveryDemo,
    ::testing::Values(
        CpuVsGpu{
            "life",
            "demo = \"life\"\nvariant = [\"cpu-lut\", \"gpu-shared\"]\nparams = { grid = \"256x256\" }\n",
            CpuVsGpu::Agree},
        CpuVsGpu{"histeq", "demo = \"histeq\"\nvariant = [\"hist-cpu\", \"hist-atomic-global\"]\n",
                 CpuVsGpu::Agree},
        CpuVsGpu{"nbody",
                 "demo = \"nbody\"\nvariant = [\"cpu\", \"gpu-tile-float4\"]\nparams = { bodies = 1024 }\n",
                 CpuVsGpu::Either},
        CpuVsGpu{"rotate",
                 "demo = \"rotate\"\nvariant = [\"tex-array\", \"lecture\"]\nparams = { angle = 30, spin = "
                 "0, filter = \"point\" }\n",
                 CpuVsGpu::Differ}),
    [](const auto& info) { return std::string(info.param.demo); });

TEST(AbGl, TheCodePanelShowsBsCodeAgainstAs) {
  // B (cpu-naive) is not the rung after A (cpu-lut): the marked lines are those that differ from A's.
  const AbRun a =
      run_ab("life-code",
             "demo = \"life\"\nvariant = [\"cpu-lut\", \"cpu-naive\"]\nparams = { grid = \"128x128\" }\n"
             "code = true\n",
             6);
  ASSERT_EQ(a.r.status, 0) << a.r.output;
  ASSERT_FALSE(a.j.is_discarded());
  ASSERT_TRUE(a.j["ab"].value("shown", false)) << a.j["lesson"];
  const nlohmann::json& c = a.j["code"];
  ASSERT_TRUE(c.value("shown", false)) << c;
  EXPECT_EQ(c.value("variant", std::string()), "cpu-naive") << c;
  EXPECT_EQ(c.value("previous", std::string()), "cpu-lut") << "compared with A, not with the rung before";
  EXPECT_GT(c.value("changed", 0), 0) << c;
  // The code shown is of a kernel that runs: the lesson lists both halves' variants as running (A's,
  // then B's), so no panel names a kernel missing from the running list.
  EXPECT_EQ(a.j["lesson"].value("variants", std::vector<std::string>{}),
            (std::vector<std::string>{"cpu-lut", "cpu-naive"}))
      << a.j["lesson"];
  // Both halves and the code column side by side, none over another.
  const auto& r = a.j["regions"];
  ASSERT_TRUE(r.contains("code") && r.contains("view")) << r;
  EXPECT_LE(r["view"][2].get<float>(), r["code"][0].get<float>() + 0.5f);
}

TEST(AbGl, LabelsAndRatioStayInsideTheirHalvesBesideTheCode) {
  // Projector mode at 3x with the code column: the view is narrow, so each half's label goes on two
  // lines (and smaller if need be) and the ratio's sentence wraps; none of it crosses into the other
  // half or out of the view (the H100's matrix lesson once had B's label over the code's title).
  const AbRun a = run_ab("narrow",
                         "demo = \"life\"\nvariant = [\"cpu-naive\", \"cpu-lut\"]\n"
                         "params = { grid = \"128x128\" }\ncode = true\n",
                         6, "--size 1280x720 --projector --ui-scale 3");
  ASSERT_EQ(a.r.status, 0) << a.r.output;
  ASSERT_FALSE(a.j.is_discarded());
  const nlohmann::json& ab = a.j["ab"];
  ASSERT_TRUE(ab.value("shown", false)) << a.j["lesson"];
  const float x0 = ab["view"][0], x1 = ab["view"][1], split = ab["split_x"];
  EXPECT_LE(ab["label_x1"][0].get<float>(), split + 0.5f) << "A's label crosses into B's half: " << ab;
  EXPECT_LE(ab["label_x1"][1].get<float>(), x1 + 0.5f) << "B's label leaves the view: " << ab;
  EXPECT_GT(ab["label_x1"][1].get<float>(), split) << ab;
  if (!ab["ratio_text"].get<std::string>().empty()) {
    EXPECT_GE(ab["ratio_box"][0].get<float>(), x0 - 0.5f) << ab;
    EXPECT_LE(ab["ratio_box"][1].get<float>(), x1 + 0.5f) << ab;
  }
  const auto& r = a.j["regions"];
  ASSERT_TRUE(r.contains("code")) << r;
  EXPECT_LE(x1, r["code"][0].get<float>() + 0.5f) << "the halves run under the code column";
}

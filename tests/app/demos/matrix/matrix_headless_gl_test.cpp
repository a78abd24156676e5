// The matrix demo end to end through the binary (gl label: headless EGL, Mesa's software device on
// CI, the CPU variants where there is no GPU): a screenshot of each op is not blank (the transposed
// picture; the heat map of C), the batch commands write what the CPU reference gives (the transposed
// PNG; C as .npy equal to gemm_cpu within float32 rounding; the generated A and B), .npy inputs are
// read back, and bad input is refused with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "common/file_io.h"
#include "gl/image_io.h"
#include "image/image.h"
#include "matrix/matrix.h"
#include "support/image_checks.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

namespace gpulab {
namespace {

using testing::colours_in_box;
using testing::ProcessResult;

ProcessResult run_gpulab(const std::string& args) { return testing::run_gpulab(args, "gpulab-matrix"); }
fs::path temp_dir() { return testing::temp_dir("gpulab-matrix"); }

TEST(MatrixHeadless, EachOpsScreenshotIsNotBlank) {
  for (const char* op : {"transpose", "multiply --init random"}) {
    SCOPED_TRACE(op);
    const fs::path png = temp_dir() / (std::string("shot-") + op[0] + ".png");
    fs::remove(png);
    const ProcessResult r = run_gpulab(std::string("--headless --demo matrix --op ") + op +
                                       " --frames 3 --size 640x400 --no-ui --screenshot " + png.string());
    ASSERT_EQ(r.status, 0) << r.output;
    std::string err;
    const gl::Image img = gl::read_image(png, &err);
    ASSERT_EQ(img.width, 640) << err;
    // The output fills the middle of the view with many colours (the picture's greys; the scale's).
    EXPECT_GT(colours_in_box(img, 220, 60, 420, 340).size(), 4u) << "the output is blank";
    EXPECT_EQ(colours_in_box(img, 0, 0, 640, 2).size(), 1u) << "outside the output: the clear colour only";
  }
}

TEST(MatrixHeadless, BatchTransposeWritesTheTransposedPicture) {
  const fs::path in = temp_dir() / "in.png", out = temp_dir() / "out.png";
  const image::Image src = testing::save_png_checked(in, image::generate("filter-test", 203, 61));
  fs::remove(out);
  const ProcessResult r = run_gpulab("--headless --demo matrix --op transpose --image " + in.string() +
                                     " --save-image " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const image::LoadResult got = image::load(out);
  ASSERT_TRUE(got.error.empty()) << got.error;
  ASSERT_EQ(got.image.width, 61);
  ASSERT_EQ(got.image.height, 203);
  ASSERT_EQ(got.image.channels, src.channels);
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x)
      ASSERT_EQ(got.image.pixels[size_t(x) * src.height + y], src.pixels[size_t(y) * src.width + x])
          << x << "," << y;
}

TEST(MatrixHeadless, BatchMultiplyWritesCAndTheGeneratedInputs) {
  const fs::path a = temp_dir() / "a.npy", b = temp_dir() / "b.npy", c = temp_dir() / "c.npy",
                 c2 = temp_dir() / "c2.npy";
  for (const fs::path& p : {a, b, c, c2}) fs::remove(p);
  ProcessResult r = run_gpulab(
      "--headless --demo matrix --op multiply --m 17 --n 33 --k 9 --seed 4 --init random"
      " --save-a " +
      a.string() + " --save-b " + b.string() + " --save-c " + c.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const matrix::NpyResult ra = matrix::read_npy(a), rb = matrix::read_npy(b), rc = matrix::read_npy(c);
  ASSERT_EQ(ra.error + rb.error + rc.error, "");
  EXPECT_EQ(ra.m, matrix::generate(matrix::Init::Random, 17, 33, 9, 4).a);
  ASSERT_EQ(rc.m.rows, 17);
  ASSERT_EQ(rc.m.cols, 33);
  const std::vector<double> exact = matrix::gemm_f64(ra.m, rb.m), mag = matrix::gemm_abs_f64(ra.m, rb.m);
  for (size_t i = 0; i < exact.size(); ++i)
    ASSERT_LE(std::fabs(rc.m.data[i] - exact[i]), matrix::fp32_bound(9) * mag[i] + 1e-30) << i;
  // The files read back as inputs give the same product (the CPU variant: the same arithmetic).
  r = run_gpulab("--headless --demo matrix --variant gemm-cpu --a " + a.string() + " --b " + b.string() +
                 " --save-c " + c2.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const matrix::NpyResult r2 = matrix::read_npy(c2);
  ASSERT_EQ(r2.error, "");
  EXPECT_EQ(r2.m, matrix::gemm_cpu(ra.m, rb.m));
}

// A batch product that takes minutes on the CPU says so before it runs (--save-c ran without a word:
// the estimate was the window's frame loop's only); the run is stopped once it has.
TEST(MatrixHeadless, ALongCpuProductSaysItsEstimateFirst) {
  const fs::path dir = testing::temp_dir("gpulab-matrix-long");
  fs::create_directories(dir);
  const ProcessResult r = testing::run_gpulab(
      "--headless --cpu --demo matrix --op multiply --m 8192 --n 8192 --k 8192 --save-c " +
          (dir / "c.npy").string(),
      "gpulab-matrix-long", 12);
  EXPECT_EQ(r.status, testing::kKilledAtLimit) << r.output;
  EXPECT_NE(r.output.find("gpulab: 1 product of 8192x8192 by 8192x8192 on the CPU: about "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("(from a 512x512 sample; Ctrl+C stops)"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "c.npy"));
  fs::remove_all(dir);
}

TEST(MatrixHeadless, BadInputIsRefusedWithTheReason) {
  const fs::path a = temp_dir() / "a3x4.npy", b = temp_dir() / "b5x2.npy", bad = temp_dir() / "bad.npy",
                 c = temp_dir() / "never.npy";
  ASSERT_EQ(matrix::write_npy(a, matrix::Matrix(3, 4)), "");
  ASSERT_EQ(matrix::write_npy(b, matrix::Matrix(5, 2)), "");
  auto bytes = matrix::encode_npy(matrix::Matrix(2, 2));
  bytes.resize(bytes.size() - 3);  // truncated data
  ASSERT_EQ(files::write_regular_file(bad, bytes), "");
  struct Case {
    std::string args, says;
  };
  const Case cases[] = {
      {"--a " + a.string() + " --b " + b.string(), "A's columns (K) must equal B's rows"},
      {"--a " + bad.string() + " --b " + b.string(), "truncated"},
      {"--a " + a.string(), "--a and --b come together"},
      {"--op divide", "--op must be transpose or multiply"},
      {"--op multiply --init ones", "--init must be random, identity or pattern"},
      {"--op multiply --m 70000", "--m: must be from 1 to 65536, got '70000'"},
      {"--op transpose --variant gemm-naive", "is a multiply variant"},
      {"--op transpose --m 5", "belong to --op multiply"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.args);
    fs::remove(c);
    const ProcessResult r = run_gpulab("--headless --demo matrix --save-c " + c.string() + " " + k.args);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find(k.says), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(c));
  }
}

}  // namespace
}  // namespace gpulab

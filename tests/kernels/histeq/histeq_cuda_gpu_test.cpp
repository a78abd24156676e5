// The CUDA histogram-equalization engine against the CPU reference: every histogram variant but the
// racy one equals hist-cpu exactly on every content and odd size (and every block size on one), the
// racy one loses counts on a constant image, every scan and apply variant equals the CPU, every
// reduction rung finds min and max (1 pixel, sizes that are no power of two, constant images), whole
// colour pipelines equal process_cpu, the composed display pixels, the memory check and the kernel
// list. Skips with a message where no CUDA device exists.
//
// GPULAB_SMALL_TESTS=1 shrinks the sizes (at most 200x150) so compute-sanitizer runs end in minutes.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/random.h"
#include "cuda/raii.h"
#include "histeq/histeq.h"
#include "histeq/histeq_cuda.h"
#include "support/gpu_memory.h"
#include "support/gpu_skip.h"

namespace gpulab::histeq {
namespace {

using testing::small_tests;

struct Size {
  int w, h;
};
std::vector<Size> sizes() {
  if (small_tests()) return {{1, 1}, {1, 17}, {17, 1}, {7, 5}, {64, 64}, {200, 150}};
  return {{1, 1}, {1, 17}, {17, 1}, {7, 5}, {64, 64}, {333, 177}, {1024, 768}, {1921, 1081}};
}

enum class Content { Uniform, Constant, Narrow, TwoLevel, Ramp, Sparse };
const char* content_name(Content c) {
  switch (c) {
    case Content::Uniform:
      return "uniform";
    case Content::Constant:
      return "constant";
    case Content::Narrow:
      return "narrow";
    case Content::TwoLevel:
      return "two-level";
    case Content::Ramp:
      return "ramp";
    case Content::Sparse:
      return "sparse";
  }
  return "";
}
constexpr Content kContents[] = {Content::Uniform,  Content::Constant, Content::Narrow,
                                 Content::TwoLevel, Content::Ramp,     Content::Sparse};

std::vector<uint8_t> make_plane(Content c, size_t n, uint64_t seed) {
  std::vector<uint8_t> p(n);
  uint64_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = splitmix64(s);
    switch (c) {
      case Content::Uniform:
        p[i] = uint8_t(r);
        break;
      case Content::Constant:
        p[i] = 77;
        break;
      case Content::Narrow:
        p[i] = uint8_t(100 + r % 24);
        break;
      case Content::TwoLevel:
        p[i] = (r & 1) ? 200 : 10;
        break;
      case Content::Ramp:
        p[i] = uint8_t(i);
        break;
      case Content::Sparse:
        p[i] = (r % 1000 == 0) ? 255 : 3;
        break;
    }
  }
  return p;
}

Planes grey_planes(int w, int h, std::vector<uint8_t> plane) {
  Planes p;
  p.width = w;
  p.height = h;
  p.source_channels = 1;
  p.layout = Layout::Grey;
  p.planes.push_back(std::move(plane));
  return p;
}

image::Image colour_image(int w, int h, int channels, uint64_t seed) {
  image::Image img;
  img.width = w;
  img.height = h;
  img.channels = channels;
  img.pixels.resize(size_t(w) * h * channels);
  uint64_t s = seed;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c) {
        // A low-contrast gradient with noise, different per channel.
        const int v =
            90 + (x * 37 / std::max(w, 1) + y * 23 / std::max(h, 1)) * (c + 1) % 60 + int(splitmix64(s) % 9);
        img.pixels[(size_t(y) * w + x) * channels + c] = uint8_t(c == 3 ? (splitmix64(s) & 0xFF) : v);
      }
  return img;
}

class HistEqCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    GPULAB_SKIP_WITHOUT_CUDA();
    stream_ = std::make_unique<cuda::Stream>(cuda::Stream::create_non_blocking());
    engine_ = CudaEngine::create(stream_->get());
  }
  const Variant& v(const char* id) {
    const Variant* found = find_variant(id);
    EXPECT_NE(found, nullptr) << id;
    return *found;
  }
  std::unique_ptr<cuda::Stream> stream_;
  std::unique_ptr<CudaEngine> engine_;
};

TEST_F(HistEqCuda, EveryExactHistogramVariantEqualsTheCpuOnEveryContentAndSize) {
  for (const Size sz : sizes()) {
    for (Content c : kContents) {
      const size_t n = size_t(sz.w) * sz.h;
      const std::vector<uint8_t> plane = make_plane(c, n, n * 31 + int(c));
      const Histogram want = histogram_cpu(plane);
      engine_->upload(grey_planes(sz.w, sz.h, plane));
      for (const Variant* var : variants_of(StageId::Histogram)) {
        if (var->backend != Backend::Cuda || !var->exact || !library_unavailable(*var).empty()) continue;
        engine_->run(*var, var->default_block, 0);
        EXPECT_EQ(engine_->histogram(0), want)
            << var->id << " " << content_name(c) << " " << sz.w << "x" << sz.h;
      }
    }
  }
}

TEST_F(HistEqCuda, EveryHistogramVariantEqualsTheCpuAtEveryBlockSize) {
  const int w = small_tests() ? 131 : 1031, h = small_tests() ? 29 : 517;
  const std::vector<uint8_t> plane = make_plane(Content::Narrow, size_t(w) * h, 5);
  const Histogram want = histogram_cpu(plane);
  engine_->upload(grey_planes(w, h, plane));
  for (const Variant* var : variants_of(StageId::Histogram)) {
    if (var->backend != Backend::Cuda || !var->exact) continue;
    for (int block : var->blocks) {
      engine_->run(*var, block, 0);
      EXPECT_EQ(engine_->histogram(0), want) << var->id << " block " << block;
    }
  }
}

TEST_F(HistEqCuda, RepeatedRunsStayExact) {
  // The one-launch variants clear their own accumulator: a second and third run must not add to the first,
  // nor one variant's to another's.
  const std::vector<uint8_t> plane = make_plane(Content::Uniform, 4099, 9);
  engine_->upload(grey_planes(4099, 1, plane));
  for (const char* id : {"hist-lane-private", "hist-shared-vec", "hist-bank-private", "hist-fused-scan",
                         "hist-lane-private"}) {
    for (int i = 0; i < 3; ++i) {
      engine_->run(v(id), v(id).default_block, 0);
      EXPECT_EQ(engine_->histogram(0), histogram_cpu(plane)) << id << " run " << i;
    }
  }
}

// The Thrust rungs take their temporary memory from the engine's arena: a first call past its size
// goes through cudaMalloc, the next grows it. Every call, before and after, is exact, and nothing is
// left allocated past the arena's block.
TEST_F(HistEqCuda, TheThrustRungsStayExactAsTheirMemoryGrows) {
  const int big = small_tests() ? 211 : 3840, big_h = small_tests() ? 97 : 2161;
  const std::vector<Size> order = {{7, 3}, {big, big_h}, {1, 1}, {big, big_h}, {333, 217}};
  for (const Size sz : order) {
    const size_t n = size_t(sz.w) * sz.h;
    const std::vector<uint8_t> plane = make_plane(Content::Uniform, n, n * 13);
    engine_->upload(grey_planes(sz.w, sz.h, plane));
    for (int i = 0; i < 2; ++i) {
      engine_->run(v("hist-thrust-sort"), 0, 0);
      EXPECT_EQ(engine_->histogram(0), histogram_cpu(plane)) << sz.w << "x" << sz.h << " run " << i;
      engine_->run(v("scan-thrust"), 0, 0);
      EXPECT_EQ(engine_->lut(0), equalize_lut(histogram_cpu(plane))) << sz.w << "x" << sz.h << " run " << i;
      for (const char* id : {"reduce-thrust", "reduce-thrust-transform"}) {
        engine_->run(v(id), 0, 0);
        EXPECT_EQ(engine_->minmax(0), minmax_cpu(plane)) << id << " " << sz.w << "x" << sz.h << " run " << i;
      }
    }
  }
}

// The library lecture's NPP rungs against the CPU on the odd sizes, every content; where NPP
// was not found when gpulab was built, they say so (the cpu test HistEqNpp checks the reason).
TEST_F(HistEqCuda, TheNppRungsEqualTheCpuOnOddSizes) {
  if (std::string why = library_unavailable(v("hist-npp")); !why.empty()) GTEST_SKIP() << why;
  std::vector<Size> odd = {{1, 1}, {7, 3}, {333, 217}};
  if (!small_tests()) odd.push_back({3840, 2160});
  for (const Size sz : odd) {
    for (Content c : kContents) {
      const size_t n = size_t(sz.w) * sz.h;
      const std::vector<uint8_t> plane = make_plane(c, n, n * 13 + int(c));
      const Histogram hist = histogram_cpu(plane);
      const Lut lut = equalize_lut(hist);
      std::vector<uint8_t> want(n);
      apply_lut_cpu(plane, want, lut);
      engine_->upload(grey_planes(sz.w, sz.h, plane));
      engine_->run(v("hist-npp"), 0, 0);
      EXPECT_EQ(engine_->histogram(0), hist) << content_name(c) << " " << sz.w << "x" << sz.h;
      engine_->run(v("scan-serial"), 0, 0);
      engine_->run(v("apply-npp"), 0, 0);
      EXPECT_EQ(engine_->output(0), want) << content_name(c) << " " << sz.w << "x" << sz.h;
    }
  }
}

TEST_F(HistEqCuda, TheRacyHistogramLosesCountsOnAConstantImage) {
  if (small_tests()) GTEST_SKIP() << "the race needs many pixels; not a sanitizer subject";
  const int w = 2048, h = 2048;
  engine_->upload(grey_planes(w, h, make_plane(Content::Constant, size_t(w) * h, 1)));
  engine_->run(v("hist-naive-race"), 256, 0);
  const Histogram got = engine_->histogram(0);
  const uint64_t counted = std::accumulate(got.begin(), got.end(), uint64_t{0});
  EXPECT_LT(counted, uint64_t(w) * h) << "every increment survived: the race did not show";
  EXPECT_GT(got[77], 0u);
  for (int b = 0; b < kBins; ++b) {
    if (b != 77) {
      EXPECT_EQ(got[b], 0u) << "bin " << b;  // it loses counts, it does not invent them
    }
  }
}

TEST_F(HistEqCuda, EveryScanVariantEqualsTheCpuLut) {
  std::vector<Size> cases = sizes();
  if (!small_tests()) cases.push_back({4096, 4097});  // N > 2^24: the float rounding of the sums matters
  for (const Size sz : cases) {
    for (Content c : kContents) {
      const size_t n = size_t(sz.w) * sz.h;
      const std::vector<uint8_t> plane = make_plane(c, n, n + int(c));
      const Histogram h = histogram_cpu(plane);
      const Lut want = equalize_lut(h);
      engine_->upload(grey_planes(sz.w, sz.h, plane));
      engine_->run(v("hist-atomic-global"), 256, 0);
      for (const Variant* var : variants_of(StageId::Scan)) {
        if (var->backend != Backend::Cuda) continue;
        engine_->run(*var, 0, 0);
        EXPECT_EQ(engine_->lut(0), want) << var->id << " " << content_name(c) << " " << sz.w << "x" << sz.h;
      }
      // The histogram that fuses the scan into its last block.
      for (int block : v("hist-fused-scan").blocks) {
        engine_->upload(grey_planes(sz.w, sz.h, plane));  // clears the LUT the scans above wrote
        engine_->run(v("hist-fused-scan"), block, 0);
        EXPECT_EQ(engine_->lut(0), want)
            << "hist-fused-scan block " << block << " " << content_name(c) << " " << sz.w << "x" << sz.h;
        EXPECT_EQ(engine_->histogram(0), h) << "hist-fused-scan block " << block;
      }
    }
  }
}

TEST_F(HistEqCuda, EveryApplyVariantEqualsTheCpu) {
  for (const Size sz : sizes()) {
    const size_t n = size_t(sz.w) * sz.h;
    const std::vector<uint8_t> plane = make_plane(Content::Uniform, n, n * 7);
    const Lut lut = equalize_lut(histogram_cpu(plane));
    std::vector<uint8_t> want(n);
    apply_lut_cpu(plane, want, lut);
    engine_->upload(grey_planes(sz.w, sz.h, plane));
    engine_->run(v("hist-atomic-global"), 256, 0);
    engine_->run(v("scan-serial"), 0, 0);
    for (const Variant* var : variants_of(StageId::Apply)) {
      if (var->backend != Backend::Cuda || !library_unavailable(*var).empty()) continue;
      for (int block : var->blocks.empty() ? std::vector<int>{0}
                                           : std::vector<int>(var->blocks.begin(), var->blocks.end())) {
        engine_->run(*var, block, 0);
        EXPECT_EQ(engine_->output(0), want) << var->id << " block " << block << " " << sz.w << "x" << sz.h;
      }
    }
  }
}

TEST_F(HistEqCuda, EveryReductionFindsMinAndMax) {
  std::vector<Size> cases = sizes();
  cases.push_back({1000, 3});  // 3000: no power of two
  for (const Size sz : cases) {
    for (Content c : {Content::Uniform, Content::Constant, Content::Narrow, Content::Sparse}) {
      const size_t n = size_t(sz.w) * sz.h;
      std::vector<uint8_t> plane = make_plane(c, n, n ^ 0x55);
      if (c == Content::Narrow && n > 2) {  // extremes at the very ends
        plane.front() = 99;
        plane.back() = 124;
      }
      const MinMax want = minmax_cpu(plane);
      engine_->upload(grey_planes(sz.w, sz.h, plane));
      for (const Variant* var : variants_of(StageId::Reduce)) {
        if (var->backend != Backend::Cuda) continue;
        // A library's rung has no block sizes: it runs once, at its own launch.
        const std::vector<int> blocks = var->blocks.empty()
                                            ? std::vector<int>{0}
                                            : std::vector<int>(var->blocks.begin(), var->blocks.end());
        for (int block : blocks) {
          engine_->run(*var, block, 0);
          EXPECT_EQ(engine_->minmax(0), want)
              << var->id << " block " << block << " " << content_name(c) << " " << sz.w << "x" << sz.h;
          EXPECT_EQ(engine_->lut(0), stretch_lut(want)) << var->id;
        }
      }
    }
  }
}

void run_pipeline(Engine& e, const Planes& p, Mode mode, const char* hist, const char* scan,
                  const char* reduce, const char* apply) {
  for (int plane = 0; plane < p.processed(); ++plane) {
    if (mode == Mode::Equalize) {
      e.run(*find_variant(hist), find_variant(hist)->default_block, plane);
      e.run(*find_variant(scan), 0, plane);
    } else {
      e.run(*find_variant(reduce), find_variant(reduce)->default_block, plane);
    }
    e.run(*find_variant(apply), find_variant(apply)->default_block, plane);
  }
}

image::Image merged_output(Engine& e, const Planes& p) {
  std::vector<std::vector<uint8_t>> out;
  for (int i = 0; i < p.processed(); ++i) out.push_back(e.output(i));
  return merge(p, out);
}

TEST_F(HistEqCuda, WholeColourPipelinesEqualTheCpuReference) {
  const int w = small_tests() ? 37 : 641, h = small_tests() ? 23 : 479;
  for (int channels : {1, 2, 3, 4}) {
    const image::Image img = colour_image(w, h, channels, uint64_t(channels) * 99);
    for (Colour colour : {Colour::Luminance, Colour::PerChannel}) {
      for (Mode mode : {Mode::Equalize, Mode::Stretch}) {
        const Planes p = split(img, colour);
        engine_->upload(p);
        const image::Image want = process_cpu(img, mode, colour);
        // The library lecture's pipeline first (Thrust at every stage it has a rung), then ours.
        run_pipeline(*engine_, p, mode, "hist-thrust-sort", "scan-thrust", "reduce-thrust-transform",
                     "apply-global");
        EXPECT_TRUE(merged_output(*engine_, p) == want)
            << "Thrust: " << channels << " channels, colour " << int(colour) << ", mode " << int(mode);
        run_pipeline(*engine_, p, mode, "hist-lane-private", "scan-block", "reduce-warp-shuffle",
                     "apply-shared");
        const image::Image got = merged_output(*engine_, p);
        EXPECT_TRUE(got == want) << channels << " channels, colour " << int(colour) << ", mode " << int(mode);

        // The composed display pixels are the reference's, as RGBA.
        std::vector<uint8_t> rgba(size_t(w) * h * 4);
        engine_->compose(rgba.data());
        const image::Image want_rgba = image::convert_channels(want, 4);
        EXPECT_EQ(rgba, want_rgba.pixels) << channels << " channels, colour " << int(colour);
      }
    }
  }
}

TEST_F(HistEqCuda, TheDisplayShowsTheSourceBeforeTheFirstRun) {
  const image::Image img = colour_image(19, 11, 3, 4);
  engine_->upload(split(img, Colour::Luminance));
  std::vector<uint8_t> rgba(19 * 11 * 4);
  engine_->compose(rgba.data());
  // The YCrCb round trip of OpenCV is what an untouched luminance shows.
  const Planes p = split(img, Colour::Luminance);
  EXPECT_EQ(rgba,
            image::convert_channels(merge(p, std::vector<std::vector<uint8_t>>{p.planes[0]}), 4).pixels);
}

TEST_F(HistEqCuda, BadArgumentsAreRefused) {
  EXPECT_THROW(engine_->histogram(0), std::logic_error);  // nothing uploaded
  EXPECT_THROW(engine_->upload(Planes{}), std::invalid_argument);
  engine_->upload(grey_planes(3, 2, make_plane(Content::Uniform, 6, 1)));
  EXPECT_THROW(engine_->run(v("hist-cpu"), 0, 0), std::invalid_argument);
  EXPECT_THROW(engine_->run(v("hist-atomic-global"), 256, 1), std::out_of_range);
  Planes wrong = grey_planes(3, 2, std::vector<uint8_t>(5));
  EXPECT_THROW(engine_->upload(wrong), std::invalid_argument);
  // The previous image is still there.
  engine_->run(v("hist-atomic-global"), 256, 0);
  EXPECT_EQ(engine_->histogram(0), histogram_cpu(make_plane(Content::Uniform, 6, 1)));
}

TEST_F(HistEqCuda, AnUploadThatDoesNotFitKeepsTheCurrentImage) {
  if (small_tests()) GTEST_SKIP() << "takes the GPU's memory; not a sanitizer subject";
  const std::vector<uint8_t> plane = make_plane(Content::Uniform, 640 * 480, 3);
  engine_->upload(grey_planes(640, 480, plane));
  {
    testing::MemoryHog hog(size_t{64} << 20);
    Planes big = grey_planes(16384, 16384, {});
    big.planes[0].assign(size_t(16384) * 16384, 1);
    try {
      engine_->upload(big);
      FAIL() << "a 16384x16384 image fitted in 64 MiB";
    } catch (const GpuError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
      EXPECT_NE(std::string(e.what()).find("16384x16384"), std::string::npos) << e.what();
    }
  }
  engine_->run(v("hist-lane-private"), 512, 0);
  EXPECT_EQ(engine_->histogram(0), histogram_cpu(plane));
}

TEST_F(HistEqCuda, KernelListsNameOurKernels) {
  for (const Variant& var : variants()) {
    if (var.backend != Backend::Cuda) continue;
    const std::vector<KernelInfo> k = engine_->kernels(var, var.blocks.empty() ? 0 : var.default_block);
    if (var.library) {  // CUB's and Thrust's kernels are the library's: none of ours to show
      EXPECT_TRUE(k.empty()) << var.id;
      continue;
    }
    ASSERT_EQ(k.size(), 1u) << var.id;
    EXPECT_NE(k[0].func, nullptr) << var.id;
    EXPECT_FALSE(k[0].name.empty()) << var.id;
    // Only hist-lane-private has a second code path (its warp sums on sm_75, which lacks redux.sync).
    EXPECT_EQ(k[0].path_min_arch, var.id == "hist-lane-private" ? 80 : 0) << var.id;
  }
}

// The path the occupancy panel names is the one this device's code took: the PTX architecture of the
// kernel that runs (__CUDA_ARCH__ when it was compiled).
TEST_F(HistEqCuda, TheLanePrivateKernelNamesTheWarpSumPathThisDeviceRuns) {
  const std::vector<KernelInfo> k = engine_->kernels(v("hist-lane-private"), 256);
  ASSERT_EQ(k.size(), 1u);
  cudaFuncAttributes attr{};
  ASSERT_EQ(cudaFuncGetAttributes(&attr, k[0].func), cudaSuccess);
  const std::string_view path = kernel_code_path(k[0], attr.ptxVersion);
  EXPECT_NE(path.find(attr.ptxVersion >= 80 ? "redux.sync" : "__shfl_xor_sync"), std::string_view::npos)
      << "PTX sm_" << attr.ptxVersion << ": " << path;
}

}  // namespace
}  // namespace gpulab::histeq

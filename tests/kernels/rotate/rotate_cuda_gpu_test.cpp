// The CUDA rotation engine against the CPU. Every GPU variant equals rotate_unit_cpu (the texture
// unit's model in rotate.h, measured on the H100) byte for byte, with the settings it runs with, in
// every filter, address mode, normalized on and off, odd sizes, 1, 3 and 4 channels; against the float
// definition (rotate_cpu) point filtering is exact except where the unit's fixed-point coordinate
// falls in another texel (a rounding tie the model identifies), and linear filtering is within
// unit_linear_bound (derived in rotate.h from the unit's 8-bit weights: 2 levels without normalized
// coordinates, 3 with them at these sizes). The lecture's kernel against the same at its coordinates,
// the display paths, refusals.
//
// GPULAB_SMALL_TESTS=1 shrinks the images so that compute-sanitizer runs end in minutes.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "cuda/raii.h"
#include "rotate/rotate.h"
#include "rotate/rotate_cuda.h"
#include "support/gpu_skip.h"

namespace gpulab::rotate {
namespace {

using testing::small_tests;

image::Image test_image(int w, int h, int channels, uint32_t seed) {
  image::Image img;
  img.width = w;
  img.height = h;
  img.channels = channels;
  img.pixels.resize(size_t(w) * h * channels);
  uint32_t s = seed;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c) {
        s = s * 1664525u + 1013904223u;
        // A smooth gradient plus noise: edges and texture both.
        const int v =
            (x * 255 / std::max(w - 1, 1) + y * 97 / std::max(h - 1, 1) + c * 50 + int(s >> 28)) & 0xFF;
        img.pixels[(size_t(y) * w + x) * channels + c] = uint8_t(v);
      }
  return img;
}

// got against rotate_cpu: the largest difference outside the ties (point pixels where the unit's
// tap differs from the definition's) and the number of ties.
struct Compare {
  int largest = 0;
  size_t ties = 0;
};
Compare against_definition(const image::Image& got, const image::Image& want, const Variant& v,
                           const Settings& e) {
  Compare r;
  const Coefficients k = coefficients(e.params);
  const int w = want.width, h = want.height;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const Coord sc =
          v.kind() == Kind::Lecture ? lecture_source_coord(x, y, w, h, k) : source_coord(x, y, w, h, k);
      if (e.params.filter == Filter::Point) {
        const PointTap u = unit_point_tap(texture_coord(sc, w, h, e.normalized), w, h, e.normalized,
                                          e.params.address),
                       d = point_tap(sc, w, h, e.params.address);
        if (u.i != d.i || u.j != d.j) {
          ++r.ties;
          continue;
        }
      }
      for (int ch = 0; ch < want.channels; ++ch) {
        const size_t i = (size_t(y) * w + x) * want.channels + ch;
        r.largest = std::max(r.largest, std::abs(int(got.pixels[i]) - int(want.pixels[i])));
      }
    }
  return r;
}

size_t count_differing(const image::Image& a, const image::Image& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) n += a.pixels[i] != b.pixels[i];
  return n;
}

class RotateCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    GPULAB_SKIP_WITHOUT_CUDA();
    stream_ = cuda::Stream::create_non_blocking();
    engine_ = CudaEngine::create(stream_.get());
  }
  void TearDown() override {
    engine_.reset();
    stream_.reset();
  }
  cuda::Stream stream_;
  std::unique_ptr<CudaEngine> engine_;
};

std::vector<std::pair<int, int>> sizes() {
  if (small_tests()) return {{1, 1}, {7, 5}, {33, 17}, {64, 32}};
  return {{1, 1}, {1, 9}, {9, 1}, {7, 5}, {33, 17}, {128, 128}, {301, 203}};
}

TEST_F(RotateCuda, EveryVariantMatchesTheReferenceForEveryModeAndSize) {
  const float angles[] = {0.0f, 90.0f, 180.0f, 30.0f, -47.5f};
  const float scales[] = {1.0f, 0.6f, 1.7f};
  for (auto [w, h] : sizes()) {
    for (int channels : {1, 3, 4}) {
      const image::Image src = test_image(w, h, channels, uint32_t(w * 131 + h * 7 + channels));
      engine_->upload(src);
      for (const Variant& v : variants()) {
        if (v.backend != Backend::Cuda) continue;
        for (Filter f : kFilters)
          for (Address a : kAddresses)
            for (bool normalized : {true, false})
              for (float angle : angles)
                for (float scale : scales) {
                  if (small_tests() && scale != 0.6f) continue;
                  Settings s;
                  s.params = {angle, scale, f, a};
                  s.normalized = normalized;
                  s.read_mode = ReadMode::NormalizedFloat;
                  engine_->run(v, v.default_block, s);
                  const image::Image got = engine_->output();
                  const Settings e = effective(v, s);
                  const bool lecture = v.kind() == Kind::Lecture;
                  ASSERT_EQ(got.channels, channels);
                  const std::string what = std::string(v.id) + " " + std::string(name(f)) + " " +
                                           std::string(name(a)) + (normalized ? " normalized " : " texel ") +
                                           std::to_string(angle) + "deg x" + std::to_string(scale) + " " +
                                           std::to_string(w) + "x" + std::to_string(h) + "x" +
                                           std::to_string(channels);
                  const image::Image unit = rotate_unit_cpu(src, e, lecture);
                  EXPECT_EQ(count_differing(got, unit), 0u) << what << " against the unit model";
                  const image::Image def =
                      lecture ? rotate_lecture_cpu(src, e.params) : rotate_cpu(src, e.params);
                  const Compare c = against_definition(got, def, v, e);
                  const int bound = f == Filter::Linear ? unit_linear_bound(w, h, e) : 0;
                  EXPECT_LE(c.largest, bound) << what << " against the definition (" << c.ties << " ties)";
                }
      }
    }
  }
}

TEST_F(RotateCuda, ExtremeScalesAndFineAnglesFollowTheUnitModel) {
  // Zoomed far out, wrap and mirror repeat the image many times: coordinates many periods away, where
  // the unit's 21-bit normalized coordinates decide; zoomed far in, positions between two texels
  // resolve to 256ths.
  const std::vector<std::pair<int, int>> shapes = small_tests()
                                                      ? std::vector<std::pair<int, int>>{{17, 9}}
                                                      : std::vector<std::pair<int, int>>{{17, 9}, {128, 96}};
  for (auto [w, h] : shapes)
    for (int channels : {1, 4}) {
      const image::Image src = test_image(w, h, channels, uint32_t(w + h + channels));
      engine_->upload(src);
      for (const Variant& v : variants()) {
        if (v.backend != Backend::Cuda) continue;
        for (Filter f : kFilters)
          for (Address a : kAddresses)
            for (bool normalized : {true, false})
              for (float scale : {kMinScale, 0.02f, 37.0f, kMaxScale})
                for (float angle : {0.3f, -61.0f}) {
                  Settings s;
                  s.params = {angle, scale, f, a};
                  s.normalized = normalized;
                  engine_->run(v, v.default_block, s);
                  const image::Image unit = rotate_unit_cpu(src, effective(v, s), v.kind() == Kind::Lecture);
                  EXPECT_EQ(count_differing(engine_->output(), unit), 0u)
                      << v.id << " " << name(f) << " " << name(a) << (normalized ? " normalized " : " texel ")
                      << angle << "deg x" << scale << " " << w << "x" << h << "x" << channels;
                }
      }
    }
}

// The variant table's test above runs tex-pitch-prefetch on grids of a few dozen blocks; here grids
// of thousands (a block prefetches for one about 1.5 waves later, at most half the grid on), at
// every block size, turned, shrunk and enlarged, so that the prefetches reach rows far from the
// block's own. They only warm the L2: the output is the model's byte for byte.
TEST_F(RotateCuda, PrefetchingVariantMatchesTheModelOnGridsOfManyWaves) {
  const Variant& v = *find_variant("tex-pitch-prefetch");
  ASSERT_TRUE(v.l2_prefetch);
  const int w = small_tests() ? 512 : 2048, h = small_tests() ? 384 : 1536;
  for (int channels : {1, 4}) {
    const image::Image src = test_image(w, h, channels, uint32_t(channels * 17));
    engine_->upload(src);
    for (int block : v.blocks)
      for (auto [angle, scale] : {std::pair{30.0f, 1.0f}, {-100.0f, 0.45f}, {12.5f, 3.0f}}) {
        if (small_tests() && block != v.default_block) continue;
        Settings s;
        s.params = {angle, scale, Filter::Linear, Address::Border};
        engine_->run(v, block, s);
        const image::Image got = engine_->output();
        EXPECT_EQ(count_differing(got, rotate_unit_cpu(src, effective(v, s))), 0u)
            << channels << " channels, block " << block << ", " << angle << "deg x" << scale;
      }
  }
}

TEST_F(RotateCuda, ElementTypeReadsEqualNormalizedReadsForPointFiltering) {
  const image::Image src = test_image(65, 33, 4, 3);
  engine_->upload(src);
  for (const char* id : {"tex-array", "tex-pitch"}) {
    Settings s;
    s.params = {30.0f, 1.0f, Filter::Point, Address::Clamp};
    s.read_mode = ReadMode::ElementType;
    engine_->run(*find_variant(id), 16, s);
    const image::Image element = engine_->output();
    s.read_mode = ReadMode::NormalizedFloat;
    engine_->run(*find_variant(id), 16, s);
    EXPECT_EQ(engine_->output(), element) << id;
  }
}

// The bench's fetch-only ceiling runs the variant's fetches and leaves the output as it was (but for
// the one word a fold equal to the key would write: compared here outside that word).
TEST_F(RotateCuda, FetchOnlyRunsWithoutWritingTheOutput) {
  for (int channels : {1, 4}) {
    const image::Image src = test_image(301, 203, channels, 5);
    engine_->upload(src);
    const Variant& v = *find_variant("tex-array-x4");
    Settings s;
    s.params = {30.0f, 1.0f, Filter::Linear, Address::Border};
    engine_->run(v, v.default_block, s);
    const image::Image rotated = engine_->output();
    s.params.angle_deg = 75.0f;  // a fetch-only run of another angle must not change it
    engine_->run_fetch_only(v, v.default_block, s);
    image::Image after = engine_->output();
    ASSERT_EQ(after.pixels.size(), rotated.pixels.size());
    EXPECT_TRUE(std::equal(after.pixels.begin() + 4, after.pixels.end(), rotated.pixels.begin() + 4))
        << channels;
    engine_->run(v, v.default_block, s);
    EXPECT_NE(engine_->output(), rotated) << "the 75° output differs from the 30° one";
  }
}

TEST_F(RotateCuda, DisplayPathsWriteTheOutputAsRgba) {
  const image::Image src = test_image(37, 23, 1, 9);
  engine_->upload(src);
  const Variant& v = *find_variant("tex-array");
  Settings s;
  s.params = {20.0f, 1.2f, Filter::Linear, Address::Border};
  engine_->run(v, 16, s);
  std::vector<uint8_t> want(37 * 23 * 4);
  engine_->compose(want.data());
  // The buffer path (a mapped pixel buffer in the app): rows of a padded pitch.
  const size_t pitch = 37 * 4 + 64;
  uint8_t* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, pitch * 23), cudaSuccess);
  ASSERT_EQ(cudaMemset(d, 0, pitch * 23), cudaSuccess);  // the padding too, which the kernel leaves alone
  engine_->run_to_buffer(v, 16, s, d, pitch);
  std::vector<uint8_t> got(pitch * 23);
  ASSERT_EQ(cudaMemcpyAsync(got.data(), d, got.size(), cudaMemcpyDeviceToHost,
                            reinterpret_cast<cudaStream_t>(engine_->stream())),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(engine_->stream())), cudaSuccess);
  cudaFree(d);
  for (int y = 0; y < 23; ++y)
    EXPECT_EQ(0, std::memcmp(got.data() + y * pitch, want.data() + y * 37 * 4, 37 * 4)) << "row " << y;
}

TEST_F(RotateCuda, BadInputIsRefused) {
  EXPECT_THROW(engine_->output(), std::logic_error);
  EXPECT_THROW(engine_->upload(image::Image{}), std::invalid_argument);
  engine_->upload(test_image(4, 3, 1, 1));
  Settings s;
  s.params.angle_deg = std::nanf("");
  EXPECT_THROW(engine_->run(*find_variant("global"), 16, s), std::invalid_argument);
  s.params.angle_deg = 10;
  EXPECT_THROW(engine_->run(*find_variant("global"), 5, s), std::invalid_argument);
  EXPECT_THROW(engine_->run(*find_variant("cpu"), 0, s), std::invalid_argument);
  engine_->run(*find_variant("global"), 16, s);
  EXPECT_EQ(engine_->output(), rotate_unit_cpu(test_image(4, 3, 1, 1), s));
}

TEST_F(RotateCuda, KernelListsNameOurKernels) {
  engine_->upload(test_image(8, 8, 4, 1));
  for (const Variant& v : variants()) {
    if (v.backend != Backend::Cuda) continue;
    const auto k = engine_->kernels(v, v.default_block);
    ASSERT_EQ(k.size(), 1u) << v.id;
    EXPECT_NE(k[0].func, nullptr);
    EXPECT_EQ(k[0].block_threads, v.default_block / v.per_thread * v.default_block);
  }
}

}  // namespace
}  // namespace gpulab::rotate

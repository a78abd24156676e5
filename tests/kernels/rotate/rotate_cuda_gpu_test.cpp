// The CUDA rotation engine against the CPU reference. Point filtering: every variant equals
// rotate_cpu exactly, except at pixels whose source coordinate lies within kTie of a texel edge
// (there the texture unit's fixed-point coordinates may round the other way). Linear filtering:
// global equals the reference exactly (the same functions); the texture variants within
// kLinearBound levels. Every address mode, normalized coordinates on and off, odd sizes, 1, 3 and 4
// channels, the lecture's kernel against rotate_lecture_cpu, the display paths, refusals.
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

bool small_tests() {
  const char* v = std::getenv("GPULAB_SMALL_TESTS");
  return v && *v && std::strcmp(v, "0") != 0;
}

// The texture unit resolves coordinates to 1/256 of a texel (its 8 fractional bits); a point sample
// within that of a texel edge may land on either side.
constexpr float kTie = 1.0f / 256;
// Linear filtering: the unit's weights have 8 fractional bits, so each of fx, fy is off by at most
// 1/512; a blend of values 0..255 then moves by at most 255 · (1/512 + 1/512) ≈ 1.0, and the final
// rounding of the normalized float adds at most one more: 2 levels.
constexpr int kLinearBound = 2;

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
        const int v = (x * 255 / std::max(w - 1, 1) + y * 97 / std::max(h - 1, 1) + c * 50 + int(s >> 28)) & 0xFF;
        img.pixels[(size_t(y) * w + x) * channels + c] = uint8_t(v);
      }
  return img;
}

bool near_edge(float v) {
  const float f = v - std::floor(v);
  return f < kTie || f > 1 - kTie;
}

struct Compare {
  size_t differ = 0, skipped = 0;
  int largest = 0;
};
Compare compare(const image::Image& got, const image::Image& want, const Variant& v, const Settings& s, int bound) {
  Compare r;
  const Coefficients k = coefficients(effective(v, s).params);
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x) {
      const Coord c = v.kind == Kind::Lecture ? lecture_source_coord(x, y, want.width, want.height, k)
                                              : source_coord(x, y, want.width, want.height, k);
      const bool point = s.params.filter == Filter::Point;
      const bool tie = point ? (near_edge(c.x) || near_edge(c.y)) : (near_edge(c.x - 0.5f) || near_edge(c.y - 0.5f));
      for (int ch = 0; ch < want.channels; ++ch) {
        const size_t i = (size_t(y) * want.width + x) * want.channels + ch;
        const int d = std::abs(int(got.pixels[i]) - int(want.pixels[i]));
        if (d == 0) continue;
        if (point && tie && v.kind != Kind::Global) {
          ++r.skipped;
          continue;
        }
        r.largest = std::max(r.largest, d);
        if (d > bound) ++r.differ;
      }
    }
  return r;
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
  if (small_tests()) return {{1, 1}, {7, 5}, {33, 17}};
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
                  const Params p = effective(v, s).params;
                  const image::Image want = v.kind == Kind::Lecture ? rotate_lecture_cpu(src, p) : rotate_cpu(src, p);
                  ASSERT_EQ(got.channels, channels);
                  const int bound = (f == Filter::Linear && v.kind != Kind::Global) ? kLinearBound : 0;
                  const Compare c = compare(got, want, v, s, bound);
                  EXPECT_EQ(c.differ, 0u) << v.id << " " << name(f) << " " << name(a) << (normalized ? " norm" : " texel")
                                          << " " << angle << "deg x" << scale << " " << w << "x" << h << "x" << channels
                                          << ": largest difference " << c.largest << ", " << c.skipped << " ties skipped";
                }
      }
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
  EXPECT_EQ(engine_->output(), rotate_cpu(test_image(4, 3, 1, 1), s.params));
}

TEST_F(RotateCuda, KernelListsNameOurKernels) {
  engine_->upload(test_image(8, 8, 4, 1));
  for (const Variant& v : variants()) {
    if (v.backend != Backend::Cuda) continue;
    const auto k = engine_->kernels(v, v.default_block);
    ASSERT_EQ(k.size(), 1u) << v.id;
    EXPECT_NE(k[0].func, nullptr);
    EXPECT_EQ(k[0].block_threads, v.default_block * v.default_block);
  }
}

}  // namespace
}  // namespace gpulab::rotate

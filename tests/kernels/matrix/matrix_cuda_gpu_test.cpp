// The CUDA matrix engine against the CPU. Every GPU transpose variant equals transpose_cpu bit for
// bit; every GPU multiply variant is within its bound of the float64 product at every element
// (verify_product): FP32 variants |c − exact| <= (γ_K + u)·Σ|a||b| with u = 2^-24, γ_K = K·u/(1−K·u)
// (float32 rounding of every product and sum in any order, FMA or not, and of the stored result);
// tensor variants add 2·u_in + u_in² for the rounding of each input (bf16: u_in = 2^-8, tf32 read
// by truncation: 2^-10), matrix::tensor_bound. Sizes include 1x1, odd sizes and non-multiples of
// every tile (16, 32, 64, 128). The bound is shown to bite: the BF16 result is outside the FP32
// bound on random data, and a single perturbed element is caught. cuBLAS at TF32 / BF16 (the bench's
// yardsticks) within the same tensor bounds. The Hopper rungs (TMA + wgmma) on odd, tall, wide and
// K = 1 shapes where the GPU and the build have them (a skip with the reason elsewhere, a failure
// with GPULAB_REQUIRE_GPU=1 on a Hopper GPU), and the mma.sync yardstick runs cleanly.
//
// GPULAB_SMALL_TESTS=1 shrinks the sizes so that compute-sanitizer runs end in minutes.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda/raii.h"
#include "matrix/matrix.h"
#include "matrix/matrix_cuda.h"
#include "support/gpu_skip.h"

namespace gpulab::matrix {
namespace {

using testing::small_tests;

class MatrixCudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GPULAB_SKIP_WITHOUT_CUDA();
    stream_ = cuda::Stream::create_non_blocking();
    engine_ = CudaEngine::create(stream_.get());
  }
  cuda::Stream stream_;
  std::unique_ptr<CudaEngine> engine_;
};

Words random_words(int r, int c, uint64_t seed) {
  Words w(r, c);
  for (size_t i = 0; i < w.size(); ++i)
    w.data[i] = uint32_t((i + 1) * 0x9E3779B97F4A7C15ull >> 17) ^ uint32_t(seed);
  return w;
}

struct Shape {
  int m, n, k;
};
std::string label(Shape s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

TEST_F(MatrixCudaTest, EveryTransposeVariantIsExactAtOddAndTileSizes) {
  std::vector<std::pair<int, int>> sizes = {{1, 1},   {1, 70},    {70, 1},   {31, 33},
                                            {64, 64}, {100, 257}, {128, 256}};
  if (!small_tests()) sizes.insert(sizes.end(), {{1000, 999}, {2048, 1024}, {4099, 3}});
  for (auto [r, c] : sizes) {
    const Words in = random_words(r, c, r * 31 + c);
    const Words want = transpose_cpu(in);
    engine_->set_words(in);
    for (const Variant* v : variants_of(Op::Transpose)) {
      if (v->backend != Backend::Cuda) continue;
      SCOPED_TRACE(std::string(v->id) + " " + std::to_string(r) + "x" + std::to_string(c));
      engine_->run(*v, v->default_block);
      const Words got = engine_->transposed();
      EXPECT_EQ(verify_transpose(got, in), "");
      EXPECT_EQ(got, want);
    }
    // The copy the bench bounds the transpose with moves the same bytes.
    engine_->run_memcpy();
    EXPECT_EQ(engine_->transposed().data, in.data);
  }
}

TEST_F(MatrixCudaTest, EveryMultiplyVariantIsWithinItsBound) {
  // {100, 260, 20}: K and N multiples of 4 (the 16-byte loads of gemm-warp-tile) with M, N off the tile.
  std::vector<Shape> shapes = {{1, 1, 1},      {17, 33, 9},  {128, 128, 128},
                               {129, 255, 67}, {64, 200, 3}, {100, 260, 20}};
  if (!small_tests()) shapes.insert(shapes.end(), {{300, 200, 513}, {256, 512, 260}, {1000, 37, 1500}});
  for (const Shape s : shapes) {
    const Operands o = generate(Init::Random, s.m, s.n, s.k, s.m * 7 + s.k);
    engine_->set_operands(o.a, o.b);
    for (const Variant* v : variants_of(Op::Multiply)) {
      // Rungs this GPU or build lacks (the wgmma ones off Hopper) have their own test below.
      if (v->backend != Backend::Cuda || !engine_->why_unavailable(*v).empty()) continue;
      const std::vector<int> blocks =
          v->blocks.empty() ? std::vector<int>{0} : std::vector<int>(v->blocks.begin(), v->blocks.end());
      for (int b : blocks) {
        SCOPED_TRACE(std::string(v->id) + " block " + std::to_string(b) + " " + label(s));
        engine_->run(*v, b);
        const Matrix c = engine_->product();
        ASSERT_EQ(c.rows, s.m);
        ASSERT_EQ(c.cols, v->aat() ? s.m : s.n);
        EXPECT_EQ(verify_product(c, o.a, o.b, *v), "");
      }
    }
    for (Precision p : {Precision::Tf32, Precision::Bf16}) {
      SCOPED_TRACE(std::string("cuBLAS ") + (p == Precision::Tf32 ? "TF32 " : "BF16 ") + label(s));
      engine_->run_cublas(p);
      Variant like = *find_variant(p == Precision::Tf32 ? "gemm-tensor-tf32" : "gemm-tensor-bf16");
      EXPECT_EQ(verify_product(engine_->product(), o.a, o.b, like), "");
    }
  }
}

// The Hopper rungs (TMA + wgmma): off Hopper, or in a build without sm_90a code, they are unavailable
// with the reason and this test skips saying it; with GPULAB_REQUIRE_GPU=1 on a compute capability
// 9.0 GPU it must run. Shapes off every tile (128 and 256 rows, 64 bf16 / 32 float of K a stage), K = 1,
// K shorter than a stage, tall, wide, and K long enough to wrap the stage ring several times. Each
// run starts from a C that set_operands zeroed: random data has no zero product, so an element the
// kernel failed to write is caught (and no earlier variant's result is left in C to pass for it).
TEST_F(MatrixCudaTest, WgmmaRungsAreWithinTheTensorBoundOnOddShapes) {
  const Variant* tf32 = find_variant("gemm-tensor-wgmma-tf32");
  const Variant* bf16 = find_variant("gemm-tensor-wgmma-bf16");
  ASSERT_TRUE(tf32 && bf16);
  if (const std::string no = engine_->why_unavailable(*bf16); !no.empty()) {
    int device = 0, major = 0, minor = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), cudaSuccess);
    if (testing::gpu_required() && major == 9 && minor == 0) FAIL() << "a Hopper GPU, and: " << no;
    GTEST_SKIP() << no;
  }
  EXPECT_EQ(engine_->why_unavailable(*tf32), "");
  std::vector<Shape> shapes = {{1, 1, 1},     {17, 33, 9},     {129, 255, 67}, {64, 200, 3},
                               {300, 500, 1}, {257, 383, 131}, {128, 256, 64}, {130, 7, 40}};
  if (!testing::small_tests())
    shapes.insert(shapes.end(), {{2000, 24, 100},     // tall
                                 {24, 2000, 100},     // wide
                                 {300, 520, 1500},    // many stages: the ring wraps several times
                                 {1000, 37, 1501},    // odd K (TF32 reads a padded copy of A)
                                 {512, 768, 1024}});  // every tile full
  for (const Shape s : shapes) {
    const Operands o = generate(Init::Random, s.m, s.n, s.k, s.m * 13 + s.n * 7 + s.k);
    for (const Variant* v : {tf32, bf16}) {
      SCOPED_TRACE(std::string(v->id) + " " + label(s));
      engine_->set_operands(o.a, o.b);  // C zeroed
      engine_->run(*v, 0);
      const Matrix c = engine_->product();
      ASSERT_EQ(c.rows, s.m);
      ASSERT_EQ(c.cols, s.n);
      EXPECT_EQ(verify_product(c, o.a, o.b, *v), "");
    }
  }
  // Exact where the inputs and every partial sum are representable: the identity through both.
  const Operands id = generate(Init::Identity, 200, 300, 150, 0);
  engine_->set_operands(id.a, id.b);
  const Matrix want = gemm_cpu(id.a, id.b);
  for (const Variant* v : {tf32, bf16}) {
    SCOPED_TRACE(v->id);
    engine_->run(*v, 0);
    EXPECT_EQ(engine_->product(), want);
  }
}

// The mma.sync yardstick runs (it computes no product: only that it launches and ends cleanly) where
// the mma.sync rungs run, and refuses with their reason elsewhere.
TEST_F(MatrixCudaTest, MmaPeakYardstickRuns) {
  const Operands o = generate(Init::Random, 256, 256, 256, 3);
  engine_->set_operands(o.a, o.b);
  int device = 0, major = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
  for (Precision p : {Precision::Tf32, Precision::Bf16}) {
    if (major < 8) {
      EXPECT_THROW(engine_->run_mma_peak(p), std::runtime_error);
      continue;
    }
    engine_->run_mma_peak(p);
    EXPECT_EQ(cudaStreamSynchronize(stream_.get()), cudaSuccess);
  }
}

TEST_F(MatrixCudaTest, TheBoundsBite) {
  const Shape s{96, 80, 513};
  const Operands o = generate(Init::Random, s.m, s.n, s.k, 5);
  engine_->set_operands(o.a, o.b);
  // BF16's result is outside the FP32 bound: the tensor variants' looser bound is needed, not slack.
  engine_->run(*find_variant("gemm-tensor-bf16"), 0);
  const Matrix bf = engine_->product();
  EXPECT_NE(verify_product(bf, o.a, o.b, *find_variant("gemm-warp-tile")), "");
  // One element moved by a few bound widths is caught.
  engine_->run(*find_variant("gemm-warp-tile"), 0);
  Matrix c = engine_->product();
  ASSERT_EQ(verify_product(c, o.a, o.b, *find_variant("gemm-warp-tile")), "");
  const double mag = gemm_abs_f64(o.a, o.b)[size_t(50) * s.n + 70];
  c.at(50, 70) += float(4.0 * fp32_bound(s.k) * mag);  // four bound widths
  EXPECT_NE(verify_product(c, o.a, o.b, *find_variant("gemm-warp-tile")), "");
}

TEST_F(MatrixCudaTest, IdentityAndSmallIntegersAreExactEvenOnTensorCores) {
  const Operands id = generate(Init::Identity, 130, 70, 100, 0);
  engine_->set_operands(id.a, id.b);
  const Matrix want = gemm_cpu(id.a, id.b);
  for (const Variant* v : variants_of(Op::Multiply)) {
    if (v->backend != Backend::Cuda || v->aat() || !engine_->why_unavailable(*v).empty()) continue;
    SCOPED_TRACE(v->id);
    engine_->run(*v, v->default_block);
    EXPECT_EQ(engine_->product(), want);
  }
}

TEST_F(MatrixCudaTest, RangeOfTheProductForTheHeatMap) {
  Matrix a(2, 2), b(2, 2);
  a.data = {1, 2, 3, 4};
  b.data = {-1, 0, 0, 5};
  engine_->set_operands(a, b);
  engine_->run(*find_variant("gemm-naive"), 16);
  const auto [lo, hi] = engine_->product_range();
  EXPECT_EQ(lo, -3.0f);  // C = [[-1, 10], [-3, 20]]
  EXPECT_EQ(hi, 20.0f);
}

TEST_F(MatrixCudaTest, RefusesMismatchedOperands) {
  Matrix a(3, 4), b(5, 2);
  EXPECT_THROW(engine_->set_operands(a, b), std::invalid_argument);
  EXPECT_THROW(engine_->set_words(Words()), std::invalid_argument);
}

}  // namespace
}  // namespace gpulab::matrix

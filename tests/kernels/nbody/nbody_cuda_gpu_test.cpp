// The CUDA N-body engine against the CPU reference: every GPU variant at its default and at every
// other block size on sizes that are no multiple of anything, ε = 0, variant switches mid-run,
// gpu-pair-tiles at odd sizes around its 256-body tiles and its bits (every run, block and grid alike),
// diagnostics (blocking and polled), display vertices, the memory check and the kernel list of the
// occupancy panel. Skips with a message where no CUDA device exists.
//
// GPULAB_SMALL_TESTS=1 shrinks the sizes (N <= 1000, 2 steps) so that compute-sanitizer runs finish
// in about a minute.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.h"
#include "cuda/raii.h"
#include "nbody/nbody.h"
#include "nbody/nbody_cuda.h"
#include "support/gpu_memory.h"
#include "support/gpu_skip.h"

namespace gpulab::nbody {
namespace {

using testing::small_tests;

std::vector<size_t> sizes() {
  if (small_tests()) return {1, 2, 127, 1000};
  return {1, 2, 127, 1000, 4096, 16385};
}
int steps_k() { return small_tests() ? 2 : 10; }

// Tolerance on positions after K steps, relative to the system's 90%-mass radius R.
// The CPU sums forces in double; the GPU variants in float (N terms, in their own order) with
// rsqrt (about 2^-22 relative) or IEEE sqrt. Each term is at most m_j/(2.6 ε²) in size, so with
// total mass M = 1 and ε = 0.05 the terms of a body sum to at most ~150 in magnitude and the float
// sum is off by about sqrt(N)·2^-24·150 ≈ 1e-3 at N = 16385 (random-walk rounding; the forces
// themselves are O(1)). An acceleration error δa moves a body by about δa·dt²·K²/2 ≈
// 1e-3 · 2.5e-5 · 50 ≈ 1.3e-6 after K = 10 steps of dt = 0.005, and the positions themselves
// carry float rounding of 2^-24·R a step. Both are ~1e-6·R; 2e-5·R leaves a factor >10 for close
// encounters, which amplify differences. A wrong term is far larger: a missing tile or tail of
// bodies at N = 16385 changes a body's acceleration by O(0.01-1), its position by >= 1e-6 after
// one step and ~1e-4 after ten.
// An absolute floor (1e-6) covers N = 1, where R = 0.
constexpr double kRelativeTolerance = 2e-5;
constexpr double kAbsoluteFloor = 1e-6;

Params test_params() {
  Params p;
  p.G = 1.0f;
  p.softening = 0.05f;
  p.dt = 0.005f;
  return p;
}

System initial(size_t n, uint64_t seed = 7, InitKind kind = InitKind::Plummer) {
  return make_initial(kind, n, seed, test_params());
}

std::vector<const Variant*> gpu_variants() {
  std::vector<const Variant*> list;
  for (const Variant& v : variants())
    if (v.backend == Backend::Cuda) list.push_back(&v);
  return list;
}

// Variants whose float sums are added in a fixed order (all but the one that adds with atomics).
bool deterministic(const Variant& v) { return v.id != "gpu-warp-pairs"; }

const Variant& variant(std::string_view id) {
  const Variant* v = find_variant(id);
  if (v == nullptr) throw std::runtime_error("no variant " + std::string(id));
  return *v;
}

// The CPU reference after k steps, cached per (n, k, seed, ε).
const System& cpu_after(size_t n, int k, uint64_t seed = 7, float softening = 0.05f) {
  static std::map<std::tuple<size_t, int, uint64_t, float>, System> cache;
  const auto key = std::make_tuple(n, k, seed, softening);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  auto cpu = make_cpu_engine();
  Params p = test_params();
  p.softening = softening;
  cpu->set_params(p);
  cpu->upload(initial(n, seed));
  cpu->step(variant("cpu"), 0, k);
  return cache.emplace(key, cpu->download()).first->second;
}

double tolerance_for(const System& s) {
  const Diagnostics d = diagnostics_cpu(s, test_params());
  return std::max(kRelativeTolerance * d.radius, kAbsoluteFloor);
}

class NbodyCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    GPULAB_SKIP_WITHOUT_CUDA();
    stream_ = cuda::Stream::create_non_blocking();
    engine_ = CudaEngine::create(stream_.get());
    engine_->set_params(test_params());
  }
  void TearDown() override {
    engine_.reset();
    stream_.reset();
  }

  System gpu_after(const Variant& v, int block, size_t n, int k, uint64_t seed = 7) {
    engine_->upload(initial(n, seed));
    engine_->step(v, block, k);
    return engine_->download();
  }

  cuda::Stream stream_;
  std::unique_ptr<CudaEngine> engine_;
};

TEST_F(NbodyCuda, EveryVariantMatchesTheCpuAtItsDefaultBlock) {
  const int k = steps_k();
  for (size_t n : sizes()) {
    const System& want = cpu_after(n, k);
    const double tol = tolerance_for(want);
    for (const Variant* v : gpu_variants()) {
      SCOPED_TRACE(std::string(v->id) + " N=" + std::to_string(n));
      const System got = gpu_after(*v, v->default_block, n, k);
      ASSERT_EQ(got.size(), n);
      EXPECT_EQ(got.m, want.m);
      EXPECT_LE(max_position_difference(got, want), tol);
    }
  }
}

TEST_F(NbodyCuda, EveryVariantMatchesTheCpuAtEveryBlock) {
  const int k = small_tests() ? 1 : 3;
  const std::vector<size_t> ns =
      small_tests() ? std::vector<size_t>{127, 1000} : std::vector<size_t>{1000, 16385};
  for (size_t n : ns) {
    const System& want = cpu_after(n, k);
    const double tol = tolerance_for(want);
    for (const Variant* v : gpu_variants()) {
      for (int block : v->blocks) {
        if (block == v->default_block) continue;
        SCOPED_TRACE(std::string(v->id) + " block " + std::to_string(block) + " N=" + std::to_string(n));
        EXPECT_LE(max_position_difference(gpu_after(*v, block, n, k), want), tol);
      }
    }
  }
}

TEST_F(NbodyCuda, ZeroSofteningKeepsTheSelfTermZero) {
  // ε = 0: the kernels' guarded path. One step from a Plummer sphere: finite, and as the CPU.
  const size_t n = small_tests() ? 127 : 1000;
  Params p = test_params();
  p.softening = 0.0f;
  engine_->set_params(p);
  const System& want = cpu_after(n, 1, 7, 0.0f);
  const double tol = tolerance_for(want);
  for (const Variant* v : gpu_variants()) {
    SCOPED_TRACE(v->id);
    const System got = gpu_after(*v, v->default_block, n, 1);
    for (size_t i = 0; i < n; ++i)
      ASSERT_TRUE(std::isfinite(got.x[i]) && std::isfinite(got.vx[i])) << "body " << i;
    EXPECT_LE(max_position_difference(got, want), tol);
  }
  // A single body feels nothing at ε = 0 either: it keeps its velocity.
  System one = initial(1);
  one.vx[0] = 1.0f;
  for (const Variant* v : gpu_variants()) {
    engine_->upload(one);
    engine_->step(*v, v->default_block, 3);
    const System got = engine_->download();
    EXPECT_EQ(got.vx[0], 1.0f) << v->id;
    EXPECT_EQ(got.vy[0], 0.0f) << v->id;
  }
}

TEST_F(NbodyCuda, SwitchingVariantsMidRunGivesTheSamePhysics) {
  const size_t n = small_tests() ? 1000 : 4096;
  const int rounds = small_tests() ? 1 : 2;
  const std::vector<const Variant*> list = gpu_variants();
  const int k = rounds * static_cast<int>(list.size());
  const System& want = cpu_after(n, k);
  engine_->upload(initial(n));
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < list.size(); ++i) {
      // Alternate the order so every variant follows every other once.
      const Variant* v = list[r % 2 == 0 ? i : list.size() - 1 - i];
      engine_->step(*v, v->blocks[i % v->blocks.size()], 1);
    }
  EXPECT_LE(max_position_difference(engine_->download(), want), tolerance_for(want));
}

TEST_F(NbodyCuda, AVariantIsDeterministic) {
  // Except gpu-warp-pairs, whose atomics add in whatever order the warps arrive: there, two runs
  // agree to the tolerance only.
  const size_t n = small_tests() ? 1000 : 16385;
  for (const Variant* v : gpu_variants()) {
    const System a = gpu_after(*v, v->default_block, n, 2);
    const System b = gpu_after(*v, v->default_block, n, 2);
    if (deterministic(*v))
      EXPECT_TRUE(a == b) << v->id;
    else
      EXPECT_LE(max_position_difference(a, b), tolerance_for(a)) << v->id;
  }
}

// Sets gpu-pair-tiles' test knobs for a scope, and resets them also on a failed assertion.
struct PairTileTuning {
  PairTileTuning(int max_workers, bool whole_rows) { set_pair_tile_tuning(max_workers, whole_rows); }
  ~PairTileTuning() { set_pair_tile_tuning(0, false); }
  PairTileTuning(const PairTileTuning&) = delete;
  PairTileTuning& operator=(const PairTileTuning&) = delete;
};

// gpu-pair-tiles around its 256-body tiles: a single body, fewer bodies than a tile, one tile and
// one body more, several tiles and a tail, at every block size, in segments of rows (what it does
// below about 700,000 bodies) and in whole rows (above), against the float64 reference within the
// same tolerance as every rung.
TEST_F(NbodyCuda, PairTilesMatchTheCpuAtOddSizesAndEveryBlock) {
  const Variant& v = variant("gpu-pair-tiles");
  const int k = small_tests() ? 2 : 5;
  const std::vector<size_t> ns = small_tests() ? std::vector<size_t>{1, 3, 255, 257, 1000}
                                               : std::vector<size_t>{1, 3, 31, 255, 257, 1001, 4097, 16385};
  for (bool whole_rows : {false, true}) {
    PairTileTuning tuning(0, whole_rows);
    for (size_t n : ns) {
      const System& want = cpu_after(n, k);
      const double tol = tolerance_for(want);
      for (int block : v.blocks) {
        SCOPED_TRACE("block " + std::to_string(block) + " N=" + std::to_string(n) +
                     (whole_rows ? " whole rows" : " segments"));
        const System got = gpu_after(v, block, n, k);
        ASSERT_EQ(got.size(), n);
        EXPECT_EQ(got.m, want.m);
        EXPECT_LE(max_position_difference(got, want), tol);
      }
    }
  }
}

// The state's raw bytes: positions, velocities, masses.
std::vector<unsigned char> raw_bytes(const System& s) {
  std::vector<unsigned char> bytes;
  for (const std::vector<float>* a : {&s.x, &s.y, &s.z, &s.vx, &s.vy, &s.vz, &s.m}) {
    const auto* p = reinterpret_cast<const unsigned char*>(a->data());
    bytes.insert(bytes.end(), p, p + a->size() * sizeof(float));
  }
  return bytes;
}

// Its summation order is fixed by N alone (and whole rows or segments): the same bytes from run to
// run, at every block size, and whether one warp walks every task or many share them (1, 2, 3, 7
// workers: tasks taken in turn, column counters waited on across warps and blocks).
TEST_F(NbodyCuda, PairTilesGiveTheSameBitsEveryRunBlockAndGrid) {
  const Variant& v = variant("gpu-pair-tiles");
  const size_t n = small_tests() ? 1000 : 16385;
  const int k = small_tests() ? 2 : 4;
  for (bool whole_rows : {false, true}) {
    SCOPED_TRACE(whole_rows ? "whole rows" : "segments");
    std::vector<unsigned char> first;
    {
      PairTileTuning tuning(0, whole_rows);
      first = raw_bytes(gpu_after(v, v.default_block, n, k));
      ASSERT_EQ(first.size(), n * 7 * sizeof(float));
      const std::vector<unsigned char> second = raw_bytes(gpu_after(v, v.default_block, n, k));
      EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size()), 0) << "two runs differ";
    }
    for (int workers : {1, 2, 3, 7, 0}) {
      PairTileTuning tuning(workers, whole_rows);
      for (int block : v.blocks) {
        const std::vector<unsigned char> got = raw_bytes(gpu_after(v, block, n, k));
        ASSERT_EQ(got.size(), first.size());
        EXPECT_EQ(std::memcmp(got.data(), first.data(), first.size()), 0)
            << "block " << block << ", " << workers << " workers";
      }
    }
  }
}

TEST_F(NbodyCuda, ChangingGRecomputesTheAccelerations) {
  const size_t n = small_tests() ? 127 : 1000;
  Params p = test_params();
  auto cpu = make_cpu_engine();
  cpu->set_params(p);
  cpu->upload(initial(n));
  cpu->step(variant("cpu"), 0, 2);
  engine_->upload(initial(n));
  const Variant& v = variant("gpu-tile-float4");
  engine_->step(v, v.default_block, 2);
  p.G = 2.0f;
  cpu->set_params(p);
  engine_->set_params(p);
  cpu->step(variant("cpu"), 0, 2);
  engine_->step(v, v.default_block, 2);
  const System want = cpu->download();
  EXPECT_LE(max_position_difference(engine_->download(), want), tolerance_for(want));
  EXPECT_EQ(engine_->params(), p);
}

// Diagnostics of the GPU against diagnostics_cpu of the same (downloaded) state:
//   kinetic energy, momentum, angular momentum, centre of mass, total mass: double sums of the same
//     float values in another order: 1e-9 relative to the sum of magnitudes;
//   potential: per-body float sums of N terms with rsqrtf (about 2^-22 each), then double: 1e-5
//     relative (sqrt(N)·2^-23 ≈ 1.5e-5 at worst-case alignment for N = 16385 is rare; the sums of
//     positive terms do not cancel, so their relative rounding is about 2^-24·sqrt(N) ≈ 8e-6);
//   radius: the same definition on the same float positions, distances from a centre of mass that
//     differs by ~1e-16: 1e-9 relative. The cumulated mass is summed in another order, so where it
//     ties with 90% of the total (equal masses, 0.9·N whole) either neighbour of the CPU's body may
//     be chosen: the GPU's radius must be the distance of the CPU's body or of one next to it.
void expect_diagnostics_near(const Diagnostics& got, const Diagnostics& want, const System& s) {
  double mv = 0, mrv = 0, mr = 0, mass = 0, m2 = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const double v =
        std::sqrt(double(s.vx[i]) * s.vx[i] + double(s.vy[i]) * s.vy[i] + double(s.vz[i]) * s.vz[i]);
    const double r = std::sqrt(double(s.x[i]) * s.x[i] + double(s.y[i]) * s.y[i] + double(s.z[i]) * s.z[i]);
    mv += s.m[i] * v;
    mrv += s.m[i] * r * v;
    mr += s.m[i] * r;
    mass += s.m[i];
    m2 += 0.5 * s.m[i] * v * v;
  }
  EXPECT_NEAR(got.kinetic, want.kinetic, 1e-9 * m2 + 1e-300);
  EXPECT_NEAR(got.potential, want.potential, 1e-5 * std::fabs(want.potential) + 1e-300);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(got.momentum[k], want.momentum[k], 1e-9 * mv + 1e-300) << k;
    EXPECT_NEAR(got.angular_momentum[k], want.angular_momentum[k], 1e-9 * mrv + 1e-300) << k;
    EXPECT_NEAR(got.centre_of_mass[k], want.centre_of_mass[k], 1e-9 * (mr / std::max(mass, 1e-300)) + 1e-300)
        << k;
  }
  EXPECT_NEAR(got.total_mass, want.total_mass, 1e-12 * mass);
  std::vector<double> d(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const double dx = s.x[i] - want.centre_of_mass[0], dy = s.y[i] - want.centre_of_mass[1],
                 dz = s.z[i] - want.centre_of_mass[2];
    d[i] = std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  std::sort(d.begin(), d.end());
  const size_t k =
      static_cast<size_t>(std::lower_bound(d.begin(), d.end(), want.radius * (1 - 1e-12)) - d.begin());
  bool near_one = false;
  for (size_t c = k == 0 ? 0 : k - 1; c <= k + 1 && c < d.size(); ++c)
    near_one = near_one || std::fabs(got.radius - d[c]) <= 1e-9 * want.radius + 1e-300;
  EXPECT_TRUE(near_one) << "radius " << got.radius << ", CPU " << want.radius;
}

TEST_F(NbodyCuda, DiagnosticsMatchTheCpu) {
  const Variant& v = variant("gpu-tile-register");
  for (size_t n : sizes()) {
    SCOPED_TRACE("N=" + std::to_string(n));
    engine_->upload(initial(n, 11, InitKind::Disk));
    engine_->step(v, v.default_block, 2);
    const System s = engine_->download();
    expect_diagnostics_near(engine_->diagnostics(), diagnostics_cpu(s, test_params()), s);
  }
}

TEST_F(NbodyCuda, PolledDiagnosticsEqualTheBlockingOnes) {
  const size_t n = small_tests() ? 1000 : 16385;
  engine_->upload(initial(n));
  const Variant& v = variant("gpu-tile-split");
  engine_->step(v, v.default_block, 2);
  EXPECT_FALSE(engine_->poll_diagnostics().has_value());  // nothing requested yet
  engine_->request_diagnostics();
  std::optional<Diagnostics> polled;
  for (int tries = 0; tries < 100000 && !polled; ++tries) polled = engine_->poll_diagnostics();
  if (!polled) {
    stream_.synchronize();
    polled = engine_->poll_diagnostics();
  }
  ASSERT_TRUE(polled.has_value());
  const Diagnostics blocking = engine_->diagnostics();
  EXPECT_EQ(polled->kinetic, blocking.kinetic);
  EXPECT_EQ(polled->potential, blocking.potential);
  EXPECT_EQ(polled->momentum, blocking.momentum);
  EXPECT_EQ(polled->angular_momentum, blocking.angular_momentum);
  EXPECT_EQ(polled->centre_of_mass, blocking.centre_of_mass);
  EXPECT_EQ(polled->total_mass, blocking.total_mass);
  EXPECT_EQ(polled->radius, blocking.radius);
  EXPECT_FALSE(engine_->poll_diagnostics().has_value());  // handed over once
}

TEST_F(NbodyCuda, DeviceVerticesEqualHostVertices) {
  for (size_t n : {size_t{1}, size_t{127}, size_t{1000}}) {
    engine_->upload(initial(n));
    const Variant& v = variant("gpu-shared-tile");
    engine_->step(v, v.default_block, 1);
    std::vector<Vertex> host(n);
    engine_->write_vertices(host.data());
    Vertex* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, n * sizeof(Vertex)), cudaSuccess);
    engine_->write_vertices_device(d);
    std::vector<Vertex> from_device(n);
    stream_.synchronize();
    ASSERT_EQ(cudaMemcpy(from_device.data(), d, n * sizeof(Vertex), cudaMemcpyDeviceToHost), cudaSuccess);
    cudaFree(d);
    ASSERT_EQ(std::memcmp(host.data(), from_device.data(), n * sizeof(Vertex)), 0) << "N=" << n;
    // And they are the state: positions, masses, speeds.
    const System s = engine_->download();
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(host[i].x, s.x[i]);
      EXPECT_EQ(host[i].mass, s.m[i]);
      const float speed = std::sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i] + s.vz[i] * s.vz[i]);
      EXPECT_FLOAT_EQ(host[i].speed, speed);
    }
  }
}

TEST_F(NbodyCuda, BytesNeededIsSane) {
  EXPECT_EQ(CudaEngine::bytes_needed(0), 0u);
  // At least the canonical state (pos, vel, acc as float4), at most a few hundred bytes a body.
  for (size_t n : {size_t{1}, size_t{1000}, size_t{16385}, size_t{1} << 20, size_t{1} << 24}) {
    EXPECT_GE(CudaEngine::bytes_needed(n), n * 48) << n;
    EXPECT_LE(CudaEngine::bytes_needed(n), n * 400 + (size_t{64} << 20)) << n;
    EXPECT_LE(CudaEngine::bytes_needed(n), CudaEngine::bytes_needed(n + 1) + (size_t{40} << 20)) << n;
  }
  // The largest system the demo accepts fits an 80 GB GPU with room to spare.
  EXPECT_LT(CudaEngine::bytes_needed(size_t{1} << 24), size_t{4} << 30);
}

// Device memory that the test takes away from the engine, to provoke out-of-memory paths.
using gpulab::testing::MemoryHog;

TEST_F(NbodyCuda, AnUploadThatDoesNotFitThrowsAndKeepsTheState) {
  const size_t n = 1000;
  engine_->upload(initial(n));
  const Variant& v = variant("gpu-tile-register");
  engine_->step(v, v.default_block, 1);
  const System before = engine_->download();
  {
    MemoryHog hog(size_t{64} << 20);     // 64 MiB left
    const size_t big = size_t{1} << 22;  // ~400 MB
    ASSERT_GT(CudaEngine::bytes_needed(big), size_t{128} << 20);
    System huge;
    huge.resize(big);
    std::fill(huge.m.begin(), huge.m.end(), 1.0f / static_cast<float>(big));
    try {
      engine_->upload(huge);
      FAIL() << "upload of " << big << " bodies with 64 MiB free did not throw";
    } catch (const GpuError& e) {
      EXPECT_TRUE(e.out_of_memory()) << e.what();
      EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
    }
    EXPECT_EQ(engine_->size(), n);
    EXPECT_TRUE(engine_->download() == before);
  }
  // The kept state still steps like the CPU from the same point.
  auto cpu = make_cpu_engine();
  cpu->set_params(test_params());
  cpu->upload(before);
  cpu->step(variant("cpu"), 0, 2);
  engine_->step(v, v.default_block, 2);
  const System want = cpu->download();
  EXPECT_LE(max_position_difference(engine_->download(), want), tolerance_for(want));
}

TEST_F(NbodyCuda, RejectsWhatItCannotRun) {
  engine_->upload(initial(10));
  EXPECT_THROW(engine_->step(variant("cpu"), 0, 1), std::invalid_argument);
  EXPECT_THROW(engine_->step(variant("gpu-tile-float4"), 100, 1), std::invalid_argument);
  EXPECT_THROW(engine_->step(variant("gpu-tile-float4"), 256, -1), std::invalid_argument);
  EXPECT_THROW(engine_->upload(System{}), std::invalid_argument);
  Params bad = test_params();
  bad.dt = -1.0f;
  EXPECT_THROW(engine_->set_params(bad), std::invalid_argument);
  EXPECT_EQ(engine_->size(), 10u);
}

TEST_F(NbodyCuda, KernelListForTheOccupancyPanel) {
  for (const Variant* v : gpu_variants()) {
    for (int block : v->blocks) {
      const std::vector<KernelInfo> list = engine_->kernels(*v, block);
      ASSERT_GE(list.size(), 3u) << v->id;
      EXPECT_NE(std::string(list.front().name).find("forces"), std::string::npos) << v->id;
      EXPECT_EQ(list.front().block_threads, block) << v->id;
      EXPECT_EQ(list[list.size() - 2].name, "kick_drift");
      EXPECT_EQ(list.back().name, "kick");
      for (const KernelInfo& k : list) {
        ASSERT_NE(k.func, nullptr) << v->id << " " << k.name;
        cudaFuncAttributes attr{};
        EXPECT_EQ(cudaFuncGetAttributes(&attr, k.func), cudaSuccess) << v->id << " " << k.name;
        EXPECT_GE(attr.maxThreadsPerBlock, k.block_threads) << v->id << " " << k.name;
        if (k.dynamic_smem_for) {
          EXPECT_EQ(k.dynamic_smem_for(k.block_threads), k.dynamic_smem) << k.name;
        }
      }
    }
  }
  EXPECT_TRUE(engine_->kernels(variant("cpu"), 0).empty());
}

}  // namespace
}  // namespace gpulab::nbody

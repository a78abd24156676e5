// gpu label: every bandwidth rung moves odd sizes byte for byte; every overlap rung's output equals the
// CPU reference for several streams and chunks; refusals and injected faults say why.
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "common/error.h"
#include "transfers/transfers.h"

#if defined(GPULAB_HAVE_CUDA)
#include <cuda_runtime.h>
#endif

namespace gpulab::transfers {
namespace {

bool small() { return std::getenv("GPULAB_SMALL_TESTS") != nullptr; }

class TransfersGpu : public ::testing::Test {
 protected:
  void SetUp() override {
#if defined(GPULAB_HAVE_CUDA)
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) GTEST_SKIP() << "no CUDA device";
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
#else
    GTEST_SKIP() << "built without CUDA";
#endif
  }
  void TearDown() override {
#if defined(GPULAB_HAVE_CUDA)
    if (stream_) cudaStreamDestroy(stream_);
#endif
  }
  Stream stream_ = nullptr;
};

TEST_F(TransfersGpu, EveryBandwidthRungMovesOddSizesIntact) {
  auto e = make_cuda_engine(stream_, {});
  std::vector<uint64_t> sizes{1, 3, 15, 17, 4097, 65535, 1000003};
  if (!small()) sizes.push_back((uint64_t(8) << 20) + 5);
  for (const Variant* v : variants_of(Stage::Bandwidth)) {
    if (v->backend != Backend::Cuda) continue;
    if (std::string why = e->why_unavailable(*v); !why.empty()) {
      ADD_FAILURE() << v->id << " unavailable on a full-featured card: " << why;
      continue;
    }
    for (uint64_t b : sizes) {
      SCOPED_TRACE(std::string(v->id) + " " + std::to_string(b));
      e->prepare(*v, b, 5);
      EXPECT_EQ(e->verify_transfer(), "");
      e->run(2);
      EXPECT_GT(e->time_transfer(2), 0.0);
      EXPECT_EQ(e->verify_transfer(), "");
    }
  }
}

TEST_F(TransfersGpu, EveryOverlapRungEqualsTheCpuReference) {
  auto e = make_cuda_engine(stream_, {});
  struct Case {
    uint64_t bytes;
    int streams, chunks, intensity;
  };
  std::vector<Case> cases{
      {4 * 1001 + 4, 1, 1, 1}, {4 * 100003, 3, 7, 5}, {4 * 77777, 16, 64, 2}, {4 * 64, 2, 64, 9}};
  if (!small()) cases.push_back({uint64_t(24) << 20, 4, 16, 32});
  for (const Variant* v : variants_of(Stage::Overlap)) {
    if (v->backend != Backend::Cuda) continue;
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(v->id) + " " + std::to_string(c.bytes) + " s" + std::to_string(c.streams) +
                   " c" + std::to_string(c.chunks));
      PipelineConfig pc;
      pc.bytes = c.bytes;
      pc.streams = c.streams;
      pc.chunks = c.chunks;
      pc.intensity = c.intensity;
      pc.seed = 3;
      const PipelineRun r = e->run_pipeline(*v, pc, true);
      EXPECT_EQ(verify_pipeline(e->pipeline_output(), pc.intensity, pc.seed), "");
      EXPECT_GT(r.total_ms, 0.0);
      if (!r.spans.empty()) {
        EXPECT_EQ(r.spans.size(), size_t(3 * pc.chunks));
        for (const Span& s : r.spans) {
          EXPECT_LE(s.begin_ms, s.end_ms);
          EXPECT_GE(s.begin_ms, 0.0);
          EXPECT_LE(s.end_ms, r.total_ms + 1e-3);
        }
      } else {
        EXPECT_NE(r.note, "") << "a rung without spans says why";
      }
      e->run_pipeline_steps(*v, pc, 2);
      EXPECT_EQ(verify_pipeline(e->pipeline_output(), pc.intensity, pc.seed), "");
    }
  }
}

TEST_F(TransfersGpu, BoundsAreMeasuredAndOrdered) {
  auto e = make_cuda_engine(stream_, {});
  PipelineConfig pc;
  pc.bytes = uint64_t(4) << 20;
  const PipelineBounds b = e->measure_bounds(pc, 3);
  EXPECT_GT(b.h2d_ms, 0.0);
  EXPECT_GT(b.kernel_ms, 0.0);
  EXPECT_GT(b.d2h_ms, 0.0);
  EXPECT_LE(b.bound_ms(), b.sum_ms());
}

TEST_F(TransfersGpu, SizesBeyondFreeMemoryAreRefusedBeforeAllocating) {
  auto e = make_cuda_engine(stream_, {});
#if defined(GPULAB_HAVE_CUDA)
  size_t free = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
  // More than the card has free (never tried: refused before cudaMallocManaged).
  const uint64_t too_much = ((uint64_t(free) + (uint64_t(1) << 30)) >> 20) << 20;
  if (too_much <= kMaxBytes) {
    for (const char* id : {"managed-prefetch", "managed-faults", "h2d-pinned", "d2d"}) {
      try {
        e->prepare(*find_variant(id), too_much, 1);
        ADD_FAILURE() << id << " took " << too_much << " bytes with " << free << " free";
      } catch (const std::invalid_argument& ex) {
        EXPECT_NE(std::string(ex.what()).find("refused before allocating"), std::string::npos) << ex.what();
      }
    }
    PipelineConfig pc;
    pc.bytes = too_much;
    EXPECT_THROW(e->run_pipeline(*find_variant("streams-4"), pc, false), std::invalid_argument);
  }
#endif
  // The engine still works afterwards.
  e->prepare(*find_variant("h2d-pinned"), 12345, 1);
  EXPECT_EQ(e->verify_transfer(), "");
}

TEST_F(TransfersGpu, InjectedFaultsSayWhyAndTheRestRuns) {
  Faults f;
  f.refuse_pinning = true;
  f.no_managed = true;
  f.no_async_engines = true;
  auto e = make_cuda_engine(stream_, f);
  try {
    e->prepare(*find_variant("h2d-pinned"), 4096, 1);
    ADD_FAILURE() << "pinning was refused";
  } catch (const GpuError& ex) {
    EXPECT_NE(std::string(ex.what()).find("refused to pin"), std::string::npos);
  }
  EXPECT_NE(e->why_unavailable(*find_variant("managed-faults")).find("no managed memory"), std::string::npos);
  EXPECT_THROW(e->prepare(*find_variant("managed-prefetch"), 4096, 1), std::invalid_argument);
  e->prepare(*find_variant("h2d-pageable"), 4099, 1);  // pageable needs no pinning
  EXPECT_EQ(e->verify_transfer(), "");
  e->prepare(*find_variant("d2d"), 4099, 1);
  EXPECT_EQ(e->verify_transfer(), "");
  PipelineConfig pc;
  pc.bytes = 4 * 5000;
  const PipelineRun r = e->run_pipeline(*find_variant("async-pageable"), pc, true);
  EXPECT_FALSE(r.note.empty());
  EXPECT_EQ(verify_pipeline(e->pipeline_output(), pc.intensity, pc.seed), "");
  EXPECT_THROW(e->run_pipeline(*find_variant("streams-4"), pc, true), GpuError);  // pinned buffers refused
}

}  // namespace
}  // namespace gpulab::transfers

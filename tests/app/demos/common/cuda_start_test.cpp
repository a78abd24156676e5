// start_cuda_engine: no engine without a device, the engine where it starts, and a clear reason
// (the demo then runs its CPU variants) where starting it throws.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "demos/common/cuda_start.h"

namespace gpulab {
namespace {

struct FakeEngine {
  int id = 0;
};

TEST(StartCudaEngine, NoDeviceNoEngineNoComplaint) {
  Context ctx;
  ctx.cuda = false;
  std::string failure;
  bool called = false;
  auto e = start_cuda_engine(
      ctx,
      [&](Stream) {
        called = true;
        return std::make_unique<FakeEngine>();
      },
      &failure);
  EXPECT_EQ(e, nullptr);
  EXPECT_FALSE(called);
  EXPECT_EQ(failure, "");
}

TEST(StartCudaEngine, ReturnsTheEngineOnTheContextsStream) {
  Context ctx;
  ctx.cuda = true;
  int token = 0;
  ctx.stream = reinterpret_cast<Stream>(&token);
  std::string failure;
  auto e = start_cuda_engine(
      ctx,
      [&](Stream s) {
        EXPECT_EQ(s, ctx.stream);
        auto f = std::make_unique<FakeEngine>();
        f->id = 7;
        return f;
      },
      &failure);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->id, 7);
  EXPECT_EQ(failure, "");
}

TEST(StartCudaEngine, AFailedStartIsNullWithTheReason) {
  Context ctx;
  ctx.cuda = true;
  std::string failure;
  auto e = start_cuda_engine(
      ctx,
      [](Stream) -> std::unique_ptr<FakeEngine> { throw std::runtime_error("out of memory on the GPU"); },
      &failure);
  EXPECT_EQ(e, nullptr);
  EXPECT_EQ(failure, "the CUDA engine did not start: out of memory on the GPU");
}

}  // namespace
}  // namespace gpulab

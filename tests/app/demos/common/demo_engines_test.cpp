// DemoEngines: the CPU engine always; the CUDA engine where it started; which engine runs a backend;
// whether a variant can run and why not, before attach, without a device and after a failed start.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_probe.h"
#include "demos/common/demo_engines.h"

namespace gpulab {
namespace {

struct FakeEngine {
  explicit FakeEngine(int i) : id(i) {}
  virtual ~FakeEngine() = default;
  int id = 0;
};
struct FakeCudaEngine final : FakeEngine {
  FakeCudaEngine() : FakeEngine(2) {}
  int launches = 0;
};

TEST(DemoEngines, BeforeAttachOnlyTheCpuEngineAndACudaBuildCannotTellYet) {
  DemoEngines<FakeEngine> e(std::make_unique<FakeEngine>(1));
  ASSERT_NE(e.cpu(), nullptr);
  EXPECT_EQ(e.cpu()->id, 1);
  EXPECT_EQ(e.gpu(), nullptr);
  EXPECT_EQ(e.of(false), e.cpu());
  EXPECT_EQ(e.of(true), nullptr);
  EXPECT_TRUE(e.can_run(false, nullptr));
  std::string why;
  EXPECT_FALSE(e.can_run(true, &why));
  EXPECT_EQ(why, cuda_built() ? "no CUDA device" : "built without CUDA");
  EXPECT_EQ(e.why_unavailable(false), "");
  EXPECT_EQ(e.why_unavailable(true), cuda_built() ? "" : "built without CUDA");
}

TEST(DemoEngines, WithoutADeviceTheContextsReasonIsSaidAndNothingIsStarted) {
  DemoEngines<FakeEngine> e(std::make_unique<FakeEngine>(1));
  Context ctx;
  ctx.cuda = false;
  ctx.cuda_reason = "no NVIDIA driver (test)";
  bool called = false;
  e.start(ctx, [&](Stream) {
    called = true;
    return std::make_unique<FakeCudaEngine>();
  });
  EXPECT_FALSE(called);
  EXPECT_EQ(e.gpu(), nullptr);
  EXPECT_EQ(e.failure(), "");
  std::string why;
  EXPECT_FALSE(e.can_run(true, &why));
  EXPECT_EQ(why, "no NVIDIA driver (test)");
  EXPECT_EQ(e.why_unavailable(true), "no NVIDIA driver (test)");
  const auto both = e.both();
  EXPECT_EQ(both[0], e.cpu());
  EXPECT_EQ(both[1], nullptr);
}

TEST(DemoEngines, AStartedCudaEngineRunsTheCudaVariantsUntilDetach) {
  DemoEngines<FakeEngine> e(std::make_unique<FakeEngine>(1));
  Context ctx;
  ctx.cuda = true;
  e.start(ctx, [](Stream) { return std::make_unique<FakeCudaEngine>(); });
  ASSERT_NE(e.gpu(), nullptr);
  EXPECT_EQ(e.of(true), e.gpu());
  EXPECT_EQ(e.of(false), e.cpu());
  EXPECT_TRUE(e.can_run(true, nullptr));
  EXPECT_EQ(e.why_unavailable(true), "");
  e.gpu_as<FakeCudaEngine>()->launches = 3;
  EXPECT_EQ(static_cast<FakeCudaEngine*>(e.of(true))->launches, 3);
  const auto both = e.both();
  EXPECT_EQ(both[1]->id, 2);
  e.stop();
  EXPECT_EQ(e.gpu(), nullptr);
  EXPECT_EQ(e.of(true), nullptr);
  EXPECT_EQ(e.cpu()->id, 1) << "the CPU engine stays";
}

TEST(DemoEngines, AFailedStartLeavesTheCpuVariantsAndSaysWhyOnce) {
  DemoEngines<FakeEngine> e(std::make_unique<FakeEngine>(1));
  Context ctx;
  ctx.cuda = true;
  std::vector<std::string> said;
  ctx.notify = [&](std::string line) { said.push_back(std::move(line)); };
  e.start(ctx, [](Stream) -> std::unique_ptr<FakeCudaEngine> { throw std::runtime_error("out of memory"); });
  EXPECT_EQ(e.gpu(), nullptr);
  EXPECT_EQ(e.failure(), "the CUDA engine did not start: out of memory");
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "the CUDA engine did not start: out of memory: the CPU variants run");
  EXPECT_TRUE(e.can_run(false, nullptr));
  EXPECT_FALSE(e.can_run(true, nullptr));
  // A later attach that starts clears the failure.
  e.start(ctx, [](Stream) { return std::make_unique<FakeCudaEngine>(); });
  EXPECT_NE(e.gpu(), nullptr);
  EXPECT_EQ(e.failure(), "");
}

}  // namespace
}  // namespace gpulab

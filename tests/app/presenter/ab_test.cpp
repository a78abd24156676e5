// cpu label: the A/B ratio arithmetic and its words; the halves' Setups.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "demos/histeq/histeq_demo.h"
#include "demos/life/life_demo.h"
#include "presenter/ab.h"
#include "support/configure_demo.h"

using gpulab::presenter::ab_ratio;
using gpulab::presenter::ab_ratio_text;

TEST(AbRatio, IsHowManyTimesFasterBIsThanA) {
  EXPECT_DOUBLE_EQ(ab_ratio(10.0, 2.5), 4.0);
  EXPECT_DOUBLE_EQ(ab_ratio(1.0, 4.0), 0.25);
  EXPECT_DOUBLE_EQ(ab_ratio(0.003, 0.003), 1.0);
}

TEST(AbRatio, UnknownTimesGiveNoRatio) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -1.0, nan, inf}) {
    EXPECT_EQ(ab_ratio(bad, 1.0), 0.0) << bad;
    EXPECT_EQ(ab_ratio(1.0, bad), 0.0) << bad;
  }
  EXPECT_EQ(ab_ratio_text("a", "b", 0.0), "");
  EXPECT_EQ(ab_ratio_text("a", "b", nan), "");
}

TEST(AbRatio, WordsSayFasterSlowerOrAsFast) {
  EXPECT_EQ(ab_ratio_text("cpu-naive", "cpu-lut", 3.2), "cpu-lut is 3.20× faster than cpu-naive");
  EXPECT_EQ(ab_ratio_text("cpu-naive", "cpu-lut", 0.5), "cpu-lut is 2.00× slower than cpu-naive");
  EXPECT_EQ(ab_ratio_text("x", "y", 1.015), "y is as fast as x") << "within 2% is a tie";
  EXPECT_EQ(ab_ratio_text("x", "y", 412.0), "y is 412× faster than x");
}

// A/B copies a Setup and changes one pick (b = a; b.picks[s] = p): the same parameters and inputs,
// the other stages as the running Setup has them.
TEST(AbSetups, TheHalvesAreTheRunningSetupWithOnePickEach) {
  gpulab::LifeDemo life;
  ASSERT_EQ(gpulab::testing::configure_demo(
                life, {"--grid", "64x48", "--variant", "gpu-shared", "--block", "ghost=128", "--seed", "5"}),
            "");
  const gpulab::Setup& running = life.setup();
  const gpulab::StageTables& t = life.stage_tables();
  const int naive = gpulab::find_pick(t, "cpu-naive")->variant,
            lut = gpulab::find_pick(t, "cpu-lut")->variant;
  const gpulab::presenter::AbSetups h = gpulab::presenter::ab_setups(t, running, 0, naive, lut);
  EXPECT_EQ(gpulab::variant_of(t, h.a.picks[0]).id, "cpu-naive");
  EXPECT_EQ(gpulab::variant_of(t, h.b.picks[0]).id, "cpu-lut");
  EXPECT_EQ(h.a.picks[1], running.picks[1]) << "the ghost stage as the running Setup has it";
  EXPECT_EQ(h.b.picks[1].block, 128);
  EXPECT_TRUE(gpulab::same_input(h.a, running));
  EXPECT_TRUE(gpulab::same_input(h.a, h.b));
  EXPECT_EQ(h.b.shared.seed, std::optional<uint64_t>(5));
  EXPECT_EQ(h.b.params.as<gpulab::LifeParams>().grid, "64x48");
  EXPECT_NE(h.a.params.get(), h.b.params.get()) << "copies, not one shared value";
  EXPECT_NE(h.a.params.get(), running.params.get());
}

// With one backend for every stage (histeq), a half's pick brings the other stages to its backend.
TEST(AbSetups, OneBackendForEveryStageFollowsEachHalfsPick) {
  gpulab::HisteqDemo histeq;
  ASSERT_EQ(gpulab::testing::configure_demo(histeq, {}, /*device=*/true), "");
  const gpulab::StageTables& t = histeq.stage_tables();
  const int cpu = gpulab::find_pick(t, "hist-cpu")->variant,
            gpu = gpulab::find_pick(t, "hist-atomic-global")->variant;
  const gpulab::presenter::AbSetups h = gpulab::presenter::ab_setups(t, histeq.setup(), 0, cpu, gpu);
  for (size_t s = 0; s < t.stages.size(); ++s) {
    EXPECT_FALSE(gpulab::variant_of(t, h.a.picks[s]).needs_cuda) << s;
    EXPECT_TRUE(gpulab::variant_of(t, h.b.picks[s]).needs_cuda) << s;
  }
  EXPECT_EQ(h.b.focus, std::optional<size_t>(0));
}

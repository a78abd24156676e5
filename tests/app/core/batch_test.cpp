// cpu label: the batch runs' step loop runs exactly K steps, in chunks the engines can take.
#include "core/batch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace gpulab {
namespace {

TEST(BatchSteps, RunsExactlyKStepsInBoundedChunks) {
  for (long long k : {0LL, 1LL, 2LL, 7LL, 1000LL, 3000001LL}) {
    long long total = 0;
    int calls = 0, largest = 0;
    run_batch_steps(
        k,
        [&](int n) {
          EXPECT_GT(n, 0);
          total += n;
          ++calls;
          largest = std::max(largest, n);
        },
        "steps");
    EXPECT_EQ(total, k);
    EXPECT_LE(largest, 1 << 20);
    if (k == 3000001) {
      EXPECT_LT(calls, 30) << "chunks grow";
    }
  }
}

TEST(BatchSteps, DurationsReadAsAPersonWouldSayThem) {
  EXPECT_EQ(duration_text(45), "45 s");
  EXPECT_EQ(duration_text(12 * 60), "12 min");
  EXPECT_EQ(duration_text(3.5 * 3600), "3.5 h");
  EXPECT_EQ(duration_text(2.1 * 86400), "2.1 days");
}

// Issue 30: every batch run estimated over 10 s says so up front (as --steps 1e9 did), not only the
// ones whose rest passes half a minute after a second. A fake clock: each step takes `step_s`.
std::vector<std::string> estimates(long long steps, double step_s, long long* steps_before_told = nullptr) {
  double t = 0;
  long long done = 0;
  std::vector<std::string> said;
  run_batch_steps(
      steps,
      [&](int n) {
        t += n * step_s;
        done += n;
      },
      "steps", [&] { return t; },
      [&](const std::string& line) {
        said.push_back(line);
        if (steps_before_told) *steps_before_told = done;
      });
  return said;
}

TEST(BatchSteps, ARunOfMoreThanTenSecondsIsEstimatedUpFront) {
  long long before = 0;
  // 40 steps of 0.5 s: 20 s in all, said after the first step (it alone takes long enough to time).
  std::vector<std::string> said = estimates(40, 0.5, &before);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(before, 1);
  EXPECT_EQ(said[0], "gpulab: 40 steps at about 2 a second: about 20 s in all, 20 s more (Ctrl+C stops)");
  // A billion fast steps: days, said once the first chunks took 0.2 s.
  said = estimates(1000000000, 1e-4, &before);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_LT(before, 5000);
  EXPECT_NE(said[0].find("about 27.8 h in all"), std::string::npos) << said[0];
  // 10 s or less: nothing said.
  EXPECT_TRUE(estimates(20, 0.5).empty());
  EXPECT_TRUE(estimates(100000, 1e-6).empty());
}

TEST(BatchSteps, TheEstimateLineReadsAsAPersonWouldSayIt) {
  EXPECT_EQ(
      batch_estimate(1000, 10, 25.0, "generations"),
      "gpulab: 1000 generations at about 0.4 a second: about 42 min in all, 41 min more (Ctrl+C stops)");
  EXPECT_EQ(batch_estimate(1000, 10, 0.05, "steps"), "");    // 5 s
  EXPECT_EQ(batch_estimate(1000, 1000, 99.0, "steps"), "");  // done
}

// One wording for every up-front estimate (a huge first frame, a CPU product, a batch of steps).
TEST(BatchSteps, EveryUpFrontEstimateSaysTheSameWay) {
  EXPECT_EQ(long_run_line("a frame of 1 step of 16777216 bodies on the CPU", 3.0 * 86400, -1,
                          "from a sample of 2048"),
            "gpulab: a frame of 1 step of 16777216 bodies on the CPU: about 3.0 days (from a sample of 2048; "
            "Ctrl+C "
            "stops)");
  EXPECT_EQ(long_run_line("the first frame of a 65536x65536 grid on the CPU", 42),
            "gpulab: the first frame of a 65536x65536 grid on the CPU: about 42 s (Ctrl+C stops)");
  EXPECT_EQ(long_run_line("x", 10), "");  // at most 10 s: nothing said
  EXPECT_EQ(long_run_line("x", std::numeric_limits<double>::infinity()), "");
  EXPECT_EQ(long_run_line("x", std::numeric_limits<double>::quiet_NaN()), "");
  // batch_estimate is the same line with the rest said.
  EXPECT_EQ(batch_estimate(40, 2, 1.0, "steps"), long_run_line("40 steps at about 2 a second", 20, 1.0));
  std::vector<std::string> said;
  auto say = [&](const std::string& line) { said.push_back(line); };
  EXPECT_FALSE(say_long_run("quick", 9.9, {}, say));
  EXPECT_TRUE(say_long_run("slow", 600, "from a sample", say));
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "gpulab: slow: about 10 min (from a sample; Ctrl+C stops)");
}

TEST(BatchSteps, ASampleRunsAtLeastOnceAndAtMost64Times) {
  int runs = 0;
  const double s = sample_seconds([&] { ++runs; });
  EXPECT_GE(runs, 1);
  EXPECT_LE(runs, 64);
  EXPECT_GE(s, 0);
  runs = 0;
  sample_seconds([&] {
    ++runs;
    volatile double x = 0;
    for (int i = 0; i < 3000000; ++i) x = x + 1;  // a slow sample: fewer runs
  });
  EXPECT_GE(runs, 1);
}

}  // namespace
}  // namespace gpulab

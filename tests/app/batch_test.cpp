// cpu label: the batch runs' step loop runs exactly K steps, in chunks the engines can take.
#include "core/batch.h"

#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace
}  // namespace gpulab

// The frame loop's non-blocking population on the CPU engine: a request is answered once.
#include <gtest/gtest.h>

#include "life/life.h"

namespace gpulab::life {
namespace {

TEST(PopulationAsyncCpu, RequestIsAnsweredOnceWithTheCount) {
  auto e = make_cpu_engine();
  e->resize(37, 23);
  e->randomize(0.4, 5);
  EXPECT_FALSE(e->poll_population().has_value());  // nothing asked yet
  e->request_population();
  const auto p = e->poll_population();
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(*p, e->population());
  EXPECT_EQ(*p, e->download().population());
  EXPECT_GT(*p, 0u);
  EXPECT_FALSE(e->poll_population().has_value());  // answered once
}

}  // namespace
}  // namespace gpulab::life

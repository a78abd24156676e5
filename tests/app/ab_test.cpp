// cpu label: the A/B ratio arithmetic and its words.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "presenter/ab.h"

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

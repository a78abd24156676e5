// Timings keyed by what ran: a section is found by the picks it ran, not by its name.
#include <gtest/gtest.h>

#include "core/timings.h"

namespace gpulab {
namespace {

void frame(Timings& t, const TimingKey& key, const std::string& name, double ms) {
  t.cpu(key, name, ms);
  t.collect();
}

TEST(TimingsKeys, ASectionIsFoundByThePicksItRan) {
  Timings t;
  const TimingKey lut{Pick{0, 1, 0}};
  frame(t, lut, "step (CPU)", 4.0);
  frame(t, lut, "step (CPU)", 6.0);
  const RollingSeries* s = t.find(lut);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->name(), "step (CPU)");
  EXPECT_EQ(s->size(), 2u);
  EXPECT_EQ(t.find(TimingKey{Pick{0, 0, 0}}), nullptr) << "another variant never ran";
  EXPECT_EQ(t.find(TimingKey{Pick{0, 1, 64}}), nullptr) << "another block never ran";
  ASSERT_TRUE(t.median_per_step(lut, 2).has_value());
  EXPECT_DOUBLE_EQ(*t.median_per_step(lut, 2), 2.5);
  EXPECT_FALSE(t.median_per_step(lut, 0).has_value());
}

TEST(TimingsKeys, AnotherPickOnTheSameNameStartsItsWindowAfresh) {
  Timings t;
  const TimingKey a{Pick{0, 1, 0}}, b{Pick{0, 1, 128}};
  frame(t, a, "step", 10.0);
  frame(t, a, "step", 10.0);
  frame(t, b, "step", 2.0);
  const RollingSeries* s = t.find(b);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->size(), 1u) << "a's samples are not b's";
  EXPECT_DOUBLE_EQ(s->median(), 2.0);
  EXPECT_EQ(t.find(a), nullptr) << "a's section now times b";
  // Another section's samples are kept.
  Timings u;
  frame(u, a, "step", 10.0);
  u.cpu("draw", 1.0);
  u.collect();
  frame(u, b, "step", 2.0);
  ASSERT_NE(u.find("draw"), nullptr);
  EXPECT_EQ(u.find("draw")->size(), 1u);
}

TEST(TimingsKeys, AKeyHasTheSectionItRanLast) {
  // The same pick under another name (rotate's surface output, then its PBO output): found under the
  // name it ran last.
  Timings t;
  const TimingKey k{Pick{0, 2, 256}};
  frame(t, k, "rotate (surface)", 3.0);
  frame(t, k, "rotate (PBO)", 5.0);
  ASSERT_NE(t.find(k), nullptr);
  EXPECT_EQ(t.find(k)->name(), "rotate (PBO)");
  // A whole pipeline's key holds every stage's pick; a stage's key only its own.
  const TimingKey pipeline{Pick{0, 1, 0}, Pick{1, 0, 0}};
  frame(t, pipeline, "pipeline", 8.0);
  frame(t, TimingKey{Pick{0, 1, 0}}, "histogram", 3.0);
  EXPECT_EQ(t.find(pipeline)->name(), "pipeline");
  EXPECT_EQ(t.find(TimingKey{Pick{0, 1, 0}})->name(), "histogram");
  // forget() drops the keys with the sections.
  t.forget();
  EXPECT_EQ(t.find(pipeline), nullptr);
}

}  // namespace
}  // namespace gpulab

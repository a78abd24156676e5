// cpu label: elide_to_width, the one rule that cuts a line of text to its box (the code panel's
// stage radios, the transfers chart's title and labels), with a width of 10 a byte.
#include "base/text_fit.h"

#include <gtest/gtest.h>

#include <string>

namespace {

float ten_a_byte(const std::string& s) { return 10.0f * static_cast<float>(s.size()); }

TEST(ElideToWidth, TextThatFitsIsLeftAsItIs) {
  EXPECT_EQ(gpulab::elide_to_width("gpu-shared", 100, ten_a_byte), "gpu-shared");
  EXPECT_EQ(gpulab::elide_to_width("", 0, ten_a_byte), "");
}

TEST(ElideToWidth, TheLongestPrefixThatFitsWithTheEllipsis) {
  for (float w : {40.0f, 55.0f, 90.0f, 120.0f}) {
    const std::string cut = gpulab::elide_to_width("scan-block-decoupled", w, ten_a_byte);
    ASSERT_GE(cut.size(), 4u) << w;
    EXPECT_EQ(cut.substr(cut.size() - 3), "...") << w;
    EXPECT_LE(ten_a_byte(cut), w) << w;
    const std::string kept = cut.substr(0, cut.size() - 3);
    EXPECT_EQ(std::string("scan-block-decoupled").rfind(kept, 0), 0u) << w << ": a prefix";
    EXPECT_GT(ten_a_byte(std::string("scan-block-decoupled").substr(0, kept.size() + 1) + "..."), w)
        << w << ": one more byte would not fit";
  }
  EXPECT_EQ(gpulab::elide_to_width("abcdef", 50, ten_a_byte, "\xE2\x80\xA6"), "ab\xE2\x80\xA6");
}

TEST(ElideToWidth, WholeCodePointsAndOneAtLeast) {
  // "µs×2xy": µ and × are two bytes each; a cut never splits one.
  const std::string text =
      "\xC2\xB5s\xC3\x97"
      "2xy";
  EXPECT_EQ(gpulab::elide_to_width(text, 55, ten_a_byte), "\xC2\xB5...");
  EXPECT_EQ(gpulab::elide_to_width(text, 75, ten_a_byte), "\xC2\xB5s...") << "not half of the ×";
  EXPECT_EQ(gpulab::elide_to_width(text, 5, ten_a_byte), "\xC2\xB5...")
      << "nothing fits: the first code point";
}

}  // namespace

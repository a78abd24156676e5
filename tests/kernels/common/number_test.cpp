// cpu label: the one whole-number parser of every integer option (common/number.h): no wrap-around,
// and the value quoted back is the one typed.
#include "common/number.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>

namespace gpulab::text {
namespace {

TEST(WholeNumber, TakesWholeNumbersInRange) {
  long long v = -1;
  EXPECT_EQ(parse_whole_number("42", 1, 100, &v), "");
  EXPECT_EQ(v, 42);
  EXPECT_EQ(parse_whole_number("+7", 1, 100, &v), "");
  EXPECT_EQ(v, 7);
  EXPECT_EQ(parse_whole_number("-3", -5, 5, &v), "");
  EXPECT_EQ(v, -3);
  EXPECT_EQ(parse_whole_number("1", 1, 100, &v), "");  // both ends included
  EXPECT_EQ(parse_whole_number("100", 1, 100, &v), "");
  EXPECT_EQ(v, 100);
  EXPECT_EQ(parse_whole_number("9223372036854775807", 0, LLONG_MAX, &v), "");
  EXPECT_EQ(v, LLONG_MAX);
}

TEST(WholeNumber, ANonIntegerIsNotARangeError) {
  for (const char* s :
       {"1e3", "12.5", "0x10", "ten", "", " 5", "5 ", "--3", "+", "-", "1_000", "nan", "inf"}) {
    long long v = 99;
    EXPECT_EQ(parse_whole_number(s, 1, 1000000, &v), "needs a whole number, got " + quote(s)) << s;
    EXPECT_EQ(v, 99) << "nothing stored for " << s;
  }
}

TEST(WholeNumber, ANumberPastTheRangeIsQuotedAsTyped) {
  long long v = 99;
  // Past the type: not wrapped, not clamped to 9223372036854775807.
  EXPECT_EQ(parse_whole_number("18446744073709551617", 1, 65536, &v),
            "must be from 1 to 65536, got '18446744073709551617'");
  EXPECT_EQ(parse_whole_number("-18446744073709551617", 1, 65536, &v),
            "must be from 1 to 65536, got '-18446744073709551617'");
  EXPECT_EQ(parse_whole_number("4294967306", 1, 65536, &v), "must be from 1 to 65536, got '4294967306'");
  EXPECT_EQ(parse_whole_number("0", 1, 65536, &v), "must be from 1 to 65536, got '0'");
  EXPECT_EQ(v, 99);
}

TEST(WholeNumber, ControlBytesAreEscapedInTheMessage) {
  long long v = 0;
  const std::string why = parse_whole_number("1\x1b[2J", 1, 10, &v);
  EXPECT_EQ(why, "needs a whole number, got '1\\x1B[2J'");
}

TEST(WholeSize, BothEdgesWithoutWrapAround) {
  long long w = 0, h = 0;
  EXPECT_EQ(parse_whole_size("640x480", 1, 65536, &w, &h), "");
  EXPECT_EQ(w, 640);
  EXPECT_EQ(h, 480);
  EXPECT_EQ(parse_whole_size("3X5", 1, 65536, &w, &h), "");
  EXPECT_EQ(w, 3);
  EXPECT_EQ(h, 5);
  // 4294967306 is 2^32 + 10: a 32-bit parse would run a 10x10 grid.
  w = h = 0;
  const std::string why = parse_whole_size("4294967306x10", 1, 65536, &w, &h);
  EXPECT_NE(why.find("'4294967306x10'"), std::string::npos) << why;
  EXPECT_NE(why.find("from 1 to 65536"), std::string::npos) << why;
  EXPECT_EQ(w, 0);
  for (const char* s : {"640", "x480", "640x", "640x480x2", "1e3x10", "640*480"})
    EXPECT_NE(parse_whole_size(s, 1, 65536, &w, &h), "") << s;
}

}  // namespace
}  // namespace gpulab::text

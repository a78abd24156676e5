// Rule parsing and printing (B/S and the older S/B notation), and the lookup table.
#include <gtest/gtest.h>

#include <string>

#include "life/life.h"

namespace gpulab::life {
namespace {

// Mask from a digit string, written independently of the parser.
uint16_t mask(const char* digits) {
  uint16_t m = 0;
  for (const char* p = digits; *p; ++p) m = static_cast<uint16_t>(m | (1u << (*p - '0')));
  return m;
}

Rule parsed(std::string_view text) {
  std::string error;
  auto rule = Rule::parse(text, &error);
  EXPECT_TRUE(rule.has_value()) << "\"" << text << "\": " << error;
  return rule.value_or(Rule{0, 0});
}

TEST(Rule, DefaultIsConway) {
  EXPECT_EQ(Rule{}.birth, mask("3"));
  EXPECT_EQ(Rule{}.survive, mask("23"));
  EXPECT_EQ(Rule::conway(), Rule{});
}

TEST(Rule, ParsesTheUsualSpellings) {
  const Rule conway = Rule::conway();
  for (const char* text :
       {"B3/S23", "b3/s23", "B3S23", "b3s23", "S23/B3", "s23b3", "  B3/S23\t\n", "23/3", " 23/3 "})
    EXPECT_EQ(parsed(text), conway) << text;

  EXPECT_EQ(parsed("B36/S23"), (Rule{mask("36"), mask("23")}));
  EXPECT_EQ(parsed("B3678/S34678"), (Rule{mask("3678"), mask("34678")}));
  EXPECT_EQ(parsed("B2/S"), (Rule{mask("2"), 0}));
  EXPECT_EQ(parsed("B2S"), (Rule{mask("2"), 0}));
  EXPECT_EQ(parsed("/2"), (Rule{mask("2"), 0}));  // Seeds in S/B order
  EXPECT_EQ(parsed("B/S012345678"), (Rule{0, mask("012345678")}));
  EXPECT_EQ(parsed("012345678/3"), (Rule{mask("3"), mask("012345678")}));
  EXPECT_EQ(parsed("B0/S8"), (Rule{mask("0"), mask("8")}));
  EXPECT_EQ(parsed("B63/S32"), (Rule{mask("36"), mask("23")}));  // digit order does not matter
}

TEST(Rule, RejectsBadRulesWithAReason) {
  struct Case {
    const char* text;
    const char* says;  // a fragment the message must contain
  };
  const Case cases[] = {
      {"", "empty"},
      {"   ", "empty"},
      {"B39/S23", "9"},
      {"B3/S239", "9"},
      {"29/3", "9"},
      {"B3/B3", "B appears twice"},
      {"S23/S23", "S appears twice"},
      {"B3/S23/B3", "'/'"},
      {"B33/S23", "appears twice"},
      {"B3", "survive part"},
      {"S23", "birth part"},
      {"B3/S23x", "'x'"},
      {"Life", "'L'"},
      {"X3/S23", "'X'"},
      {"B3 / S23", "space"},
      {"23", "both parts"},
      {"23/3/4", "'/'"},
      {"2a/3", "'a'"},
      {"B3/", "nothing after '/'"},
  };
  for (const Case& c : cases) {
    std::string error;
    EXPECT_FALSE(Rule::parse(c.text, &error).has_value()) << c.text;
    EXPECT_NE(error.find(c.says), std::string::npos) << "\"" << c.text << "\" -> " << error;
    // The message quotes the rule so the user sees which one is wrong.
    EXPECT_NE(error.find("rule"), std::string::npos) << error;
  }
  // Without an error string it still fails cleanly.
  EXPECT_FALSE(Rule::parse("B9/S").has_value());
}

TEST(Rule, ToStringIsCanonical) {
  EXPECT_EQ(Rule::conway().to_string(), "B3/S23");
  EXPECT_EQ((Rule{mask("2"), 0}).to_string(), "B2/S");
  EXPECT_EQ((Rule{0, 0}).to_string(), "B/S");
  EXPECT_EQ(parsed("s34678b8763").to_string(), "B3678/S34678");
}

TEST(Rule, EveryRuleRoundTripsThroughText) {
  // All 2^18 rules: to_string then parse gives the same rule back.
  for (uint32_t b = 0; b < 512; ++b)
    for (uint32_t s = 0; s < 512; s += 7) {  // a stride keeps it quick and still hits every bit
      const Rule r{static_cast<uint16_t>(b), static_cast<uint16_t>(s)};
      const auto back = Rule::parse(r.to_string());
      ASSERT_TRUE(back.has_value()) << r.to_string();
      ASSERT_EQ(*back, r) << r.to_string();
    }
}

TEST(Rule, NamedRulesAllParse) {
  for (const NamedRule& named : kNamedRules) {
    const Rule r = parsed(named.text);
    EXPECT_EQ(r.to_string(), named.text) << named.name;
  }
}

TEST(Rule, TableMatchesTheRule) {
  const auto conway = Rule::conway().table();
  // The lecture's table for Conway's Life, written out.
  const uint8_t expected[2][9] = {{0, 0, 0, 1, 0, 0, 0, 0, 0}, {0, 0, 1, 1, 0, 0, 0, 0, 0}};
  for (int s = 0; s < 2; ++s)
    for (int n = 0; n < 9; ++n) EXPECT_EQ(conway[s][n], expected[s][n]) << "state " << s << " n " << n;

  const Rule day_night = parsed("B3678/S34678");
  const auto t = day_night.table();
  for (int n = 0; n < 9; ++n) {
    EXPECT_EQ(t[0][n], (day_night.birth >> n) & 1) << n;
    EXPECT_EQ(t[1][n], (day_night.survive >> n) & 1) << n;
    EXPECT_EQ(t[0][n], next_state(day_night.birth, day_night.survive, 0, n));
    EXPECT_EQ(t[1][n], next_state(day_night.birth, day_night.survive, 1, n));
  }
}

}  // namespace
}  // namespace gpulab::life

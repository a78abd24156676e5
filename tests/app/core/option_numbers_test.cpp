// cpu label: every whole-number option goes through the one parser (common/number.h, core/cli_number.h):
// a non-integer is "needs a whole number, got '1e3'", not a range error; a number past the type is
// refused as typed, never wrapped (--grid 4294967306x10 ran a 10x10 grid) or clamped and quoted back
// as a value the user never gave; and an option's messages name it, hidden ones included.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "support/configure_demo.h"

namespace gpulab {
namespace {

ParseResult parse(std::vector<const char*> args) { return testing::parse_with_every_demo(std::move(args)); }

#define EXPECT_HAS(haystack, needle)                               \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "missing '" << (needle) << "' in: " << (haystack)

TEST(OptionNumbers, NonIntegersAreNotRangeErrors) {
  const std::vector<std::vector<const char*>> cases = {
      {"--steps", "1e3"},           {"--seed", "1.5"},
      {"--frames", "1e3"},          {"--demo", "nbody", "--bodies", "1e3"},
      {"--lesson-step", "2.0"},     {"bench", "--steps", "1e3"},
      {"bench", "--repeats", "7x"}, {"--demo", "matrix", "--m", "1e3"}};
  for (std::vector<const char*> args : cases) {
    const std::string value = args.back();
    const ParseResult r = parse(args);
    ASSERT_FALSE(r.options) << value;
    EXPECT_EQ(r.exit_code, 1) << r.error;
    EXPECT_HAS(r.error, "needs a whole number, got '" + value + "'");
    EXPECT_EQ(r.error.find("not in range"), std::string::npos) << r.error;
  }
}

TEST(OptionNumbers, NumbersPastTheTypeAreQuotedAsTyped) {
  ParseResult r = parse({"--demo", "matrix", "--m", "18446744073709551617"});
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--m: must be from 1 to 65536, got '18446744073709551617'");
  EXPECT_EQ(r.error.find("9223372036854775807"), std::string::npos) << "a value the user did not type";
  r = parse({"--frames", "4294967297"});  // 2^32 + 1: 1 in 32 bits
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--frames: must be from 1 to 1000000, got '4294967297'");
  r = parse({"--demo", "nbody", "--bodies", "-1"});
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--bodies: must be from 1 to 16777216, got '-1'");
  // The ends of each range are taken.
  r = parse({"--headless", "--frames", "1000000", "--steps", "0", "--seed", "4611686018427387904"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->frames, 1000000);
  EXPECT_EQ(*r.options->seed, 4611686018427387904ull);
}

TEST(OptionNumbers, AGridEdgePastAnIntIsRefusedNotWrapped) {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  Demo* life = nullptr;
  for (auto& d : demos)
    if (d->name() == "life") life = d.get();
  ASSERT_TRUE(life);
  const std::string why = testing::configure_demo(*life, {"--grid", "4294967306x10"});
  EXPECT_HAS(why, "--grid needs WxH with each edge a whole number from 1 to 65536, got '4294967306x10'");
  EXPECT_HAS(testing::configure_demo(*life, {"--grid", "10x1e3"}), "got '10x1e3'");
  EXPECT_EQ(testing::configure_demo(*life, {"--grid", "33x17"}), "");
}

TEST(OptionNumbers, AHiddenOptionIsNamedInItsMessages) {
  // --layout-report is hidden from --help: CLI11 names such an option "" ("gpulab: : cannot write").
  const ParseResult r = parse({"--headless", "--layout-report", "/no/such/folder/layout.json"});
  ASSERT_FALSE(r.options);
  EXPECT_EQ(r.error.rfind("--layout-report: cannot write", 0), 0u) << r.error;
}

TEST(OutputChecks, TwoOutputsNamingOneFileAreRefused) {
  // They silently overwrote each other.
  const std::string dir = ::testing::TempDir();
  const std::string x = dir + "/same-output.txt";
  ParseResult r = parse({"ladder", "--png", x.c_str(), "--csv", x.c_str()});
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--png and --csv name the same file");
  const std::string dotted = dir + "/./same-output.txt";
  r = parse({"--demo", "matrix", "--save-a", x.c_str(), "--save-b", dotted.c_str()});
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--save-a and --save-b name the same file");
  // Relative spellings of one file that does not exist yet ("a.csv" was left relative, "./a.csv" made
  // absolute, and the two were taken for different files).
  r = parse({"--demo", "transfers", "--save-csv", "gpulab-never-made.csv", "--save-timeline",
             "./gpulab-never-made.csv"});
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--save-csv and --save-timeline name the same file");
  r = parse({"ladder", "--png", "gpulab-never-made.png", "--csv", "././gpulab-never-made.png"});
  ASSERT_FALSE(r.options);
  EXPECT_HAS(r.error, "--png and --csv name the same file");
  const std::string y = dir + "/other-output.txt";
  r = parse({"ladder", "--png", x.c_str(), "--csv", y.c_str()});
  EXPECT_TRUE(r.options) << r.error;
}

}  // namespace
}  // namespace gpulab

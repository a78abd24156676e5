// gpu-bit-multistep's host side: k as the command line and lessons give it (a whole number 1..16,
// anything else refused with the text quoted), the passes a step makes, the bytes a generation
// moves at k, and the CPU engine keeping k for an engine switch.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "life/life.h"

namespace gpulab::life {
namespace {

TEST(LifeMultistepHost, ParsesWholeNumbersFrom1To16) {
  for (int k = 1; k <= 16; ++k) {
    std::string error;
    const auto got = parse_generations_per_pass(std::to_string(k), &error);
    ASSERT_TRUE(got) << k << ": " << error;
    EXPECT_EQ(*got, k);
    EXPECT_TRUE(error.empty());
  }
  EXPECT_EQ(parse_generations_per_pass("08"), 8);
}

TEST(LifeMultistepHost, RefusesAnythingElseQuotingIt) {
  for (const std::string bad : {"0", "17", "-1", "+4", "2.5", "1e1", "", " 4", "4 ", "16x", "k", "0x10",
                                "99999999999999999999999", "\x1B[2J"}) {
    std::string error;
    EXPECT_FALSE(parse_generations_per_pass(bad, &error)) << bad;
    EXPECT_NE(error.find("1 to 16"), std::string::npos) << error;
    EXPECT_EQ(error.find('\x1B'), std::string::npos) << "control bytes must be escaped: " << error;
    if (bad == "17" || bad == "2.5") {
      EXPECT_NE(error.find("'" + bad + "'"), std::string::npos) << error;
    }
  }
  EXPECT_FALSE(parse_generations_per_pass("3", nullptr) == std::nullopt);
  EXPECT_EQ(parse_generations_per_pass("0", nullptr), std::nullopt);  // no error string asked for
}

TEST(LifeMultistepHost, PassesAreKThenWhatIsLeft) {
  EXPECT_EQ(multistep_passes(37, 16), (std::vector<int>{16, 16, 5}));
  EXPECT_EQ(multistep_passes(32, 16), (std::vector<int>{16, 16}));
  EXPECT_EQ(multistep_passes(5, 16), (std::vector<int>{5}));
  EXPECT_EQ(multistep_passes(3, 1), (std::vector<int>{1, 1, 1}));
  EXPECT_TRUE(multistep_passes(0, 16).empty());
  EXPECT_TRUE(multistep_passes(-2, 4).empty());
}

TEST(LifeMultistepHost, BytesPerGenerationFallAs1OverK) {
  const Variant& ms = *find_variant("gpu-bit-multistep");
  const Variant& bp = *find_variant("gpu-bitpacked");
  EXPECT_EQ(ms.layout, Layout::Packed);
  EXPECT_EQ(ms.step_kernel(), Kernel::BitMultistep);
  const double one = bytes_per_generation(bp, 32768, 32768);
  EXPECT_DOUBLE_EQ(one, 32768.0 * 32768.0 / 8.0 * 2.0);  // a bit a cell, read and written
  EXPECT_DOUBLE_EQ(bytes_per_generation(ms, 32768, 32768), one);
  for (int k : {1, 2, 4, 8, 16}) EXPECT_DOUBLE_EQ(bytes_per_generation(ms, 32768, 32768, k), one / k) << k;
  // Only the multistep rung divides: the others move their grid every generation.
  EXPECT_DOUBLE_EQ(bytes_per_generation(bp, 32768, 32768, 16), one);
  EXPECT_DOUBLE_EQ(bytes_per_generation(*find_variant("gpu-global"), 100, 10, 16), 2000.0);
}

TEST(LifeMultistepHost, EnginesKeepKAndRefuseOutOfRange) {
  auto cpu = make_cpu_engine();
  EXPECT_EQ(cpu->generations_per_pass(), kDefaultGenerationsPerPass);
  cpu->set_generations_per_pass(1);
  EXPECT_EQ(cpu->generations_per_pass(), 1);
  EXPECT_THROW(cpu->set_generations_per_pass(0), std::invalid_argument);
  EXPECT_THROW(cpu->set_generations_per_pass(17), std::invalid_argument);
  EXPECT_EQ(cpu->generations_per_pass(), 1);
  EXPECT_NO_THROW(check_generations_per_pass(16));
  try {
    check_generations_per_pass(20);
    ADD_FAILURE() << "20 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("20"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpulab::life

// --generations-per-pass (gpu-bit-multistep's k) on the command line, as lessons give it too: taken
// when a whole number 1..16, refused by configure with the option named and the value quoted.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "demos/life/life_demo.h"
#include "support/configure_demo.h"

namespace gpulab {
namespace {

// What configure says of `--demo life --generations-per-pass value` ("" when taken), or the parser's error.
std::string configure_with(const std::string& value) {
  LifeDemo life;
  return testing::configure_demo(life, {"--generations-per-pass", value.c_str()});
}

TEST(LifeGenerationsPerPass, TakesOneToSixteen) {
  for (const char* ok : {"1", "2", "8", "16"}) EXPECT_EQ(configure_with(ok), "") << ok;
}

TEST(LifeGenerationsPerPass, RefusesOthersWithTheOptionNamed) {
  for (const char* bad : {"0", "17", "2.5", "abc", "-3"}) {
    const std::string why = configure_with(bad);
    EXPECT_NE(why.find("generations-per-pass"), std::string::npos) << bad << ": " << why;
    if (why.rfind("parse: ", 0) != 0) {  // configure's own message quotes the value
      EXPECT_NE(why.find("1 to 16"), std::string::npos) << bad << ": " << why;
      EXPECT_NE(why.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << why;
    }
  }
}

}  // namespace
}  // namespace gpulab

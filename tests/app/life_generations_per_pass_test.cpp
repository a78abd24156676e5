// --generations-per-pass (gpu-bit-multistep's k) on the command line, as lessons give it too: taken
// when a whole number 1..16, refused by configure with the option named and the value quoted.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"

namespace gpulab {
namespace {

// What configure says of `--demo life --generations-per-pass value` ("" when taken), or the parser's error.
std::string configure_with(const std::string& value) {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  std::vector<Demo*> views;
  for (const auto& d : demos) views.push_back(d.get());
  std::vector<const char*> args = {"gpulab", "--demo", "life", "--generations-per-pass", value.c_str()};
  const ParseResult r = parse_command_line(static_cast<int>(args.size()), args.data(), views);
  if (!r.options) return "parse: " + r.error;
  for (const auto& d : demos)
    if (d->name() == "life") return d->configure(*r.options);
  return "no life demo";
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

#pragma once
// A headless GL context (EGL; Mesa's software device where there is no GPU) for a whole test suite:
// tests skip where EGL cannot be loaded or initialised, start with no GL error pending and must end
// with none. Derive the suite's fixture from it, naming the fixture itself so that every suite has
// its own context:
//   class GlObjects : public gpulab::testing::HeadlessGlTest<GlObjects, 64, 48> {};
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "gl/gl.h"
#include "platform/platform.h"

namespace gpulab::testing {

template <class Suite, int Width, int Height>
class HeadlessGlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    platform::HeadlessOptions options;
    options.width = Width;
    options.height = Height;
    platform_ = platform::create_headless(options, &error_);
  }
  static void TearDownTestSuite() { platform_.reset(); }
  void SetUp() override {
    if (!platform_ && (error_.find("cannot load libEGL") != std::string::npos ||
                       error_.find("no EGL display could be initialised") != std::string::npos))
      GTEST_SKIP() << error_;
    ASSERT_TRUE(platform_) << error_;
    while (glGetError() != GL_NO_ERROR) {
    }
  }
  void TearDown() override {
    if (platform_) {
      EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
    }
  }

  static inline std::unique_ptr<platform::Platform> platform_;
  static inline std::string error_;
};

}  // namespace gpulab::testing

// Headless EGL platform: a GL 4.5 core context comes up (Mesa llvmpipe on CI, NVIDIA on the GPU
// machine), reports what it chose, renders into its offscreen framebuffer and cleans up.
#include <gtest/gtest.h>

#include <string>

#include "gl/gl.h"
#include "platform/platform.h"

namespace gpulab::platform {
namespace {

// Skips only when EGL itself is missing or no display can be initialised at all; any later
// failure (no config, no 4.5 context, broken framebuffer) is a real test failure.
bool egl_unusable(const std::string& error) {
  return error.find("cannot load libEGL") != std::string::npos ||
         error.find("no EGL display could be initialised") != std::string::npos;
}

std::pair<int, int> parse_gl_version(const std::string& version) {
  int major = 0, minor = 0;
  std::sscanf(version.c_str(), "%d.%d", &major, &minor);
  return {major, minor};
}

TEST(HeadlessPlatform, CreatesGl45CoreContextWithOffscreenFramebuffer) {
  HeadlessOptions options;
  options.width = 37;
  options.height = 23;
  std::string error;
  auto platform = create_headless(options, &error);
  if (!platform && egl_unusable(error)) GTEST_SKIP() << error;
  ASSERT_TRUE(platform) << error;

  const ContextInfo& info = platform->info();
  auto [major, minor] = parse_gl_version(info.gl_version);
  EXPECT_TRUE(major > 4 || (major == 4 && minor >= 5)) << "GL_VERSION " << info.gl_version;
  GLint profile = 0;
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT) << "profile mask " << profile;
  EXPECT_FALSE(info.gl_renderer.empty());
  EXPECT_FALSE(info.gl_vendor.empty());
  EXPECT_NE(info.api.find("headless"), std::string::npos) << info.api;
  EXPECT_FALSE(info.egl_device.empty());
  if (info.software) {
    EXPECT_EQ(info.cuda_device, -1) << "software contexts have no CUDA device";
  }
  if (info.cuda_device >= 0) {
    EXPECT_NE(info.egl_device.find("NVIDIA"), std::string::npos) << info.egl_device;
  }

  EXPECT_TRUE(platform->headless());
  EXPECT_EQ(platform->framebuffer_width(), 37);
  EXPECT_EQ(platform->framebuffer_height(), 23);
  EXPECT_FLOAT_EQ(platform->content_scale(), 1.0f);
  ASSERT_NE(platform->target_framebuffer(), 0u);
  EXPECT_EQ(glCheckNamedFramebufferStatus(platform->target_framebuffer(), GL_FRAMEBUFFER),
            GLenum(GL_FRAMEBUFFER_COMPLETE));
  GLint bound = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
  EXPECT_EQ(GLuint(bound), platform->target_framebuffer()) << "offscreen FBO bound by default";

  // The offscreen target really is 37x23 RGBA8: a clear reads back everywhere, nothing beyond.
  const GLfloat colour[4] = {64 / 255.0f, 128 / 255.0f, 192 / 255.0f, 1.0f};
  glClearNamedFramebufferfv(platform->target_framebuffer(), GL_COLOR, 0, colour);
  platform->swap_buffers();
  auto pixels = gl::read_pixels_top_down(platform->target_framebuffer(), 37, 23);
  ASSERT_EQ(pixels.size(), size_t(37 * 23 * 4));
  for (size_t i = 0; i < pixels.size(); i += 4) {
    ASSERT_EQ(pixels[i + 0], 64) << "pixel " << i / 4;
    ASSERT_EQ(pixels[i + 1], 128) << "pixel " << i / 4;
    ASSERT_EQ(pixels[i + 2], 192) << "pixel " << i / 4;
    ASSERT_EQ(pixels[i + 3], 255) << "pixel " << i / 4;
  }
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
}

TEST(HeadlessPlatform, CloseIsOnlyOnRequestAndWindowCallsAreHarmless) {
  std::string error;
  auto platform = create_headless(HeadlessOptions{64, 32}, &error);
  if (!platform && egl_unusable(error)) GTEST_SKIP() << error;
  ASSERT_TRUE(platform) << error;
  EXPECT_FALSE(platform->should_close());
  platform->poll_events();
  platform->set_vsync(false);
  platform->set_fullscreen(true);
  EXPECT_FALSE(platform->fullscreen());
  platform->set_title("ignored");
  EXPECT_EQ(platform->glfw_window(), nullptr);
  EXPECT_FALSE(platform->should_close());
  platform->request_close();
  EXPECT_TRUE(platform->should_close());
}

TEST(HeadlessPlatform, ForcedSoftwareIsSoftwareAndSaysWhy) {
  HeadlessOptions options;
  options.width = 16;
  options.height = 16;
  options.force_software = true;
  std::string error;
  auto platform = create_headless(options, &error);
  // A machine with only the NVIDIA driver has no software device to force (the error then lists
  // no "(Mesa software)" attempt); where Mesa's device exists, failing to use it is a failure.
  if (!platform && (egl_unusable(error) || error.find("(Mesa software)") == std::string::npos))
    GTEST_SKIP() << error;
  ASSERT_TRUE(platform) << error;
  EXPECT_TRUE(platform->info().software) << platform->info().gl_renderer;
  EXPECT_EQ(platform->info().cuda_device, -1);
  EXPECT_EQ(platform->info().egl_device.find("NVIDIA"), std::string::npos) << platform->info().egl_device;
}

TEST(HeadlessPlatform, RejectsEmptySize) {
  std::string error;
  auto platform = create_headless(HeadlessOptions{0, 10}, &error);
  EXPECT_FALSE(platform);
  EXPECT_NE(error.find("0x10"), std::string::npos) << error;
}

TEST(HeadlessPlatform, TwoContextsInTurnAndAtOnce) {
  // Destroying a context must leave EGL usable for the next one (the App re-creates the platform
  // when the user switches devices), and two alive at once must not terminate each other's display.
  std::string error;
  for (int round = 0; round < 2; ++round) {
    auto first = create_headless(HeadlessOptions{8, 8}, &error);
    if (!first && egl_unusable(error)) GTEST_SKIP() << error;
    ASSERT_TRUE(first) << "round " << round << ": " << error;
    auto second = create_headless(HeadlessOptions{4, 4}, &error);
    ASSERT_TRUE(second) << "round " << round << ": " << error;
    // `second` is current now; its framebuffer works.
    const GLfloat red[4] = {1, 0, 0, 1};
    glClearNamedFramebufferfv(second->target_framebuffer(), GL_COLOR, 0, red);
    auto pixels = gl::read_pixels_top_down(second->target_framebuffer(), 4, 4);
    ASSERT_EQ(pixels.size(), 64u);
    EXPECT_EQ(pixels[0], 255);
    EXPECT_EQ(pixels[1], 0);
    // Destroying `first` must leave `second` current, its framebuffer alive (both FBOs are
    // likely named 1, each in its own context) and its display initialised.
    first.reset();
    ASSERT_NE(glGetString(GL_VERSION), nullptr) << "no context current after destroying another";
    EXPECT_TRUE(glIsFramebuffer(second->target_framebuffer()));
    const GLfloat green[4] = {0, 1, 0, 1};
    glClearNamedFramebufferfv(second->target_framebuffer(), GL_COLOR, 0, green);
    pixels = gl::read_pixels_top_down(second->target_framebuffer(), 4, 4);
    EXPECT_EQ(pixels[0], 0);
    EXPECT_EQ(pixels[1], 255);
    EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  }
}

}  // namespace
}  // namespace gpulab::platform

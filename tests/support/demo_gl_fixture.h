#pragma once
// A demo on the suite's headless GL context, attached to a CPU-only Context (no CUDA) as the app
// attaches it: configure() parses a command line for it, frame() makes a frame of the context's size.
// The image helpers (texture_bytes, rgba_of, ...) are support/image_checks.h's.
#include <string>
#include <utility>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "core/timings.h"
#include "gl/gl.h"
#include "image/image.h"
#include "support/configure_demo.h"
#include "support/gl_fixture.h"
#include "support/image_checks.h"
#include "support/test_paths.h"

namespace gpulab::testing {

template <class Suite, int Width, int Height>
class CpuDemoGlTest : public HeadlessGlTest<Suite, Width, Height> {
 protected:
  void SetUp() override {
    HeadlessGlTest<Suite, Width, Height>::SetUp();
    if (this->IsSkipped() || this->HasFatalFailure()) return;
    ctx_.platform = this->platform_.get();
    ctx_.cuda = false;
    ctx_.cuda_reason = "the test's CPU context";
    ctx_.timings = &timings_;
    ctx_.assets = GPULAB_TEST_ASSETS;
  }

  // Parses `args` (after `gpulab --demo NAME`) for the demo and configures it, as the app does.
  void configure(Demo& demo, std::vector<const char*> args) {
    ASSERT_EQ(configure_demo(demo, std::move(args)), "");
  }

  Frame frame(int w, int h, bool playing) {
    Frame f;
    f.width = w;
    f.height = h;
    f.playing = playing;
    f.steps_per_frame = 2;
    return f;
  }
  Frame frame(bool playing) { return frame(Width, Height, playing); }

  // One frame of `demo` (compute, then render) into `fb`, cleared to blue first: its pixels, RGBA,
  // the top row first.
  std::vector<uint8_t> draw_frame(Demo& demo, Frame& f, const gl::Framebuffer& fb) {
    demo.compute(f);
    glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
    glViewport(0, 0, fb.width(), fb.height());
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    demo.render(f);
    glFinish();
    std::vector<uint8_t> px = gl::read_pixels_top_down(fb.id(), fb.width(), fb.height());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return px;
  }

  Timings timings_;
  Context ctx_;
};

}  // namespace gpulab::testing

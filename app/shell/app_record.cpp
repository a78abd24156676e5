// The App's recorder (presenter/recorder.h): F9 starts and stops a clip of the window; a red dot in
// the top left corner says it runs, drawn after the frame is read back so that the clip does not
// show it.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "gl/image_io.h"
#include "platform/platform.h"
#include "presenter/recorder.h"
#include "shell/app.h"

namespace gpulab {

void App::toggle_recording() {
  if (recorder_ && recorder_->recording()) {
    notify(recorder_->stop());
    return;
  }
  if (!recorder_) recorder_ = std::make_unique<presenter::Recorder>();
  try {
    const std::filesystem::path out =
        gl::unique_screenshot_path("recordings", "gpulab-" + std::string(demos_[demo_]->name()), ".mp4");
    // A window never waits for the encoder: a frame that finds it behind is dropped and counted.
    const std::string err =
        recorder_->start(out, platform_->framebuffer_width(), platform_->framebuffer_height(), 60, false);
    notify(err.empty() ? recorder_->message() : "cannot record: " + err);
  } catch (const std::exception& e) {
    notify(std::string("cannot record: ") + e.what());
  }
}

void App::record_frame() {
  layout_.recording = recorder_ && recorder_->recording();
  if (!layout_.recording) return;
  platform::Platform& pf = *platform_;
  const int w = pf.framebuffer_width(), h = pf.framebuffer_height();
  if (w != recorder_->frame_width() || h != recorder_->frame_height()) {
    notify("recording stopped: the window changed size. " + recorder_->stop());
    layout_.recording = false;
    return;
  }
  guarded("record", [&] { recorder_->capture(pf.target_framebuffer()); });
  if (pf.headless()) return;  // a headless clip is all there is to see
  // The red dot, after the read-back: a disc of scissored clears. The clear colour, the scissor box
  // and the scissor test it changes are put back as they were, so the frame's draw state is as before.
  const int r = std::max(6, h / 80);
  const int cx = w - 3 * r - (lesson_ ? w / 3 : 0),
            cy = h - 3 * r;  // top right (GL's y is up), left of the lesson line
  GLfloat clear_color[4] = {};
  GLint scissor_box[4] = {};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_color);
  glGetIntegerv(GL_SCISSOR_BOX, scissor_box);
  const GLboolean scissor_test = glIsEnabled(GL_SCISSOR_TEST);
  glEnable(GL_SCISSOR_TEST);
  glClearColor(0.9f, 0.05f, 0.05f, 1.0f);
  for (int dy = -r; dy <= r; ++dy) {
    const int half = static_cast<int>(std::sqrt(static_cast<double>(r * r - dy * dy)));
    glScissor(cx - half, cy + dy, 2 * half + 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glClearColor(clear_color[0], clear_color[1], clear_color[2], clear_color[3]);
  glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
  if (!scissor_test) glDisable(GL_SCISSOR_TEST);
}

}  // namespace gpulab

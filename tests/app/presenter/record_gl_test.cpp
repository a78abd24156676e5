// gl label, end to end through the binary (headless EGL; Mesa here): --record writes a clip ffprobe
// reads every frame of (H.264 MP4, an odd size padded to an even one), 1920x1080 unless --size, of the
// view only unless --record-ui, lasting as long as the recording (30 frames a second of it); without
// ffmpeg a numbered PNG sequence with a message saying how to get video. And the Recorder on a GL
// context with an injected clock: a 3 s recording drawn at 13 or at 144 frames a second is a clip
// ffprobe says lasts 3 s (within 5%).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gl/gl.h"
#include "gl/image_io.h"
#include "presenter/recorder.h"
#include "support/gl_fixture.h"
#include "support/run_binary.h"
#include "support/tool_skip.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-record"); }

ProcessResult run(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_gpulab_in(args, dir, "gpulab-record");
}

// The frames the run said it wrote to `clip` ("wrote CLIP: N frames, S s at 30 frames/s"), checked
// against the seconds it said; -1 when it said nothing of the kind.
int said_frames(const std::string& output, const fs::path& clip) {
  const std::string head = "wrote " + clip.string() + ": ";
  const size_t at = output.find(head);
  if (at == std::string::npos) return -1;
  int frames = -1;
  double seconds = -1;
  if (std::sscanf(output.c_str() + at + head.size(), "%d frames, %lf s at 30 frames/s", &frames, &seconds) !=
      2)
    return -1;
  EXPECT_NEAR(seconds, frames / 30.0, 0.006) << output;
  return frames;
}

// ffprobe's count of the decoded video frames of `file`, -1 when it cannot read it.
int ffprobe_frames(const fs::path& file) {
  const std::string cmd =
      "ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames,width,height "
      "-of csv=p=0 '" +
      file.string() + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[256] = {};
  const size_t n = std::fread(buf, 1, sizeof buf - 1, p);
  pclose(p);
  int w = 0, h = 0, frames = -1;
  if (n == 0 || std::sscanf(buf, "%d,%d,%d", &w, &h, &frames) != 3) return -1;
  return frames;
}

// What ffprobe says of `file`'s video: its size and its duration in seconds (-1 when unreadable).
struct Probed {
  int width = 0, height = 0;
  double seconds = -1;
};
Probed ffprobe_video(const fs::path& file) {
  const std::string cmd =
      "ffprobe -v error -select_streams v:0 -show_entries stream=width,height:format=duration -of "
      "default=nw=1 '" +
      file.string() + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  Probed out;
  if (!p) return out;
  char line[256];
  while (std::fgets(line, sizeof line, p)) {
    std::sscanf(line, "width=%d", &out.width);
    std::sscanf(line, "height=%d", &out.height);
    std::sscanf(line, "duration=%lf", &out.seconds);
  }
  pclose(p);
  return out;
}

}  // namespace

TEST(Record, HeadlessRecordWritesAClipWithEveryFrame) {
  GPULAB_SKIP_WITHOUT_TOOL(gpulab::testing::missing_ffmpeg());
  const fs::path dir = temp_dir() / "mp4";
  const fs::path clip = dir / "clip.mp4";
  ::unsetenv("GPULAB_FFMPEG");
  // An odd size: H.264 in 4:2:0 needs even edges, the recorder pads.
  const ProcessResult r =
      run("--headless --demo life --cpu --record " + clip.string() + " --frames 12 --size 321x241", dir);
  ASSERT_EQ(r.status, 0) << r.output;
  // A headless run waits for each slot of the clip as a 30 Hz display would, and a frame drawn late
  // is stamped with its time: 12 frames take 12 slots (0.4 s), more where the machine fell behind
  // (the frame before repeated), and the clip has every one of them.
  const int slots = said_frames(r.output, clip);
  ASSERT_GE(slots, 12) << r.output;
  EXPECT_EQ(ffprobe_frames(clip), slots);
  const Probed v = ffprobe_video(clip);
  EXPECT_EQ(v.width, 322);
  EXPECT_EQ(v.height, 242);
  EXPECT_NEAR(v.seconds, slots / 30.0, 0.02);
}

TEST(Record, AHeadlessClipIs1080pOfTheViewLastingItsRecordingAndSmall) {
  GPULAB_SKIP_WITHOUT_TOOL(gpulab::testing::missing_ffmpeg());
  const fs::path dir = temp_dir() / "hd";
  const fs::path clip = dir / "clip.mp4";
  ::unsetenv("GPULAB_FFMPEG");
  const auto t0 = std::chrono::steady_clock::now();
  const ProcessResult r =
      run("--headless --demo nbody --cpu --record " + clip.string() + " --frames 45", dir);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.status, 0) << r.output;
  const Probed v = ffprobe_video(clip);
  EXPECT_EQ(v.width, 1920);
  EXPECT_EQ(v.height, 1080);
  // 45 frames at 30 a second: 1.5 s of clip at least, and as long as the recording took where it
  // took longer (N-body at 1080p on a software GL: the frame before held). The run took longer still.
  const int slots = said_frames(r.output, clip);
  ASSERT_GE(slots, 45) << r.output;
  EXPECT_NEAR(v.seconds, slots / 30.0, 0.075) << r.output;
  EXPECT_GE(wall, (slots - 1) / 30.0) << r.output;
  EXPECT_EQ(ffprobe_frames(clip), slots);
  // CRF 23: a clip of a slide's size, not a raw dump (N-body's dark sky: well under 1 MB a second).
  std::error_code ec;
  const auto bytes = fs::file_size(clip, ec);
  ASSERT_FALSE(ec);
  EXPECT_LT(static_cast<double>(bytes) / v.seconds, 1.0e6) << bytes << " bytes";
}

TEST(Record, WithoutFfmpegAPngSequenceAndHowToGetVideo) {
  const fs::path dir = temp_dir() / "png";
  const fs::path clip = dir / "clip.mp4";
  fs::create_directories(dir);
  ::setenv("GPULAB_FFMPEG", "none", 1);
  const ProcessResult r =
      run("--headless --demo nbody --cpu --record " + clip.string() + " --frames 5 --size 200x120", dir);
  ::unsetenv("GPULAB_FFMPEG");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("apt install ffmpeg"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(clip));
  for (int k = 1; k <= 5; ++k) {
    const fs::path f = gpulab::presenter::png_frame_path(clip, k);
    std::string err;
    const gpulab::gl::Image img = gpulab::gl::read_image(f, &err);
    ASSERT_TRUE(err.empty()) << err;
    EXPECT_EQ(img.width, 200);
    EXPECT_EQ(img.height, 120);
  }
  EXPECT_FALSE(fs::exists(gpulab::presenter::png_frame_path(clip, 6))) << "exactly --frames pictures";
  // The last recorded frame is the frame the screenshot shows (rows in the right order).
  const fs::path shot = dir / "shot.png";
  ::setenv("GPULAB_FFMPEG", "none", 1);
  const fs::path clip2 = dir / "again.mp4";
  const ProcessResult r2 = run("--headless --demo rotate --cpu --record " + clip2.string() +
                                   " --frames 2 --size 200x120 --no-ui --screenshot " + shot.string(),
                               dir);
  ::unsetenv("GPULAB_FFMPEG");
  ASSERT_EQ(r2.status, 0) << r2.output;
  std::string e1, e2;
  const auto a = gpulab::gl::read_image(gpulab::presenter::png_frame_path(clip2, 2), &e1);
  const auto b = gpulab::gl::read_image(shot, &e2);
  ASSERT_TRUE(e1.empty() && e2.empty()) << e1 << e2;
  EXPECT_EQ(a.rgba, b.rgba) << "the recorded frame is the picture, top row first";
}

TEST(Record, TheClipIsTheViewUnlessRecordUi) {
  // The panel is left out of a clip (the view fills it); --record-ui keeps it, as a screenshot with
  // the UI shows it.
  const fs::path dir = temp_dir() / "ui";
  fs::create_directories(dir);
  ::setenv("GPULAB_FFMPEG", "none", 1);
  const fs::path view = dir / "view.mp4", ui = dir / "ui.mp4", shot_view = dir / "v.png",
                 shot_ui = dir / "u.png";
  const std::string common = " --demo histeq --cpu --frames 2 --size 480x270 --headless";
  const ProcessResult a =
      run("--record " + view.string() + common + " --no-ui --screenshot " + shot_view.string(), dir);
  const ProcessResult b = run("--record " + ui.string() + " --record-ui" + common + " --screenshot " +
                                  shot_ui.string() + " --layout-report " + (dir / "layout.json").string(),
                              dir);
  ::unsetenv("GPULAB_FFMPEG");
  ASSERT_EQ(a.status, 0) << a.output;
  ASSERT_EQ(b.status, 0) << b.output;
  std::string e;
  const auto fv = gpulab::gl::read_image(gpulab::presenter::png_frame_path(view, 2), &e);
  const auto fu = gpulab::gl::read_image(gpulab::presenter::png_frame_path(ui, 2), &e);
  const auto sv = gpulab::gl::read_image(shot_view, &e);
  const auto su = gpulab::gl::read_image(shot_ui, &e);
  ASSERT_TRUE(e.empty()) << e;
  EXPECT_EQ(fv.rgba, sv.rgba) << "view only: the frame without the panel";
  EXPECT_NE(fv.rgba, fu.rgba);
  // --record-ui: the frame with the panel, as the screenshot shows it, but for the notices: the
  // screenshot has the "recording ..." toast, the clip never does.
  std::ifstream report_file(dir / "layout.json");
  const nlohmann::json report = nlohmann::json::parse(report_file, nullptr, false);
  ASSERT_TRUE(report.is_object());
  const nlohmann::json& toasts = report["toasts"];
  ASSERT_TRUE(toasts.value("shown", false)) << toasts;
  ASSERT_EQ(fu.width, su.width);
  ASSERT_EQ(fu.height, su.height);
  const nlohmann::json& box = toasts["box"];
  const int x0 = int(box[0].get<float>()), y0 = int(box[1].get<float>()), x1 = int(box[2].get<float>()) + 1,
            y1 = int(box[3].get<float>()) + 1;
  size_t inside = 0, inside_differ = 0, outside_differ = 0;
  for (int y = 0; y < fu.height; ++y)
    for (int x = 0; x < fu.width; ++x) {
      const size_t i = (static_cast<size_t>(y) * fu.width + x) * 4;
      const bool differ = !std::equal(fu.rgba.begin() + i, fu.rgba.begin() + i + 3, su.rgba.begin() + i);
      const bool in = x >= x0 && x < x1 && y >= y0 && y < y1;
      inside += in;
      (in ? inside_differ : outside_differ) += differ;
    }
  EXPECT_EQ(outside_differ, 0u) << "--record-ui: the frame with the panel, as the screenshot";
  EXPECT_GT(inside_differ, inside / 4) << "the toast's box: in the screenshot, not in the clip";
  EXPECT_EQ(run("--headless --record-ui --frames 1", dir).status, 2);
  EXPECT_EQ(run("--headless --record x.mp4 --record-ui --no-ui --frames 1", dir).status, 2);
}

// A GL context for the Recorder itself, with a clock the test sets.
class RecorderClock : public gpulab::testing::HeadlessGlTest<RecorderClock, 320, 180> {
 protected:
  // `times` (seconds) of frames drawn into a 320x180 framebuffer (each a grey a little lighter),
  // recorded into `clip`, the recording ending at `end`; the closing line.
  std::string record(const fs::path& clip, const std::vector<double>& times, double end) {
    gpulab::gl::Framebuffer fb(320, 180);
    gpulab::presenter::Recorder rec;
    const std::string err = rec.start(clip, 320, 180, gpulab::presenter::kClipFps, true);
    if (!err.empty()) return err;
    const double t0 = 1000.0;  // steady seconds of some earlier time
    for (size_t i = 0; i < times.size(); ++i) {
      const GLfloat grey[4] = {static_cast<float>(i % 200) / 255.0f, 0.3f, 0.5f, 1.0f};
      glClearNamedFramebufferfv(fb.id(), GL_COLOR, 0, grey);
      rec.capture(fb.id(), t0 + times[i]);
    }
    return rec.stop(t0 + end);
  }
};

TEST_F(RecorderClock, AThreeSecondRecordingPlaysThreeSecondsAtAnyDrawingRate) {
  GPULAB_SKIP_WITHOUT_TOOL(gpulab::testing::missing_ffmpeg());
  ::unsetenv("GPULAB_FFMPEG");
  const fs::path dir = temp_dir() / "clock";
  fs::create_directories(dir);
  // A window that manages 13 frames a second, unevenly (today's clips played these 4.6x too fast).
  std::vector<double> slow;
  for (int i = 0; i < 39; ++i) slow.push_back(i / 13.0 + (i % 4 == 1 ? 0.02 : 0.0));
  const std::string said = record(dir / "slow.mp4", slow, 3.0);
  EXPECT_NE(said.find(": 90 frames, 3.00 s at 30 frames/s"), std::string::npos) << said;
  EXPECT_NEAR(ffprobe_video(dir / "slow.mp4").seconds, 3.0, 0.15);
  EXPECT_EQ(ffprobe_frames(dir / "slow.mp4"), 90);
  // One at 144 frames a second: the frames between slots are not even read back.
  std::vector<double> fast;
  for (int i = 0; i < 432; ++i) fast.push_back(i / 144.0);
  record(dir / "fast.mp4", fast, 3.0);
  EXPECT_NEAR(ffprobe_video(dir / "fast.mp4").seconds, 3.0, 0.15);
}

TEST_F(RecorderClock, ABoxOfAnotherSizeIsFittedOnBlack) {
  // The view (the right half here, 160x180) in a 320x180 clip: scaled to fit, centred, black beside.
  const fs::path dir = temp_dir() / "box";
  fs::create_directories(dir);
  ::setenv("GPULAB_FFMPEG", "none", 1);
  gpulab::gl::Framebuffer fb(320, 180);
  const GLfloat red[4] = {1, 0, 0, 1};
  glClearNamedFramebufferfv(fb.id(), GL_COLOR, 0, red);
  glEnable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, fb.id());
  glScissor(160, 0, 160, 180);
  glClearColor(0, 1, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  gpulab::presenter::Recorder rec;
  const fs::path clip = dir / "box.mp4";
  ASSERT_EQ(rec.start(clip, 320, 180, 30, true), "");
  rec.capture(fb.id(), 5.0, {160, 0, 160, 180});  // as high as the clip: fitted at scale 1
  rec.capture(fb.id(), 5.04, {160, 0, 160, 45});  // a quarter as high: scaled 2x (the width limits)
  EXPECT_NE(rec.stop().find(": 2 frames"), std::string::npos);
  ::unsetenv("GPULAB_FFMPEG");
  std::string e;
  const auto a = gpulab::gl::read_image(gpulab::presenter::png_frame_path(clip, 1), &e);
  ASSERT_TRUE(e.empty()) << e;
  auto px = [](const gpulab::gl::Image& img, int x, int y) {
    const size_t i = (static_cast<size_t>(y) * img.width + x) * 4;
    return std::array<int, 3>{img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]};
  };
  EXPECT_EQ(px(a, 160, 90), (std::array<int, 3>{0, 255, 0}));
  EXPECT_EQ(px(a, 10, 90), (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(px(a, 310, 90), (std::array<int, 3>{0, 0, 0}));
  const auto b = gpulab::gl::read_image(gpulab::presenter::png_frame_path(clip, 2), &e);
  ASSERT_TRUE(e.empty()) << e;
  EXPECT_EQ(px(b, 160, 90), (std::array<int, 3>{0, 255, 0}));
  EXPECT_EQ(px(b, 5, 90), (std::array<int, 3>{0, 255, 0}));   // 320 wide...
  EXPECT_EQ(px(b, 160, 20), (std::array<int, 3>{0, 0, 0}));   // ...90 high, black above
  EXPECT_EQ(px(b, 160, 160), (std::array<int, 3>{0, 0, 0}));  // and below
}

TEST(Record, RecordGoesWithHeadless) {
  const fs::path dir = temp_dir() / "window";
  const ProcessResult r = run("--record " + (dir / "x.mp4").string(), dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--record goes with --headless"), std::string::npos) << r.output;
}

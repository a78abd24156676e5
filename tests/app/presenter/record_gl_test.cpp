// gl label, end to end through the binary (headless EGL; Mesa here): --record writes a clip ffprobe
// reads every frame of (H.264 MP4, an odd size padded to an even one), and without ffmpeg a numbered
// PNG sequence of exactly --frames pictures with a message saying how to get video.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gl/image_io.h"
#include "presenter/recorder.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using gpulab::testing::ProcessResult;

namespace {

fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-record"); }

ProcessResult run(const std::string& args, const fs::path& dir) {
  return gpulab::testing::run_gpulab_in(args, dir, "gpulab-record");
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

}  // namespace

TEST(Record, HeadlessRecordWritesAClipWithEveryFrame) {
  ASSERT_FALSE(gpulab::presenter::find_ffmpeg().empty())
      << "ffmpeg is in scripts/debian-packages.txt: install it (apt install ffmpeg)";
  const fs::path dir = temp_dir() / "mp4";
  const fs::path clip = dir / "clip.mp4";
  ::unsetenv("GPULAB_FFMPEG");
  // An odd size: H.264 in 4:2:0 needs even edges, the recorder pads.
  const ProcessResult r =
      run("--headless --demo life --cpu --record " + clip.string() + " --frames 12 --size 321x241", dir);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("wrote " + clip.string() + ": 12 frames"), std::string::npos) << r.output;
  EXPECT_EQ(ffprobe_frames(clip), 12);
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
                                   " --frames 2 --size 200x120 --screenshot " + shot.string(),
                               dir);
  ::unsetenv("GPULAB_FFMPEG");
  ASSERT_EQ(r2.status, 0) << r2.output;
  std::string e1, e2;
  const auto a = gpulab::gl::read_image(gpulab::presenter::png_frame_path(clip2, 2), &e1);
  const auto b = gpulab::gl::read_image(shot, &e2);
  ASSERT_TRUE(e1.empty() && e2.empty()) << e1 << e2;
  EXPECT_EQ(a.rgba, b.rgba) << "the recorded frame is the picture, top row first";
}

TEST(Record, RecordGoesWithHeadless) {
  const fs::path dir = temp_dir() / "window";
  const ProcessResult r = run("--record " + (dir / "x.mp4").string(), dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--record goes with --headless"), std::string::npos) << r.output;
}

// cpu label: the recorder's ffmpeg end (presenter/recorder.h) with stand-in ffmpegs: a clip is written
// to a temporary file beside the target and renamed over it only when ffmpeg succeeded, so a full disk
// (ffmpeg 5 prints the trailer error and exits 0) or a failing ffmpeg leaves an earlier take intact.
// And the clip's timeline: frames stamped with the time they were shown come out at a constant rate,
// so that a clip lasts as long as its recording whatever rate the app drew at.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "presenter/elements.h"
#include "presenter/recorder.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using namespace gpulab::presenter;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

class RecorderSink : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = gpulab::testing::temp_dir("gpulab-recorder") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    { std::ofstream(clip()) << "the earlier take"; }
  }
  void TearDown() override {
    ::unsetenv("GPULAB_FFMPEG");
    fs::remove_all(dir_);
  }
  fs::path clip() const { return dir_ / "clip.mp4"; }
  // A stand-in ffmpeg: reads the frames, writes `bytes` to its output (the last argument), prints
  // `says` on stderr and exits with `rc`.
  std::string stand_in(const std::string& name, const std::string& bytes, const std::string& says, int rc) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << "#!/bin/sh\nfor a; do out=$a; done\ncat >/dev/null\nprintf '" << bytes
                     << "' > \"$out\"\nprintf '" << says << "' >&2\nexit " << rc << "\n";
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  // Three 4x2 frames through the sink; finish()'s result.
  std::string record(const std::string& ffmpeg) {
    std::string why;
    std::unique_ptr<FrameSink> sink = open_video_sink(ffmpeg, clip(), 4, 2, 30, &why);
    if (!sink) return "open: " + why;
    const std::vector<uint8_t> frame(4 * 2 * 4, 128);
    for (int i = 0; i < 3; ++i)
      if (std::string w = sink->write(frame.data()); !w.empty()) return "write: " + w;
    return sink->finish();
  }
  // Files in dir_ besides the stand-ins and the clip: a temporary file left behind.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string n = e.path().filename().string();
      if (n != "clip.mp4" && n.rfind("ffmpeg", 0) != 0) out.push_back(n);
    }
    return out;
  }
  fs::path dir_;
};

TEST_F(RecorderSink, AFullDiskKeepsTheEarlierTake) {
  const std::string why = record(
      stand_in("ffmpeg-full", "head", "Error writing trailer of x.mp4: No space left on device\\n", 0));
  EXPECT_NE(why.find("could not finish the clip"), std::string::npos) << why;
  EXPECT_NE(why.find("left as it was"), std::string::npos) << why;
  EXPECT_EQ(slurp(clip()), "the earlier take");
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
}

TEST_F(RecorderSink, AFailingFfmpegKeepsTheEarlierTake) {
  const std::string why = record(stand_in("ffmpeg-fails", "junk", "Conversion failed!\\n", 1));
  EXPECT_NE(why.find("ffmpeg failed (exit status"), std::string::npos) << why;
  EXPECT_EQ(slurp(clip()), "the earlier take");
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
  // ffmpeg writing nothing at all is no clip either.
  EXPECT_NE(record(stand_in("ffmpeg-empty", "", "", 0)).find("wrote nothing"), std::string::npos);
  EXPECT_EQ(slurp(clip()), "the earlier take");
}

// The smallest whole MP4 a stand-in writes (printf's octal escapes) and its bytes: a 16-byte ftyp box
// and an empty moov (the index the trailer writes).
const char* const kMp4Printf = "\\000\\000\\000\\020ftypisom\\000\\000\\000\\000\\000\\000\\000\\010moov";
const std::string kMp4 = std::string(
    "\0\0\0\x10"
    "ftypisom\0\0\0\0"
    "\0\0\0\x08"
    "moov",
    24);

TEST_F(RecorderSink, ASuccessReplacesTheClipWhole) {
  EXPECT_EQ(record(stand_in("ffmpeg-ok", kMp4Printf, "", 0)), "");
  EXPECT_EQ(slurp(clip()), kMp4);
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
}

// A full disk where ffmpeg 5 says nothing of it (its log was on the same disk) and exits 0: the clip
// has no index; it is refused and the earlier take kept.
TEST_F(RecorderSink, AClipWithoutItsTrailerKeepsTheEarlierTake) {
  const std::string why = record(stand_in(
      "ffmpeg-cut", "\\000\\000\\000\\020ftypisom\\000\\000\\000\\000\\000\\000\\001\\000mdat", "", 0));
  EXPECT_NE(why.find("ffmpeg's clip is not whole: box 'mdat' at byte 16 runs past the end (24 bytes)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("left as it was"), std::string::npos) << why;
  EXPECT_EQ(slurp(clip()), "the earlier take");
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
}

// ffmpeg's messages name the file it was given, the temporary one: the user's clip is named instead.
TEST_F(RecorderSink, FfmpegsMessagesNameTheClipNotTheTemporaryFile) {
  const fs::path p = dir_ / "ffmpeg-names";
  std::ofstream(p)
      << "#!/bin/sh\nfor a; do out=$a; done\ncat >/dev/null\necho \"$out: Invalid argument\" >&2\n"
         "echo \"[out#0] $(basename \"$out\"): cannot open\" >&2\nexit 1\n";
  fs::permissions(p, fs::perms::owner_all);
  ::testing::internal::CaptureStderr();
  const std::string why = record(p.string());
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(why.find("ffmpeg failed"), std::string::npos) << why;
  EXPECT_NE(said.find("ffmpeg: " + clip().string() + ": Invalid argument"), std::string::npos) << said;
  EXPECT_NE(said.find("ffmpeg: [out#0] " + clip().string() + ": cannot open"), std::string::npos) << said;
  EXPECT_EQ(said.find(".gpulab-rec-"), std::string::npos) << said;
}

// What SIGKILL left (a handler cannot run): at the next start the take is kept under a name of its own
// and said so, a writer's partial file removed and said so; files younger than the age limit (a
// recording running now) and others' files are left alone.
TEST(RecoverLeftovers, AKilledTakeIsKeptAndNamedAndPartialFilesGo) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-leftovers");
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto make = [&](const std::string& name, const std::string& bytes, int age_s) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    fs::last_write_time(dir / name, fs::file_time_type::clock::now() - std::chrono::seconds(age_s));
  };
  make(".gpulab-rec-AbC123.mp4", kMp4, 3600);
  make(".gpulab-rec-empty1.webm", "", 3600);
  make(".gpulab-rec-Now123.mp4", kMp4, 0);
  make(".gpulab-tmp-x1y2z3", "half a table", 3600);
  make(".gpulab-tmp-young1", "being written", 0);
  make("notes.txt", "the lecturer's", 3600);
  const std::vector<std::string> said = recover_leftovers(dir, 60);
  ASSERT_EQ(said.size(), 2u) << (said.empty() ? "" : said.front());
  EXPECT_EQ(said[0].rfind("a clip interrupted on ", 0), 0u) << said[0];
  EXPECT_NE(said[0].find(" was kept as '" + dir.string() + "/interrupted-"), std::string::npos) << said[0];
  EXPECT_EQ(said[1], "removed '" + (dir / ".gpulab-tmp-x1y2z3").string() +
                         "', a partial file an interrupted write left");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], ".gpulab-rec-Now123.mp4");
  EXPECT_EQ(names[1], ".gpulab-tmp-young1");
  EXPECT_TRUE(std::regex_match(names[2], std::regex(R"(interrupted-\d{8}-\d{6}\.mp4)"))) << names[2];
  EXPECT_EQ(slurp(dir / names[2]), kMp4);
  EXPECT_EQ(names[3], "notes.txt");
  EXPECT_TRUE(recover_leftovers(dir / "no-such-folder").empty());
  fs::remove_all(dir);
}

// A headless recording's frames: each waits for the next slot when early, and one drawn late goes in
// the slot of its time, so the clip lasts as long as the recording and keeps every frame.
TEST(HeadlessStamp, EarlyFramesWaitLateOnesKeepTheirTime) {
  using gpulab::presenter::headless_stamp;
  const double t0 = 100.0;
  auto at = [&](double now, int64_t last) { return headless_stamp(now, t0, last, 30); };
  const auto first = headless_stamp(t0, std::nullopt, 0, 30);
  EXPECT_EQ(first.slot, 0);
  EXPECT_EQ(first.wait_s, 0.0);
  const auto early = at(t0 + 0.010, 0);  // slot 1 starts at 33.3 ms
  EXPECT_EQ(early.slot, 1);
  EXPECT_NEAR(early.wait_s, 1 / 30.0 - 0.010, 1e-9);
  const auto on_time = at(t0 + 1 / 30.0, 0);
  EXPECT_EQ(on_time.slot, 1);
  EXPECT_NEAR(on_time.wait_s, 0.0, 1e-9);
  const auto late = at(t0 + 0.200, 1);  // drawn 200 ms in: slot 6, slots 2-5 hold frame 1
  EXPECT_EQ(late.slot, 6);
  EXPECT_EQ(late.wait_s, 0.0);
  // 90 frames that took 5.3 s, evenly: the last is in slot 158 (5.3 s of clip), none shares a slot.
  int64_t last = 0;
  for (int k = 1; k < 90; ++k) {
    const auto st = at(t0 + 5.3 * k / 89.0 - 1e-4, last);
    EXPECT_GT(st.slot, last) << k;
    last = st.slot;
  }
  EXPECT_EQ(last, 158);
}

TEST(CheckClip, Mp4BoxesAndWebmSegments) {
  auto bytes = [](std::initializer_list<int> b) {
    std::vector<uint8_t> v;
    for (int x : b) v.push_back(uint8_t(x));
    return v;
  };
  const std::vector<uint8_t> mp4(kMp4.begin(), kMp4.end());
  EXPECT_EQ(check_clip_bytes(mp4, false), "");
  std::vector<uint8_t> no_moov(mp4.begin(), mp4.begin() + 16);
  EXPECT_NE(check_clip_bytes(no_moov, false).find("no moov box"), std::string::npos);
  std::vector<uint8_t> cut(mp4.begin(), mp4.end() - 3);
  EXPECT_NE(check_clip_bytes(cut, false).find("ends inside a box header"), std::string::npos);
  // WebM: EBML header (id 1A45DFA3, size 1, one byte), Segment (id 18538067) of 2 bytes.
  const std::vector<uint8_t> webm =
      bytes({0x1A, 0x45, 0xDF, 0xA3, 0x81, 0x00, 0x18, 0x53, 0x80, 0x67, 0x82, 1, 2});
  EXPECT_EQ(check_clip_bytes(webm, true), "");
  std::vector<uint8_t> unknown = webm;
  unknown[10] = 0xFF;  // the one-byte size "unknown": the trailer never came
  EXPECT_NE(check_clip_bytes(unknown, true).find("size is unknown"), std::string::npos);
  std::vector<uint8_t> short_segment(webm.begin(), webm.end() - 1);
  EXPECT_NE(check_clip_bytes(short_segment, true).find("its Segment ends at byte 13, the file at 12"),
            std::string::npos)
      << check_clip_bytes(short_segment, true);
  EXPECT_NE(check_clip_bytes(mp4, true).find("WebM (EBML) header"), std::string::npos);
}

TEST_F(RecorderSink, AClipHasTheModeOfEveryOtherOutput) {
  // Clips were always 0600 (the temporary file's); every other output follows the umask and keeps a
  // replaced file's mode.
  const std::string ffmpeg = stand_in("ffmpeg-ok", kMp4Printf, "", 0);
  const mode_t before = ::umask(022);
  fs::remove(clip());
  EXPECT_EQ(record(ffmpeg), "");
  struct stat st {};
  ASSERT_EQ(::stat(clip().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u) << "a new clip: 0666 less the umask";
  ASSERT_EQ(::chmod(clip().c_str(), 0640), 0);
  EXPECT_EQ(record(ffmpeg), "");
  ASSERT_EQ(::stat(clip().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u) << "a replaced clip keeps its mode";
  ::umask(before);
}

TEST_F(RecorderSink, AnAbandonedRecordingLeavesNoTemporaryFile) {
  {
    std::string why;
    std::unique_ptr<FrameSink> sink =
        open_video_sink(stand_in("ffmpeg-ok", "x", "", 0), clip(), 4, 2, 30, &why);
    ASSERT_TRUE(sink) << why;
    // Only the clip's temporary file is beside it: ffmpeg's log is in the temporary folder.
    const std::vector<std::string> beside = leftovers();
    ASSERT_EQ(beside.size(), 1u);
    EXPECT_EQ(beside[0].rfind(".gpulab-rec-", 0), 0u) << beside[0];
    EXPECT_EQ(fs::path(beside[0]).extension(), ".mp4") << beside[0];
  }  // never finished: as when the app stops on an error
  EXPECT_EQ(slurp(clip()), "the earlier take");
  EXPECT_TRUE(leftovers().empty()) << leftovers().front();
}

// Ctrl+C (SIGINT) or SIGTERM mid-recording: the process ends without destructors, so the signal's
// handler removes the temporary clip and log; the earlier take stays. Run in a child process, which
// the signal ends, with a stand-in ffmpeg that opens its output first as ffmpeg does and signals
// once it runs (after that the shell has made the log too).
void interrupted_recording(const fs::path& dir, const fs::path& clip, int sig) {
  const fs::path ffmpeg = dir / "ffmpeg-slow", started = dir / "ffmpeg-started";
  std::ofstream(ffmpeg) << "#!/bin/sh\nfor a; do out=$a; done\nexec 3>\"$out\"\n: > '" << started.string()
                        << "'\ncat >/dev/null\nprintf late >&3\n";
  fs::permissions(ffmpeg, fs::perms::owner_all);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const struct rlimit no_core { 0, 0 };
    ::setrlimit(RLIMIT_CORE, &no_core);  // SIGQUIT's default action dumps core
    std::string why;
    std::unique_ptr<FrameSink> sink = open_video_sink(ffmpeg.string(), clip, 4, 2, 30, &why);
    if (!sink) ::_exit(3);
    const std::vector<uint8_t> frame(4 * 2 * 4, 128);
    (void)sink->write(frame.data());
    for (int i = 0; i < 500 && !fs::exists(started); ++i) ::usleep(10000);
    ::raise(sig);
    ::_exit(4);  // (not reached: the signal ends the process)
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status)) << "exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), sig);
  }
}

TEST_F(RecorderSink, CtrlCMidRecordingKeepsTheEarlierTakeAndLeavesNoTemporaryFile) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    interrupted_recording(dir_, clip(), sig);
    EXPECT_EQ(slurp(clip()), "the earlier take");
    ::usleep(100000);  // (the stand-in, its input closed, ends: it writes only to the removed file)
    std::vector<std::string> left = leftovers();
    EXPECT_TRUE(left.empty()) << "signal " << sig << " left " << left.front();
    fs::remove(dir_ / "ffmpeg-started");
  }
}

// A sink that keeps the first byte of every frame it is given (the frame's number in these tests).
class TagSink : public FrameSink {
 public:
  std::string write(const uint8_t* rgba) override {
    tags.push_back(rgba[0]);
    return {};
  }
  std::string finish() override { return {}; }
  std::vector<int> tags;
};

// Frames shown at `times` (seconds from the first), tagged 0, 1, 2...; the recording ends at `end`.
std::vector<int> timeline(const std::vector<double>& times, double end, int fps, int64_t* repeats = nullptr) {
  TagSink sink;
  ClipTimeline t(&sink, fps);
  int64_t last = -1;
  for (size_t i = 0; i < times.size(); ++i) {
    const int64_t slot = ClipTimeline::slot(times[i], fps);
    if (slot <= last) continue;  // (Recorder::capture does not read such a frame back)
    last = slot;
    EXPECT_EQ(t.put(std::vector<uint8_t>(4, static_cast<uint8_t>(i)), slot), "");
  }
  EXPECT_EQ(t.finish(ClipTimeline::slot(end, fps)), "");
  EXPECT_EQ(t.written(), static_cast<int64_t>(sink.tags.size()));
  if (repeats) *repeats = t.repeats();
  return sink.tags;
}

TEST(ClipTimeline, ASlowWindowsThreeSecondsLastThreeSeconds) {
  // 13 frames a second, unevenly (a window that cannot keep up while the encoder works): 3 s of
  // recording is 90 frames at 30 frames/s, each shown frame repeated until the next came.
  std::vector<double> times;
  for (int i = 0; i < 39; ++i) times.push_back(i / 13.0 + (i % 3 == 1 ? 0.021 : 0.0));
  int64_t repeats = 0;
  const std::vector<int> tags = timeline(times, 3.0, 30, &repeats);
  EXPECT_EQ(tags.size(), 90u);
  EXPECT_GT(repeats, 40);
  // Frame k of the clip shows the newest frame shown by the end of its slot, (k + 1) / 30 s.
  for (size_t k = 0; k < tags.size(); ++k) {
    int newest = 0;
    for (size_t i = 0; i < times.size(); ++i)
      if (ClipTimeline::slot(times[i], 30) <= static_cast<int64_t>(k)) newest = static_cast<int>(i);
    EXPECT_EQ(tags[k], newest) << "clip frame " << k;
  }
}

TEST(ClipTimeline, AFastAppsThreeSecondsLastThreeSeconds) {
  // 144 frames a second: a frame a slot, the first of each slot; 3 s is still 90 frames.
  std::vector<double> times;
  for (int i = 0; i < 432; ++i) times.push_back(i / 144.0);
  int64_t repeats = 0;
  const std::vector<int> tags = timeline(times, 3.0, 30, &repeats);
  EXPECT_EQ(tags.size(), 90u);
  EXPECT_EQ(repeats, 0);
  for (size_t k = 1; k < tags.size(); ++k) EXPECT_NE(tags[k], tags[k - 1]) << "clip frame " << k;
}

TEST(ClipTimeline, APauseHoldsTheFrameAndTheLastFrameLastsUntilTheEnd) {
  // Two frames, then nothing for 2 s (a dialog, a stall), one more, and the recording ends 1 s later.
  const std::vector<int> tags = timeline({0.0, 0.1, 2.1}, 3.1, 30);
  ASSERT_EQ(tags.size(), 93u);
  EXPECT_EQ(std::count(tags.begin(), tags.end(), 0), 3);
  EXPECT_EQ(std::count(tags.begin(), tags.end(), 1), 60);
  EXPECT_EQ(std::count(tags.begin(), tags.end(), 2), 30);
  // Ended before the last frame's slot is over: it is still in the clip, once.
  EXPECT_EQ(timeline({0.0, 0.5}, 0.5, 30).size(), 16u);
  EXPECT_EQ(ClipTimeline::slot(-1.0, 30), 0);
}

TEST_F(RecorderSink, AMissingGpulabFfmpegIsNamed) {
  ::setenv("GPULAB_FFMPEG", "/missing/ffmpeg", 1);
  std::string why;
  EXPECT_EQ(find_ffmpeg(&why), "");
  EXPECT_NE(why.find("GPULAB_FFMPEG names '/missing/ffmpeg'"), std::string::npos) << why;
  ::setenv("GPULAB_FFMPEG", "none", 1);
  EXPECT_EQ(find_ffmpeg(&why), "");
  EXPECT_NE(why.find("GPULAB_FFMPEG is 'none'"), std::string::npos) << why;
}

}  // namespace

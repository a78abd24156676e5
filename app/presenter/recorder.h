#pragma once
// Clips for slides (F9 in the window, `--record OUT.mp4 --frames N` headless): the frames the app
// shows, read back through a ring of pixel-pack buffers (the read of frame k is mapped a few frames
// later, when GL has finished it, so the frame loop never waits for it) and encoded on a thread of
// their own: piped to ffmpeg (H.264 MP4 at CRF 23, or VP9 WebM for a .webm name) where ffmpeg is
// found, else written as a numbered PNG sequence beside the name asked for, with a message saying how
// to get video. $GPULAB_FFMPEG names the ffmpeg to use ("none": the PNG sequence).
//
// Each frame carries the time it was shown, and the clip is written at a constant rate from those
// times (ClipTimeline): a frame the app drew late is shown longer, a frame the encoder had no room for
// leaves the one before it on screen, so a clip plays as long as the recording took (the window drew
// 15 frames a second or 60). A part of the frame (the view) can be recorded instead of all of it,
// scaled to fit the clip's size when it changes.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "gl/gl.h"

namespace gpulab::presenter {

// Where frames go (on the encoder thread). RGBA8 rows bottom-up, as glReadPixels gives them.
class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual std::string write(const uint8_t* rgba) = 0;  // "" or why it failed
  virtual std::string finish() = 0;                    // "" or why it failed
};

// The ffmpeg found: $GPULAB_FFMPEG when set ("none" or empty: none), else `ffmpeg` on PATH. "" when none,
// with `why` saying so (naming GPULAB_FFMPEG when it is set to something that is not an executable).
std::string find_ffmpeg(std::string* why = nullptr);
// ffmpeg started on a temporary file beside `out` (clip.mp4: .gpulab-rec-XXXXXX.mp4), which finish()
// renames over `out` only when ffmpeg succeeded; a failure (an exit status other than 0, or a trailer
// ffmpeg could not write, as on a full disk) leaves an earlier `out` as it was. Null with `error`.
std::unique_ptr<FrameSink> open_video_sink(const std::string& ffmpeg, const std::filesystem::path& out, int w,
                                           int h, int fps, std::string* error);
// Whether a finished clip is whole, "" or why not: an MP4's top-level boxes fill the file and hold
// the index (moov); a WebM's Segment has the size its trailer writes and ends with the file. ffmpeg 5
// exits 0 when the trailer cannot be written, so its exit status alone does not tell.
std::string check_clip_bytes(std::span<const uint8_t> bytes, bool webm);
bool is_webm(const std::filesystem::path& clip);  // by the extension, in any case
std::string check_clip(const std::filesystem::path& clip);
// What SIGKILL or a crash left in `dir` (a signal's handler removes them otherwise), each untouched for
// `min_age` (an older one belongs to no running recording): a clip's temporary file, the only copy of
// that take, renamed interrupted-YYYYMMDD-HHMMSS.mp4 (or .webm) and said so; a writer's partial
// .gpulab-tmp-* file removed and said so. The lines to show, one each.
std::vector<std::string> recover_leftovers(const std::filesystem::path& dir, int min_age_s = 60);
// The ffmpeg command line that encodes rawvideo RGBA frames of w x h at fps from stdin into `out`.
std::string ffmpeg_command(const std::string& ffmpeg, const std::filesystem::path& out, int w, int h,
                           int fps);
// The PNG sequence's frame k (1-based): OUT's folder / OUT's stem-00001.png.
std::filesystem::path png_frame_path(const std::filesystem::path& out, int k);

// The clip's frame rate: every 1/kClipFps seconds of recording is one frame of the clip.
constexpr int kClipFps = 30;

// Frames stamped with the time they were shown, handed to a sink at a constant rate: frame k of the
// clip (k / fps seconds in) is the frame on screen in [k / fps, (k + 1) / fps) (of frames that share a
// slot the first is kept; Recorder does not even read the others back). Runs on the encoder thread.
class ClipTimeline {
 public:
  ClipTimeline(FrameSink* sink, int fps) : sink_(sink), fps_(fps) {}
  // The clip's slot for a frame shown `seconds` after the first: the one it is shown at the start of.
  static int64_t slot(double seconds, int fps);
  // A frame for slot `slot` (rising from call to call): the frame held before it goes to the sink
  // once per slot it stays on screen. "" or the sink's error.
  std::string put(std::vector<uint8_t> frame, int64_t slot);
  // The last frame, shown until `end_slot` (at least one slot). "" or the sink's error.
  std::string finish(int64_t end_slot);
  int64_t written() const { return written_; }  // frames handed to the sink
  int64_t repeats() const { return repeats_; }  // of them, frames shown again (no new one was drawn)

 private:
  std::string emit(int64_t times);
  FrameSink* sink_;
  int fps_;
  std::vector<uint8_t> held_;
  int64_t held_slot_ = -1, written_ = 0, repeats_ = 0;
};

// A region of a framebuffer in GL's pixels (origin at the bottom left); empty: the whole framebuffer.
struct CaptureBox {
  int x = 0, y = 0, w = 0, h = 0;
  bool empty() const { return w <= 0 || h <= 0; }
};

class Recorder {
 public:
  Recorder() = default;
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  // Starts a recording of w x h frames at `fps` into `out`. `lossless`: no frame is ever dropped
  // (headless: the frame loop waits for the encoder); else a frame that finds the encoder's queue full
  // is dropped and counted, so the window never stalls. Returns "" or why not. message() says where
  // the frames go (and, without ffmpeg, how to get video).
  std::string start(const std::filesystem::path& out, int w, int h, int fps, bool lossless);
  // After a frame is drawn into `fbo` (before the swap), shown at `t` (steady seconds): queue the
  // read-back of `box` of it (empty: all of it; scaled to fit the clip's size, centred on black, when
  // the sizes differ), hand finished ones on. A frame in a slot of the clip that already has one is
  // not read back.
  void capture(GLuint fbo, double t, CaptureBox box = {});
  // Ends the recording at `end_t` (steady seconds; left out: one slot after the last frame): the ring
  // drained, the encoder joined. Returns the closing line ("wrote clip.mp4: 90 frames, 3.00 s at 30
  // frames/s") or the error.
  std::string stop(std::optional<double> end_t = std::nullopt);

  bool recording() const { return recording_; }
  const std::string& message() const { return message_; }
  int frame_width() const { return w_; }
  int frame_height() const { return h_; }
  int fps() const { return fps_; }

 private:
  void hand_on(size_t slot);
  void encode_loop();
  struct Queued {
    std::vector<uint8_t> frame;
    int64_t slot = 0;
  };

  static constexpr size_t kRing = 3;
  static constexpr size_t kQueue = 8;
  bool recording_ = false, lossless_ = false, video_ = false;
  int w_ = 0, h_ = 0, fps_ = kClipFps, dropped_ = 0;
  double t0_ = 0;           // the first frame's time
  int64_t last_slot_ = -1;  // the last frame's slot of the clip (-1: none yet)
  std::filesystem::path out_;
  std::string message_;
  gl::Buffer ring_[kRing];
  gl::Fence fences_[kRing];  // after each slot's read-back
  bool pending_[kRing] = {};
  int64_t ring_slot_[kRing] = {};
  size_t next_ = 0;
  gl::Framebuffer scaled_;  // a box of another size than the clip's, fitted in

  std::unique_ptr<FrameSink> sink_;
  std::thread encoder_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Queued> queue_;
  bool done_ = false;
  std::string encode_error_;
  std::unique_ptr<ClipTimeline> timeline_;  // the encoder thread's (read after it is joined)
};

}  // namespace gpulab::presenter

#pragma once
// Clips for slides (F9 in the window, `--record OUT.mp4 --frames N` headless): the frames the app
// shows, read back through a ring of pixel-pack buffers (the read of frame k is mapped a few frames
// later, when GL has finished it, so the frame loop never waits for it) and encoded on a thread of
// their own: piped to ffmpeg (H.264 MP4, or VP9 WebM for a .webm name) where ffmpeg is found, else
// written as a numbered PNG sequence beside the name asked for, with a message saying how to get video.
// $GPULAB_FFMPEG names the ffmpeg to use ("none": the PNG sequence).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
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
// The ffmpeg command line that encodes rawvideo RGBA frames of w x h at fps from stdin into `out`.
std::string ffmpeg_command(const std::string& ffmpeg, const std::filesystem::path& out, int w, int h,
                           int fps);
// The PNG sequence's frame k (1-based): OUT's folder / OUT's stem-00001.png.
std::filesystem::path png_frame_path(const std::filesystem::path& out, int k);

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
  // After a frame is drawn into `fbo` (before the swap): queue its read-back, hand finished ones on.
  void capture(GLuint fbo);
  // Ends the recording: the ring drained, the encoder joined. Returns the closing line ("wrote
  // clip.mp4: 120 frames") or the error.
  std::string stop();

  bool recording() const { return recording_; }
  const std::string& message() const { return message_; }
  int frame_width() const { return w_; }
  int frame_height() const { return h_; }

 private:
  void hand_on(size_t slot);
  void encode_loop();

  static constexpr size_t kRing = 3;
  static constexpr size_t kQueue = 8;
  bool recording_ = false, lossless_ = false, video_ = false;
  int w_ = 0, h_ = 0, dropped_ = 0;
  std::filesystem::path out_;
  std::string message_;
  gl::Buffer ring_[kRing];
  GLsync fences_[kRing] = {};
  bool pending_[kRing] = {};
  size_t next_ = 0;

  std::unique_ptr<FrameSink> sink_;
  std::thread encoder_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::vector<uint8_t>> queue_;
  bool done_ = false;
  std::string encode_error_;
  int encoded_ = 0;
};

}  // namespace gpulab::presenter

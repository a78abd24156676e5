// The recorder (recorder.h): a pixel-pack ring on the GL side, ffmpeg or PNG files on a thread.
#include "presenter/recorder.h"

#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

#include "common/file_io.h"
#include "common/temp_files.h"
#include "common/text.h"
#include "gl/image_io.h"

namespace gpulab::presenter {
namespace fs = std::filesystem;

namespace {

using files::unregister_temp;

// ffmpeg writes to a temporary file beside the clip (same folder, same extension: ffmpeg picks the
// container by it), renamed over the clip only when ffmpeg exited 0 and said nothing of a failed
// trailer (ffmpeg 5 exits 0 when the trailer cannot be written, on a full disk). An earlier take of
// the same name is kept until then, and kept when the recording fails or is interrupted.
class FfmpegSink : public FrameSink {
 public:
  FfmpegSink(FILE* pipe, size_t bytes, fs::path tmp, fs::path out, fs::path log, int tmp_slot, int log_slot)
      : pipe_(pipe),
        bytes_(bytes),
        tmp_(std::move(tmp)),
        out_(std::move(out)),
        log_(std::move(log)),
        tmp_slot_(tmp_slot),
        log_slot_(log_slot) {}
  ~FfmpegSink() override {
    if (pipe_) pclose(pipe_);
    std::error_code ec;
    fs::remove(tmp_, ec);  // not renamed: a failed or abandoned recording
    fs::remove(log_, ec);
    unregister_temp(tmp_slot_);
    unregister_temp(log_slot_);
  }
  std::string write(const uint8_t* rgba) override {
    if (std::fwrite(rgba, 1, bytes_, pipe_) != bytes_)
      return "ffmpeg stopped taking frames (see its message above)";
    return {};
  }
  std::string finish() override {
    const int rc = pclose(pipe_);
    pipe_ = nullptr;
    // ffmpeg's own messages, passed on (escaped) now that it has ended.
    files::ReadResult said = files::read_regular_file(log_, 1 << 20);
    std::string told(said.bytes.begin(), said.bytes.end());
    // ffmpeg names the temporary file it was given: the user's clip is named instead.
    for (const std::string& tmp_name : {tmp_.string(), tmp_.filename().string()})
      for (size_t at = told.find(tmp_name); at != std::string::npos; at = told.find(tmp_name, at + 1))
        told.replace(at, tmp_name.size(), out_.string());
    for (std::string_view line : text::split_lines(told))
      if (!text::trim(line).empty()) std::fprintf(stderr, "ffmpeg: %s\n", text::escape(line, 1000).c_str());
    const bool trailer_failed = told.find("Error writing trailer") != std::string::npos ||
                                told.find("No space left on device") != std::string::npos;
    const std::string keep = fs::exists(out_) ? "; " + text::quote(out_.string()) + " is left as it was" : "";
    if (rc != 0)
      return "ffmpeg failed (exit status " + std::to_string(rc) + "; see its message above)" + keep;
    if (trailer_failed) return "ffmpeg could not finish the clip (see its message above)" + keep;
    std::error_code ec;
    if (fs::file_size(tmp_, ec) == 0 || ec) return "ffmpeg wrote nothing" + keep;
    if (std::string bad = check_clip(tmp_); !bad.empty()) return "ffmpeg's clip is not whole: " + bad + keep;
    if (::rename(tmp_.c_str(), out_.c_str()) != 0)
      return "cannot rename the finished clip to " + text::quote(out_.string()) + ": " + std::strerror(errno);
    unregister_temp(tmp_slot_);  // (the clip now: a signal must not remove it)
    return {};
  }

 private:
  FILE* pipe_;
  size_t bytes_;
  fs::path tmp_, out_, log_;
  int tmp_slot_ = -1, log_slot_ = -1;
};

class PngSink : public FrameSink {
 public:
  PngSink(fs::path out, int w, int h)
      : out_(std::move(out)), w_(w), h_(h), row_(static_cast<size_t>(w) * 4) {}
  std::string write(const uint8_t* rgba) override {
    // Rows bottom-up from GL: flipped into a PNG's top-down order.
    std::vector<uint8_t> top(rgba, rgba + row_ * static_cast<size_t>(h_));
    gl::flip_rows(top.data(), row_, h_);
    return gl::write_png(png_frame_path(out_, ++k_), w_, h_, top.data());
  }
  std::string finish() override { return {}; }

 private:
  fs::path out_;
  int w_, h_;
  size_t row_;
  int k_ = 0;
};

}  // namespace

std::string find_ffmpeg(std::string* why) {
  if (const char* env = std::getenv("GPULAB_FFMPEG")) {
    const std::string e = env;
    if (e.empty() || e == "none") {
      if (why) *why = "GPULAB_FFMPEG is " + text::quote(e);
      return {};
    }
    std::error_code ec;
    if (fs::is_regular_file(e, ec) && ::access(e.c_str(), X_OK) == 0) return e;
    if (why) *why = "GPULAB_FFMPEG names " + text::quote(e) + ", which is not an executable file";
    return {};
  }
  if (why) *why = "no ffmpeg on PATH";
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    const fs::path candidate = fs::path(p.substr(start, end - start)) / "ffmpeg";
    std::error_code ec;
    if (end > start && fs::is_regular_file(candidate, ec)) return candidate.string();
    start = end + 1;
  }
  return {};
}

std::string ffmpeg_command(const std::string& ffmpeg, const fs::path& out, int w, int h, int fps) {
  const bool webm = is_webm(out);
  // GL's rows come bottom-up: vflip. H.264 and VP9 in 4:2:0 need even sizes: pad by a pixel.
  std::string cmd = text::shell_quote(ffmpeg) +
                    " -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgba -s " + std::to_string(w) +
                    "x" + std::to_string(h) + " -r " + std::to_string(fps) + " -i - -vf " +
                    text::shell_quote("vflip,pad=ceil(iw/2)*2:ceil(ih/2)*2") + " -pix_fmt yuv420p ";
  cmd += webm ? "-c:v libvpx-vp9 -b:v 0 -crf 32 -row-mt 1 "
              : "-c:v libx264 -preset veryfast -crf 23 -movflags +faststart ";
  return cmd + text::shell_quote(out.string());
}

fs::path png_frame_path(const fs::path& out, int k) {
  char num[16];
  std::snprintf(num, sizeof num, "-%05d.png", k);
  return out.parent_path() / (out.stem().string() + num);
}

namespace {
// A big-endian field of `n` bytes at `p`.
uint64_t big_endian(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}
}  // namespace

// OUT.webm (any case): VP9 in WebM; anything else (OUT.mp4, as --record requires): H.264 in MP4.
bool is_webm(const fs::path& clip) {
  std::string ext = clip.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".webm";
}

std::string check_clip_bytes(std::span<const uint8_t> b, bool webm) {
  if (!webm) {
    // MP4: top-level boxes (32-bit size and type; size 1: a 64-bit size follows) that fill the file,
    // one of them the index (moov), which the trailer writes.
    bool moov = false;
    uint64_t at = 0;
    while (at < b.size()) {
      if (b.size() - at < 8) return "it ends inside a box header (" + std::to_string(b.size()) + " bytes)";
      uint64_t size = big_endian(&b[at], 4);
      const std::string type(reinterpret_cast<const char*>(&b[at + 4]), 4);
      if (size == 1) {
        if (b.size() - at < 16) return "it ends inside a box header (" + std::to_string(b.size()) + " bytes)";
        size = big_endian(&b[at + 8], 8);
      } else if (size == 0) {
        size = b.size() - at;  // to the end of the file
      }
      if (size < 8 || size > b.size() - at)
        return "box '" + text::escape(type) + "' at byte " + std::to_string(at) + " runs past the end (" +
               std::to_string(b.size()) + " bytes)";
      moov = moov || type == "moov";
      at += size;
    }
    if (!moov) return "it has no index (no moov box: the trailer was not written)";
    return {};
  }
  // WebM: the EBML header, then a Segment whose size the trailer writes (unknown until then).
  auto vint = [&](uint64_t& at, uint64_t* value, bool keep_marker) -> bool {
    if (at >= b.size() || b[at] == 0) return false;
    int len = 1;
    while (!(b[at] & (0x80 >> (len - 1)))) ++len;
    if (b.size() - at < uint64_t(len)) return false;
    uint64_t v = keep_marker ? b[at] : (b[at] & (0xFF >> len));
    for (int i = 1; i < len; ++i) v = (v << 8) | b[at + i];
    at += uint64_t(len);
    *value = v;
    return true;
  };
  uint64_t at = 0, id = 0, size = 0;
  if (!vint(at, &id, true) || id != 0x1A45DFA3 || !vint(at, &size, false) || size > b.size() - at)
    return "it does not start with a WebM (EBML) header";
  at += size;
  if (!vint(at, &id, true) || id != 0x18538067) return "it has no Segment after its header";
  const uint64_t size_at = at;
  if (!vint(at, &size, false)) return "its Segment's size is cut";
  const int len = int(at - size_at);
  if (size == (uint64_t(1) << (7 * len)) - 1)
    return "its Segment's size is unknown (the trailer was not written)";
  if (size != b.size() - at)
    return "its Segment ends at byte " + std::to_string(at + size) + ", the file at " +
           std::to_string(b.size());
  return {};
}

std::string check_clip(const fs::path& clip) {
  files::ReadResult r = files::read_regular_file(clip, uint64_t(1) << 36);
  if (!r.error.empty()) return "cannot read it back: " + r.error;
  return check_clip_bytes(r.bytes, is_webm(clip));
}

std::vector<std::string> recover_leftovers(const fs::path& dir, int min_age_s) {
  std::vector<std::string> said;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return said;
  const auto now = fs::file_time_type::clock::now();
  std::vector<fs::path> clips, partial;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (!e.is_regular_file(ec) || e.is_symlink(ec)) continue;
    const fs::file_time_type t = e.last_write_time(ec);
    if (ec || now - t < std::chrono::seconds(min_age_s)) continue;
    const std::string ext = e.path().extension().string();
    if (n.rfind(".gpulab-rec-", 0) == 0 && (ext == ".mp4" || ext == ".webm"))
      clips.push_back(e.path());
    else if (n.rfind(".gpulab-tmp-", 0) == 0)
      partial.push_back(e.path());
  }
  std::sort(clips.begin(), clips.end());
  std::sort(partial.begin(), partial.end());
  for (const fs::path& p : clips) {
    const auto when =
        std::chrono::system_clock::to_time_t(std::chrono::file_clock::to_sys(fs::last_write_time(p, ec)));
    std::tm local{};
    localtime_r(&when, &local);
    char stamp[32], shown[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    std::strftime(shown, sizeof shown, "%Y-%m-%d %H:%M", &local);
    if (fs::file_size(p, ec) == 0 || ec) {
      fs::remove(p, ec);
      continue;  // ffmpeg had written nothing: no take to keep
    }
    fs::path kept = dir / ("interrupted-" + std::string(stamp) + p.extension().string());
    for (int k = 2; fs::exists(kept, ec); ++k)
      kept = dir / ("interrupted-" + std::string(stamp) + "-" + std::to_string(k) + p.extension().string());
    if (::rename(p.c_str(), kept.c_str()) != 0) {
      said.push_back("a clip interrupted on " + std::string(shown) + " is left as " +
                     text::quote(p.string()) + ": cannot rename it: " + std::strerror(errno));
      continue;
    }
    said.push_back("a clip interrupted on " + std::string(shown) + " was kept as " +
                   text::quote(kept.string()) + " (its end may be missing: ffmpeg did not finish it)");
  }
  for (const fs::path& p : partial) {
    if (fs::remove(p, ec))
      said.push_back("removed " + text::quote(p.string()) + ", a partial file an interrupted write left");
  }
  return said;
}

std::unique_ptr<FrameSink> open_video_sink(const std::string& ffmpeg, const fs::path& out, int w, int h,
                                           int fps, std::string* error) {
  // The temporary clip and ffmpeg's message log, beside the clip.
  const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  const std::string ext = out.extension().string();
  std::string tmp;
  int tmp_slot = -1;
  const int fd = files::create_temp((dir / ".gpulab-rec-").string(), ext, &tmp, &tmp_slot);
  if (fd < 0) {
    *error =
        "cannot create a temporary file beside " + text::quote(out.string()) + ": " + std::strerror(errno);
    return nullptr;
  }
  // The clip's mode as every other output's (mkstemps made it 0600): the replaced clip's, else 0666
  // less the umask; ffmpeg truncates the file and keeps it.
  ::fchmod(fd, static_cast<mode_t>(files::output_file_mode(out)));
  ::close(fd);
  // ffmpeg's messages go to the temporary folder, not beside the clip: on a full disk the log there
  // would be as empty as the clip, and the failure it tells of unseen.
  std::error_code tmp_ec;
  fs::path log_dir = fs::temp_directory_path(tmp_ec);
  if (tmp_ec) log_dir = dir;
  std::string log;
  int log_slot = -1;
  const int log_fd = files::create_temp((log_dir / "gpulab-rec-").string(), ".log", &log, &log_slot);
  if (log_fd < 0) {
    *error =
        "cannot create a temporary file beside " + text::quote(out.string()) + ": " + std::strerror(errno);
    ::unlink(tmp.c_str());
    unregister_temp(tmp_slot);
    return nullptr;
  }
  ::close(log_fd);
  std::signal(SIGPIPE, SIG_IGN);  // a dying ffmpeg must fail the write, not end the app
  const std::string cmd = ffmpeg_command(ffmpeg, tmp, w, h, fps) + " 2>" + text::shell_quote(log);
  FILE* pipe = popen(cmd.c_str(), "w");
  if (!pipe) {
    *error = "cannot start " + text::quote(ffmpeg);
    ::unlink(tmp.c_str());
    ::unlink(log.c_str());
    unregister_temp(tmp_slot);
    unregister_temp(log_slot);
    return nullptr;
  }
  return std::make_unique<FfmpegSink>(pipe, static_cast<size_t>(w) * static_cast<size_t>(h) * 4, tmp, out,
                                      log, tmp_slot, log_slot);
}

int64_t ClipTimeline::slot(double seconds, int fps) {
  // The slot the frame is on screen at the start of (a hair of slack for k / fps computed in floats).
  return static_cast<int64_t>(std::floor(std::max(0.0, seconds) * static_cast<double>(fps) + 1e-6));
}

std::string ClipTimeline::emit(int64_t times) {
  for (int64_t i = 0; i < times; ++i) {
    if (std::string err = sink_->write(held_.data()); !err.empty()) return err;
    ++written_;
    if (i > 0) ++repeats_;
  }
  return {};
}

std::string ClipTimeline::put(std::vector<uint8_t> frame, int64_t slot) {
  std::string err;
  if (held_slot_ >= 0) err = emit(std::max<int64_t>(1, slot - held_slot_));
  held_ = std::move(frame);
  held_slot_ = std::max(slot, held_slot_ + 1);
  return err;
}

std::string ClipTimeline::finish(int64_t end_slot) {
  if (held_slot_ < 0) return {};
  std::string err = emit(std::max<int64_t>(1, end_slot - held_slot_));
  held_slot_ = -1;
  held_.clear();
  return err;
}

Recorder::~Recorder() {
  if (recording_) stop();
}

std::string Recorder::start(const fs::path& out, int w, int h, int fps, bool lossless) {
  if (recording_) return "already recording to " + text::quote(out_.string());
  if (w <= 0 || h <= 0) return "nothing to record (an empty framebuffer)";
  const size_t bytes = static_cast<size_t>(w) * static_cast<size_t>(h) * 4;
  std::string no_ffmpeg;
  const std::string ffmpeg = find_ffmpeg(&no_ffmpeg);
  if (!ffmpeg.empty()) {
    std::string why;
    sink_ = open_video_sink(ffmpeg, out, w, h, fps, &why);
    if (!sink_) return why;
    video_ = true;
    message_ = "recording " + text::escape(out.string(), 4096) + " (ffmpeg)";
  } else {
    if (std::string why = files::check_writable(png_frame_path(out, 1)); !why.empty()) return why;
    sink_ = std::make_unique<PngSink>(out, w, h);
    video_ = false;
    message_ =
        "no ffmpeg (" + no_ffmpeg + "): recording a PNG sequence " +
        text::escape(png_frame_path(out, 1).string(), 4096) +
        ", ... instead. For video install ffmpeg (apt install ffmpeg) or set GPULAB_FFMPEG, or join the "
        "frames later: ffmpeg -framerate " +
        std::to_string(fps) + " -i " +
        text::shell_quote(text::escape((out.parent_path() / (out.stem().string() + "-%05d.png")).string())) +
        " -pix_fmt yuv420p " + text::shell_quote(text::escape(out.string()));
  }
  for (auto& b : ring_) b = gl::Buffer(bytes, nullptr, GL_MAP_READ_BIT);
  for (size_t i = 0; i < kRing; ++i) pending_[i] = false;
  scaled_ = gl::Framebuffer();
  out_ = out;
  w_ = w, h_ = h;
  fps_ = std::max(1, fps);
  dropped_ = 0;
  t0_ = 0;
  last_slot_ = -1;
  timeline_ = std::make_unique<ClipTimeline>(sink_.get(), fps_);
  next_ = 0;
  lossless_ = lossless;
  done_ = false;
  encode_error_.clear();
  queue_.clear();
  recording_ = true;
  encoder_ = std::thread([this] { encode_loop(); });
  return {};
}

void Recorder::capture(GLuint fbo, double t, CaptureBox box) {
  if (!recording_) return;
  if (last_slot_ < 0) t0_ = t;
  const int64_t slot = ClipTimeline::slot(t - t0_, fps_);
  if (slot <= last_slot_) return;  // this slot of the clip has its frame
  last_slot_ = slot;
  // The oldest slot's read finished frames ago: map it and hand its bytes on, then reuse it.
  if (pending_[next_]) hand_on(next_);
  // Rows are w * 4 bytes, so the default pack alignment of 4 packs them tightly. The bindings the
  // frame had are put back, as read_pixels_top_down does.
  GLint read_fbo = 0, pack_buffer = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
  GLuint source = fbo;
  int sx = box.empty() ? 0 : box.x, sy = box.empty() ? 0 : box.y;
  if (!box.empty() && (box.x != 0 || box.y != 0 || box.w != w_ || box.h != h_)) {
    if (box.w == w_ && box.h == h_) {
      sx = box.x, sy = box.y;  // the same size: read in place
    } else {
      // Another size (the view changed, the window was resized): scaled to fit, centred on black.
      if (scaled_.width() != w_ || scaled_.height() != h_) scaled_ = gl::Framebuffer(w_, h_);
      const double k = std::min(static_cast<double>(w_) / box.w, static_cast<double>(h_) / box.h);
      const int dw = std::max(1, static_cast<int>(std::lround(box.w * k)));
      const int dh = std::max(1, static_cast<int>(std::lround(box.h * k)));
      const int dx = (w_ - dw) / 2, dy = (h_ - dh) / 2;
      const GLfloat black[4] = {0, 0, 0, 1};
      GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
      glDisable(GL_SCISSOR_TEST);
      glClearNamedFramebufferfv(scaled_.id(), GL_COLOR, 0, black);
      glBlitNamedFramebuffer(fbo, scaled_.id(), box.x, box.y, box.x + box.w, box.y + box.h, dx, dy, dx + dw,
                             dy + dh, GL_COLOR_BUFFER_BIT, GL_LINEAR);
      if (scissor) glEnable(GL_SCISSOR_TEST);
      source = scaled_.id();
      sx = sy = 0;
    }
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, ring_[next_].id());
  glReadPixels(sx, sy, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo));
  fences_[next_].place();
  pending_[next_] = true;
  ring_slot_[next_] = slot;
  next_ = (next_ + 1) % kRing;
}

void Recorder::hand_on(size_t slot) {
  pending_[slot] = false;
  fences_[slot].wait();  // done long ago, normally
  std::vector<uint8_t> frame(ring_[slot].size());
  if (const void* p = glMapNamedBufferRange(ring_[slot].id(), 0, static_cast<GLsizeiptr>(frame.size()),
                                            GL_MAP_READ_BIT)) {
    std::memcpy(frame.data(), p, frame.size());
    glUnmapNamedBuffer(ring_[slot].id());
  } else {
    ++dropped_;
    return;
  }
  std::unique_lock lock(mutex_);
  if (lossless_) {
    cv_.wait(lock, [&] { return queue_.size() < kQueue || !encode_error_.empty(); });
  } else if (queue_.size() >= kQueue) {
    ++dropped_;  // the encoder is behind: the window goes on, this frame is not in the clip
    return;
  }
  queue_.push_back({std::move(frame), ring_slot_[slot]});
  cv_.notify_all();
}

void Recorder::encode_loop() {
  for (;;) {
    Queued q;
    bool failed = false;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return !queue_.empty() || done_; });
      if (queue_.empty()) return;
      q = std::move(queue_.front());
      queue_.pop_front();
      failed = !encode_error_.empty();
      cv_.notify_all();
    }
    std::string err = failed ? std::string() : timeline_->put(std::move(q.frame), q.slot);
    std::lock_guard lock(mutex_);
    if (!err.empty() && encode_error_.empty()) encode_error_ = err;
    cv_.notify_all();
  }
}

std::string Recorder::stop(std::optional<double> end_t) {
  if (!recording_) return {};
  // The ring's frames in order, then the encoder drains the queue and ends.
  for (size_t i = 0; i < kRing; ++i) {
    const size_t slot = (next_ + i) % kRing;
    if (pending_[slot]) hand_on(slot);
  }
  {
    std::lock_guard lock(mutex_);
    done_ = true;
    cv_.notify_all();
  }
  encoder_.join();
  // The last frame stays on screen until the recording ends.
  const int64_t end_slot = end_t && last_slot_ >= 0 ? ClipTimeline::slot(*end_t - t0_, fps_) : last_slot_ + 1;
  std::string err = encode_error_;
  if (err.empty()) err = timeline_->finish(end_slot);
  const std::string fin = sink_->finish();
  if (err.empty()) err = fin;
  const int64_t written = timeline_->written(), repeats = timeline_->repeats();
  timeline_.reset();
  sink_.reset();
  for (auto& b : ring_) b = gl::Buffer();
  scaled_ = gl::Framebuffer();
  recording_ = false;
  if (!err.empty()) return "recording failed: " + err;
  char seconds[64];
  std::snprintf(seconds, sizeof seconds, "%.2f s at %d frames/s", static_cast<double>(written) / fps_, fps_);
  std::string line = (video_ ? "wrote " + text::escape(out_.string(), 4096)
                             : "wrote " + std::to_string(written) + " PNG frames " +
                                   text::escape(png_frame_path(out_, 1).string(), 4096) + " ...") +
                     ": " + std::to_string(written) + " frames, " + seconds;
  if (repeats > 0)
    line += " (" + std::to_string(repeats) + " of them repeat the frame before: the app drew fewer than " +
            std::to_string(fps_) + " frames/s)";
  if (dropped_ > 0)
    line += " (" + std::to_string(dropped_) +
            " frames dropped: the encoder fell behind, the frame before stays on)";
  return line;
}

}  // namespace gpulab::presenter

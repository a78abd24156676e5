#pragma once
// GPU timing. GpuProfiler: per-frame sections timed with CUDA event pairs and read back a few
// frames late with cudaEventQuery, so the frame loop never waits for the GPU (the nvpro profiler's
// scheme). EventTimer / time_ms: the synchronous pair for the bench and tests. Free of CUDA
// headers.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/stats.h"
#include "common/hd.h"
#include "cuda/raii.h"

namespace gpulab::cuda {

class GpuProfiler {
 public:
  struct Options {
    int latency_frames = 3;       // a frame is read back once it is this many collect()s old
    int max_pending_frames = 16;  // beyond this the oldest unread frame is dropped (and counted)
    size_t history = RollingSeries::kDefaultCapacity;  // samples kept per section
  };

  GpuProfiler() : GpuProfiler(Options{}) {}
  explicit GpuProfiler(Options options);
  GpuProfiler(GpuProfiler&&) = default;
  GpuProfiler& operator=(GpuProfiler&&) = default;
  GpuProfiler(const GpuProfiler&) = delete;
  GpuProfiler& operator=(const GpuProfiler&) = delete;

  // Records an event on `stream` at the start / end of a section of this frame's GPU work.
  // A section may be begun and ended several times a frame (e.g. one step per generation): its
  // sample for the frame is the sum. Begin while open, or end while not open: std::logic_error.
  // Event-record failures: GpuError.
  void begin(std::string_view section, gpulab::Stream stream);
  void end(std::string_view section, gpulab::Stream stream);

  // begin() now, end() when the scope closes (also during unwinding; never throws from there).
  class Scope {
   public:
    Scope(GpuProfiler& profiler, std::string_view section, gpulab::Stream stream);
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope();

   private:
    GpuProfiler* profiler_;
    std::string section_;
    gpulab::Stream stream_;
  };
  Scope scope(std::string_view section, gpulab::Stream stream) { return {*this, section, stream}; }

  // Once per frame, after the frame's GPU work is submitted: closes the frame, then reads back
  // every queued frame at least latency_frames old whose events have all completed (cudaEventQuery,
  // never a synchronize), oldest first, stopping at the first unfinished one. Sections still open
  // at collect() (an exception skipped their end()) are discarded and counted. A device error
  // reported by a query drops that frame and throws GpuError.
  void collect();

  // One series of milliseconds per section, in first-seen order. The pointers stay valid for the
  // profiler's lifetime (reset() clears the samples, it does not remove the sections).
  std::vector<const RollingSeries*> series() const;
  const RollingSeries* find(std::string_view section) const;  // null when never seen

  uint64_t frames_collected() const { return frame_; }
  size_t pending_frames() const { return pending_.size(); }
  uint64_t dropped_frames() const { return dropped_; }        // GPU fell too far behind, or error
  uint64_t discarded_sections() const { return discarded_; }  // begun, never ended
  size_t pooled_events() const { return pool_.size(); }
  const Options& options() const { return options_; }

  // Forgets queued frames and samples (e.g. after the variant or grid size changed, so the window
  // does not mix two configurations).
  void reset();
  // The same for one section only (its queued records and samples); nothing when never seen.
  void reset(std::string_view section);

 private:
  struct Record {
    size_t section = 0;
    Event start;
    Event end;
    bool ended = false;
  };
  struct Frame {
    uint64_t index = 0;
    std::vector<Record> records;
  };

  size_t section_index(std::string_view section);
  Event take_event();
  void recycle(std::vector<Record>& records);

  Options options_;
  std::deque<RollingSeries> series_;  // deque: pointers handed out by series() stay valid
  std::vector<Record> current_;
  std::deque<Frame> pending_;
  std::vector<Event> pool_;
  uint64_t frame_ = 0;
  uint64_t dropped_ = 0;
  uint64_t discarded_ = 0;
};

// A start/stop pair of timing events, read synchronously: for the bench and tests, never for the
// frame loop.
class EventTimer {
 public:
  EventTimer();  // throws GpuError
  void start(gpulab::Stream stream) { start_.record(stream); }
  void stop(gpulab::Stream stream) { stop_.record(stream); }
  float elapsed_ms() const;  // waits for the stop event (cudaEventSynchronize)

 private:
  Event start_;
  Event stop_;
};

// Milliseconds the work that `enqueue` puts on `stream` takes on the GPU. Blocks until it is done.
template <class Enqueue>
float time_ms(gpulab::Stream stream, Enqueue&& enqueue) {
  EventTimer timer;
  timer.start(stream);
  std::forward<Enqueue>(enqueue)();
  timer.stop(stream);
  return timer.elapsed_ms();
}

}  // namespace gpulab::cuda

// GpuProfiler: events come from a pool and go back to it once read, so a steady frame loop creates
// no events after its first few frames; the queue of unread frames is bounded.
#include "cuda/gpu_timer.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>

#include "common/cuda_check.h"

namespace gpulab::cuda {

GpuProfiler::GpuProfiler(Options options) : options_(options) {
  if (options_.latency_frames < 0) options_.latency_frames = 0;
  if (options_.max_pending_frames < 1) options_.max_pending_frames = 1;
}

size_t GpuProfiler::section_index(std::string_view section) {
  for (size_t i = 0; i < series_.size(); ++i)
    if (series_[i].name() == section) return i;
  series_.emplace_back(std::string(section), "ms", options_.history);
  return series_.size() - 1;
}

Event GpuProfiler::take_event() {
  if (pool_.empty()) return Event::create(Event::Timing::Enabled);
  Event e = std::move(pool_.back());
  pool_.pop_back();
  return e;
}

void GpuProfiler::recycle(std::vector<Record>& records) {
  for (auto& r : records) {
    // Re-recording an event whose previous work is still pending is legal: the event simply
    // captures the new point in the stream.
    if (r.start) pool_.push_back(std::move(r.start));
    if (r.end) pool_.push_back(std::move(r.end));
  }
  records.clear();
}

void GpuProfiler::begin(std::string_view section, gpulab::Stream stream) {
  const size_t idx = section_index(section);
  for (const auto& r : current_)
    if (r.section == idx && !r.ended)
      throw std::logic_error("GpuProfiler::begin(\"" + std::string(section) +
                             "\"): the section is already open");
  Record r;
  r.section = idx;
  r.start = take_event();
  r.start.record(stream);
  current_.push_back(std::move(r));
}

void GpuProfiler::end(std::string_view section, gpulab::Stream stream) {
  for (auto it = current_.rbegin(); it != current_.rend(); ++it) {
    if (!it->ended && series_[it->section].name() == section) {
      Event e = take_event();
      e.record(stream);
      it->end = std::move(e);
      it->ended = true;
      return;
    }
  }
  throw std::logic_error("GpuProfiler::end(\"" + std::string(section) +
                         "\"): the section was not begun this frame");
}

GpuProfiler::Scope::Scope(GpuProfiler& profiler, std::string_view section, gpulab::Stream stream)
    : profiler_(&profiler), section_(section), stream_(stream) {
  profiler_->begin(section_, stream_);
}

GpuProfiler::Scope::~Scope() {
  try {
    profiler_->end(section_, stream_);
  } catch (const std::exception& e) {
    // The section stays open and collect() discards it; the error that matters is the one
    // unwinding (or the next CUDA call's).
    std::fprintf(stderr, "gpulab: GpuProfiler section \"%s\": %s\n", section_.c_str(), e.what());
  }
}

void GpuProfiler::collect() {
  // Close this frame.
  std::vector<Record> closed;
  closed.reserve(current_.size());
  for (auto& r : current_) {
    if (r.ended) {
      closed.push_back(std::move(r));
    } else {
      ++discarded_;
      if (r.start) pool_.push_back(std::move(r.start));
    }
  }
  current_.clear();
  const uint64_t closing = frame_++;
  if (!closed.empty()) pending_.push_back(Frame{closing, std::move(closed)});

  // The GPU is far behind (or a stream is stuck): keep the queue bounded, oldest goes first.
  while (pending_.size() > static_cast<size_t>(options_.max_pending_frames)) {
    recycle(pending_.front().records);
    pending_.pop_front();
    ++dropped_;
  }

  // Read back finished frames that are old enough, in order.
  std::vector<double> sums(series_.size());
  std::vector<bool> seen(series_.size());
  while (!pending_.empty()) {
    Frame& f = pending_.front();
    if (closing - f.index < static_cast<uint64_t>(options_.latency_frames)) break;

    bool done = true;
    cudaError_t failure = cudaSuccess;
    for (const auto& r : f.records) {
      for (EventHandle e : {r.start.get(), r.end.get()}) {
        const cudaError_t err = cudaEventQuery(e);
        if (err == cudaErrorNotReady) {
          detail::clear_not_ready();
          done = false;
        } else if (err != cudaSuccess) {
          failure = err;
        }
        if (!done || failure != cudaSuccess) break;
      }
      if (!done || failure != cudaSuccess) break;
    }
    if (failure == cudaSuccess && !done) break;  // not finished yet: try again next frame

    if (failure == cudaSuccess) {
      std::fill(sums.begin(), sums.end(), 0.0);
      std::fill(seen.begin(), seen.end(), false);
      for (const auto& r : f.records) {
        float ms = 0.0f;
        const cudaError_t err = cudaEventElapsedTime(&ms, r.start.get(), r.end.get());
        if (err != cudaSuccess) {
          failure = err;
          break;
        }
        sums[r.section] += ms;
        seen[r.section] = true;
      }
    }
    if (failure != cudaSuccess) {
      recycle(f.records);
      pending_.pop_front();
      ++dropped_;
      (void)cudaGetLastError();
      CUDA_CHECK(failure);
    }
    for (size_t s = 0; s < series_.size(); ++s)
      if (seen[s]) series_[s].push(sums[s]);
    recycle(f.records);
    pending_.pop_front();
  }
}

std::vector<const RollingSeries*> GpuProfiler::series() const {
  std::vector<const RollingSeries*> out;
  out.reserve(series_.size());
  for (const auto& s : series_) out.push_back(&s);
  return out;
}

const RollingSeries* GpuProfiler::find(std::string_view section) const {
  for (const auto& s : series_)
    if (s.name() == section) return &s;
  return nullptr;
}

void GpuProfiler::reset(std::string_view section) {
  size_t idx = series_.size();
  for (size_t i = 0; i < series_.size(); ++i)
    if (series_[i].name() == section) idx = i;
  if (idx == series_.size()) return;
  auto drop = [&](std::vector<Record>& records) {
    std::vector<Record> kept, dropped;
    for (auto& r : records) (r.section == idx ? dropped : kept).push_back(std::move(r));
    recycle(dropped);
    records = std::move(kept);
  };
  drop(current_);
  for (auto& f : pending_) drop(f.records);
  series_[idx].clear();
}

void GpuProfiler::reset() {
  recycle(current_);
  for (auto& f : pending_) recycle(f.records);
  pending_.clear();
  for (auto& s : series_) s.clear();
}

// ---------------------------------------------------------------------------------------------
EventTimer::EventTimer()
    : start_(Event::create(Event::Timing::Enabled)), stop_(Event::create(Event::Timing::Enabled)) {}

float EventTimer::elapsed_ms() const {
  stop_.synchronize();
  return cuda::elapsed_ms(start_, stop_);
}

}  // namespace gpulab::cuda

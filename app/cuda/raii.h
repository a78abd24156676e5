#pragma once
// Move-only owners of CUDA streams and events. Free of CUDA headers (the handles are the opaque
// CUstream_st* / CUevent_st* that cudaStream_t / cudaEvent_t are), so app/core can hold them
// without the CUDA include path. Constructors throw GpuError; destructors never throw, they log a
// failure to stderr at most (a destructor may run during unwinding after a device error).
#include <utility>

#include "common/hd.h"

struct CUevent_st;  // global, as the runtime declares it: EventHandle is exactly cudaEvent_t

namespace gpulab::cuda {

using EventHandle = ::CUevent_st*;

class Stream {
 public:
  Stream() = default;  // empty: holds no stream (NOT the legacy default stream)
  // A stream created with cudaStreamNonBlocking: it does not synchronise with the legacy default
  // stream, so stray work on stream 0 (a library, a cudaMemcpy) cannot serialise the frame.
  static Stream create_non_blocking(int priority = 0);

  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { reset(); }

  gpulab::Stream get() const { return s_; }
  explicit operator bool() const { return s_ != nullptr; }
  void synchronize() const;  // throws GpuError
  bool query() const;        // true when all work is done; throws on errors other than "not ready"
  void reset() noexcept;     // destroys the stream (pending work still completes)

 private:
  explicit Stream(gpulab::Stream s) : s_(s) {}
  gpulab::Stream s_ = nullptr;
};

class Event {
 public:
  enum class Timing { Enabled, Disabled };

  Event() = default;  // empty
  // Timing::Disabled (cudaEventDisableTiming) makes record/wait cheaper: use it for pure
  // cross-stream dependencies, Enabled for anything cudaEventElapsedTime reads.
  static Event create(Timing timing = Timing::Enabled);

  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  Event& operator=(Event&& o) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { reset(); }

  EventHandle get() const { return e_; }
  explicit operator bool() const { return e_ != nullptr; }
  void record(gpulab::Stream stream) const;  // throws GpuError
  // True when the work captured by the last record() has finished (or nothing was recorded);
  // false while it is pending. Never blocks. Throws GpuError on a real error.
  bool query() const;
  void synchronize() const;  // blocks the host: bench and tests only, never the frame loop
  // Makes `stream` wait for this event on the device (the host does not block).
  void wait_on(gpulab::Stream stream) const;
  void reset() noexcept;

 private:
  explicit Event(EventHandle e) : e_(e) {}
  EventHandle e_ = nullptr;
};

// Milliseconds between two recorded, completed, timing-enabled events (cudaEventElapsedTime:
// about 0.5 us resolution). Throws GpuError, e.g. cudaErrorNotReady when `end` has not completed.
float elapsed_ms(const Event& start, const Event& end);
float elapsed_ms(EventHandle start, EventHandle end);

namespace detail {
// Clears cudaErrorNotReady from the runtime's per-thread "last error" after a query.
void clear_not_ready() noexcept;
}  // namespace detail

}  // namespace gpulab::cuda

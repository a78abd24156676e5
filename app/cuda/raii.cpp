// Stream and Event owners. Only this file (and the other app/cuda/*.cpp) sees the CUDA runtime.
#include "cuda/raii.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/device_health.h"

static_assert(std::is_same_v<gpulab::Stream, cudaStream_t>, "gpulab::Stream must be cudaStream_t");
static_assert(std::is_same_v<gpulab::cuda::EventHandle, cudaEvent_t>,
              "gpulab::cuda::EventHandle must be cudaEvent_t");

namespace gpulab::cuda {

namespace {
// Destructors cannot throw; a failure here usually means the context is already broken by an
// earlier error, which has been (or will be) reported where it happened.
void log_destroy_failure(const char* what, cudaError_t err) {
  if (sticky_cuda_error(err)) return;  // a broken context: the fault was said once where it happened
  std::fprintf(stderr, "gpulab: %s failed: %s (%s)\n", what, cudaGetErrorName(err), cudaGetErrorString(err));
}
}  // namespace

namespace detail {
void clear_not_ready() noexcept {
  // Some runtimes record cudaErrorNotReady as the thread's "last error" (PyTorch clears it after
  // every query for this reason); left there, the next CUDA_CHECK_LAUNCH would report a query as a
  // failed launch. Real asynchronous errors are sticky and come back from the next call anyway.
  (void)cudaGetLastError();
}
}  // namespace detail
using detail::clear_not_ready;

// ---------------------------------------------------------------------------------------------
Stream Stream::create_non_blocking(int priority) {
  cudaStream_t s = nullptr;
  CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority));
  return Stream(s);
}

Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    reset();
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}

void Stream::synchronize() const { CUDA_CHECK(cudaStreamSynchronize(s_)); }

bool Stream::query() const {
  const cudaError_t err = cudaStreamQuery(s_);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) {
    clear_not_ready();
    return false;
  }
  CUDA_CHECK(err);
  return false;
}

void Stream::reset() noexcept {
  if (!s_) return;
  const cudaError_t err = cudaStreamDestroy(s_);
  if (err != cudaSuccess) log_destroy_failure("cudaStreamDestroy", err);
  s_ = nullptr;
}

// ---------------------------------------------------------------------------------------------
Event Event::create(Timing timing) {
  cudaEvent_t e = nullptr;
  const unsigned flags = timing == Timing::Enabled ? cudaEventDefault : cudaEventDisableTiming;
  CUDA_CHECK(cudaEventCreateWithFlags(&e, flags));
  return Event(e);
}

Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    reset();
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}

void Event::record(gpulab::Stream stream) const { CUDA_CHECK(cudaEventRecord(e_, stream)); }

bool Event::query() const {
  const cudaError_t err = cudaEventQuery(e_);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) {
    clear_not_ready();
    return false;
  }
  CUDA_CHECK(err);
  return false;
}

void Event::synchronize() const { CUDA_CHECK(cudaEventSynchronize(e_)); }

void Event::wait_on(gpulab::Stream stream) const { CUDA_CHECK(cudaStreamWaitEvent(stream, e_, 0)); }

void Event::reset() noexcept {
  if (!e_) return;
  const cudaError_t err = cudaEventDestroy(e_);
  if (err != cudaSuccess) log_destroy_failure("cudaEventDestroy", err);
  e_ = nullptr;
}

float elapsed_ms(EventHandle start, EventHandle end) {
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, end));
  return ms;
}

float elapsed_ms(const Event& start, const Event& end) { return elapsed_ms(start.get(), end.get()); }

}  // namespace gpulab::cuda

// gpu label: stream/event RAII and the frame profiler. Kernels of known length (a spin on the
// global timer) check the numbers; a host function that holds the stream checks that collect()
// never waits for the GPU and that the queue stays bounded when the GPU falls behind.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "cuda/gpu_timer.h"
#include "cuda/raii.h"

#include "support/gpu_skip.h"

namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_kernel(unsigned long long ns) {
  const unsigned long long start = global_ns();
  while (global_ns() - start < ns) {
  }
}

void spin(gpulab::Stream stream, double ms) {
  spin_kernel<<<1, 1, 0, stream>>>(static_cast<unsigned long long>(ms * 1e6));
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

// Holds a stream until released: the "GPU" is then as far behind as the test wants.
struct StreamGate {
  std::atomic<bool> open{false};
  static void CUDART_CB wait(void* self) {
    auto* gate = static_cast<StreamGate*>(self);
    while (!gate->open.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void hold(gpulab::Stream s) { ASSERT_EQ(cudaLaunchHostFunc(s, &StreamGate::wait, this), cudaSuccess); }
  void release() { open = true; }
};

double host_ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

using gpulab::cuda::Event;
using gpulab::cuda::GpuProfiler;
using gpulab::cuda::Stream;

TEST(CudaRaiiGpu, StreamAndEventLifecycle) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  ASSERT_TRUE(s);
  unsigned flags = 0;
  ASSERT_EQ(cudaStreamGetFlags(s.get(), &flags), cudaSuccess);
  EXPECT_EQ(flags & cudaStreamNonBlocking, static_cast<unsigned>(cudaStreamNonBlocking));

  Event never = Event::create();
  EXPECT_TRUE(never.query());  // nothing recorded: complete by definition

  // Load the spin kernel before the gate closes: with lazy module loading, a first launch behind a
  // blocked host function would wait for the context to go idle, which the gate prevents.
  spin(s.get(), 0.01);
  s.synchronize();
  StreamGate gate;
  gate.hold(s.get());
  Event e = Event::create();
  e.record(s.get());
  EXPECT_FALSE(e.query());
  EXPECT_FALSE(s.query());
  // A "not ready" answer must not linger as the thread's last error (it would fail the next
  // launch check).
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  gate.release();
  s.synchronize();
  EXPECT_TRUE(e.query());
  EXPECT_TRUE(s.query());

  Event moved = std::move(e);
  EXPECT_FALSE(e);
  EXPECT_TRUE(moved);
  Stream s2 = std::move(s);
  EXPECT_FALSE(s);
  EXPECT_TRUE(s2);
  s2.reset();
  EXPECT_FALSE(s2);
  EXPECT_FALSE(Event::create(Event::Timing::Disabled).get() == nullptr);
}

TEST(CudaRaiiGpu, TimeMsMeasuresTheEnqueuedWork) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  spin(s.get(), 1.0);  // warm-up: module load
  s.synchronize();
  const float ms = gpulab::cuda::time_ms(s.get(), [&] { spin(s.get(), 5.0); });
  EXPECT_GE(ms, 4.9f);
  EXPECT_LT(ms, 100.0f);
}

TEST(GpuProfilerGpu, SampleAppearsAfterTheLatencyFrames) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  spin(s.get(), 0.1);
  s.synchronize();
  GpuProfiler prof;  // latency 3
  ASSERT_EQ(prof.options().latency_frames, 3);
  prof.begin("spin", s.get());
  spin(s.get(), 2.0);
  prof.end("spin", s.get());
  prof.collect();  // closes frame 0
  s.synchronize();
  const auto* series = prof.find("spin");
  ASSERT_NE(series, nullptr);
  EXPECT_TRUE(series->empty());
  prof.collect();
  prof.collect();
  EXPECT_TRUE(series->empty()) << "read back before it was 3 frames old";
  EXPECT_EQ(prof.pending_frames(), 1u);
  prof.collect();  // frame 0 is now 3 frames old
  ASSERT_EQ(series->size(), 1u);
  EXPECT_GE(series->latest(), 1.9);
  EXPECT_LT(series->latest(), 50.0);
  EXPECT_EQ(prof.pending_frames(), 0u);
  EXPECT_EQ(prof.dropped_frames(), 0u);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(GpuProfilerGpu, CollectNeverWaitsForTheGpu) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  GpuProfiler prof(GpuProfiler::Options{.latency_frames = 0});
  // Load the spin kernel before the gate closes: with lazy module loading, a first launch behind a
  // blocked host function would wait for the context to go idle, which the gate prevents.
  spin(s.get(), 0.01);
  s.synchronize();
  StreamGate gate;
  gate.hold(s.get());
  prof.begin("held", s.get());
  spin(s.get(), 1.0);
  prof.end("held", s.get());
  // The stream cannot finish while the gate is closed: a blocking collect() would hang here.
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) prof.collect();
  EXPECT_LT(host_ms_since(t0), 200.0);
  EXPECT_TRUE(prof.find("held")->empty());
  EXPECT_EQ(prof.pending_frames(), 1u);
  gate.release();
  s.synchronize();
  prof.collect();
  ASSERT_EQ(prof.find("held")->size(), 1u);
  EXPECT_GE(prof.find("held")->latest(), 0.9);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(GpuProfilerGpu, RepeatedSectionsInAFrameAreSummedAndOrderIsFirstSeen) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  GpuProfiler prof(GpuProfiler::Options{.latency_frames = 0});
  prof.begin("step", s.get());
  spin(s.get(), 1.5);
  prof.end("step", s.get());
  prof.begin("display", s.get());
  spin(s.get(), 0.2);
  prof.end("display", s.get());
  prof.begin("step", s.get());
  spin(s.get(), 1.5);
  prof.end("step", s.get());
  s.synchronize();
  prof.collect();
  const auto series = prof.series();
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0]->name(), "step");
  EXPECT_EQ(series[1]->name(), "display");
  ASSERT_EQ(series[0]->size(), 1u);
  EXPECT_GE(series[0]->latest(), 2.9);  // both steps
  EXPECT_LT(series[0]->latest(), 60.0);
  ASSERT_EQ(series[1]->size(), 1u);
  EXPECT_LT(series[1]->latest(), series[0]->latest());
}

TEST(GpuProfilerGpu, QueueIsBoundedWhenTheGpuFallsBehind) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  GpuProfiler prof(GpuProfiler::Options{.latency_frames = 0, .max_pending_frames = 4});
  // Load the spin kernel before the gate closes: with lazy module loading, a first launch behind a
  // blocked host function would wait for the context to go idle, which the gate prevents.
  spin(s.get(), 0.01);
  s.synchronize();
  StreamGate gate;
  gate.hold(s.get());
  for (int frame = 0; frame < 10; ++frame) {
    prof.begin("work", s.get());
    spin(s.get(), 0.05);
    prof.end("work", s.get());
    prof.collect();
    EXPECT_LE(prof.pending_frames(), 4u);
  }
  EXPECT_EQ(prof.dropped_frames(), 6u);
  gate.release();
  s.synchronize();
  prof.collect();
  EXPECT_EQ(prof.pending_frames(), 0u);
  EXPECT_EQ(prof.find("work")->size(), 4u);  // the newest 4 frames survived
  // Events are recycled: never more than two per frame in flight, plus the frame being recorded.
  EXPECT_LE(prof.pooled_events(), 2u * (4u + 1u));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(GpuProfilerGpu, MisuseIsReportedAndUnendedSectionsAreDiscarded) {
  GPULAB_SKIP_WITHOUT_CUDA();
  Stream s = Stream::create_non_blocking();
  GpuProfiler prof(GpuProfiler::Options{.latency_frames = 0});
  EXPECT_THROW(prof.end("never begun", s.get()), std::logic_error);
  prof.begin("open", s.get());
  EXPECT_THROW(prof.begin("open", s.get()), std::logic_error);
  prof.collect();  // "open" was never ended: dropped, not an error
  EXPECT_EQ(prof.discarded_sections(), 1u);
  EXPECT_EQ(prof.pending_frames(), 0u);
  {
    auto scope = prof.scope("scoped", s.get());
    spin(s.get(), 0.1);
  }
  s.synchronize();
  prof.collect();
  ASSERT_NE(prof.find("scoped"), nullptr);
  EXPECT_EQ(prof.find("scoped")->size(), 1u);
  prof.reset();
  EXPECT_TRUE(prof.find("scoped")->empty());
  EXPECT_EQ(prof.series().size(), 2u);  // sections stay, samples go
}

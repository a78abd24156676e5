// The CUDA engine of the transfers demo. Rungs (bandwidth stage), each one step of `bytes`:
//   h2d-pageable / -pinned / -registered / -write-combined: cudaMemcpyAsync H2D from that host memory
//     (pageable is staged by the driver; the others are read by the copy engine directly);
//   zero-copy-mapped / d2h-mapped: a copy kernel reading / writing mapped host memory over the bus;
//   managed-faults: a kernel reads managed pages that sit on the host (each page fault moves one);
//   managed-prefetch: cudaMemPrefetchAsync of the same pages to the device;
//   d2h-*: cudaMemcpyAsync D2H into that host memory; d2d: device to device;
//   make-curand / make-host-copy: the bytes made by cuRAND on the device, or by its host generator (the
//     same sequence) and copied: "do not copy what you can make". Their bytes are cuRAND's, not the
//     pattern, and are checked against the host generator's.
// The overlap stage: a chunked pipeline H2D -> mix kernel -> D2H over 1..16 streams, events around
// each chunk's ops for the timeline; serial, async from pageable memory, 2/4/8/N streams, a CUDA
// Graph of the same pipeline, and small grids whose kernels run side by side (concurrent kernels).
#include <cuda_runtime.h>
#include <curand.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_event.cuh"
#include "transfers/transfers.h"

namespace gpulab::transfers {
namespace {

// ---------------------------------------------------------------------------------------------
// Kernels.

// snippet h2d_copy
// Host to device: one call, the copy engine does the rest. From pinned (or registered, or
// write-combined) memory it reads the host buffer directly at the link's rate; from pageable memory
// the driver first copies into a pinned staging buffer of its own, and the call returns only when done.
void copy_h2d(void* dev, const void* host, size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, stream));
}
// end snippet

// snippet d2h_copy
// Device to host: the copy engine writes the host buffer; pageable memory again goes through the
// driver's staging buffer.
void copy_d2h(void* host, const void* dev, size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, stream));
}
// end snippet

// snippet d2d_copy
// Device to device: both sides in HBM, no bus crossed: the copy runs at memory bandwidth (it reads
// and writes each byte once).
void copy_d2d(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
}
// end snippet

// snippet zero_copy
// Copies n bytes: 16 at a time where both sides allow it, then the tail. With `src` a mapped host
// pointer, every load crosses the bus (zero-copy); with `dst` one, every store does.
__global__ void copy_kernel(const uint8_t* __restrict__ src, uint8_t* __restrict__ dst, uint64_t n) {
  const uint64_t vecs = n / 16;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint4* s4 = reinterpret_cast<const uint4*>(src);
  uint4* d4 = reinterpret_cast<uint4*>(dst);
  for (uint64_t i = t; i < vecs; i += stride) d4[i] = s4[i];
  for (uint64_t i = vecs * 16 + t; i < n; i += stride) dst[i] = src[i];
}
// end snippet

// snippet managed
// The first touch of managed pages that sit on the host: each warp that reads a missing page
// faults, the driver moves it (and its neighbours) over the bus, and the warp waits.
__global__ void touch_kernel(const uint8_t* __restrict__ p, uint64_t n, uint64_t* sink) {
  const uint64_t vecs = n / 16;
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  const uint64_t t = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const uint4* p4 = reinterpret_cast<const uint4*>(p);
  uint64_t acc = 0;
  for (uint64_t i = t; i < vecs; i += stride) {
    const uint4 v = p4[i];
    acc ^= (uint64_t(v.x) | (uint64_t(v.y) << 32)) ^ (uint64_t(v.z) | (uint64_t(v.w) << 32));
  }
  for (uint64_t i = vecs * 16 + t; i < n; i += stride) acc ^= p[i];
  if (acc == 0x5eed5eed5eed5eedull) *sink = acc;  // never in practice: keeps the loads
}
// cudaMemPrefetchAsync(p, n, {cudaMemLocationTypeDevice, device}, 0, stream) moves the same pages in
// bulk before any kernel touches them: no faults, the copy engine's rate.
// end snippet

__global__ void pattern_kernel(uint8_t* p, uint64_t n, uint32_t seed) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t k = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; k * 8 < n; k += stride) {
    const uint64_t w = pattern_block(k, seed);
    if (k * 8 + 8 <= n)
      reinterpret_cast<uint64_t*>(p)[k] = w;
    else
      for (uint64_t i = k * 8; i < n; ++i) p[i] = uint8_t(w >> (8 * (i % 8)));
  }
}

// The first offset where p differs from the pattern (atomicMin into *first, which starts at n).
__global__ void check_kernel(const uint8_t* p, uint64_t n, uint32_t seed, unsigned long long* first) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    if (p[i] != pattern_byte(i, seed)) atomicMin(first, (unsigned long long)i);
}

// snippet pipeline_chunk
// One chunk's work: y = mix(x) on `count` words, grid-stride so that any grid covers them.
__global__ void mix_kernel(const uint32_t* __restrict__ x, uint32_t* __restrict__ y, uint64_t count,
                           int intensity) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    y[i] = mix(x[i], intensity);
}
// Each chunk on stream c % S: copy in, compute, copy out. Operations of one stream run in order;
// different streams' run at once where an engine is free (two copy engines, the SMs):
//   cudaMemcpyAsync(d_in + first, h_in + first, bytes, cudaMemcpyHostToDevice, s);
//   mix_kernel<<<grid, 256, 0, s>>>(d_in + first, d_out + first, count, intensity);
//   cudaMemcpyAsync(h_out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, s);
// end snippet

constexpr int kThreads = 256;

// ---------------------------------------------------------------------------------------------
// Memory, move-only.

struct HostBuf {
  uint8_t* p = nullptr;
  uint8_t* dev = nullptr;  // the device's pointer to it (mapped)
  uint64_t n = 0;
  Memory kind = Memory::Pageable;
  HostBuf() = default;
  HostBuf(const HostBuf&) = delete;
  HostBuf& operator=(const HostBuf&) = delete;
  ~HostBuf() {
    if (!p) return;
    switch (kind) {
      case Memory::Pinned:
      case Memory::WriteCombined:
      case Memory::Mapped:
        cudaFreeHost(p);
        break;
      case Memory::Registered:
        cudaHostUnregister(p);
        std::free(p);
        break;
      default:
        std::free(p);
    }
  }
};

struct DevBuf {
  uint8_t* p = nullptr;
  uint64_t n = 0;
  DevBuf() = default;
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  ~DevBuf() {
    if (p) cudaFree(p);
  }
};

std::string what_memory(Memory m) {
  switch (m) {
    case Memory::Pinned:
      return "cudaMallocHost";
    case Memory::Registered:
      return "cudaHostRegister";
    case Memory::WriteCombined:
      return "cudaHostAlloc(write-combined)";
    case Memory::Mapped:
      return "cudaHostAlloc(mapped)";
    default:
      return "malloc";
  }
}

bool pinned_kind(Memory m) {
  return m == Memory::Pinned || m == Memory::Registered || m == Memory::WriteCombined || m == Memory::Mapped;
}

std::unique_ptr<HostBuf> host_alloc(Memory kind, uint64_t n, const Faults& faults) {
  auto b = std::make_unique<HostBuf>();
  b->n = n;
  b->kind = kind;
  if (pinned_kind(kind) && faults.refuse_pinning)
    throw GpuError("the OS refused to pin " + format_bytes(n) + " of host memory (" + what_memory(kind) +
                   "; injected: GPULAB_TRANSFERS_FAULTS=pinning)");
  cudaError_t err = cudaSuccess;
  const uint64_t rounded = (n + 4095) / 4096 * 4096;
  switch (kind) {
    case Memory::Pinned:
      err = cudaMallocHost(reinterpret_cast<void**>(&b->p), n);
      break;
    case Memory::WriteCombined:
      err = cudaHostAlloc(reinterpret_cast<void**>(&b->p), n, cudaHostAllocWriteCombined);
      break;
    case Memory::Mapped:
      err = cudaHostAlloc(reinterpret_cast<void**>(&b->p), n, cudaHostAllocMapped);
      if (err == cudaSuccess) err = cudaHostGetDevicePointer(reinterpret_cast<void**>(&b->dev), b->p, 0);
      break;
    case Memory::Registered: {
      uint8_t* raw = static_cast<uint8_t*>(std::aligned_alloc(4096, rounded));
      if (!raw) throw std::runtime_error("cannot allocate " + format_bytes(n) + " of host memory");
      err = cudaHostRegister(raw, n, cudaHostRegisterDefault);
      if (err != cudaSuccess)
        std::free(raw);
      else
        b->p = raw;
      break;
    }
    default:
      b->p = static_cast<uint8_t*>(std::aligned_alloc(4096, rounded));
      if (!b->p) throw std::runtime_error("cannot allocate " + format_bytes(n) + " of host memory");
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    if (b->kind == Memory::Registered) b->p = nullptr;
    throw GpuError("the OS refused to pin " + format_bytes(n) + " of host memory (" + what_memory(kind) +
                       ": " + cudaGetErrorString(err) + ")",
                   err == cudaErrorMemoryAllocation);
  }
  return b;
}

std::unique_ptr<DevBuf> dev_alloc(uint64_t n, bool managed) {
  auto b = std::make_unique<DevBuf>();
  b->n = n;
  const cudaError_t err = managed ? cudaMallocManaged(reinterpret_cast<void**>(&b->p), n, cudaMemAttachGlobal)
                                  : cudaMalloc(reinterpret_cast<void**>(&b->p), n);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    b->p = nullptr;
    throw GpuError(std::string(managed ? "cudaMallocManaged" : "cudaMalloc") + " of " + format_bytes(n) +
                       " failed: " + cudaGetErrorString(err),
                   err == cudaErrorMemoryAllocation);
  }
  return b;
}

using Event = cuda::ScopedEvent;
using cuda::elapsed_ms;

class OwnStream {
 public:
  OwnStream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~OwnStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  OwnStream(const OwnStream&) = delete;
  OwnStream& operator=(const OwnStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

struct Graph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  ~Graph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
};

// A cuRAND call that failed: its status by name, what was called, and which rung.
const char* curand_status_name(curandStatus_t st) {
  switch (st) {
    case CURAND_STATUS_SUCCESS:
      return "CURAND_STATUS_SUCCESS";
    case CURAND_STATUS_VERSION_MISMATCH:
      return "CURAND_STATUS_VERSION_MISMATCH";
    case CURAND_STATUS_NOT_INITIALIZED:
      return "CURAND_STATUS_NOT_INITIALIZED";
    case CURAND_STATUS_ALLOCATION_FAILED:
      return "CURAND_STATUS_ALLOCATION_FAILED";
    case CURAND_STATUS_TYPE_ERROR:
      return "CURAND_STATUS_TYPE_ERROR";
    case CURAND_STATUS_OUT_OF_RANGE:
      return "CURAND_STATUS_OUT_OF_RANGE";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE:
      return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED:
      return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
    case CURAND_STATUS_LAUNCH_FAILURE:
      return "CURAND_STATUS_LAUNCH_FAILURE";
    case CURAND_STATUS_PREEXISTING_FAILURE:
      return "CURAND_STATUS_PREEXISTING_FAILURE";
    case CURAND_STATUS_INITIALIZATION_FAILED:
      return "CURAND_STATUS_INITIALIZATION_FAILED";
    case CURAND_STATUS_ARCH_MISMATCH:
      return "CURAND_STATUS_ARCH_MISMATCH";
    case CURAND_STATUS_INTERNAL_ERROR:
      return "CURAND_STATUS_INTERNAL_ERROR";
  }
  return "an unknown cuRAND status";
}
void curand_check(curandStatus_t st, const char* call) {
  if (st != CURAND_STATUS_SUCCESS)
    throw GpuError(std::string("cuRAND: ") + call + " failed: " + curand_status_name(st),
                   st == CURAND_STATUS_ALLOCATION_FAILED);
}

// The words a make rung generates for `bytes`: whole 32-bit words covering them, in fours (Philox
// makes four at a time); its buffers are that large, and the first `bytes` of them are the rung's.
size_t made_words(uint64_t bytes) { return static_cast<size_t>((bytes + 15) / 16 * 4); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// ---------------------------------------------------------------------------------------------

class CudaEngine final : public Engine {
 public:
  CudaEngine(cudaStream_t stream, const Faults& faults) : stream_(stream), faults_(faults) {
    CUDA_CHECK(cudaGetDevice(&device_));
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    name_ = prop.name;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device_));
    CUDA_CHECK(cudaDeviceGetAttribute(&async_engines_, cudaDevAttrAsyncEngineCount, device_));
    CUDA_CHECK(cudaDeviceGetAttribute(&managed_, cudaDevAttrManagedMemory, device_));
    CUDA_CHECK(cudaDeviceGetAttribute(&concurrent_managed_, cudaDevAttrConcurrentManagedAccess, device_));
    CUDA_CHECK(cudaDeviceGetAttribute(&map_host_, cudaDevAttrCanMapHostMemory, device_));
    if (faults_.no_async_engines) async_engines_ = 0;
    if (faults_.no_managed) managed_ = concurrent_managed_ = 0;
    CUDA_CHECK(cudaMalloc(&d_first_, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_sink_, sizeof(uint64_t)));
  }
  ~CudaEngine() override {
    if (stream_) cudaStreamSynchronize(stream_);
    for (auto& s : streams_) cudaStreamSynchronize(s->get());
    if (d_first_) cudaFree(d_first_);
    if (d_sink_) cudaFree(d_sink_);
    if (dev_gen_) curandDestroyGenerator(dev_gen_);
    if (host_gen_) curandDestroyGenerator(host_gen_);
  }

  Backend backend() const override { return Backend::Cuda; }
  std::string_view device_name() const override { return name_; }
  Stream stream() const override { return stream_; }

  std::string why_unavailable(const Variant& v) const override {
    if (v.backend != Backend::Cuda) return "a CPU rung (the CUDA engine runs the GPU's)";
    if ((v.memory == Memory::ManagedFaults || v.memory == Memory::ManagedPrefetch) && !managed_)
      return std::string("the device has no managed memory") +
             (faults_.no_managed ? " (injected: GPULAB_TRANSFERS_FAULTS=managed)" : "");
    if (v.memory == Memory::ManagedPrefetch && !concurrent_managed_)
      return "the device cannot prefetch managed memory (no concurrent managed access)";
    if (v.memory == Memory::Mapped && !map_host_) return "the device cannot map host memory";
    return {};
  }

  // ---- bandwidth ----
  void prepare(const Variant& v, uint64_t bytes, uint32_t seed) override {
    if (v.stage != Stage::Bandwidth || v.backend != Backend::Cuda)
      throw std::invalid_argument("the CUDA engine's bandwidth stage cannot run " + std::string(v.id));
    if (std::string why = why_unavailable(v); !why.empty())
      throw std::invalid_argument(std::string(v.id) + ": " + why);
    if (bytes == 0) throw std::invalid_argument("a transfer of 0 bytes");
    const bool managed = v.memory == Memory::ManagedFaults || v.memory == Memory::ManagedPrefetch;
    const bool make = v.direction == Direction::Make;
    const bool host_side =
        v.direction != Direction::D2D && !managed && (!make || v.kind() == Kind::MakeHostCopy);
    const uint64_t made = make ? made_words(bytes) * 4 : 0;
    const uint64_t host = make ? (host_side ? made : 0) : managed ? bytes : host_side ? bytes : 0;
    const uint64_t device = make ? made : managed ? bytes : v.direction == Direction::D2D ? 2 * bytes : bytes;
    size_t dev_free = 0, dev_total = 0;
    CUDA_CHECK(cudaMemGetInfo(&dev_free, &dev_total));
    // Buffers of another size or kind go first, so that they do not count against the new ones.
    if (v.kind() != kind_ || bytes != bytes_ || seed != seed_) release_bandwidth();
    dev_free += device_held();
    MemoryInfo m{host_available_bytes() + host_held(), dev_free};
    if (std::string bad = check_fits(std::string(v.id) + " of " + format_bytes(bytes), host, device, m);
        !bad.empty())
      throw std::invalid_argument(bad);
    if (variant_ == &v && bytes_ == bytes && seed_ == seed) return;
    release_bandwidth();
    const dim3 grid = grid_for(bytes / 8 + 1);
    if (make) {
      make_generators(seed);
      dev_ = dev_alloc(made, false);
      if (host_side) host_ = host_alloc(Memory::Pinned, made, faults_);
    } else if (managed) {
      dev_ = dev_alloc(bytes, true);
      fill_pattern({dev_->p, bytes}, 0, seed);  // written by the host: the pages start there
    } else {
      if (host_side) host_ = host_alloc(v.memory, bytes, faults_);
      dev_ = dev_alloc(bytes, false);
      if (v.direction == Direction::D2D) dev2_ = dev_alloc(bytes, false);
      if (v.direction == Direction::H2D) {
        fill_pattern({host_->p, bytes}, 0, seed);
      } else {
        pattern_kernel<<<grid, kThreads, 0, stream_>>>(dev_->p, bytes, seed);
        CUDA_CHECK_LAUNCH("pattern_kernel");
      }
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    variant_ = &v;
    kind_ = v.kind();
    bytes_ = bytes;
    seed_ = seed;
  }

  void run(int steps) override {
    need_prepared();
    for (int i = 0; i < steps; ++i) {
      if (managed()) move_to_host();
      transfer();
    }
  }

  double time_transfer(int repeats) override {
    need_prepared();
    std::vector<double> ms;
    for (int r = 0; r < std::max(1, repeats); ++r) {
      if (managed()) {
        move_to_host();
        CUDA_CHECK(cudaStreamSynchronize(stream_));
      }
      CUDA_CHECK(cudaEventRecord(a_.get(), stream_));
      transfer();
      CUDA_CHECK(cudaEventRecord(b_.get(), stream_));
      CUDA_CHECK(cudaEventSynchronize(b_.get()));
      ms.push_back(elapsed_ms(a_, b_));
    }
    return median(ms);
  }

  std::string verify_transfer() override {
    need_prepared();
    const Variant& v = *variant_;
    if (v.direction == Direction::Make) return verify_made();
    if (v.direction == Direction::D2H) {
      std::memset(host_->p, 0, bytes_);
      transfer();
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      const std::string bad = verify_pattern({host_->p, bytes_}, seed_);
      return bad.empty() ? "" : std::string(v.id) + ": " + bad;
    }
    // The destination on the device starts as zeros, so that a transfer that did nothing shows.
    uint8_t* dst = v.direction == Direction::D2D ? dev2_->p : dev_->p;
    if (managed()) {
      move_to_host();
    } else {
      CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes_, stream_));
    }
    transfer();
    const unsigned long long none = bytes_;
    CUDA_CHECK(cudaMemcpyAsync(d_first_, &none, sizeof none, cudaMemcpyHostToDevice, stream_));
    check_kernel<<<grid_for(bytes_), kThreads, 0, stream_>>>(dst, bytes_, seed_, d_first_);
    CUDA_CHECK_LAUNCH("check_kernel");
    unsigned long long first = 0;
    CUDA_CHECK(cudaMemcpyAsync(&first, d_first_, sizeof first, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (first >= bytes_) return {};
    uint8_t got = 0;
    CUDA_CHECK(cudaMemcpy(&got, dst + first, 1, cudaMemcpyDefault));
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s: byte %llu of %llu on the device: got 0x%02X, expected 0x%02X",
                  std::string(v.id).c_str(), first, (unsigned long long)bytes_, got,
                  pattern_byte(first, seed_));
    return buf;
  }

  // ---- overlap ----
  PipelineRun run_pipeline(const Variant& v, const PipelineConfig& c, bool spans) override {
    PipelineRun r;
    const int S = pipeline_streams(v, c);
    prepare_pipeline(v, c);
    if (async_engines_ == 0 && S > 1)
      r.note = std::string("the device has no async copy engine: copies and kernels cannot overlap") +
               (faults_.no_async_engines ? " (injected: GPULAB_TRANSFERS_FAULTS=async)" : "");
    if (v.memory == Memory::Pageable && S > 1)
      r.note = "pageable host memory: each cudaMemcpyAsync is staged by the host and returns when done";
    ensure_events(c.chunks, S);
    CUDA_CHECK(cudaEventRecord(t0_.get(), stream_));
    if (v.kind() == Kind::Graph) {
      launch_graph(v, c, spans, &r);
    } else {
      enqueue(v, c, spans);
    }
    CUDA_CHECK(cudaEventRecord(t1_.get(), stream_));
    CUDA_CHECK(cudaEventSynchronize(t1_.get()));
    r.total_ms = elapsed_ms(t0_, t1_);
    if (spans && !(v.kind() == Kind::Graph && !graph_spans_)) {
      for (int k = 0; k < c.chunks; ++k) {
        const int s = k % S;
        const Event* e = &chunk_events_[size_t(k) * 4];
        r.spans.push_back({Op::H2D, s, k, elapsed_ms(t0_, e[0]), elapsed_ms(t0_, e[1])});
        r.spans.push_back({Op::Kernel, s, k, elapsed_ms(t0_, e[1]), elapsed_ms(t0_, e[2])});
        r.spans.push_back({Op::D2H, s, k, elapsed_ms(t0_, e[2]), elapsed_ms(t0_, e[3])});
      }
    }
    return r;
  }

  void run_pipeline_steps(const Variant& v, const PipelineConfig& c, int steps) override {
    prepare_pipeline(v, c);
    ensure_events(c.chunks, pipeline_streams(v, c));
    for (int i = 0; i < steps; ++i) {
      if (v.kind() == Kind::Graph) {
        PipelineRun r;
        launch_graph(v, c, false, &r);
      } else {
        enqueue(v, c, false);
      }
    }
  }

  std::vector<uint32_t> pipeline_output() override {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (!p_out_) return {};
    std::vector<uint32_t> out(pcfg_.words());
    std::memcpy(out.data(), p_out_->p, out.size() * 4);
    return out;
  }

  PipelineBounds measure_bounds(const PipelineConfig& c, int repeats) override {
    const Variant& pinned = *find_variant("streams-n");
    prepare_pipeline(pinned, c);
    const uint64_t bytes = uint64_t(c.words()) * 4;
    auto time = [&](auto&& op) {
      std::vector<double> ms;
      for (int r = 0; r < std::max(1, repeats); ++r) {
        CUDA_CHECK(cudaEventRecord(a_.get(), stream_));
        op();
        CUDA_CHECK(cudaEventRecord(b_.get(), stream_));
        CUDA_CHECK(cudaEventSynchronize(b_.get()));
        ms.push_back(elapsed_ms(a_, b_));
      }
      return median(ms);
    };
    PipelineBounds b;
    b.h2d_ms = time(
        [&] { CUDA_CHECK(cudaMemcpyAsync(d_in_->p, p_in_->p, bytes, cudaMemcpyHostToDevice, stream_)); });
    b.kernel_ms = time([&] { launch_mix(0, c.words(), c.intensity, stream_, 0); });
    b.d2h_ms = time(
        [&] { CUDA_CHECK(cudaMemcpyAsync(p_out_->p, d_out_->p, bytes, cudaMemcpyDeviceToHost, stream_)); });
    b.duplex_ms = time([&] {
      const cudaStream_t up = streams_[0]->get(), down = streams_[1]->get();
      CUDA_CHECK(cudaEventRecord(fork_.get(), stream_));
      CUDA_CHECK(cudaStreamWaitEvent(up, fork_.get(), 0));
      CUDA_CHECK(cudaStreamWaitEvent(down, fork_.get(), 0));
      CUDA_CHECK(cudaMemcpyAsync(d_in_->p, p_in_->p, bytes, cudaMemcpyHostToDevice, up));
      CUDA_CHECK(cudaMemcpyAsync(p_out_->p, d_out_->p, bytes, cudaMemcpyDeviceToHost, down));
      CUDA_CHECK(cudaEventRecord(join_[0].get(), up));
      CUDA_CHECK(cudaEventRecord(join_[1].get(), down));
      CUDA_CHECK(cudaStreamWaitEvent(stream_, join_[0].get(), 0));
      CUDA_CHECK(cudaStreamWaitEvent(stream_, join_[1].get(), 0));
    });
    return b;
  }

  PinningCost measure_pinning(uint64_t bytes, int repeats) override {
    if (bytes == 0) throw std::invalid_argument("pinning 0 bytes");
    MemoryInfo m{host_available_bytes(), 0};
    if (std::string bad = check_fits("pinning " + format_bytes(bytes), bytes, 0, m); !bad.empty())
      throw std::invalid_argument(bad);
    using clock = std::chrono::steady_clock;
    auto ms_since = [](clock::time_point t) {
      return std::chrono::duration<double, std::milli>(clock::now() - t).count();
    };
    std::vector<double> alloc, free_, reg, unreg;
    for (int r = 0; r < std::max(1, repeats); ++r) {
      // cudaMallocHost: new pages, page-locked and mapped for the device as they are allocated.
      {
        auto t = clock::now();
        std::unique_ptr<HostBuf> b = host_alloc(Memory::Pinned, bytes, faults_);
        alloc.push_back(ms_since(t));
        t = clock::now();
        b.reset();
        free_.push_back(ms_since(t));
      }
      // cudaHostRegister: an existing buffer (touched, so its pages are there) pinned in place.
      {
        const uint64_t rounded = (bytes + 4095) / 4096 * 4096;
        std::unique_ptr<uint8_t, void (*)(void*)> raw(
            static_cast<uint8_t*>(std::aligned_alloc(4096, rounded)), std::free);
        if (!raw) throw std::runtime_error("cannot allocate " + format_bytes(bytes) + " of host memory");
        std::memset(raw.get(), 1, bytes);
        if (faults_.refuse_pinning)
          throw GpuError("the OS refused to pin " + format_bytes(bytes) +
                         " of host memory (cudaHostRegister; injected: GPULAB_TRANSFERS_FAULTS=pinning)");
        auto t = clock::now();
        const cudaError_t err = cudaHostRegister(raw.get(), bytes, cudaHostRegisterDefault);
        const double ms = ms_since(t);
        if (err != cudaSuccess) {
          (void)cudaGetLastError();
          throw GpuError("the OS refused to pin " + format_bytes(bytes) +
                         " of host memory (cudaHostRegister: " + cudaGetErrorString(err) + ")");
        }
        reg.push_back(ms);
        t = clock::now();
        CUDA_CHECK(cudaHostUnregister(raw.get()));
        unreg.push_back(ms_since(t));
      }
    }
    PinningCost c;
    c.bytes = bytes;
    c.malloc_host_ms = median(alloc);
    c.free_host_ms = median(free_);
    c.register_ms = median(reg);
    c.unregister_ms = median(unreg);
    return c;
  }

  double line_rate_gbps(std::string* why) const override {
    char id[64] = {};
    if (cudaDeviceGetPCIBusId(id, sizeof id, device_) != cudaSuccess) {
      (void)cudaGetLastError();
      if (why) *why = "the device's PCI bus id is unknown";
      return 0;
    }
    return pci_line_rate_gbps(id, why);
  }

  std::vector<KernelInfo> kernels(const Variant& v) const override {
    if (v.stage == Stage::Display) return frame_kernels(v.kind());
    switch (v.memory) {
      case Memory::Mapped:
        return {{"copy_kernel", reinterpret_cast<const void*>(&copy_kernel), kThreads}};
      case Memory::ManagedFaults:
        return {{"touch_kernel", reinterpret_cast<const void*>(&touch_kernel), kThreads}};
      default:
        break;
    }
    if (v.stage == Stage::Overlap)
      return {{"mix_kernel", reinterpret_cast<const void*>(&mix_kernel), kThreads}};
    return {};
  }

 private:
  bool managed() const {
    return variant_ &&
           (variant_->memory == Memory::ManagedFaults || variant_->memory == Memory::ManagedPrefetch);
  }
  void need_prepared() const {
    if (!variant_) throw std::logic_error("transfers: a bandwidth rung runs after prepare");
  }
  dim3 grid_for(uint64_t items) const {
    const uint64_t blocks = (items + kThreads - 1) / kThreads;
    return dim3(unsigned(std::max<uint64_t>(1, std::min<uint64_t>(blocks, uint64_t(sms_) * 16))));
  }
  uint64_t host_held() const { return (host_ ? host_->n : 0) + (p_in_ ? p_in_->n + p_out_->n : 0); }
  uint64_t device_held() const {
    return (dev_ ? dev_->n : 0) + (dev2_ ? dev2_->n : 0) + (d_in_ ? d_in_->n + d_out_->n : 0);
  }
  void release_bandwidth() {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    host_.reset();
    dev_.reset();
    dev2_.reset();
    variant_ = nullptr;
  }
  void move_to_host() {
    cudaMemLocation host{};
    host.type = cudaMemLocationTypeHost;
    host.id = 0;
    CUDA_CHECK(cudaMemPrefetchAsync(dev_->p, bytes_, host, 0, stream_));
  }
  void transfer() {
    const Variant& v = *variant_;
    switch (v.kind()) {
      case Kind::H2dPageable:
      case Kind::H2dPinned:
      case Kind::H2dRegistered:
      case Kind::H2dWriteCombined:
        copy_h2d(dev_->p, host_->p, bytes_, stream_);
        break;
      case Kind::D2hPageable:
      case Kind::D2hPinned:
      case Kind::D2hRegistered:
        copy_d2h(host_->p, dev_->p, bytes_, stream_);
        break;
      case Kind::D2d:
        copy_d2d(dev2_->p, dev_->p, bytes_, stream_);
        break;
      case Kind::MakeDevice:
        make_on_device(reinterpret_cast<unsigned*>(dev_->p), made_words(bytes_));
        break;
      case Kind::MakeHostCopy:
        make_on_host_and_copy(dev_->p, reinterpret_cast<unsigned*>(host_->p), made_words(bytes_));
        break;
      case Kind::ZeroCopyMapped:
        copy_kernel<<<grid_for(bytes_ / 16 + 1), kThreads, 0, stream_>>>(host_->dev, dev_->p, bytes_);
        CUDA_CHECK_LAUNCH("copy_kernel");
        break;
      case Kind::D2hMapped:
        copy_kernel<<<grid_for(bytes_ / 16 + 1), kThreads, 0, stream_>>>(dev_->p, host_->dev, bytes_);
        CUDA_CHECK_LAUNCH("copy_kernel");
        break;
      case Kind::ManagedFaults:
        touch_kernel<<<grid_for(bytes_ / 16 + 1), kThreads, 0, stream_>>>(dev_->p, bytes_, d_sink_);
        CUDA_CHECK_LAUNCH("touch_kernel");
        break;
      case Kind::ManagedPrefetch: {
        cudaMemLocation dev{};
        dev.type = cudaMemLocationTypeDevice;
        dev.id = device_;
        CUDA_CHECK(cudaMemPrefetchAsync(dev_->p, bytes_, dev, 0, stream_));
        break;
      }
      default:
        throw std::logic_error("transfers: not a bandwidth rung");
    }
  }

  // ---- made, not copied ----
  // Both generators Philox4_32_10 with the rung's seed; each step starts the sequence afresh (offset 0),
  // so every step makes the same bytes.
  void make_generators(uint32_t seed) {
    if (!dev_gen_) {
      curand_check(curandCreateGenerator(&dev_gen_, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                   "curandCreateGenerator");
      curand_check(curandSetStream(dev_gen_, stream_), "curandSetStream");
    }
    if (!host_gen_)
      curand_check(curandCreateGeneratorHost(&host_gen_, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                   "curandCreateGeneratorHost");
    curand_check(curandSetPseudoRandomGeneratorSeed(dev_gen_, seed), "curandSetPseudoRandomGeneratorSeed");
    curand_check(curandSetPseudoRandomGeneratorSeed(host_gen_, seed), "curandSetPseudoRandomGeneratorSeed");
  }
  // snippet make_curand
  // Made where it is used: the library's generator writes
  // `words` 32-bit words into device memory, on the stream.
  // Nothing crosses the bus.
  void make_on_device(unsigned* d_words, size_t words) {
    curand_check(curandSetGeneratorOffset(dev_gen_, 0), "curandSetGeneratorOffset");
    curand_check(curandGenerate(dev_gen_, d_words, words), "curandGenerate");
  }
  // end snippet
  // snippet make_host_copy
  // Made on the host, then copied: cuRAND's host generator (the same sequence) fills pinned memory on
  // the CPU, and the copy engine moves it. The CPU waits for the previous copy before it writes the
  // buffer again, as a program that reuses one buffer must.
  void make_on_host_and_copy(void* d_dst, unsigned* h_words, size_t words) {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    curand_check(curandSetGeneratorOffset(host_gen_, 0), "curandSetGeneratorOffset");
    curand_check(curandGenerate(host_gen_, h_words, words), "curandGenerate (host)");
    copy_h2d(d_dst, h_words, words * sizeof(unsigned), stream_);
  }
  // end snippet
  // The bytes on the device after a make step against the host generator's for the same seed.
  std::string verify_made() {
    const size_t words = made_words(bytes_);
    CUDA_CHECK(cudaMemsetAsync(dev_->p, 0, words * 4, stream_));
    transfer();
    std::vector<uint8_t> got(bytes_), want(words * 4);
    CUDA_CHECK(cudaMemcpyAsync(got.data(), dev_->p, bytes_, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    curand_check(curandSetGeneratorOffset(host_gen_, 0), "curandSetGeneratorOffset");
    curand_check(curandGenerate(host_gen_, reinterpret_cast<unsigned*>(want.data()), words),
                 "curandGenerate (host)");
    const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
    if (diff.first == got.end()) return {};
    const size_t at = static_cast<size_t>(diff.first - got.begin());
    char buf[220];
    std::snprintf(buf, sizeof buf,
                  "%s: byte %zu of %llu on the device: got 0x%02X, expected 0x%02X (cuRAND's host generator, "
                  "seed %u)",
                  std::string(variant_->id).c_str(), at, (unsigned long long)bytes_, got[at], want[at],
                  seed_);
    return buf;
  }

  // ---- pipeline ----
  int pipeline_streams(const Variant& v, const PipelineConfig& c) const {
    return v.streams > 0 ? v.streams : c.streams;
  }
  void prepare_pipeline(const Variant& v, const PipelineConfig& c) {
    if (v.stage != Stage::Overlap || v.backend != Backend::Cuda)
      throw std::invalid_argument("the CUDA engine's pipeline cannot run " + std::string(v.id));
    if (std::string bad = check_pipeline(c); !bad.empty()) throw std::invalid_argument(bad);
    const Memory mem = v.memory == Memory::Pageable ? Memory::Pageable : Memory::Pinned;
    const uint64_t bytes = uint64_t(c.words()) * 4;
    const bool same = p_in_ && p_in_->kind == mem && p_in_->n == bytes && pcfg_.seed == c.seed;
    if (!same) {
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      for (auto& s : streams_) CUDA_CHECK(cudaStreamSynchronize(s->get()));
      graph_.reset();
      p_in_.reset();
      p_out_.reset();
      d_in_.reset();
      d_out_.reset();
      size_t dev_free = 0, dev_total = 0;
      CUDA_CHECK(cudaMemGetInfo(&dev_free, &dev_total));
      MemoryInfo m{host_available_bytes() + (host_ ? host_->n : 0), dev_free};
      if (std::string bad = check_fits("the pipeline of " + format_bytes(bytes), 2 * bytes, 2 * bytes, m);
          !bad.empty())
        throw std::invalid_argument(bad);
      p_in_ = host_alloc(mem, bytes, faults_);
      p_out_ = host_alloc(mem, bytes, faults_);
      d_in_ = dev_alloc(bytes, false);
      d_out_ = dev_alloc(bytes, false);
      uint32_t* w = reinterpret_cast<uint32_t*>(p_in_->p);
      for (size_t i = 0; i < c.words(); ++i) w[i] = pattern_word(i, c.seed);
    }
    if (!same || pcfg_.chunks != c.chunks || pcfg_.streams != c.streams || pcfg_.intensity != c.intensity)
      graph_.reset();
    // The output is checked after a run: cleared when new, else the first and last word of each chunk
    // flipped (a chunk that never comes back is caught, and no 256 MiB memset sits in the timed pass).
    uint32_t* out = reinterpret_cast<uint32_t*>(p_out_->p);
    if (!same) {
      std::memset(p_out_->p, 0, bytes);
    } else {
      for (int k = 0; k < c.chunks; ++k) {
        const ChunkRange r = chunk_range(c.words(), c.chunks, k);
        if (r.count == 0) continue;
        out[r.first] = ~out[r.first];
        if (r.count > 1) out[r.first + r.count - 1] = ~out[r.first + r.count - 1];
      }
    }
    pcfg_ = c;
    while (int(streams_.size()) < kMaxStreams) streams_.push_back(std::make_unique<OwnStream>());
  }
  void ensure_events(int chunks, int) {
    while (chunk_events_.size() < size_t(chunks) * 4) chunk_events_.emplace_back();
  }
  void launch_mix(size_t first, size_t count, int intensity, cudaStream_t s, int max_blocks) {
    dim3 grid = grid_for(count);
    if (max_blocks > 0) grid.x = std::min<unsigned>(grid.x, unsigned(max_blocks));
    mix_kernel<<<grid, kThreads, 0, s>>>(reinterpret_cast<const uint32_t*>(d_in_->p) + first,
                                         reinterpret_cast<uint32_t*>(d_out_->p) + first, count, intensity);
    CUDA_CHECK_LAUNCH("mix_kernel");
  }
  // The chunks on their streams, forked from and joined back into stream_.
  // `capturing`: inside a stream capture, where a chunk's events must be recorded as graph nodes
  // (cudaEventRecordExternal), not taken as dependencies, to be timed afterwards.
  void enqueue(const Variant& v, const PipelineConfig& c, bool spans, bool capturing = false) {
    const int S = pipeline_streams(v, c);
    const int max_blocks = v.kind() == Kind::ConcurrentKernels ? std::max(1, sms_ / S) : 0;
    CUDA_CHECK(cudaEventRecord(fork_.get(), stream_));
    for (int s = 0; s < S; ++s) CUDA_CHECK(cudaStreamWaitEvent(streams_[size_t(s)]->get(), fork_.get(), 0));
    const size_t words = c.words();
    uint32_t* h_in = reinterpret_cast<uint32_t*>(p_in_->p);
    uint32_t* h_out = reinterpret_cast<uint32_t*>(p_out_->p);
    uint32_t* d_in = reinterpret_cast<uint32_t*>(d_in_->p);
    uint32_t* d_out = reinterpret_cast<uint32_t*>(d_out_->p);
    for (int k = 0; k < c.chunks; ++k) {
      const cudaStream_t s = streams_[size_t(k % S)]->get();
      const ChunkRange r = chunk_range(words, c.chunks, k);
      const Event* e = spans ? &chunk_events_[size_t(k) * 4] : nullptr;
      auto mark = [&](int i) {
        if (!e) return;
        if (capturing)
          CUDA_CHECK(cudaEventRecordWithFlags(e[i].get(), s, cudaEventRecordExternal));
        else
          CUDA_CHECK(cudaEventRecord(e[i].get(), s));
      };
      mark(0);
      CUDA_CHECK(cudaMemcpyAsync(d_in + r.first, h_in + r.first, r.count * 4, cudaMemcpyHostToDevice, s));
      mark(1);
      launch_mix(r.first, r.count, c.intensity, s, max_blocks);
      mark(2);
      CUDA_CHECK(cudaMemcpyAsync(h_out + r.first, d_out + r.first, r.count * 4, cudaMemcpyDeviceToHost, s));
      mark(3);
    }
    for (int s = 0; s < S; ++s) {
      CUDA_CHECK(cudaEventRecord(join_[size_t(s)].get(), streams_[size_t(s)]->get()));
      CUDA_CHECK(cudaStreamWaitEvent(stream_, join_[size_t(s)].get(), 0));
    }
  }
  // snippet pipeline_graph
  // The whole pipeline captured once into a graph (stream capture records the forks, copies, kernels
  // and joins), then launched as one call: one launch instead of 3 x chunks.
  void capture(const Variant& v, const PipelineConfig& c, bool spans) {
    graph_ = std::make_unique<Graph>();
    CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue(v, c, spans, true);
    } catch (...) {
      cudaGraph_t g = nullptr;
      cudaStreamEndCapture(stream_, &g);
      if (g) cudaGraphDestroy(g);
      (void)cudaGetLastError();
      graph_.reset();
      throw;
    }
    const cudaError_t err = cudaStreamEndCapture(stream_, &graph_->graph);
    if (err != cudaSuccess) {
      (void)cudaGetLastError();
      graph_.reset();
      throw GpuError(std::string("stream capture of the pipeline failed: ") + cudaGetErrorString(err));
    }
    CUDA_CHECK(cudaGraphInstantiate(&graph_->exec, graph_->graph, 0));
  }
  // end snippet
  void launch_graph(const Variant& v, const PipelineConfig& c, bool spans, PipelineRun* r) {
    if (!graph_ || graph_spans_ != spans) {
      try {
        capture(v, c, spans);
        graph_spans_ = spans;
      } catch (const GpuError& e) {
        if (!spans) throw;
        capture(v, c, false);  // events inside a capture refused: the graph without its chunk times
        graph_spans_ = false;
        r->note = std::string("the graph runs without chunk events (") + e.what() + ")";
      }
    }
    CUDA_CHECK(cudaGraphLaunch(graph_->exec, stream_));
  }

  cudaStream_t stream_;
  Faults faults_;
  int device_ = 0, sms_ = 1, async_engines_ = 0, managed_ = 0, concurrent_managed_ = 0, map_host_ = 0;
  std::string name_;
  unsigned long long* d_first_ = nullptr;
  uint64_t* d_sink_ = nullptr;
  Event a_, b_, t0_, t1_, fork_;
  Event join_[kMaxStreams];
  std::deque<Event> chunk_events_;
  // Bandwidth.
  const Variant* variant_ = nullptr;
  Kind kind_ = Kind::H2dPinned;
  uint64_t bytes_ = 0;
  uint32_t seed_ = 0;
  std::unique_ptr<HostBuf> host_;
  std::unique_ptr<DevBuf> dev_, dev2_;
  curandGenerator_t dev_gen_ = nullptr, host_gen_ = nullptr;  // the make rungs' (made on first use)
  // Pipeline.
  PipelineConfig pcfg_;
  std::unique_ptr<HostBuf> p_in_, p_out_;
  std::unique_ptr<DevBuf> d_in_, d_out_;
  std::vector<std::unique_ptr<OwnStream>> streams_;
  std::unique_ptr<Graph> graph_;
  bool graph_spans_ = false;
};

}  // namespace

std::unique_ptr<Engine> make_cuda_engine(Stream stream, const Faults& faults) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    throw GpuError("no CUDA device");
  }
  return std::make_unique<CudaEngine>(stream, faults);
}

}  // namespace gpulab::transfers

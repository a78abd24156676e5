#pragma once
// Launch functions of the histogram-equalization kernels, shared by the kernel files and the engine
// (histeq_cuda.cu). Only for .cu files.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_memory.cuh"
#include "common/kernel_info.h"
#include "histeq/histeq.h"

namespace gpulab::histeq::cuda_detail {

// Temporary memory of the Thrust rungs (histeq_thrust.cu): Thrust asks for it through an allocator, and
// gets it from one block reused call after call, so that a rung's time is the algorithm's, not
// cudaMalloc's. An allocation past the block takes cudaMalloc's way; before the next call the block is
// grown to the most the block was asked to hold at once (prepare, in histeq_thrust.cu), so a size settles
// within a call or two. One engine's, on its one stream.
struct ThrustArena {
  cuda::DeviceBuffer<char> block;
  size_t used = 0;              // bytes of the block handed out now
  size_t peak = 0;              // the most the block was asked to hold at once
  int live = 0;                 // allocations from the block not yet returned
  std::vector<void*> overflow;  // allocations past the block (cudaMalloc'ed, freed when returned)
  std::string device;           // for the out-of-memory message
};

struct GpuShape {
  int sm_count = 1;
  int device = 0;
};

// HistKind, ScanKind, ReduceKind, ApplyKind (histeq.h): the variant table's selectors.

// Scratch memory a plane's stages keep between launches (sized by the engine at upload).
struct HistScratch {
  uint32_t* accum = nullptr;  // 256 counters + 1 ticket, zero between launches (lane-private)
  void* cub_temp = nullptr;   // CUB's temporary storage
  size_t cub_temp_bytes = 0;
  ThrustArena* thrust = nullptr;  // the Thrust rungs'
};
struct ReduceScratch {
  uint32_t* a = nullptr;            // partial minima then maxima, ping
  uint32_t* b = nullptr;            // pong
  size_t a_count = 0, b_count = 0;  // entries of each half (min and max arrays have this many each)
  ThrustArena* thrust = nullptr;    // the Thrust rungs'
};

// hist: 256 counters of the plane (written whole; no need to clear before); FusedScan also writes lut.
void launch_histogram(HistKind k, int block, const uint8_t* d_plane, size_t n, uint32_t* d_hist,
                      uint8_t* d_lut, const HistScratch& s, const GpuShape& gpu, cudaStream_t stream);
size_t cub_histogram_temp_bytes(size_t n);
std::vector<KernelInfo> histogram_kernels(HistKind k, int block);

// hist -> lut (the equalize definition).
void launch_scan(ScanKind k, const uint32_t* d_hist, uint8_t* d_lut, ThrustArena* thrust,
                 cudaStream_t stream);
std::vector<KernelInfo> scan_kernels(ScanKind k);

// plane -> d_minmax[0] = min, d_minmax[1] = max, and the stretch LUT.
void launch_reduce(ReduceKind k, int block, const uint8_t* d_plane, size_t n, const ReduceScratch& s,
                   uint32_t* d_minmax, uint8_t* d_lut, const GpuShape& gpu, cudaStream_t stream);
// Entries of the first partial array for a plane of n pixels (the largest any variant writes).
size_t reduce_partials(size_t n);
std::vector<KernelInfo> reduce_kernels(ReduceKind k, int block);

// The Thrust rungs (histeq_thrust.cu): the same results as the stages' other variants.
void thrust_histogram_sort(const uint8_t* d_plane, size_t n, uint32_t* d_hist, ThrustArena& arena,
                           cudaStream_t stream);
void thrust_scan(const uint32_t* d_hist, uint8_t* d_lut, ThrustArena& arena, cudaStream_t stream);
void thrust_minmax(bool one_pass, const uint8_t* d_plane, size_t n, uint32_t* d_minmax, uint8_t* d_lut,
                   ThrustArena& arena, cudaStream_t stream);

// The NPP rungs (the library lecture's image primitives): npp/histeq_npp.cu where CMake found NPP when
// gpulab was built, npp/none/ otherwise, whose calls throw npp_unavailable(). NPP takes a 2D region:
// the plane is width x height, rows packed.
struct NppScratch {
  cuda::DeviceBuffer<uint8_t> buffer;  // nppiHistogramEven's scratch, grown to the largest asked for
  std::string device;                  // for the out-of-memory message
};
// "" where the NPP rungs can run, else why not.
std::string npp_unavailable();
// hist-npp: 256 counters of the plane (written whole).
void npp_histogram(const uint8_t* d_plane, int width, int height, uint32_t* d_hist, NppScratch& scratch,
                   cudaStream_t stream);
// apply-npp: out = lut[in] through nppiLUTPalette.
void npp_apply(const uint8_t* d_in, uint8_t* d_out, int width, int height, const uint8_t* d_lut,
               cudaStream_t stream);

// out = lut[in]; both planes 16-byte aligned.
void launch_apply(ApplyKind k, int block, const uint8_t* d_in, uint8_t* d_out, size_t n, const uint8_t* d_lut,
                  const GpuShape& gpu, cudaStream_t stream);
std::vector<KernelInfo> apply_kernels(ApplyKind k, int block);

// The displayed image: compose_rgba of planes p0, p1, p2 (p1, p2 null for grey) and alpha (null: 255).
struct ComposeSource {
  Layout layout = Layout::Grey;
  const uint8_t* p[3] = {};
  const uint8_t* alpha = nullptr;
  int width = 0, height = 0;
};
void launch_compose_surface(const ComposeSource& src, unsigned long long surface, cudaStream_t stream);
void launch_compose_device(const ComposeSource& src, uint8_t* d_rgba, size_t pitch, cudaStream_t stream);

// Blocks of `block` threads resident per SM for `func` (at least 1).
int resident_blocks(const void* func, int block, size_t dynamic_smem);

}  // namespace gpulab::histeq::cuda_detail

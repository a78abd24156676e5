#pragma once
// The CUDA engine: the GPU variants of kernels/nbody, vertices straight into a mapped GL buffer.
// Free of CUDA headers: every build includes it (one without CUDA links
// <demo>/nocuda/, whose create() throws).
#include <memory>
#include <vector>

#include "common/cuda_probe.h"
#include "nbody/nbody.h"

namespace gpulab::nbody {

class CudaEngine : public Engine {
 public:
  // Works on the current CUDA device; every launch and copy goes on `stream`.
  static std::unique_ptr<CudaEngine> create(Stream stream);

  // Vertices for display into device memory (a mapped GL vertex buffer of size() Vertex), on the
  // engine's stream, without synchronising.
  virtual void write_vertices_device(Vertex* d_vertices) = 0;

  // The kernels a variant launches at a block size (the force kernel first, then the shared
  // integrate kernels), for the occupancy panel.
  virtual std::vector<KernelInfo> kernels(const Variant& v, int block) const = 0;
  virtual Stream stream() const = 0;
  // Device bytes the state of n bodies needs (every layout the variants use), for the memory check.
  static size_t bytes_needed(size_t n);
};

// For the tests: gpu-pair-tiles with at most `max_workers` warps (0: one resident wave, the default),
// so that a small system walks the tickets and the column counters as a large one does, and with
// whole rows (as from about 700,000 bodies) instead of segments. The bits depend on N and
// `whole_rows` alone, not on the workers or the block size.
void set_pair_tile_tuning(int max_workers, bool whole_rows);

}  // namespace gpulab::nbody

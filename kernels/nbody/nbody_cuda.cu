// The CUDA engine behind nbody::Engine: owns the device state of one system, runs the GPU variants
// on one stream, and computes diagnostics and display vertices on the device.
//
// Variants (kernels in the files named):
//   gpu-naive-aos, gpu-global-soa, gpu-shared-tile       nbody_forces_basic.cu (the lecture's kernels)
//   gpu-tile-float4, gpu-tile-split, gpu-tile-register   nbody_forces_tiled.cu (GPU Gems 3 and beyond)
//   gpu-warp-pairs                                       nbody_forces_pairs.cu (each pair once, Newton's
//                                                        third law, atomics)
//   gpu-pair-tiles                                       nbody_forces_pair_tiles.cu (each pair once,
//                                                        summed in a fixed order)
//   kick-drift-kick, mirrors, diagnostics, vertices      nbody_integrate.cu (shared by all variants)
//
// The state: pos (x, y, z, m) and vel as float4 are canonical, acc holds a(pos) between steps; the
// integrate kernels keep the SoA arrays and the {pos, vel, mass} records of the first variants in
// step, so a variant switch between steps costs nothing and every variant integrates the same state.
// A step is kick_drift, the variant's force kernel, kick: three launches, never a synchronisation.
// The accelerations of a fresh state (after upload, or a change of G or ε) are computed at the start
// of the next step, before its first kick.
//
// Diagnostics: the pair potential, kinetic energy, momentum, angular momentum, centre of mass and
// total mass on the GPU (deterministic: per-body float sums, then fixed-order double reductions),
// the 90%-mass radius on the host from the positions copied back with them (a weighted selection,
// O(N)). request_diagnostics() copies both into pinned memory behind an event; poll_diagnostics()
// finishes the radius on the host once the event has completed.
//
// upload, download, diagnostics and write_vertices wait for the stream because their results are
// needed on the host right away.
//
// Measured on an H100 80GB HBM3 (SXM, 1980 MHz), 10^12 interactions/s (N² a step, kick kernels
// included), best block in brackets (at N = 1048576 the first five ran at block 256 only):
//                       N = 16384      131072        1048576
//   gpu-naive-aos       0.075 (128)    0.554 (128)   0.712 (256)
//   gpu-global-soa      0.118 (128)    0.649 (1024)  0.714 (256)
//   gpu-shared-tile     0.163 (128)    0.775 (1024)  0.779 (256)
//   gpu-tile-float4     0.496 (128)    1.511 (1024)  1.484 (256)
//   gpu-tile-split      1.289 (512)    1.463 (1024)  1.456 (256)
//   gpu-tile-register   1.879 (512)    2.063 (512)   2.068 (512)   84% of issue slots busy (ncu)
//   gpu-warp-pairs      2.306 (64)     2.743 (256)   2.768 (256)   N(N+1)/2 pair evaluations
//   gpu-pair-tiles      0.644 (256)    1.838 (256)   2.578 (256)   the same, summed in a fixed order
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_probe.h"
#include "common/device_memory.cuh"
#include "nbody/nbody_cuda.h"
#include "nbody/nbody_cuda_internal.cuh"

namespace gpulab::nbody {
namespace {

using namespace cuda_detail;

using cuda::DeviceBuffer;
using cuda::mib;
using cuda::PinnedBuffer;

// Slices of the j-range gpu-tile-register may split a force evaluation into: enough to give 132 SMs
// work at small N, with the partial sums (slices × N float4) kept at 32 MiB or less.
int max_slices(size_t n) {
  if (n == 0) return 1;
  return static_cast<int>(std::clamp<size_t>((size_t{1} << 21) / n, 1, 64));
}

size_t partial_count(size_t n) {
  const int s = max_slices(n);
  return s > 1 ? static_cast<size_t>(s) * n : 0;
}

// Every device buffer of one system.
struct DeviceState {
  size_t n = 0;
  DeviceBuffer<float4> pos, vel, acc, partials;
  DeviceBuffer<float> x, y, z, m;
  DeviceBuffer<BodyAos> aos;
  DeviceBuffer<double> diag_blocks;
  DeviceBuffer<int> pair_sync;

  DeviceState() = default;
  DeviceState(size_t count, const std::string& what, const std::string& device)
      : n(count),
        pos(count, what, device),
        vel(count, what, device),
        acc(count, what, device),
        partials(partial_count(count), what, device),
        x(count, what, device),
        y(count, what, device),
        z(count, what, device),
        m(count, what, device),
        aos(count, what, device),
        diag_blocks(diagnostic_blocks(count) * kDiagSums, what, device),
        pair_sync(pair_tile_sync_count(count), what, device) {}

  size_t bytes() const {
    return pos.bytes() + vel.bytes() + acc.bytes() + partials.bytes() + x.bytes() + y.bytes() + z.bytes() +
           m.bytes() + aos.bytes() + diag_blocks.bytes() + pair_sync.bytes();
  }
  State view() const {
    State s;
    s.n = static_cast<int>(n);
    s.pos = pos.get();
    s.vel = vel.get();
    s.acc = acc.get();
    s.x = x.get();
    s.y = y.get();
    s.z = z.get();
    s.m = m.get();
    s.aos = aos.get();
    s.pair_sync = pair_sync.get();
    return s;
  }
};

// The smallest distance from `centre` within which the bodies hold at least 90% of the mass (the
// CPU reference's definition), by weighted selection: expected O(N), no full sort.
double mass_radius(const float4* pos, size_t n, const std::array<double, 3>& centre, double total_mass) {
  if (n == 0) return 0.0;
  std::vector<std::pair<double, double>> d(n);  // (distance, mass)
  for (size_t i = 0; i < n; ++i) {
    const double dx = pos[i].x - centre[0], dy = pos[i].y - centre[1], dz = pos[i].z - centre[2];
    d[i] = {std::sqrt(dx * dx + dy * dy + dz * dz), pos[i].w};
  }
  // Invariant: the answer's rank lies in [lo, hi), and d[0, lo) are the lo nearest bodies, of mass
  // `below` (< target). If 90% is never reached (rounding), the answer is the farthest body, as on
  // the CPU.
  const double target = 0.9 * total_mass;
  double below = 0.0;
  size_t lo = 0, hi = n;
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    const auto at = [&](size_t k) { return d.begin() + static_cast<std::ptrdiff_t>(k); };
    std::nth_element(at(lo), at(mid), at(hi));  // d[lo, mid) are the range's mid − lo nearest
    double left = 0.0;
    for (size_t k = lo; k < mid; ++k) left += d[k].second;
    if (below + left >= target) {
      hi = mid;
    } else {
      below += left;
      lo = mid;
    }
  }
  return d[lo].first;
}

Diagnostics diagnostics_from(const double* sums, double G, const float4* pos, size_t n) {
  Diagnostics d;
  d.kinetic = sums[kKinetic];
  d.potential = -G * sums[kPairPotential];
  d.momentum = {sums[kPx], sums[kPy], sums[kPz]};
  d.angular_momentum = {sums[kLx], sums[kLy], sums[kLz]};
  d.total_mass = sums[kMass];
  if (d.total_mass > 0)
    d.centre_of_mass = {sums[kMx] / d.total_mass, sums[kMy] / d.total_mass, sums[kMz] / d.total_mass};
  d.radius = mass_radius(pos, n, d.centre_of_mass, d.total_mass);
  return d;
}

class CudaEngineImpl final : public CudaEngine {
 public:
  CudaEngineImpl(Stream stream, const EngineDevice& device)
      : stream_(reinterpret_cast<cudaStream_t>(stream)), device_name_(device.name) {
    gpu_.sm_count = device.sm_count;
    diag_out_ = DeviceBuffer<double>(kDiagSums, "the diagnostics", device_name_);
    async_out_ = DeviceBuffer<double>(kDiagSums, "the diagnostics", device_name_);
  }
  // No explicit wait: cudaFree waits for queued work itself, and the stream (not ours) may be gone.
  ~CudaEngineImpl() override {
    if (async_ready_) (void)cudaEventDestroy(async_ready_);
  }

  Backend backend() const override { return Backend::Cuda; }
  std::string_view device_name() const override { return device_name_; }
  Stream stream() const override { return reinterpret_cast<Stream>(stream_); }

  void upload(const System& s) override {
    const size_t n = s.size();
    for (const std::vector<float>* v : {&s.y, &s.z, &s.vx, &s.vy, &s.vz, &s.m})
      if (v->size() != n) throw std::invalid_argument("nbody: the system's arrays differ in length");
    if (n == 0) throw std::invalid_argument("nbody: cannot upload an empty system");
    if (n > static_cast<size_t>(kMaxBodies))
      throw std::invalid_argument("nbody: " + std::to_string(n) + " bodies, at most " +
                                  std::to_string(kMaxBodies));

    // Before anything is touched: a system that cannot fit leaves the running one alone.
    const size_t need = bytes_needed(n);
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t held = state_.bytes();
    const std::string what = "a system of " + std::to_string(n) + " bodies";
    if (need > free_bytes + held)
      throw GpuError(what + " needs " + mib(need) + ", " + mib(free_bytes + held) + " free on " +
                         device_name_ + " (" + mib(held) + " of it held by the current system)",
                     true);
    wait_for_async();

    if (n == state_.n) {
      // Same size: the buffers stay.
    } else {
      CUDA_CHECK(cudaStreamSynchronize(stream_));  // queued work may still read the old buffers
      cuda::replace_device_state(
          state_, state_.n > 0, need, free_bytes, [&] { return DeviceState(n, what, device_name_); },
          [&] { return download(); },
          [&](const System& saved) {
            state_ = DeviceState(saved.size(), "the previous system", device_name_);
            put(saved);
          });
    }
    put(s);
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  System download() override {
    System s;
    const size_t n = state_.n;
    s.resize(n);
    if (n == 0) return s;
    std::vector<float4> pos(n), vel(n);
    CUDA_CHECK(
        cudaMemcpyAsync(pos.data(), state_.pos.get(), n * sizeof(float4), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(
        cudaMemcpyAsync(vel.data(), state_.vel.get(), n * sizeof(float4), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    for (size_t i = 0; i < n; ++i) {
      s.x[i] = pos[i].x;
      s.y[i] = pos[i].y;
      s.z[i] = pos[i].z;
      s.m[i] = pos[i].w;
      s.vx[i] = vel[i].x;
      s.vy[i] = vel[i].y;
      s.vz[i] = vel[i].z;
    }
    return s;
  }

  size_t size() const override { return state_.n; }

  void set_params(const Params& p) override {
    if (std::string why = check_params(p); !why.empty()) throw std::invalid_argument("nbody: " + why);
    if (p.G != params_.G || p.softening != params_.softening) acc_valid_ = false;
    params_ = p;
  }
  Params params() const override { return params_; }

  void step(const Variant& v, int block, int steps) override {
    if (v.backend != Backend::Cuda)
      throw std::invalid_argument("nbody: variant '" + std::string(v.id) +
                                  "' runs on the CPU backend; the CUDA engine runs only gpu-* variants");
    const ForceKernel kernel = v.force_kernel();
    if (std::find(v.blocks.begin(), v.blocks.end(), block) == v.blocks.end())
      throw std::invalid_argument("nbody: block " + std::to_string(block) + " is not one of " +
                                  std::string(v.id) + "'s block sizes");
    if (steps < 0) throw std::invalid_argument("nbody: negative step count");
    if (steps == 0 || state_.n == 0) return;

    const State st = state_.view();
    const ForceParams fp = force_params();
    const float dt = params_.dt, half_dt = 0.5f * params_.dt;
    auto forces = [&] {
      return launch_forces(kernel, st, fp, block, gpu_, state_.partials.get(), max_slices(state_.n), stream_);
    };
    if (!acc_valid_) {
      launch_kick(st, forces(), half_dt, /*kick=*/false, stream_);
      acc_valid_ = true;
    }
    for (int k = 0; k < steps; ++k) {
      launch_kick_drift(st, half_dt, dt, stream_);
      launch_kick(st, forces(), half_dt, /*kick=*/true, stream_);
    }
  }

  Diagnostics diagnostics() override {
    if (state_.n == 0) return {};
    launch_diagnostics(state_.view(), eps2(), state_.diag_blocks.get(), diag_out_.get(), stream_);
    CUDA_CHECK(cudaMemcpyAsync(diag_host_.get(), diag_out_.get(), kDiagSums * sizeof(double),
                               cudaMemcpyDeviceToHost, stream_));
    std::vector<float4> pos(state_.n);
    CUDA_CHECK(cudaMemcpyAsync(pos.data(), state_.pos.get(), state_.n * sizeof(float4),
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return diagnostics_from(diag_host_.get(), params_.G, pos.data(), state_.n);
  }

  void request_diagnostics() override {
    if (state_.n == 0 || async_pending_) return;
    if (!async_ready_) CUDA_CHECK(cudaEventCreateWithFlags(&async_ready_, cudaEventDisableTiming));
    if (async_pos_.count() != state_.n) {
      async_pos_ = PinnedBuffer<float4>();
      async_pos_ = PinnedBuffer<float4>(state_.n);
    }
    launch_diagnostics(state_.view(), eps2(), state_.diag_blocks.get(), async_out_.get(), stream_);
    CUDA_CHECK(cudaMemcpyAsync(async_host_.get(), async_out_.get(), kDiagSums * sizeof(double),
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaMemcpyAsync(async_pos_.get(), state_.pos.get(), state_.n * sizeof(float4),
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaEventRecord(async_ready_, stream_));
    async_pending_ = true;
    async_G_ = params_.G;
  }

  std::optional<Diagnostics> poll_diagnostics() override {
    if (!async_pending_) return std::nullopt;
    const cudaError_t e = cudaEventQuery(async_ready_);
    if (e == cudaErrorNotReady) {
      (void)cudaGetLastError();  // "not ready" is an answer, not an error
      return std::nullopt;
    }
    CUDA_CHECK(e);
    async_pending_ = false;
    return diagnostics_from(async_host_.get(), async_G_, async_pos_.get(), async_pos_.count());
  }

  void write_vertices(Vertex* h_vertices) override {
    if (state_.n == 0) return;
    DeviceBuffer<Vertex> d(state_.n, "the vertices", device_name_);
    write_vertices_device(d.get());
    CUDA_CHECK(
        cudaMemcpyAsync(h_vertices, d.get(), state_.n * sizeof(Vertex), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void write_vertices_device(Vertex* d_vertices) override {
    if (state_.n == 0) return;
    launch_vertices(state_.view(), d_vertices, stream_);
  }

  std::vector<KernelInfo> kernels(const Variant& v, int block) const override {
    if (v.backend != Backend::Cuda) return {};
    std::vector<KernelInfo> list = force_kernel_infos(v.force_kernel(), block, force_params().guard);
    for (const KernelInfo& k : integrate_kernel_infos()) list.push_back(k);
    return list;
  }

 private:
  float eps2() const { return params_.softening * params_.softening; }

  ForceParams force_params() const {
    ForceParams fp;
    fp.G = params_.G;
    fp.eps2 = eps2();
    fp.guard = needs_guard(fp.eps2, max_mass_);
    return fp;
  }

  // The system into the current buffers (of its size), on the stream; the accelerations are stale.
  void put(const System& s) {
    const size_t n = s.size();
    std::vector<float4> pos(n), vel(n);
    float max_mass = 0.0f;
    for (size_t i = 0; i < n; ++i) {
      pos[i] = make_float4(s.x[i], s.y[i], s.z[i], s.m[i]);
      vel[i] = make_float4(s.vx[i], s.vy[i], s.vz[i], 0.0f);
      max_mass = std::max(max_mass, std::fabs(s.m[i]));
    }
    CUDA_CHECK(
        cudaMemcpyAsync(state_.pos.get(), pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(
        cudaMemcpyAsync(state_.vel.get(), vel.data(), n * sizeof(float4), cudaMemcpyHostToDevice, stream_));
    launch_fill_mirrors(state_.view(), stream_);
    CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host vectors go away
    max_mass_ = max_mass;
    acc_valid_ = false;
  }

  // An upload drops a pending request (as the CPU engine does); its copies must land first.
  void wait_for_async() {
    if (async_pending_) CUDA_CHECK(cudaEventSynchronize(async_ready_));
    async_pending_ = false;
  }

  cudaStream_t stream_;
  std::string device_name_;
  GpuShape gpu_;
  Params params_;
  DeviceState state_;
  float max_mass_ = 0.0f;
  bool acc_valid_ = false;
  // diagnostics(): its own sums and pinned copy.
  DeviceBuffer<double> diag_out_;
  PinnedBuffer<double> diag_host_{kDiagSums};
  // The frame loop's non-blocking diagnostics: sums, positions (for the radius) and an event.
  DeviceBuffer<double> async_out_;
  PinnedBuffer<double> async_host_{kDiagSums};
  PinnedBuffer<float4> async_pos_;
  double async_G_ = 1.0;
  cudaEvent_t async_ready_ = nullptr;
  bool async_pending_ = false;
};

}  // namespace

std::unique_ptr<CudaEngine> CudaEngine::create(Stream stream) {
  return std::make_unique<CudaEngineImpl>(stream, engine_device());
}

size_t CudaEngine::bytes_needed(size_t n) {
  if (n == 0) return 0;
  return n * (3 * sizeof(float4) + 4 * sizeof(float) + sizeof(BodyAos)) + partial_count(n) * sizeof(float4) +
         diagnostic_blocks(n) * kDiagSums * sizeof(double) + pair_tile_sync_count(n) * sizeof(int);
}

}  // namespace gpulab::nbody

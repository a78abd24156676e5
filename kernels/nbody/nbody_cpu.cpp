// The CPU reference engine of the N-body demo (variant `cpu`), the parameter check and the
// diagnostics, all on every CPU core.
//
// Forces: for a block of kBlock bodies i, one pass over all bodies j; the inner loop runs over the
// block's lanes, so each lane sums its own force in j order in double. The compiler vectorises that
// loop (no reduction is reordered), and a body's result does not depend on which thread computed it
// or on how many threads there are.
#include <algorithm>
#include <barrier>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include "common/cpu_info.h"
#include "nbody/nbody.h"

namespace gpulab::nbody {

void System::resize(size_t n) {
  for (std::vector<float>* v : {&x, &y, &z, &vx, &vy, &vz, &m}) v->resize(n);
}

namespace {

// Far beyond anything the demo's systems (size ~1, mass 1, crossing time ~1) can use: a step of
// 10 crossing times, a softening 1000 times the system's size, or a G that makes speeds ~1000 in
// these units only produce nonsense, and such values are far more likely a typo.
constexpr double kMaxDt = 10.0;
constexpr double kMaxSoftening = 1e3;
constexpr double kMaxG = 1e6;

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

std::string check_finite(const System& s, uint64_t step) {
  for (const auto* v : {&s.x, &s.y, &s.z, &s.vx, &s.vy, &s.vz, &s.m})
    for (size_t i = 0; i < v->size(); ++i)
      if (!std::isfinite((*v)[i]))
        return "the state is not finite after step " + std::to_string(step) + " (body " + std::to_string(i) +
               "; bodies too close for the softening, or values too large)";
  return {};
}

std::string check_params(const Params& p) {
  const std::pair<const char*, float> values[] = {{"G", p.G}, {"softening", p.softening}, {"dt", p.dt}};
  for (const auto& [name, value] : values)
    if (!std::isfinite(value))
      return std::string(name) + " must be a finite number, got " + format_number(value);
  if (p.G <= 0) return "G must be > 0, got " + format_number(p.G);
  if (p.G > kMaxG) return "G must be at most " + format_number(kMaxG) + ", got " + format_number(p.G);
  if (p.softening < 0) return "softening must be >= 0, got " + format_number(p.softening);
  if (p.softening > kMaxSoftening)
    return "softening must be at most " + format_number(kMaxSoftening) + ", got " +
           format_number(p.softening);
  if (p.dt <= 0) return "dt must be > 0, got " + format_number(p.dt);
  if (p.dt > kMaxDt) return "dt must be at most " + format_number(kMaxDt) + ", got " + format_number(p.dt);
  return {};
}

namespace {

// Bodies a force block: its positions and sums (6 × 64 doubles) stay in L1 while all j stream past.
constexpr size_t kBlock = 64;

// Added to every squared distance. Any non-zero d² that two float positions (or a float ε) can give
// is at least (1.4e-45)² ≈ 2e-90, so this is far below half an ulp of it and changes nothing. It only
// keeps d² = 0 (the j = i term at ε = 0) finite: r⁻³ stays finite and the term is dx·… = 0 exactly,
// without a branch, which would keep the loop from being vectorised. (Its r⁻³ ≈ 1e255 times a float
// mass cannot overflow.)
constexpr double kZeroDistance = 1e-170;

// 1/sqrt(d2) for a normal d2 > 0, to within 2.6e-16 relative: the classic bit-level estimate (3.4%)
// and four Newton steps, each squaring the error. std::sqrt would be exact, but under GCC's default
// -fmath-errno it stays a scalar library call (errno for negative input), and the loops below would
// then not be vectorised.
inline double rsqrt(double d2) {
  double r = std::bit_cast<double>(0x5FE6EB50C7B537A9ull - (std::bit_cast<uint64_t>(d2) >> 1));
  const double half = 0.5 * d2;
  for (int k = 0; k < 4; ++k) r *= 1.5 - half * r * r;
  return r;
}

// The pair loops are compiled for AVX-512 and AVX2 as well as for the build's target (the x86-64
// baseline, SSE2), and the loader picks the best clone the CPU can run: measured on a 16-core Xeon,
// 9.8 Ginteractions/s with AVX-512, 4.1 with AVX2, 1.4 with SSE2 (whose code of this loop runs
// poorly there). GCC contracts a*b+c into FMAs where the ISA has them, so the AVX-512 clone rounds
// differently from the other two (which give identical bits); one machine always runs one clone,
// in every thread, so its results stay deterministic.
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
#define GPULAB_PAIR_LOOP __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define GPULAB_PAIR_LOOP
#endif

size_t block_count(size_t n) { return (n + kBlock - 1) / kBlock; }

// The lanes of one block: its bodies' positions in double. Lanes past the last body repeat it; their
// sums are computed like the others and dropped.
struct BlockPositions {
  alignas(64) double x[kBlock], y[kBlock], z[kBlock];
  size_t first, count;

  BlockPositions(const System& s, size_t block) : first(block * kBlock) {
    count = std::min(kBlock, s.size() - first);
    for (size_t l = 0; l < kBlock; ++l) {
      const size_t i = first + std::min(l, count - 1);
      x[l] = s.x[i];
      y[l] = s.y[i];
      z[l] = s.z[i];
    }
  }
};

// a_i = G Σ_j m_j (r_j − r_i) / (|r_j − r_i|² + ε²)^{3/2} for the bodies of one block.
// snippet nbody_cpu
GPULAB_PAIR_LOOP void accelerate_block(const System& s, size_t block, double G, double eps2, float* ax,
                                       float* ay, float* az) {
  const BlockPositions b(s, block);
  alignas(64) double sx[kBlock] = {}, sy[kBlock] = {}, sz[kBlock] = {};
  const size_t n = s.size();
  for (size_t j = 0; j < n; ++j) {
    const double xj = s.x[j], yj = s.y[j], zj = s.z[j], mj = s.m[j];
    for (size_t l = 0; l < kBlock; ++l) {
      const double dx = xj - b.x[l], dy = yj - b.y[l], dz = zj - b.z[l];
      const double r = rsqrt(dx * dx + dy * dy + dz * dz + eps2 + kZeroDistance);
      const double w = mj * (r * r * r);
      sx[l] += w * dx;
      sy[l] += w * dy;
      sz[l] += w * dz;
    }
  }
  for (size_t l = 0; l < b.count; ++l) {
    ax[b.first + l] = static_cast<float>(G * sx[l]);
    ay[b.first + l] = static_cast<float>(G * sy[l]);
    az[b.first + l] = static_cast<float>(G * sz[l]);
  }
}
// end snippet

// φ_i = Σ_{j>i} m_j / sqrt(r_ij² + ε²) for the bodies of one block, into phi.
GPULAB_PAIR_LOOP void pair_potential_block(const System& s, size_t block, double eps2, double* phi) {
  const BlockPositions b(s, block);
  alignas(64) double sum[kBlock] = {};
  auto term = [&](size_t j, size_t l) {
    const double dx = s.x[j] - b.x[l], dy = s.y[j] - b.y[l], dz = s.z[j] - b.z[l];
    return s.m[j] * rsqrt(dx * dx + dy * dy + dz * dz + eps2 + kZeroDistance);
  };
  // The triangle inside the block, lane by lane: a masked add in the loop below would keep GCC from
  // vectorising it.
  for (size_t l = 0; l < b.count; ++l)
    for (size_t j = b.first + l + 1; j < b.first + b.count; ++j) sum[l] += term(j, l);
  // Every body after the block, for all lanes at once.
  for (size_t j = b.first + kBlock; j < s.size(); ++j)
    for (size_t l = 0; l < kBlock; ++l) sum[l] += term(j, l);
  std::copy_n(sum, b.count, phi + b.first);
}

// Persistent worker threads, so that a step costs no thread creation: run() hands one job to every
// worker (the calling thread is worker 0) and returns when all have finished. Jobs must not throw.
class WorkerPool {
 public:
  using Job = std::function<void(unsigned worker)>;

  explicit WorkerPool(unsigned threads) {
    try {
      for (unsigned w = 1; w < std::max(threads, 1u); ++w) helpers_.emplace_back([this, w] { serve(w); });
    } catch (...) {
      stop();  // the threads already started must not outlive a pool that was never made
      throw;
    }
  }
  ~WorkerPool() { stop(); }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(helpers_.size()) + 1; }

  void run(const Job& job) {
    {
      std::lock_guard lock(mutex_);
      job_ = &job;
      pending_ = static_cast<unsigned>(helpers_.size());
      ++generation_;
    }
    start_.notify_all();
    job(0);
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    start_.notify_all();
    for (std::thread& t : helpers_) t.join();
  }

  void serve(unsigned worker) {
    uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    for (;;) {
      start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      const Job& job = *job_;
      lock.unlock();
      job(worker);
      lock.lock();
      if (--pending_ == 0) finished_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable start_, finished_;
  const Job* job_ = nullptr;
  uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> helpers_;
};

// Worker w of `workers` owns blocks [first, last): contiguous, so its bodies are contiguous too.
std::pair<size_t, size_t> owned_blocks(size_t blocks, unsigned w, unsigned workers) {
  return {blocks * w / workers, blocks * (w + 1) / workers};
}

Diagnostics diagnostics_on(const System& s, const Params& p, WorkerPool& pool) {
  Diagnostics d;
  const size_t n = s.size();
  if (n == 0) return d;

  // The pair sums, by block; blocks are dealt round-robin because early blocks have more j > i.
  std::vector<double> phi(n);
  const size_t blocks = block_count(n);
  const unsigned workers = static_cast<unsigned>(std::min<size_t>(pool.size(), blocks));
  const double eps2 = static_cast<double>(p.softening) * p.softening;
  pool.run([&](unsigned w) {
    if (w >= workers) return;
    for (size_t b = w; b < blocks; b += workers) pair_potential_block(s, b, eps2, phi.data());
  });

  // The O(N) sums in body order, so the result does not depend on the thread count.
  double pair_sum = 0;
  std::array<double, 3> weighted_position{};
  for (size_t i = 0; i < n; ++i) {
    const double m = s.m[i];
    const double r[3] = {s.x[i], s.y[i], s.z[i]};
    const double v[3] = {s.vx[i], s.vy[i], s.vz[i]};
    pair_sum += m * phi[i];
    d.total_mass += m;
    d.kinetic += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; ++k) {
      d.momentum[k] += m * v[k];
      weighted_position[k] += m * r[k];
    }
    d.angular_momentum[0] += m * (r[1] * v[2] - r[2] * v[1]);
    d.angular_momentum[1] += m * (r[2] * v[0] - r[0] * v[2]);
    d.angular_momentum[2] += m * (r[0] * v[1] - r[1] * v[0]);
  }
  d.potential = -static_cast<double>(p.G) * pair_sum;
  if (d.total_mass > 0)
    for (int k = 0; k < 3; ++k) d.centre_of_mass[k] = weighted_position[k] / d.total_mass;

  // The 90%-mass radius: the smallest distance from the centre of mass within which the bodies
  // hold at least 90% of the mass.
  std::vector<std::pair<double, double>> by_distance(n);  // (distance, mass)
  for (size_t i = 0; i < n; ++i) {
    const double dx = s.x[i] - d.centre_of_mass[0], dy = s.y[i] - d.centre_of_mass[1],
                 dz = s.z[i] - d.centre_of_mass[2];
    by_distance[i] = {std::sqrt(dx * dx + dy * dy + dz * dz), s.m[i]};
  }
  std::sort(by_distance.begin(), by_distance.end());
  double enclosed = 0;
  for (const auto& [distance, mass] : by_distance) {
    enclosed += mass;
    d.radius = distance;
    if (enclosed >= 0.9 * d.total_mass) break;
  }
  return d;
}

void check_sizes(const System& s) {
  const size_t n = s.x.size();
  for (const std::vector<float>* v : {&s.y, &s.z, &s.vx, &s.vy, &s.vz, &s.m})
    if (v->size() != n) throw std::invalid_argument("nbody: the system's arrays differ in length");
}

unsigned hardware_threads() { return std::max(std::thread::hardware_concurrency(), 1u); }

class CpuEngine final : public Engine {
 public:
  explicit CpuEngine(unsigned threads)
      : pool_(threads == 0 ? hardware_threads() : threads),
        name_(cpu_label(static_cast<unsigned>(pool_.size()))) {}

  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return name_; }

  void upload(const System& s) override {
    check_sizes(s);
    if (s.size() == 0) throw std::invalid_argument("nbody: cannot upload an empty system");
    state_ = s;
    ax_.assign(s.size(), 0.0f);
    ay_.assign(s.size(), 0.0f);
    az_.assign(s.size(), 0.0f);
    accelerations_valid_ = false;
    pending_diagnostics_.reset();
  }
  System download() override { return state_; }
  size_t size() const override { return state_.size(); }

  void set_params(const Params& p) override {
    if (std::string why = check_params(p); !why.empty()) throw std::invalid_argument("nbody: " + why);
    if (p.G != params_.G || p.softening != params_.softening) accelerations_valid_ = false;
    params_ = p;
  }
  Params params() const override { return params_; }

  void step(const Variant& v, int /*block: no blocks on the CPU*/, int steps) override {
    if (v.backend != Backend::Cpu)
      throw std::invalid_argument("nbody: variant '" + std::string(v.id) +
                                  "' does not run on the CPU engine");
    if (steps < 0) throw std::invalid_argument("nbody: negative step count");
    if (steps == 0 || state_.size() == 0) return;

    const size_t n = state_.size(), blocks = block_count(n);
    const unsigned workers = static_cast<unsigned>(std::min<size_t>(pool_.size(), blocks));
    const bool need_accelerations = !accelerations_valid_;
    const float dt = params_.dt, half_dt = 0.5f * params_.dt;
    const double G = params_.G, eps2 = static_cast<double>(params_.softening) * params_.softening;
    // Each worker keeps to its own bodies except when reading all positions for the forces, so
    // positions must be complete before the forces and stay put until every force is done.
    std::barrier sync(workers);

    pool_.run([&](unsigned w) {
      if (w >= workers) return;
      // Not a structured binding: the lambdas below capture these, which clang before 16 refuses.
      const std::pair<size_t, size_t> owned = owned_blocks(blocks, w, workers);
      const size_t first_block = owned.first, last_block = owned.second;
      const size_t first = first_block * kBlock, last = std::min(n, last_block * kBlock);
      float *x = state_.x.data(), *y = state_.y.data(), *z = state_.z.data();
      float *vx = state_.vx.data(), *vy = state_.vy.data(), *vz = state_.vz.data();
      float *ax = ax_.data(), *ay = ay_.data(), *az = az_.data();
      auto forces = [&] {
        for (size_t b = first_block; b < last_block; ++b) accelerate_block(state_, b, G, eps2, ax, ay, az);
      };
      auto kick = [&] {
        for (size_t i = first; i < last; ++i) {
          vx[i] += ax[i] * half_dt;
          vy[i] += ay[i] * half_dt;
          vz[i] += az[i] * half_dt;
        }
      };

      if (need_accelerations) {
        forces();
        sync.arrive_and_wait();
      }
      for (int k = 0; k < steps; ++k) {
        kick();
        for (size_t i = first; i < last; ++i) {
          x[i] += vx[i] * dt;
          y[i] += vy[i] * dt;
          z[i] += vz[i] * dt;
        }
        sync.arrive_and_wait();
        forces();
        kick();
        sync.arrive_and_wait();
      }
    });
    accelerations_valid_ = true;
  }

  Diagnostics diagnostics() override { return diagnostics_on(state_, params_, pool_); }
  // The CPU has nothing to overlap with: compute at the request, hand it over at the next poll.
  void request_diagnostics() override { pending_diagnostics_ = diagnostics(); }
  std::optional<Diagnostics> poll_diagnostics() override { return std::exchange(pending_diagnostics_, {}); }

  void write_vertices(Vertex* h_vertices) override {
    const System& s = state_;
    for (size_t i = 0; i < s.size(); ++i) {
      const float speed = std::sqrt(s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i] + s.vz[i] * s.vz[i]);
      h_vertices[i] = {s.x[i], s.y[i], s.z[i], s.m[i], speed};
    }
  }

 private:
  WorkerPool pool_;
  std::string name_;
  Params params_;
  System state_;
  std::vector<float> ax_, ay_, az_;  // a(r) of the current positions, when accelerations_valid_
  bool accelerations_valid_ = false;
  std::optional<Diagnostics> pending_diagnostics_;
};

}  // namespace

Diagnostics diagnostics_cpu(const System& s, const Params& p) {
  check_sizes(s);
  // Threads are only worth starting when there is more than one block of pair sums.
  WorkerPool pool(static_cast<unsigned>(std::min<size_t>(hardware_threads(), block_count(s.size()))));
  return diagnostics_on(s, p, pool);
}

double max_position_difference(const System& a, const System& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("nbody: max_position_difference of systems of different sizes");
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double dx = static_cast<double>(a.x[i]) - b.x[i], dy = static_cast<double>(a.y[i]) - b.y[i],
                 dz = static_cast<double>(a.z[i]) - b.z[i];
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    // A NaN must not hide behind the maximum: verify has to see it.
    if (std::isnan(d)) return d;
    worst = std::max(worst, d);
  }
  return worst;
}

std::unique_ptr<Engine> make_cpu_engine(unsigned threads) { return std::make_unique<CpuEngine>(threads); }

double estimate_cpu_seconds(const System& s, const Params& p, const Variant& v, long long steps,
                            size_t sample) {
  const size_t n = s.size(), k = std::min(n, std::max<size_t>(sample, 1));
  if (k == 0 || steps <= 0) return 0;
  System part;
  part.resize(k);
  for (auto [from, to] : {std::pair{&s.x, &part.x},
                          {&s.y, &part.y},
                          {&s.z, &part.z},
                          {&s.vx, &part.vx},
                          {&s.vy, &part.vy},
                          {&s.vz, &part.vz},
                          {&s.m, &part.m}})
    std::copy(from->begin(), from->begin() + static_cast<std::ptrdiff_t>(k), to->begin());
  auto engine = make_cpu_engine();
  engine->set_params(p);
  engine->upload(part);
  engine->step(v, 0, 1);  // the first accelerations too
  const auto t0 = std::chrono::steady_clock::now();
  engine->step(v, 0, 2);
  const double per_step = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 2;
  return scale_cpu_seconds(per_step, k, n, steps);
}

double scale_cpu_seconds(double sample_step_seconds, size_t sample, size_t n, long long steps) {
  if (sample == 0 || steps <= 0) return 0;
  const double scale = double(n) / double(sample);
  return sample_step_seconds * scale * scale * double(steps);
}

}  // namespace gpulab::nbody

#pragma once
// All-pairs gravitational N-body in 3D with Plummer softening: the system on the host, initial
// conditions, diagnostics, body files, the variant table and the engines (CPU reference and CUDA)
// behind one interface. No GL, no ImGui, no CUDA headers here.
//
// The definitions every variant, test and outside check relies on:
//   a_i = G Σ_j m_j (r_j − r_i) / (|r_j − r_i|² + ε²)^{3/2}        (the j = i term is zero, also at ε = 0)
//   kick-drift-kick: v += a·dt/2; r += v·dt; a = acc(r); v += a·dt/2 (a of the initial state is
//                    computed once, before the first step, and kept with the state)
//   E = Σ m v²/2 − G Σ_{i<j} m_i m_j / sqrt(r_ij² + ε²)
//
// Variants (stable ids, used by the CLI, the tests and the bench):
//   cpu              the O(N²) reference on all CPU cores, accumulation in double
//   gpu-naive-aos    one thread per body, bodies as an array of structs read from global memory
//   gpu-global-soa   separate x, y, z, m arrays: coalesced reads
//   gpu-shared-tile  each block stages tiles of bodies in shared memory
//   gpu-tile-float4  float4 bodies (xyz + mass), rsqrtf, unrolled inner loop (GPU Gems 3, ch. 31)
//   gpu-tile-split   several threads per body split the j-range and combine partial forces
//   gpu-tile-register  8 bodies a thread in registers: one shared-memory load serves 8 interactions
//   gpu-warp-pairs   each pair evaluated once (Newton's third law), forces added with atomics
//   gpu-pair-tiles   each pair once, tiles of pairs, forces summed in a fixed order: deterministic
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"

namespace gpulab::nbody {

// Body counts the demo accepts (the UI and CLI; the GPU memory check may refuse less).
inline constexpr long long kMinBodies = 1;
inline constexpr long long kMaxBodies = 1LL << 24;
inline constexpr int kDefaultBodies = 16384;
inline constexpr int kDefaultBodiesCpu = 2048;

// Physical parameters (N-body units: G = 1, total mass 1 for the generated systems).
struct Params {
  float G = 1.0f;
  float softening = 0.05f;  // ε
  float dt = 0.005f;
  bool operator==(const Params&) const = default;
};
// "" when usable, else why not (dt <= 0, softening < 0, G <= 0, non-finite or absurd values).
std::string check_params(const Params& p);

// The state on the host: structure of arrays, all of length n.
struct System {
  std::vector<float> x, y, z, vx, vy, vz, m;
  size_t size() const { return x.size(); }
  void resize(size_t n);
  bool operator==(const System&) const = default;
};

// "" when every value of `s` is finite, else "the state is not finite after step K (...)": a state
// that blew up (coincident bodies without softening, huge values) is not written, since no body-file
// reader, gpulab's included, takes nan.
std::string check_finite(const System& s, uint64_t step);

// ---------------------------------------------------------------------------------------------
// Initial conditions. Deterministic for (kind, n, seed); total mass 1, centre of mass at the origin,
// zero total momentum (corrected after sampling).
enum class InitKind : uint8_t { Plummer, UniformSphere, Disk, Galaxies };
struct InitInfo {
  InitKind kind;
  std::string_view id;     // "plummer", "sphere", "disk", "galaxies" (CLI --init)
  std::string_view title;  // shown in the UI
};
std::span<const InitInfo> init_kinds();
const InitInfo* find_init(std::string_view id);
System make_initial(InitKind kind, size_t n, uint64_t seed, const Params& p);

// ---------------------------------------------------------------------------------------------
// Diagnostics of a state (in double).
struct Diagnostics {
  double kinetic = 0, potential = 0;  // E = kinetic + potential
  std::array<double, 3> momentum{}, angular_momentum{};
  std::array<double, 3> centre_of_mass{};
  double total_mass = 0;
  double radius = 0;  // the system's size: the radius holding 90% of the mass about the centre of mass
  double energy() const { return kinetic + potential; }
};
Diagnostics diagnostics_cpu(const System& s, const Params& p);  // O(N²) potential, all cores

// Largest |r_a − r_b| over bodies, for verify (sizes must match).
double max_position_difference(const System& a, const System& b);

// ---------------------------------------------------------------------------------------------
// Body files. CSV: first line `# gpulab nbody G=<g> softening=<eps> dt=<dt> step=<k>` (optional on
// reading), second line `x,y,z,vx,vy,vz,m`, then one body a line (%.9g). Tipsy: NVIDIA's nbody
// sample format (header, gas/dark/star particles), dark and star particles read as bodies.
struct BodyFile {
  System system;
  std::optional<Params> params;  // from the CSV header, when present
  uint64_t step = 0;
};
struct LoadResult {
  std::optional<BodyFile> file;
  std::string error;  // "<path>: line 7: expected 7 numbers, found 6" / "<path>: offset 1234: ..."
};
LoadResult load_bodies(const std::string& path);  // by extension/content: .csv or tipsy
LoadResult parse_csv(std::string_view text, const std::string& name);
LoadResult parse_tipsy(std::span<const uint8_t> bytes, const std::string& name);
std::string write_csv(const System& s, const Params& p, uint64_t step);
std::vector<uint8_t> write_tipsy(const System& s, double time);  // all bodies as dark particles

// ---------------------------------------------------------------------------------------------
// Variants are data: one table, shared by the UI, the CLI, the tests and the bench.
enum class Backend : uint8_t { Cpu, Cuda };
// The force kernel a CUDA variant launches (the CPU reference has none).
enum class ForceKernel : uint8_t {
  NaiveAos,
  GlobalSoa,
  SharedTile,
  TileFloat4,
  TileSplit,
  TileRegister,
  WarpPairs,
  PairTiles
};
// The record (blocks: 1D block sizes, empty for the CPU; kernel: a ForceKernel) and the backend.
struct Variant : VariantRecord {
  Backend backend;
  ForceKernel force_kernel() const { return kernel.as<ForceKernel>(); }
};
std::span<const Variant> variants();
const Variant* find_variant(std::string_view id);

// Conventional counting (GPU Gems 3 / cuda-samples): N² interactions a step, 20 flops each.
inline double interactions_per_step(double n) { return n * n; }
inline constexpr double kFlopsPerInteraction = 20.0;

// Display: one vertex a body, written every frame into the mapped GL vertex buffer.
struct Vertex {
  float x, y, z, mass, speed;
};
static_assert(sizeof(Vertex) == 20);

// ---------------------------------------------------------------------------------------------
// An engine owns one system's state (positions, velocities, masses, accelerations) on its backend.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual Backend backend() const = 0;
  virtual std::string_view device_name() const = 0;

  // Replaces the state; the accelerations are recomputed before the next step. Throws GpuError
  // (out of memory, keeping the previous state) or std::invalid_argument (empty system).
  virtual void upload(const System& s) = 0;
  virtual System download() = 0;
  virtual size_t size() const = 0;
  // Changing G or ε invalidates the stored accelerations (recomputed before the next step).
  virtual void set_params(const Params& p) = 0;
  virtual Params params() const = 0;

  // Advances `steps` kick-drift-kick steps with variant v (of this engine's backend) at `block`
  // threads (one of v.blocks; ignored on the CPU). Never synchronises on the GPU.
  virtual void step(const Variant& v, int block, int steps) = 0;

  // Waits for the result: tests, verify, batch.
  virtual Diagnostics diagnostics() = 0;
  // For the frame loop, which must not wait: request now, poll on a later frame.
  virtual void request_diagnostics() = 0;
  virtual std::optional<Diagnostics> poll_diagnostics() = 0;

  // Vertices for display into host memory (size() of them).
  virtual void write_vertices(Vertex* h_vertices) = 0;
};

std::unique_ptr<Engine> make_cpu_engine(unsigned threads = 0);  // 0: all hardware threads

// Seconds the CPU engine would take for `steps` steps of `s` with variant v: two steps of its first
// `sample` bodies timed (after one that computes the first accelerations) and scaled by
// (N / sample)^2, a step being N^2 interactions. For saying how long a run will take before it
// starts: one step of 16Mi bodies on the CPU takes days.
double estimate_cpu_seconds(const System& s, const Params& p, const Variant& v, long long steps,
                            size_t sample = 2048);
// The scaling it applies: a step of `sample` bodies taking `sample_step_seconds`, `steps` steps of n.
double scale_cpu_seconds(double sample_step_seconds, size_t sample, size_t n, long long steps);

}  // namespace gpulab::nbody

#pragma once
// Transfers and streams (the runtime-API lectures: page-locked memory, synchronous and asynchronous
// copies, streams, events, concurrent kernels, unified memory): what the bus costs, and hiding it.
// Sizes in KiB/MiB/GiB, the rungs as data, the overlap pipeline's kernel and its CPU reference, the
// host memcpy yardsticks, the memory checks that refuse a size before anything is allocated, and the
// engine interface. No GL, no ImGui, no CUDA headers here.
//
// Definitions every rung, test and outside check relies on:
//   a bandwidth step moves `bytes` bytes once, in the rung's direction; the bytes are pattern_byte(i)
//     (a hash of the offset), so a transfer that drops, repeats or shifts a byte shows;
//   the pipeline turns n 32-bit words x[i] = pattern_word(i) into y[i] = mix(x[i], intensity), chunk
//     by chunk (H2D, kernel, D2H); integer arithmetic, so every rung equals the CPU bit for bit;
//   a display frame is width x height RGBA8 pixels frame_pixel(x, y, w, h, n) (row 0 at the top, as
//     the app's textures hold images); integer arithmetic again, so every path writes the CPU's pixels.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"

namespace gpulab::transfers {

// ---------------------------------------------------------------------------------------------
// Sizes. Written as a whole number with a unit: B, KiB, MiB, GiB ("4KiB", "256 MiB", "1GiB", "1000B");
// "4K", "4KB", "4MB" are refused (is 4K 4000 or 4096?), as are 0, negatives, fractions, NaN and
// anything past kMaxBytes.
inline constexpr uint64_t kMaxBytes = uint64_t(64) << 30;  // 64 GiB
// "" with *out set, or why not (quotes the text, control bytes escaped).
std::string parse_bytes(std::string_view text, uint64_t* out);
// "256 MiB", "4 KiB", "1000 B", "1.5 MiB" (exact units when they divide, else one decimal).
std::string format_bytes(uint64_t bytes);
// A sweep "LO..HI" (each a size): the sizes LO, 2·LO, 4·LO... up to HI, and HI itself.
struct Sweep {
  uint64_t lo = 0, hi = 0;
};
std::string parse_sweep(std::string_view text, Sweep* out);
std::vector<uint64_t> sweep_sizes(const Sweep& s);

// ---------------------------------------------------------------------------------------------
// Memory: what may be allocated. Free host memory is MemAvailable of /proc/meminfo; free device
// memory is cudaMemGetInfo's. A size is refused before any allocation when it needs more than
// kMemoryShare of what is free (managed memory counts against both: asking for more than the card
// has free can hang the GPU, so it is never oversubscribed).
inline constexpr double kMemoryShare = 0.8;
struct MemoryInfo {
  uint64_t host_free = 0;    // 0: unknown (nothing is refused for host memory)
  uint64_t device_free = 0;  // 0: unknown or no device
};
uint64_t host_available_bytes();  // MemAvailable, 0 when it cannot be read
// "" when `host` bytes of host memory and `device` bytes of device memory may be allocated, else why
// not (names `what`, the sizes and what is free).
std::string check_fits(const std::string& what, uint64_t host, uint64_t device, const MemoryInfo& m);

// What a device lacks, or what the OS refuses, injected for tests (a root H100 cannot produce these).
struct Faults {
  bool refuse_pinning = false;    // cudaMallocHost / cudaHostRegister fail as if the OS refused
  bool no_async_engines = false;  // the device has no copy engine beside the kernels
  bool no_managed = false;        // the device has no managed memory
};
// Faults from the environment GPULAB_TRANSFERS_FAULTS ("pinning,async,managed", any of them): how a
// headless run or a test asks for them.
Faults faults_from_env();

// The PCIe link's line rate in GB/s (10^9 bytes/s, one direction) from sysfs's link speed text
// ("32.0 GT/s PCIe", "8 GT/s") and width ("16"): GT/s x lanes x encoding / 8 (8b/10b up to 5 GT/s,
// 128b/130b above). 0 when either cannot be read.
double line_rate_gbps(std::string_view speed, std::string_view width);
// The link of the PCI device `bus_id` ("0000:65:00.0"): its maximum line rate (the current one can
// drop while the GPU idles); 0 with *why when sysfs does not say.
double pci_line_rate_gbps(const std::string& bus_id, std::string* why);

// ---------------------------------------------------------------------------------------------
// The bytes that cross the bus and the pipeline's words.
GPULAB_HD uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
// The 8 pattern bytes at offsets 8·k .. 8·k+7 (little-endian): pattern_byte(i) is byte i % 8 of
// pattern_block(i / 8).
GPULAB_HD uint64_t pattern_block(uint64_t k, uint32_t seed) { return splitmix(k ^ (uint64_t(seed) << 40)); }
GPULAB_HD uint8_t pattern_byte(uint64_t i, uint32_t seed) {
  return uint8_t(pattern_block(i / 8, seed) >> (8 * (i % 8)));
}
GPULAB_HD uint32_t pattern_word(uint64_t i, uint32_t seed) { return uint32_t(pattern_block(i, seed) >> 16); }
// snippet pipeline_mix
// The pipeline's work on one word: `intensity` rounds of a xorshift-multiply (about 4 integer
// operations a round), so the arithmetic a word costs is a slider.
GPULAB_HD uint32_t mix(uint32_t v, int intensity) {
  for (int r = 0; r < intensity; ++r) {
    v ^= v << 13;
    v ^= v >> 17;
    v = v * 0x2C1B3C6Du + uint32_t(r);
  }
  return v;
}
// end snippet
inline constexpr int kOpsPerRound = 5;
inline constexpr int kMinIntensity = 1, kMaxIntensity = 4096;
inline constexpr int kMinStreams = 1, kMaxStreams = 16;
inline constexpr int kMinChunks = 1, kMaxChunks = 64;

// Fills `out` with pattern bytes from offset `first`; the first offset where `got` differs from the
// pattern starting at `first` (or got.size() when none).
void fill_pattern(std::span<uint8_t> out, uint64_t first, uint32_t seed);
size_t first_mismatch(std::span<const uint8_t> got, uint64_t first, uint32_t seed);
// "" when `got` is the pattern, else "byte N of SIZE: got 0xAB, expected 0xCD".
std::string verify_pattern(std::span<const uint8_t> got, uint32_t seed);

// The CPU reference of the pipeline: y[i] = mix(pattern_word(i), intensity), all cores.
std::vector<uint32_t> pipeline_cpu(size_t words, int intensity, uint32_t seed);
// "" when `got` equals the reference, else the first difference.
std::string verify_pipeline(std::span<const uint32_t> got, int intensity, uint32_t seed);

// ---------------------------------------------------------------------------------------------
// The display stage: a kernel's output frame on its way into a GL texture. The kernels are here (no
// GL: a surface object or a device pointer is all they see); the GL side is the demo's.
inline constexpr int kMaxFrameSide = 8192;
struct FrameSize {
  int width = 1920, height = 1080;
  bool operator==(const FrameSize&) const = default;
};
// "WxH" (1..kMaxFrameSide each, odd sizes too): "" with *out set, or why not (the text quoted).
std::string parse_frame_size(std::string_view text, FrameSize* out);
// snippet frame_cpu
// Pixel (x, y) of frame n: colour bands that move with n, and a hash of the pixel in the low bits of
// blue (invisible, but a row or a pixel out of place shows in the comparison). Bytes R, G, B, A.
GPULAB_HD uint32_t frame_pixel(int x, int y, int w, int h, uint32_t n) {
  const uint32_t r = (uint32_t(x) * 256u / uint32_t(w) + 3u * n) & 0xFFu;
  const uint32_t g = (uint32_t(y) * 256u / uint32_t(h) + n) & 0xFFu;
  const uint32_t hash = uint32_t(splitmix((uint64_t(uint32_t(y)) << 32 | uint32_t(x)) ^ n));
  const uint32_t b = ((uint32_t(x ^ y) + 2u * n) & 0xF0u) | (hash & 0x0Fu);
  return r | g << 8 | b << 16 | 0xFF000000u;
}
// end snippet
// The CPU's frame (all cores), row 0 at the top, rows tightly packed.
void frame_cpu(uint32_t* h_rgba, int w, int h, uint32_t n);
std::vector<uint32_t> frame_reference(int w, int h, uint32_t n);
// "" when `got` (w x h, row 0 at the top) is frame n, else the first pixel that differs.
std::string verify_frame(std::span<const uint32_t> got, int w, int h, uint32_t n);
// The kernels (a build without CUDA throws std::runtime_error): frame n into a surface object over a
// mapped texture (x in bytes), or into w x h words of device memory (a mapped pixel buffer or a plain
// cudaMalloc), on `stream`, without synchronising.
void frame_to_surface(SurfaceObject surface, int w, int h, uint32_t n, Stream stream);
void frame_to_buffer(uint32_t* d_rgba, int w, int h, uint32_t n, Stream stream);
// Milliseconds of frame_to_buffer alone on `stream` (CUDA events, median of `repeats`, into a buffer of
// its own): the floor every display path pays.
double time_frame_kernel(int w, int h, int repeats, Stream stream);
enum class Kind : uint8_t;
// The kernel a display rung launches (the occupancy panel); none without CUDA or for the CPU's.
std::vector<KernelInfo> frame_kernels(Kind k);

// ---------------------------------------------------------------------------------------------
// What pinning itself costs: host-clock times of cudaMallocHost and cudaFreeHost of `bytes`, and of
// cudaHostRegister and cudaHostUnregister of a malloc'ed buffer of `bytes` already touched (an
// existing buffer pinned in place), each the median of the repeats.
struct PinningCost {
  uint64_t bytes = 0;
  double malloc_host_ms = 0, free_host_ms = 0;
  double register_ms = 0, unregister_ms = 0;
};

// ---------------------------------------------------------------------------------------------
// The host's own yardstick: memcpy between two host buffers, pageable (new[]) or page-locked
// (mlock'ed: what the DMA engines read). Reused across runs.
class HostCopy {
 public:
  HostCopy(uint64_t bytes, bool locked);  // throws std::runtime_error (allocation, mlock refused)
  ~HostCopy();
  HostCopy(const HostCopy&) = delete;
  HostCopy& operator=(const HostCopy&) = delete;
  void run();  // src -> dst, all of it
  std::span<const uint8_t> dst() const { return {dst_, bytes_}; }
  bool locked() const { return locked_; }

 private:
  uint64_t bytes_;
  bool locked_;
  uint8_t* src_ = nullptr;
  uint8_t* dst_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// Rungs.
enum class Stage : uint8_t { Bandwidth, Overlap, Display };
enum class Backend : uint8_t { Cpu, Cuda };
// Make: the bytes are made at the destination (on the device), or made on the host and copied there.
enum class Direction : uint8_t { H2D, D2H, D2D, H2H, Make };
enum class Memory : uint8_t {
  Pageable,         // new[] / malloc: the driver stages it through a pinned buffer of its own
  Pinned,           // cudaMallocHost: page-locked, the copy engine reads it directly
  Registered,       // cudaHostRegister on pageable memory: pinned in place
  WriteCombined,    // cudaHostAlloc(WriteCombined): not cached on the CPU, fast over PCIe
  Mapped,           // cudaHostAlloc(Mapped): a kernel reads / writes host memory over the bus (zero-copy)
  ManagedFaults,    // cudaMallocManaged, first touched by a kernel: pages move on demand
  ManagedPrefetch,  // cudaMallocManaged, moved by cudaMemPrefetchAsync first
  Device,           // device to device
  HostLocked,       // CPU yardstick: mlock'ed host memory
};
enum class Kind : uint8_t {
  H2dPageable,
  H2dPinned,
  H2dRegistered,
  H2dWriteCombined,
  ZeroCopyMapped,
  ManagedFaults,
  ManagedPrefetch,
  D2hPageable,
  D2hPinned,
  D2hRegistered,
  D2hMapped,
  D2d,
  MakeDevice,    // cuRAND makes the bytes on the device: nothing crosses the bus
  MakeHostCopy,  // cuRAND's host generator makes the same bytes, then they are copied (pinned)
  HostPageable,
  HostLocked,
  // Overlap
  PipelineCpu,
  Serial,
  AsyncPageable,
  Streams2,
  Streams4,
  Streams8,
  StreamsN,
  Graph,
  ConcurrentKernels,
  // Display
  DisplayCpu,
  DisplayHostCopy,
  DisplayPbo,
  DisplayInterop,
};
struct Variant : VariantRecord {
  Backend backend;
  Stage stage;
  Direction direction = Direction::H2D;
  Memory memory = Memory::Pinned;
  int streams = 0;  // overlap: fixed streams (0: --streams)
  Kind kind() const { return kernel.as<Kind>(); }
};
std::span<const Variant> variants();
const Variant* find_variant(std::string_view id);
std::vector<const Variant*> variants_of(Stage s);

// The pipeline a run uses (overlap rungs): the words, the chunks, the streams, the intensity.
struct PipelineConfig {
  uint64_t bytes = uint64_t(64) << 20;  // rounded down to whole words
  int streams = 4;
  int chunks = 16;
  int intensity = 64;
  uint32_t seed = 1;
  size_t words() const { return size_t(bytes / 4); }
};
// "" or why the config cannot run (streams, chunks, intensity out of range; fewer words than chunks).
std::string check_pipeline(const PipelineConfig& c);
// The words of chunk `c` of `chunks` over `words`: [first, first + count).
struct ChunkRange {
  size_t first = 0, count = 0;
};
ChunkRange chunk_range(size_t words, int chunks, int c);

// One operation of the pipeline on the GPU's clock, in ms from the pipeline's start.
enum class Op : uint8_t { H2D, Kernel, D2H };
struct Span {
  Op op = Op::H2D;
  int stream = 0, chunk = 0;
  double begin_ms = 0, end_ms = 0;
};
// What one pipeline run gave: every span (empty where the rung cannot time chunks: its note says),
// its total, and its output left in the engine.
struct PipelineRun {
  std::vector<Span> spans;
  double total_ms = 0;
  std::string note;
};
// The time bounds of a pipeline from its phases measured alone (whole buffer, pinned): the overlap
// bound max(H2D, kernel, D2H) and the serial sum.
struct PipelineBounds {
  double h2d_ms = 0, kernel_ms = 0, d2h_ms = 0;
  // H2D and D2H of the whole buffer at once (two streams): what the link gives both ways together.
  // A balanced pipeline's steady state runs both copies at once, so where this exceeds
  // max(h2d_ms, d2h_ms) it, not the bound, is the floor the overlap rungs meet (0: not measured).
  double duplex_ms = 0;
  double bound_ms() const;
  // What the hardware allows a balanced pipeline: max(kernel, both copies at once) where the duplex
  // copy was measured, else bound_ms(). The overlap target is measured against it.
  double floor_ms() const;
  // A pipeline of `chunks` chunks also copies its first chunk in and its last chunk out with nothing
  // beside them (the fill and the drain): floor_ms() + (h2d_ms + d2h_ms) / chunks, what its steady
  // state plus those two costs allow.
  double chunked_ms(int chunks) const;
  double sum_ms() const { return h2d_ms + kernel_ms + d2h_ms; }
};

// ---------------------------------------------------------------------------------------------
// An engine runs the rungs of one backend. Buffers are made on first use of a size and kept.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual Backend backend() const = 0;
  virtual std::string_view device_name() const = 0;
  // "" when variant v can run here, else why (no managed memory, pinning refused...).
  virtual std::string why_unavailable(const Variant& v) const = 0;
  // Bandwidth: makes the buffers of v for `bytes` (refused beyond free memory: std::invalid_argument;
  // the OS refusing to pin: GpuError) and fills the source with the pattern.
  virtual void prepare(const Variant& v, uint64_t bytes, uint32_t seed) = 0;
  // Runs `steps` transfers of the prepared rung (does not synchronise on the GPU). A managed rung's
  // step first moves the pages back to the host (cudaMemPrefetchAsync to the CPU), then to the device.
  virtual void run(int steps) = 0;
  // Milliseconds of one transfer of the prepared rung alone (the median of `repeats`; a managed rung's
  // move back to the host is outside the timing).
  virtual double time_transfer(int repeats) = 0;
  // "" when the bytes at the destination of the last transfer are the pattern (reads them back).
  virtual std::string verify_transfer() = 0;
  // Overlap: runs the pipeline of v on `config`, timing each chunk's ops when `spans` (a run without
  // them for the bench's repeats); synchronises.
  virtual PipelineRun run_pipeline(const Variant& v, const PipelineConfig& config, bool spans) = 0;
  // `steps` runs without chunk events, enqueued back to back without waiting (the bench's timed runs).
  virtual void run_pipeline_steps(const Variant& v, const PipelineConfig& config, int steps) = 0;
  virtual std::vector<uint32_t> pipeline_output() = 0;  // of the last run (waits for it)
  // The phases alone (pinned, whole buffer) of `config`, each the median of `repeats`.
  virtual PipelineBounds measure_bounds(const PipelineConfig& config, int repeats) = 0;
  virtual std::vector<KernelInfo> kernels(const Variant& v) const { return {}; }
  // The cost of pinning `bytes` (refused beyond free host memory: std::invalid_argument; the OS
  // refusing: GpuError); the CPU engine has no CUDA to pin with (std::runtime_error).
  virtual PinningCost measure_pinning(uint64_t bytes, int repeats) {
    (void)bytes, (void)repeats;
    throw std::runtime_error("pinning for the GPU needs the CUDA engine");
  }
  // The line rate of the link to the device (pci_line_rate_gbps); 0 with *why where unknown.
  virtual double line_rate_gbps(std::string* why) const {
    if (why) *why = "the CPU has no bus to the GPU";
    return 0;
  }
  virtual Stream stream() const { return nullptr; }
};
std::unique_ptr<Engine> make_cpu_engine();
// The CUDA engine on `stream` (its own streams beside it for the pipeline); throws GpuError where
// there is no device, and std::runtime_error in a build without CUDA.
std::unique_ptr<Engine> make_cuda_engine(Stream stream, const Faults& faults);

int cpu_threads();

}  // namespace gpulab::transfers

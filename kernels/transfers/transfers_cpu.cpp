// The transfers demo's host side of kernels/: sizes, sweeps, memory checks, the PCIe line rate, the
// pattern and the pipeline's CPU reference, the host memcpy yardstick and the CPU engine.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>
#include <thread>

#include "common/cpu_info.h"
#include "common/text.h"
#include "transfers/transfers.h"

namespace gpulab::transfers {

// ---------------------------------------------------------------------------------------------
// Sizes.

std::string parse_bytes(std::string_view text, uint64_t* out) {
  const std::string_view t = text::trim(text);
  const std::string quoted = text::quote(text);
  if (t.empty()) return "a size is needed (e.g. 256MiB), got " + quoted;
  size_t i = 0;
  uint64_t n = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
    if (n > (uint64_t(1) << 50))
      return "size " + quoted + " is too large (at most " + format_bytes(kMaxBytes) + ")";
    n = n * 10 + uint64_t(t[i] - '0');
    ++i;
  }
  if (i == 0)
    return "size " + quoted + " must be a whole number with a unit: B, KiB, MiB or GiB (e.g. 4KiB, 256MiB)";
  std::string_view unit = text::trim(t.substr(i));
  if (unit.empty()) {
    const std::string num(t.substr(0, i));
    return "size " + quoted + " has no unit: write " + num + "B for bytes, or " + num + "KiB, " + num +
           "MiB or " + num + "GiB";
  }
  uint64_t scale = 0;
  if (unit == "B")
    scale = 1;
  else if (unit == "KiB")
    scale = uint64_t(1) << 10;
  else if (unit == "MiB")
    scale = uint64_t(1) << 20;
  else if (unit == "GiB")
    scale = uint64_t(1) << 30;
  else if (unit == "K" || unit == "KB" || unit == "k" || unit == "kB" || unit == "M" || unit == "MB" ||
           unit == "G" || unit == "GB")
    return "size " + quoted + ": write KiB, MiB or GiB (powers of 1024), so that 4K is never ambiguous";
  else
    return "size " + quoted + " must be a whole number with a unit: B, KiB, MiB or GiB (e.g. 4KiB, 256MiB)";
  if (n == 0) return "size " + quoted + " is zero: nothing would cross the bus";
  if (n > kMaxBytes / scale)
    return "size " + quoted + " is too large (at most " + format_bytes(kMaxBytes) + ")";
  *out = n * scale;
  return {};
}

std::string format_bytes(uint64_t b) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  uint64_t scale = 1;
  while (u < 3 && b >= (scale << 10)) {
    scale <<= 10;
    ++u;
  }
  char buf[48];
  if (b % scale == 0)
    std::snprintf(buf, sizeof buf, "%llu %s", (unsigned long long)(b / scale), kUnits[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", double(b) / double(scale), kUnits[u]);
  return buf;
}

std::string parse_sweep(std::string_view text, Sweep* out) {
  const size_t dots = text.find("..");
  if (dots == std::string_view::npos)
    return "--sweep " + text::quote(text) + " must be LO..HI, e.g. 4KiB..1GiB";
  Sweep s;
  if (std::string bad = parse_bytes(text.substr(0, dots), &s.lo); !bad.empty()) return "--sweep: " + bad;
  if (std::string bad = parse_bytes(text.substr(dots + 2), &s.hi); !bad.empty()) return "--sweep: " + bad;
  if (s.lo > s.hi) return "--sweep " + text::quote(text) + ": the first size is larger than the second";
  *out = s;
  return {};
}

std::vector<uint64_t> sweep_sizes(const Sweep& s) {
  std::vector<uint64_t> out;
  for (uint64_t b = s.lo; b > 0 && b < s.hi; b *= 2) out.push_back(b);
  out.push_back(s.hi);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Memory.

uint64_t host_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

std::string check_fits(const std::string& what, uint64_t host, uint64_t device, const MemoryInfo& m) {
  auto over = [](uint64_t need, uint64_t free) {
    return free > 0 && double(need) > kMemoryShare * double(free);
  };
  if (host > 0 && over(host, m.host_free))
    return what + " needs " + format_bytes(host) + " of host memory, but only " + format_bytes(m.host_free) +
           " is free (at most " + std::to_string(int(kMemoryShare * 100)) +
           "% of it is used): refused before allocating";
  if (device > 0 && over(device, m.device_free))
    return what + " needs " + format_bytes(device) + " of device memory, but only " +
           format_bytes(m.device_free) + " is free (at most " + std::to_string(int(kMemoryShare * 100)) +
           "% of it is used; managed memory is never oversubscribed): refused before allocating";
  return {};
}

Faults faults_from_env() {
  Faults f;
  const char* e = std::getenv("GPULAB_TRANSFERS_FAULTS");
  if (!e) return f;
  const std::string s = e;
  f.refuse_pinning = s.find("pinning") != std::string::npos;
  f.no_async_engines = s.find("async") != std::string::npos;
  f.no_managed = s.find("managed") != std::string::npos;
  return f;
}

double line_rate_gbps(std::string_view speed, std::string_view width) {
  speed = text::trim(speed);
  width = text::trim(width);
  char* end = nullptr;
  const std::string sp(speed), wd(width);
  const double gts = std::strtod(sp.c_str(), &end);
  if (end == sp.c_str() || !(gts > 0) || !std::isfinite(gts)) return 0;
  const long lanes = std::strtol(wd.c_str(), &end, 10);
  if (end == wd.c_str() || lanes <= 0 || lanes > 64) return 0;
  const double encoding = gts <= 5.0 ? 8.0 / 10.0 : 128.0 / 130.0;
  return gts * double(lanes) * encoding / 8.0;
}

double pci_line_rate_gbps(const std::string& bus_id, std::string* why) {
  std::string id = bus_id;
  for (char& c : id) c = char(std::tolower(static_cast<unsigned char>(c)));
  // cudaDeviceGetPCIBusId writes an 8-digit domain ("00000000:65:00.0"); sysfs has 4.
  if (id.size() > 12 && id.find(':') == 8) id = id.substr(4);
  const std::string dir = "/sys/bus/pci/devices/" + id + "/";
  auto read = [](const std::string& path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
  };
  const double r = line_rate_gbps(read(dir + "max_link_speed"), read(dir + "max_link_width"));
  if (r <= 0 && why) *why = "the PCIe link of " + text::quote(bus_id) + " is not in sysfs (" + dir + ")";
  return r;
}

// ---------------------------------------------------------------------------------------------
// Pattern and pipeline.

int cpu_threads() { return std::max(1, int(std::thread::hardware_concurrency())); }

namespace {
template <class F>
void parallel_for(size_t n, F&& f) {
  const int t = std::min<size_t>(size_t(cpu_threads()), std::max<size_t>(1, n / (1 << 16)));
  if (t <= 1) {
    f(size_t(0), n);
    return;
  }
  std::vector<std::thread> pool;
  for (int k = 0; k < t; ++k) pool.emplace_back([&, k] { f(n * k / t, n * (k + 1) / t); });
  for (auto& th : pool) th.join();
}
}  // namespace

void fill_pattern(std::span<uint8_t> out, uint64_t first, uint32_t seed) {
  parallel_for(out.size(), [&](size_t lo, size_t hi) {
    size_t i = lo;
    // Whole aligned blocks of 8 at once.
    while (i < hi && (first + i) % 8 != 0) out[i] = pattern_byte(first + i, seed), ++i;
    for (; i + 8 <= hi; i += 8) {
      const uint64_t w = pattern_block((first + i) / 8, seed);
      std::memcpy(&out[i], &w, 8);
    }
    for (; i < hi; ++i) out[i] = pattern_byte(first + i, seed);
  });
}

size_t first_mismatch(std::span<const uint8_t> got, uint64_t first, uint32_t seed) {
  size_t i = 0;
  const size_t n = got.size();
  while (i < n && (first + i) % 8 != 0) {
    if (got[i] != pattern_byte(first + i, seed)) return i;
    ++i;
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, &got[i], 8);
    if (w != pattern_block((first + i) / 8, seed)) break;
  }
  for (; i < n; ++i)
    if (got[i] != pattern_byte(first + i, seed)) return i;
  return n;
}

std::string verify_pattern(std::span<const uint8_t> got, uint32_t seed) {
  const size_t i = first_mismatch(got, 0, seed);
  if (i == got.size()) return {};
  char buf[160];
  std::snprintf(buf, sizeof buf, "byte %zu of %zu: got 0x%02X, expected 0x%02X", i, got.size(), got[i],
                pattern_byte(i, seed));
  return buf;
}

// ---------------------------------------------------------------------------------------------
// Display frames.

std::string parse_frame_size(std::string_view text, FrameSize* out) {
  const std::string_view t = text::trim(text);
  const std::string quoted = text::quote(text);
  int v[2] = {0, 0};
  size_t i = 0;
  for (int k = 0; k < 2; ++k) {
    const size_t start = i;
    long long n = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9' && n <= kMaxFrameSide) n = n * 10 + (t[i++] - '0');
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;  // too long: refused below
    if (i == start)
      return "frame size " + quoted + " must be WIDTHxHEIGHT in pixels (e.g. 1920x1080, 3840x2160)";
    if (n < 1 || n > kMaxFrameSide)
      return "frame size " + quoted + ": each side is 1.." + std::to_string(kMaxFrameSide) + " pixels";
    v[k] = int(n);
    if (k == 0) {
      if (i >= t.size() || (t[i] != 'x' && t[i] != 'X'))
        return "frame size " + quoted + " must be WIDTHxHEIGHT in pixels (e.g. 1920x1080, 3840x2160)";
      ++i;
    }
  }
  if (i != t.size())
    return "frame size " + quoted + " must be WIDTHxHEIGHT in pixels (e.g. 1920x1080, 3840x2160)";
  *out = {v[0], v[1]};
  return {};
}

void frame_cpu(uint32_t* h_rgba, int w, int h, uint32_t n) {
  parallel_for(size_t(w) * size_t(h), [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) h_rgba[i] = frame_pixel(int(i % size_t(w)), int(i / size_t(w)), w, h, n);
  });
}

std::vector<uint32_t> frame_reference(int w, int h, uint32_t n) {
  std::vector<uint32_t> out(size_t(w) * size_t(h));
  frame_cpu(out.data(), w, h, n);
  return out;
}

std::string verify_frame(std::span<const uint32_t> got, int w, int h, uint32_t n) {
  const size_t want_size = size_t(w) * size_t(h);
  if (got.size() != want_size)
    return std::to_string(got.size()) + " pixels, " + std::to_string(want_size) + " expected";
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint32_t g = got[size_t(y) * size_t(w) + size_t(x)], want = frame_pixel(x, y, w, h, n);
      if (g != want) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "pixel (%d, %d) of %dx%d: got 0x%08X, the CPU reference 0x%08X (ABGR as a word)", x, y,
                      w, h, g, want);
        return buf;
      }
    }
  return {};
}

std::vector<uint32_t> pipeline_cpu(size_t words, int intensity, uint32_t seed) {
  std::vector<uint32_t> y(words);
  parallel_for(words, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) y[i] = mix(pattern_word(i, seed), intensity);
  });
  return y;
}

std::string verify_pipeline(std::span<const uint32_t> got, int intensity, uint32_t seed) {
  for (size_t i = 0; i < got.size(); ++i) {
    const uint32_t want = mix(pattern_word(i, seed), intensity);
    if (got[i] != want) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "word %zu of %zu: got 0x%08X, the CPU reference 0x%08X", i, got.size(),
                    got[i], want);
      return buf;
    }
  }
  return {};
}

std::string check_pipeline(const PipelineConfig& c) {
  if (c.streams < kMinStreams || c.streams > kMaxStreams)
    return "streams must be " + std::to_string(kMinStreams) + ".." + std::to_string(kMaxStreams) + ", got " +
           std::to_string(c.streams);
  if (c.chunks < kMinChunks || c.chunks > kMaxChunks)
    return "chunks must be " + std::to_string(kMinChunks) + ".." + std::to_string(kMaxChunks) + ", got " +
           std::to_string(c.chunks);
  if (c.intensity < kMinIntensity || c.intensity > kMaxIntensity)
    return "intensity must be " + std::to_string(kMinIntensity) + ".." + std::to_string(kMaxIntensity) +
           ", got " + std::to_string(c.intensity);
  if (c.words() < size_t(c.chunks))
    return "the pipeline's " + format_bytes(c.bytes) + " is fewer 4-byte words than its " +
           std::to_string(c.chunks) + " chunks";
  return {};
}

ChunkRange chunk_range(size_t words, int chunks, int c) {
  const size_t first = words * size_t(c) / size_t(chunks);
  const size_t next = words * size_t(c + 1) / size_t(chunks);
  return {first, next - first};
}

double PipelineBounds::bound_ms() const { return std::max({h2d_ms, kernel_ms, d2h_ms}); }
double PipelineBounds::floor_ms() const {
  return duplex_ms > 0 ? std::max(kernel_ms, duplex_ms) : bound_ms();
}
double PipelineBounds::chunked_ms(int chunks) const {
  return floor_ms() + (h2d_ms + d2h_ms) / std::max(1, chunks);
}

// ---------------------------------------------------------------------------------------------
// The host copy.

HostCopy::HostCopy(uint64_t bytes, bool locked) : bytes_(bytes), locked_(locked) {
  src_ = static_cast<uint8_t*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
  dst_ = static_cast<uint8_t*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
  if (!src_ || !dst_) {
    std::free(src_);
    std::free(dst_);
    throw std::runtime_error("cannot allocate 2 x " + format_bytes(bytes) + " of host memory");
  }
  if (locked && (mlock(src_, bytes) != 0 || mlock(dst_, bytes) != 0)) {
    munlock(src_, bytes);
    std::free(src_);
    std::free(dst_);
    throw std::runtime_error("the OS refused to lock 2 x " + format_bytes(bytes) +
                             " of host memory (mlock: see ulimit -l)");
  }
  fill_pattern({src_, bytes}, 0, 7);
  std::memset(dst_, 0, bytes);
}

HostCopy::~HostCopy() {
  if (locked_) {
    munlock(src_, bytes_);
    munlock(dst_, bytes_);
  }
  std::free(src_);
  std::free(dst_);
}

// snippet host_copy
// The CPU's own yardstick: memcpy between two host buffers, pageable or page-locked (mlock'ed). The
// pages being locked does not make the CPU's copy faster; it is what lets a DMA engine read them.
void HostCopy::run() { std::memcpy(dst_, src_, bytes_); }
// end snippet

// ---------------------------------------------------------------------------------------------
// The CPU engine: the host yardsticks and the pipeline's reference.

namespace {

class CpuEngine final : public Engine {
 public:
  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return name_; }
  std::string why_unavailable(const Variant& v) const override {
    return v.backend == Backend::Cpu ? "" : "a GPU rung (the CPU engine runs the host's own)";
  }
  void prepare(const Variant& v, uint64_t bytes, uint32_t seed) override {
    if (v.backend != Backend::Cpu || v.stage != Stage::Bandwidth)
      throw std::invalid_argument("the CPU engine cannot run " + std::string(v.id));
    MemoryInfo m{host_available_bytes(), 0};
    if (std::string bad = check_fits(std::string(v.id), 2 * bytes, 0, m); !bad.empty())
      throw std::invalid_argument(bad);
    const bool locked = v.memory == Memory::HostLocked;
    if (!copy_ || copy_bytes_ != bytes || copy_->locked() != locked) {
      copy_.reset();
      copy_ = std::make_unique<HostCopy>(bytes, locked);
      copy_bytes_ = bytes;
    }
    (void)seed;
  }
  void run(int steps) override {
    if (!copy_) throw std::logic_error("transfers: run before prepare");
    for (int i = 0; i < steps; ++i) copy_->run();
  }
  double time_transfer(int repeats) override {
    std::vector<double> ms;
    for (int r = 0; r < std::max(1, repeats); ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      run(1);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
  std::string verify_transfer() override {
    if (!copy_) return "nothing was copied yet";
    run(1);
    return verify_pattern(copy_->dst(), 7);
  }
  PipelineRun run_pipeline(const Variant& v, const PipelineConfig& c, bool spans) override {
    if (v.kind() != Kind::PipelineCpu)
      throw std::invalid_argument("the CPU engine cannot run " + std::string(v.id));
    if (std::string bad = check_pipeline(c); !bad.empty()) throw std::invalid_argument(bad);
    // The output and, while it is made, the one it replaces (counted as free: a refusal keeps it, a
    // run of another size frees it first).
    const MemoryInfo m{host_available_bytes() + out_.size() * sizeof(uint32_t), 0};
    if (std::string bad = check_fits("the pipeline of " + format_bytes(c.bytes), 2 * c.bytes, 0, m);
        !bad.empty())
      throw std::invalid_argument(bad);
    if (out_.size() != c.words()) std::vector<uint32_t>().swap(out_);
    const auto t0 = std::chrono::steady_clock::now();
    out_ = pipeline_cpu(c.words(), c.intensity, c.seed);
    PipelineRun r;
    r.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (spans) r.spans.push_back({Op::Kernel, 0, 0, 0.0, r.total_ms});
    r.note = "the CPU computes in place: nothing crosses the bus";
    return r;
  }
  void run_pipeline_steps(const Variant& v, const PipelineConfig& c, int steps) override {
    for (int i = 0; i < steps; ++i) run_pipeline(v, c, false);
  }
  std::vector<uint32_t> pipeline_output() override { return out_; }
  PipelineBounds measure_bounds(const PipelineConfig&, int) override {
    throw std::logic_error("the CPU engine has no bus to bound");
  }

 private:
  std::string name_ = cpu_label(static_cast<unsigned>(cpu_threads()));  // (the pipeline uses them all)
  std::unique_ptr<HostCopy> copy_;
  uint64_t copy_bytes_ = 0;
  std::vector<uint32_t> out_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

}  // namespace gpulab::transfers

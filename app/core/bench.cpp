// Benchmark core: the measuring loop, the table, speedups over baselines measured in the same run
// (same stage and size), target checks, JSON (nlohmann-json).
#include "core/bench.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/cuda_probe.h"
#include "core/demo.h"
#include "core/stats.h"

#if defined(GPULAB_HAVE_CUDA)
#include "cuda/device_info.h"
#include "common/cuda_check.h"
#include "cuda/gpu_timer.h"
#include "cuda/raii.h"
#endif

namespace gpulab {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string sci(double v) { return v > 0 ? fmt("%.3e", v) : "-"; }

// Speedups span 1e-4 (CPU against the GPU baseline) to 1e5: keep three significant digits.
std::string speedup(double v) {
  if (v <= 0) return "-";
  if (v >= 100) return fmt("%.0f", v);
  if (v >= 0.1) return fmt("%.3g", v);
  return fmt("%.2e", v);
}

// A unit's short rate header: "cell updates" -> "cell updates/s".
std::string rate_header(const BenchSuite& s) {
  for (const BenchRow& r : s.rows)
    if (!r.item_unit.empty()) return r.item_unit + "/s";
  return "items/s";
}

bool same_size(const BenchRow& r, long long w, long long h) { return r.width == w && r.height == h; }

}  // namespace

BenchTiming bench_measure(const std::function<double(int steps)>& run, const BenchPlan& plan) {
  // Warm-up (first launch, layout conversion, caches), then size the repeats.
  double t1 = run(1);
  if (!plan.cpu || t1 < 50.0) t1 = run(1);
  int steps = plan.steps;
  if (steps <= 0) {
    steps = plan.cpu ? std::clamp(static_cast<int>(std::ceil(plan.cpu_target_ms / std::max(t1, 1e-3))), 1, 50)
                     : std::clamp(static_cast<int>(std::ceil(plan.target_ms / std::max(t1, 1e-4))), 1,
                                  plan.max_steps);
  }
  int repeats = plan.repeats;
  // Slow rows (the CPU, a naive kernel at a million bodies) get three repeats, not seven.
  if (t1 * steps > 1500.0) repeats = std::min(repeats, 3);
  RollingSeries per_step("ms", "ms", static_cast<size_t>(repeats));
  for (int r = 0; r < repeats; ++r) per_step.push(run(steps) / steps);
  BenchTiming t;
  t.steps = steps;
  t.repeats = repeats;
  t.ms_median = per_step.median();
  t.ms_min = per_step.min();
  t.ms_max = per_step.max();
  return t;
}

BenchTiming bench_time_steps(const std::function<void(int steps)>& step, bool gpu, Stream stream, const Options& o) {
  auto run = [&](int steps) -> double {
#if defined(GPULAB_HAVE_CUDA)
    if (gpu) return cuda::time_ms(stream, [&] { step(steps); });
#else
    (void)stream;
#endif
    const auto t0 = std::chrono::steady_clock::now();
    step(steps);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  BenchPlan p;
  p.cpu = !gpu;
  p.steps = o.bench_steps;
  p.repeats = o.bench_repeats;
  return bench_measure(run, p);
}

void bench_fill(BenchRow& row, const BenchTiming& t, double items_per_step, double bytes_per_step,
                double flops_per_step, const BenchSuite& suite, bool gpu) {
  row.steps = t.steps;
  row.repeats = t.repeats;
  row.ms_median = t.ms_median;
  row.ms_min = t.ms_min;
  row.ms_max = t.ms_max;
  const double s = t.ms_median * 1e-3;
  if (!(s > 0)) return;
  row.items_per_s = items_per_step / s;
  row.gbps = bytes_per_step / s / 1e9;
  row.gflops = flops_per_step / s / 1e9;
  if (gpu && suite.peak_bandwidth_gbps > 0 && bytes_per_step > 0) row.pct_peak = 100.0 * row.gbps / suite.peak_bandwidth_gbps;
  if (gpu && suite.peak_fp32_gflops > 0 && flops_per_step > 0) row.pct_peak_flops = 100.0 * row.gflops / suite.peak_fp32_gflops;
}

struct BenchStream::Owner {
#if defined(GPULAB_HAVE_CUDA)
  cuda::Stream stream;
#endif
};

BenchStream::BenchStream(BenchSuite& suite, const Options& o, const std::string& cpu_name)
    : owner_(std::make_unique<Owner>()) {
  const CudaStatus cs = cuda_status();
#if defined(GPULAB_HAVE_CUDA)
  if (cs.available && !o.cpu) {
    CUDA_CHECK(cudaSetDevice(cs.device));
    owner_->stream = cuda::Stream::create_non_blocking();
    stream_ = owner_->stream.get();
    const cuda::DeviceInfo info = cuda::query_device(cs.device);
    suite.device = info.name + " (" + std::to_string(info.sm_count) + " SMs, CUDA " +
                   cuda::format_cuda_version(info.runtime_version) + ")";
    suite.peak_bandwidth_gbps = info.peak_bandwidth_gbs();
    suite.peak_fp32_gflops = info.peak_fp32_gflops();
    return;
  }
#endif
  suite.device = cpu_name + " (no CUDA: " + (o.cpu ? std::string("--cpu") : cs.reason) + ")";
}

BenchStream::~BenchStream() = default;

void compute_speedups(BenchSuite& suite) {
  for (BenchRow& r : suite.rows) {
    r.speedups.assign(suite.baselines.size(), 0.0);
    for (size_t b = 0; b < suite.baselines.size(); ++b) {
      const BenchRow* base = nullptr;
      for (const BenchRow& c : suite.rows) {
        if (c.variant == suite.baselines[b] && c.stage == r.stage && same_size(c, r.width, r.height) &&
            c.error.empty() && (!base || c.ms_median < base->ms_median))
          base = &c;
      }
      r.speedups[b] = (base && r.error.empty() && r.ms_median > 0) ? base->ms_median / r.ms_median : 0;
    }
  }
}

std::string format_bench(const BenchSuite& suite) {
  std::ostringstream os;
  os << "gpulab bench: " << suite.demo << " on " << suite.device;
  if (suite.peak_bandwidth_gbps > 0) os << " (peak memory bandwidth " << fmt("%.0f", suite.peak_bandwidth_gbps) << " GB/s";
  if (suite.peak_fp32_gflops > 0) os << ", peak FP32 " << fmt("%.1f", suite.peak_fp32_gflops / 1e3) << " TFLOP/s";
  if (suite.peak_bandwidth_gbps > 0) os << ")";
  os << "\n";

  bool stages = false, flops = false, bandwidth = false;
  for (const BenchRow& r : suite.rows) {
    stages |= !r.stage.empty() && r.stage != suite.rows.front().stage;
    flops |= r.gflops > 0;
    bandwidth |= r.gbps > 0;
  }
  std::vector<std::string> head;
  if (stages) head.push_back("stage");
  for (const char* h : {"variant", "block", "size", "ms/step"}) head.push_back(h);
  head.push_back(rate_header(suite));
  if (bandwidth) head.insert(head.end(), {"GB/s", "%peak"});
  if (flops) head.insert(head.end(), {"GFLOP/s", "%fp32"});
  for (const std::string& b : suite.baselines) head.push_back("x " + b);

  std::vector<std::vector<std::string>> cells;
  for (const BenchRow& r : suite.rows) {
    std::vector<std::string> c;
    if (stages) c.push_back(r.stage);
    c.push_back(r.variant + (r.baseline_only ? "*" : ""));
    c.push_back(r.block);
    c.push_back(r.size);
    if (!r.error.empty()) {
      c.push_back("not measured: " + r.error);
      cells.push_back(c);
      continue;
    }
    c.push_back(fmt("%.4f", r.ms_median));
    c.push_back(sci(r.items_per_s));
    if (bandwidth) {
      c.push_back(r.gbps > 0 ? fmt("%.1f", r.gbps) : "-");
      c.push_back(r.pct_peak > 0 ? fmt("%.1f", r.pct_peak) : "-");
    }
    if (flops) {
      c.push_back(r.gflops > 0 ? fmt("%.0f", r.gflops) : "-");
      c.push_back(r.pct_peak_flops > 0 ? fmt("%.1f", r.pct_peak_flops) : "-");
    }
    for (size_t b = 0; b < suite.baselines.size(); ++b) c.push_back(speedup(b < r.speedups.size() ? r.speedups[b] : 0));
    cells.push_back(c);
  }
  std::vector<size_t> width(head.size());
  for (size_t i = 0; i < head.size(); ++i) width[i] = head[i].size();
  for (const auto& c : cells)
    for (size_t i = 0; i < c.size() && i < width.size(); ++i)
      if (i + 1 < c.size() || c.size() == head.size()) width[i] = std::max(width[i], c[i].size());
  auto line = [&](const std::vector<std::string>& c) {
    os << "|";
    for (size_t i = 0; i < c.size(); ++i) {
      const bool last_error = c.size() < head.size() && i + 1 == c.size();
      const bool left = i < (stages ? 4u : 3u) || last_error;
      std::string cell = c[i];
      if (!last_error && cell.size() < width[i]) {
        const std::string pad(width[i] - cell.size(), ' ');
        cell = left ? cell + pad : pad + cell;
      }
      os << " " << cell << " |";
    }
    os << "\n";
  };
  line(head);
  os << "|";
  for (size_t w : width) os << std::string(w + 2, '-') << "|";
  os << "\n";
  for (const auto& c : cells) line(c);

  bool any_baseline = false;
  for (const BenchRow& r : suite.rows) any_baseline |= r.baseline_only;
  if (any_baseline) os << "(* measured as a baseline for the speedup columns)\n";
  os << "ms/step: median of the timed repeats after a warm-up";
  if (bandwidth) os << "; GB/s counts the fewest bytes a step must move";
  os << ".\n";
  for (const std::string& n : suite.notes) os << "note: " << n << "\n";

  for (const BenchTarget& t : suite.targets) {
    const BenchRow* best = nullptr;
    for (const BenchRow& r : suite.rows) {
      if (!same_size(r, t.width, t.height) || !r.error.empty()) continue;
      if (std::find(t.variants.begin(), t.variants.end(), r.variant) == t.variants.end()) continue;
      if (!best || r.items_per_s > best->items_per_s) best = &r;
    }
    os << "target: " << t.what << ": ";
    if (!best) {
      os << "not run (needs --size " << t.width;
      if (t.height > 1) os << "x" << t.height;
      os << ")\n";
      continue;
    }
    const bool pass = best->items_per_s >= t.min_items_per_s;
    os << (pass ? "PASS" : "MISS") << " (" << best->variant << " block " << best->block << ": "
       << sci(best->items_per_s) << ")";
    if (!t.device_hint.empty() && suite.device.find(t.device_hint) == std::string::npos)
      os << " [the target is for an " << t.device_hint << "]";
    os << "\n";
  }
  return os.str();
}

std::string bench_json(const BenchSuite& suite) {
  nlohmann::json j;
  j["demo"] = suite.demo;
  j["device"] = suite.device;
  j["peak_bandwidth_gbps"] = suite.peak_bandwidth_gbps;
  j["peak_fp32_gflops"] = suite.peak_fp32_gflops;
  j["baselines"] = suite.baselines;
  j["notes"] = suite.notes;
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchRow& r : suite.rows) {
    nlohmann::json o = {{"stage", r.stage},
                        {"variant", r.variant},
                        {"block", r.block},
                        {"size", r.size},
                        {"width", r.width},
                        {"height", r.height},
                        {"steps", r.steps},
                        {"repeats", r.repeats},
                        {"ms_per_step_median", r.ms_median},
                        {"ms_per_step_min", r.ms_min},
                        {"ms_per_step_max", r.ms_max},
                        {"items_per_s", r.items_per_s},
                        {"item_unit", r.item_unit},
                        {"gbps", r.gbps},
                        {"pct_peak", r.pct_peak},
                        {"gflops", r.gflops},
                        {"pct_peak_flops", r.pct_peak_flops},
                        {"baseline_only", r.baseline_only},
                        {"error", r.error}};
    for (size_t b = 0; b < suite.baselines.size(); ++b)
      o["speedup_vs_" + suite.baselines[b]] = b < r.speedups.size() ? r.speedups[b] : 0.0;
    rows.push_back(std::move(o));
  }
  j["rows"] = std::move(rows);
  nlohmann::json targets = nlohmann::json::array();
  for (const BenchTarget& t : suite.targets)
    targets.push_back({{"what", t.what}, {"variants", t.variants}, {"width", t.width}, {"height", t.height},
                       {"min_items_per_s", t.min_items_per_s}, {"device_hint", t.device_hint}});
  j["targets"] = std::move(targets);
  return j.dump(2) + "\n";
}

int run_bench(const Options& options) {
  BenchSuite suite;
  std::string names;
  bool found = false;
  for (const auto& demo : make_demos()) {
    names += (names.empty() ? "" : ", ") + std::string(demo->name());
    if (demo->name() != options.demo) continue;
    found = true;
    try {
      if (!demo->bench(options, &suite)) {
        std::fprintf(stderr, "gpulab bench: demo '%s' has no benchmark yet\n", options.demo.c_str());
        return 2;
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpulab bench: %s\n", e.what());
      return 1;
    }
  }
  if (!found) {
    std::fprintf(stderr, "gpulab bench: no demo '%s' (demos: %s)\n", options.demo.c_str(), names.c_str());
    return 2;
  }
  compute_speedups(suite);
  std::fputs(format_bench(suite).c_str(), stdout);
  if (!options.bench_json.empty()) {
    std::ofstream out(options.bench_json);
    out << bench_json(suite);
    if (!out) {
      std::fprintf(stderr, "gpulab bench: cannot write %s\n", options.bench_json.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace gpulab

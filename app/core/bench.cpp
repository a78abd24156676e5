// Benchmark core: the measuring loop, the table, speedups over baselines measured in the same run
// (same case: stage, size and input), target checks, JSON (nlohmann-json).
#include "core/bench.h"
#include "core/recorded.h"

#include "common/file_io.h"
#include "common/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/stats.h"
#include "common/cuda_probe.h"
#include "core/batch.h"
#include "core/demo.h"

#if defined(GPULAB_HAVE_CUDA)
#include "common/cuda_check.h"
#include "cuda/device_info.h"
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

// Times span microseconds to seconds: four significant digits, never an exponent
// (0.005120, 0.1234, 12.35, 1234).
std::string sig4(double v) {
  if (!(v > 0)) return "0";
  int decimals = std::clamp(3 - static_cast<int>(std::floor(std::log10(v))), 0, 12);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  // Rounding up to the next power of ten (9.99996 -> 10.000) makes a fifth digit: drop it.
  if (decimals > 0 && std::strtod(buf, nullptr) >= std::pow(10.0, 4 - decimals))
    std::snprintf(buf, sizeof buf, "%.*f", --decimals, v);
  return buf;
}

// What a row's step is per, in the HUD's words ("per generation"; "per step" when unknown).
std::string step_per(const BenchRow& r) { return r.per.empty() ? "per step" : r.per; }

// The one word every measured row's step is per ("per generation"), or "" when they differ.
std::string common_per(const BenchSuite& s) {
  std::string per;
  for (const BenchRow& r : s.rows) {
    if (!r.error.empty() || r.per.empty()) continue;
    if (per.empty())
      per = r.per;
    else if (per != r.per)
      return {};
  }
  return per.empty() ? "per step" : per;
}

// A time per step for a target line in the JSON: microseconds below 0.1 ms.
std::string step_time(double ms) {
  return ms < 0.1 ? sig4(ms * 1e3) + " \u00b5s/step" : sig4(ms) + " ms/step";
}

bool contains(const std::vector<std::string>& ids, const std::string& id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

std::string one_of(const std::vector<std::string>& ids) {
  if (ids.size() == 1) return ids.front();
  std::string s = "one of ";
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + ids[i];
  return s;
}

std::string case_label(const BenchRow& r) { return r.input.empty() ? r.size : r.size + " " + r.input; }

const char* kind_name(BenchTarget::Kind k) {
  switch (k) {
    case BenchTarget::Kind::Rate:
      return "rate";
    case BenchTarget::Kind::Ratio:
      return "ratio";
    case BenchTarget::Kind::MaxTime:
      return "max_time";
    case BenchTarget::Kind::Invalid:
      break;
  }
  return "invalid";
}

// An error-free row at the target's size (when it names one) and input (when it names one).
bool in_scope(const BenchTarget& t, const BenchRow& r) {
  if (!r.error.empty()) return false;
  if (t.width != 0 && (r.width != t.width || (t.height != 0 && r.height != t.height))) return false;
  return t.input.empty() || r.input == t.input;
}

// The target's size and input, for "not run": "--size 16384x16384 and input 'constant'".
std::string scope_label(const BenchTarget& t) {
  std::string s;
  if (!t.size_option.empty()) {
    s = t.size_option;
  } else if (t.width != 0) {
    s = "--size " + std::to_string(t.width);
    if (t.height > 1) s += "x" + std::to_string(t.height);
  }
  if (!t.input.empty()) s += (s.empty() ? "" : " and ") + std::string("input '") + t.input + "'";
  return s;
}

BenchTargetResult check_target(const BenchTarget& t, const BenchSuite& suite) {
  BenchTargetResult res;
  res.what = t.what;
  res.kind = t.kind();
  res.device_hint = t.device_hint;
  if (res.kind == BenchTarget::Kind::Invalid) {
    res.status = "invalid";
    const int set = t.thresholds_set();
    res.detail = t.variants.empty() ? "no variants"
                 : set == 0         ? "no threshold: set min_items_per_s, min_ratio or max_ms"
                 : set > 1          ? "more than one of min_items_per_s, min_ratio, max_ms"
                                    : "min_ratio without versus";
    return res;
  }
  const bool rate = res.kind == BenchTarget::Kind::Rate;
  // The best row of `ids` in each case in scope; for a ratio, the best of `versus` in the same case.
  struct Case {
    const BenchRow* best = nullptr;
    const BenchRow* versus = nullptr;
    double value = 0;
  };
  std::vector<Case> cases;
  auto better = [&](const BenchRow& a, const BenchRow& b) {
    return rate ? a.items_per_s > b.items_per_s : a.ms_median < b.ms_median;
  };
  for (const BenchRow& r : suite.rows) {
    if (!in_scope(t, r) || !contains(t.variants, r.variant)) continue;
    auto c =
        std::find_if(cases.begin(), cases.end(), [&](const Case& k) { return bench_same_case(*k.best, r); });
    if (c == cases.end())
      cases.push_back({&r});
    else if (better(r, *c->best))
      c->best = &r;
  }
  if (res.kind == BenchTarget::Kind::Ratio) {
    for (Case& c : cases) {
      for (const BenchRow& r : suite.rows)
        if (in_scope(t, r) && contains(t.versus, r.variant) && bench_same_case(*c.best, r) &&
            (!c.versus || r.ms_median < c.versus->ms_median))
          c.versus = &r;
    }
    std::erase_if(cases, [](const Case& c) { return !c.versus || !(c.best->ms_median > 0); });
  }
  for (Case& c : cases) {
    c.value = rate                                   ? c.best->items_per_s
              : res.kind == BenchTarget::Kind::Ratio ? c.versus->ms_median / c.best->ms_median
                                                     : c.best->ms_median;
  }

  if (cases.empty()) {
    res.status = "not run";
    const std::string scope = scope_label(t);
    bool scope_measured = false;  // some row ran at the target's size and input
    for (const BenchRow& r : suite.rows) scope_measured |= in_scope(t, r);
    if (res.kind == BenchTarget::Kind::Ratio)
      res.detail = "needs " + one_of(t.variants) + " and " + one_of(t.versus) + " measured in the same case" +
                   (scope.empty() ? "" : " at " + scope);
    else if (!scope_measured && !scope.empty())
      res.detail = "needs " + scope;
    else
      res.detail = "needs " + one_of(t.variants) + " measured" + (scope.empty() ? "" : " at " + scope);
    return res;
  }

  // The worst case decides: the lowest rate or ratio, the longest time.
  const Case* worst = &cases.front();
  for (const Case& c : cases) {
    const bool worse =
        res.kind == BenchTarget::Kind::MaxTime ? c.value > worst->value : c.value < worst->value;
    if (worse) worst = &c;
  }
  const BenchRow& b = *worst->best;
  res.measured = true;
  res.value = worst->value;
  res.cases = static_cast<int>(cases.size());
  res.stage = b.stage;
  res.size = b.size;
  res.input = b.input;
  res.variant = b.variant;
  res.block = b.block;
  switch (res.kind) {
    case BenchTarget::Kind::Rate:
      res.pass = res.value >= t.min_items_per_s;
      break;
    case BenchTarget::Kind::Ratio:
      res.pass = res.value >= t.min_ratio;
      break;
    default:
      res.pass = res.value <= t.max_ms;
      break;
  }
  res.status = res.pass ? "PASS" : "MISS";
  res.other_device = !t.device_hint.empty() && suite.device.find(t.device_hint) == std::string::npos;

  const std::string worst_prefix = cases.size() > 1 ? "worst: " : "";
  if (res.kind == BenchTarget::Kind::Ratio) {
    res.versus_variant = worst->versus->variant;
    // A ratio under 1 is also said as time, the way "within 1.10x of the floor" is meant.
    const std::string over = t.versus.size() > 1 ? " over " + res.versus_variant : "";
    const std::string as_time =
        res.value > 0 && res.value < 1
            ? " (" + speedup(1 / res.value) + "x the time of " + res.versus_variant + ")"
            : "";
    res.detail = worst_prefix + b.variant + " " + speedup(res.value) + "x" +
                 (as_time.empty() ? over : as_time) + " at " + case_label(b);
  } else {
    // The case is named where the target leaves it open (Life's and N-body's name it: no case).
    const bool open_case = cases.size() > 1 || t.width == 0 || (t.input.empty() && !b.input.empty());
    res.detail =
        worst_prefix + b.variant + " block " + b.block + (open_case ? " at " + case_label(b) : "") + ": ";
    res.said = res.detail + (rate ? sci(res.value) : format_time(res.value) + " " + step_per(b));
    res.detail += rate ? sci(res.value) : step_time(res.value);
  }
  return res;
}

}  // namespace

bool bench_same_case(const BenchRow& a, const BenchRow& b) {
  return a.stage == b.stage && a.width == b.width && a.height == b.height && a.input == b.input;
}

std::vector<std::string> ours_against_library(const BenchSuite& suite, const std::vector<std::string>& ours,
                                              const std::vector<std::string>& library) {
  auto in = [](const std::vector<std::string>& ids, const std::string& id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  };
  auto measured = [](const BenchRow& r) { return r.error.empty() && r.ms_median > 0; };
  std::vector<std::string> out;
  std::vector<const BenchRow*> seen;  // a row of each case already said
  for (const BenchRow& first : suite.rows) {
    if (!measured(first) || !in(library, first.variant)) continue;
    if (std::any_of(seen.begin(), seen.end(), [&](const BenchRow* s) { return bench_same_case(*s, first); }))
      continue;
    seen.push_back(&first);
    const BenchRow* best = nullptr;
    for (const BenchRow& r : suite.rows)
      if (bench_same_case(r, first) && measured(r) && in(ours, r.variant) &&
          (!best || r.ms_median < best->ms_median))
        best = &r;
    if (!best) continue;
    std::string line = first.stage + " at " + case_label(first) + ": our best, " + best->variant + ", is ";
    bool any = false;
    for (const std::string& lib : library)
      for (const BenchRow& r : suite.rows)
        if (r.variant == lib && bench_same_case(r, first) && measured(r)) {
          line += (any ? ", " : "") + speedup(r.ms_median / best->ms_median) + "x " + lib;
          any = true;
          break;
        }
    out.push_back(line);
  }
  return out;
}

BenchTarget::Kind BenchTarget::kind() const {
  if (thresholds_set() != 1 || variants.empty()) return Kind::Invalid;
  if (min_items_per_s > 0) return Kind::Rate;
  if (min_ratio > 0) return versus.empty() ? Kind::Invalid : Kind::Ratio;
  return Kind::MaxTime;
}

BenchTarget target_on_device(const BenchTarget& t, std::string_view device) {
  for (const BenchTarget::OnCard& c : t.on_cards) {
    if (c.card.empty() || device.find(c.card) == std::string_view::npos) continue;
    BenchTarget out = t;
    out.what = c.what;
    out.device_hint = c.card;
    switch (t.kind()) {
      case BenchTarget::Kind::Rate:
        out.min_items_per_s = c.threshold;
        break;
      case BenchTarget::Kind::Ratio:
        out.min_ratio = c.threshold;
        break;
      case BenchTarget::Kind::MaxTime:
        out.max_ms = c.threshold;
        break;
      case BenchTarget::Kind::Invalid:
        return t;
    }
    return out;
  }
  return t;
}

void same_target_on(BenchTarget& t, const std::string& card, const std::string& why) {
  BenchTarget::OnCard c;
  c.card = card;
  c.what = t.what;
  // "(H100)" or "(H100, PCIe Gen5 x16)" becomes "(H200, why)"; a hint at the end of a longer
  // parenthesis, "(every size measured; H100)", becomes "(every size measured; H200, why)".
  const std::string& hint = t.device_hint;
  const size_t at = hint.empty() ? std::string::npos : c.what.rfind(hint);
  const size_t open = at == std::string::npos ? std::string::npos : c.what.rfind('(', at);
  const size_t end = at == std::string::npos ? std::string::npos : c.what.find(')', at);
  if (at == std::string::npos || open == std::string::npos)
    c.what += " (" + card + ", " + why + ")";
  else if (open + 1 == at)
    c.what.replace(open, end == std::string::npos ? std::string::npos : end - open + 1,
                   "(" + card + ", " + why + ")");
  else
    c.what.replace(at, hint.size(), card + ", " + why);
  c.threshold = t.min_items_per_s > 0 ? t.min_items_per_s : t.min_ratio > 0 ? t.min_ratio : t.max_ms;
  t.on_cards.push_back(std::move(c));
}

std::vector<BenchTargetResult> check_targets(const BenchSuite& suite) {
  std::vector<BenchTargetResult> out;
  for (const BenchTarget& t : suite.targets)
    out.push_back(check_target(target_on_device(t, suite.device), suite));
  return out;
}

BenchTiming bench_measure(const std::function<double(int steps)>& timed_run, const BenchPlan& plan) {
  double spent_ms = 0;  // the warm-up's and the sizing's runs
  auto run = [&](int steps) {
    const double ms = timed_run(steps);
    spent_ms += ms;
    return ms;
  };
  // Warm-up (first launch, layout conversion, caches), then size the repeats. A variant that advances
  // several steps a pass is warmed and sized on whole passes (t1 is still a step's time).
  const int unit = std::max(plan.step_multiple, 1);
  double t1 = run(unit) / unit;
  if (!plan.cpu || t1 * unit < 50.0) t1 = run(unit) / unit;
  auto whole_passes = [unit](int steps) { return (steps + unit - 1) / unit * unit; };
  int steps = plan.steps;
  if (steps <= 0) {
    if (plan.cpu) {
      steps = std::clamp(static_cast<int>(std::ceil(plan.cpu_target_ms / std::max(t1, 1e-3))), 1, 50);
    } else {
      steps = std::clamp(static_cast<int>(std::ceil(plan.target_ms / std::max(t1, 1e-4))), 1, plan.max_steps);
      // One step of a microsecond kernel times the launch more than the kernel: back-to-back steps
      // run faster, so size again from a run of the steps just sized.
      if (t1 < plan.calibrate_below_ms && steps < plan.max_steps) {
        steps = whole_passes(steps);
        const double tn = run(steps);
        if (tn > 0) {
          t1 = tn / steps;
          steps =
              std::clamp(static_cast<int>(std::ceil(plan.target_ms / std::max(t1, 1e-4))), 1, plan.max_steps);
        }
      }
    }
    steps = whole_passes(steps);
  }
  int repeats = plan.repeats;
  // Slow rows (the CPU, a naive kernel at a million bodies) get three repeats, not seven.
  if (t1 * steps > 1500.0) repeats = std::min(repeats, 3);
  // A row that looks like taking over 10 s (a CPU variant on a huge input) is said once its first
  // step has been timed: the rest of the row is that step's time over again.
  if (const std::string line =
          long_run_line(plan.what.empty() ? "this bench row" : plan.what,
                        (spent_ms + t1 * double(steps) * repeats) / 1000.0, spent_ms / 1000.0);
      !line.empty())
    std::fprintf(stderr, "%s\n", line.c_str());
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

BenchTiming bench_time_steps(const std::function<void(int steps)>& step, bool gpu, Stream stream,
                             const Options& o, int steps_per_pass, std::string_view what) {
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
  p.step_multiple = steps_per_pass;
  p.what = std::string(what);
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
  if (gpu && suite.peak_bandwidth_gbps > 0 && bytes_per_step > 0)
    row.pct_peak = 100.0 * row.gbps / suite.peak_bandwidth_gbps;
  if (gpu && suite.peak_fp32_gflops > 0 && flops_per_step > 0)
    row.pct_peak_flops = 100.0 * row.gflops / suite.peak_fp32_gflops;
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
        if (contains(suite.baselines[b].variants, c.variant) && bench_same_case(c, r) && c.error.empty() &&
            (!base || c.ms_median < base->ms_median))
          base = &c;
      }
      r.speedups[b] = (base && r.error.empty() && r.ms_median > 0) ? base->ms_median / r.ms_median : 0;
    }
  }
}

std::string SameReason::say(const std::string& reason, const std::string& who) {
  for (const auto& [text, first] : said_)
    if (text == reason) return first == who ? "the same reason as above" : "the same reason as " + first;
  said_.emplace_back(reason, who);
  return reason;
}

std::string format_bench(const BenchSuite& suite) {
  std::ostringstream os;
  os << "gpulab " << suite.command << ": " << suite.demo << " on " << suite.device;
  if (suite.peak_bandwidth_gbps > 0)
    os << " (peak memory bandwidth " << fmt("%.0f", suite.peak_bandwidth_gbps) << " GB/s";
  if (suite.peak_fp32_gflops > 0)
    os << ", peak FP32 " << fmt("%.1f", suite.peak_fp32_gflops / 1e3) << " TFLOP/s";
  if (suite.peak_bandwidth_gbps > 0) os << ")";
  os << "\n";

  bool stages = false, inputs = false, flops = false, bandwidth = false;
  for (const BenchRow& r : suite.rows) {
    stages |= !r.stage.empty() && r.stage != suite.rows.front().stage;
    inputs |= !r.input.empty();
    flops |= r.gflops > 0;
    bandwidth |= r.gbps > 0;
  }
  std::vector<std::string> head;
  if (stages) head.push_back("stage");
  for (const char* h : {"variant", "block", "size"}) head.push_back(h);
  if (inputs) head.push_back("input");
  // The time a step in the HUD's words: "time per generation" over "18.2 µs", or where the rows'
  // steps differ (a transpose per matrix, a product per product) "time" over "18.2 µs per matrix".
  const std::string per = common_per(suite);
  head.push_back(per.empty() ? "time" : "time " + per);
  head.push_back(rate_header(suite));
  if (bandwidth) head.insert(head.end(), {"GB/s", "%peak"});
  if (flops) head.insert(head.end(), {"GFLOP/s", "%fp32"});
  for (const BenchBaseline& b : suite.baselines) head.push_back("x " + b.label);

  std::vector<std::vector<std::string>> cells;
  SameReason said;  // a reason is given in full once, then named (the GPU rungs without a driver)
  for (const BenchRow& r : suite.rows) {
    std::vector<std::string> c;
    if (stages) c.push_back(r.stage);
    c.push_back(r.variant + (r.baseline_only ? "*" : ""));
    c.push_back(r.block);
    c.push_back(r.size);
    if (inputs) c.push_back(r.input);
    if (!r.error.empty()) {
      c.push_back("not measured: " + said.say(r.error, r.variant));
      cells.push_back(c);
      continue;
    }
    c.push_back(per.empty() ? format_time(r.ms_median) + " " + step_per(r) : format_time(r.ms_median));
    c.push_back(sci(r.items_per_s));
    if (bandwidth) {
      c.push_back(r.gbps > 0 ? fmt("%.1f", r.gbps) : "-");
      c.push_back(r.pct_peak > 0 ? fmt("%.1f", r.pct_peak) : "-");
    }
    if (flops) {
      c.push_back(r.gflops > 0 ? fmt("%.0f", r.gflops) : "-");
      c.push_back(r.pct_peak_flops > 0 ? fmt("%.1f", r.pct_peak_flops) : "-");
    }
    for (size_t b = 0; b < suite.baselines.size(); ++b)
      c.push_back(speedup(b < r.speedups.size() ? r.speedups[b] : 0));
    cells.push_back(c);
  }
  // Widths in characters, not bytes: "µs" is two bytes of UTF-8 and one column.
  auto columns = [](const std::string& t) {
    return static_cast<size_t>(
        std::count_if(t.begin(), t.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
  };
  std::vector<size_t> width(head.size());
  for (size_t i = 0; i < head.size(); ++i) width[i] = columns(head[i]);
  for (const auto& c : cells)
    for (size_t i = 0; i < c.size() && i < width.size(); ++i)
      if (i + 1 < c.size() || c.size() == head.size()) width[i] = std::max(width[i], columns(c[i]));
  auto line = [&](const std::vector<std::string>& c) {
    os << "|";
    for (size_t i = 0; i < c.size(); ++i) {
      const bool last_error = c.size() < head.size() && i + 1 == c.size();
      const bool left = i < 3u + stages + inputs || last_error;
      std::string cell = c[i];
      if (!last_error && columns(cell) < width[i]) {
        const std::string pad(width[i] - columns(cell), ' ');
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
  os << (per.empty() ? "time" : "time " + per) << ": median of the timed repeats after a warm-up";
  if (bandwidth) os << "; GB/s counts the fewest bytes a step must move";
  os << ".\n";
  for (const std::string& n : suite.notes) os << "note: " << n << "\n";

  for (const BenchTargetResult& t : check_targets(suite)) {
    os << "target: " << t.what << ": " << t.status << " (" << (t.said.empty() ? t.detail : t.said) << ")";
    if (t.measured && t.other_device) os << " [the target is for an " << t.device_hint << "]";
    os << "\n";
  }
  return os.str();
}

std::string bench_json(const BenchSuite& suite) {
  nlohmann::json j;
  j["demo"] = suite.demo;
  j["device"] = suite.device;
  j["recorded"] = today_utc();  // --results shows it with the figures
  j["peak_bandwidth_gbps"] = suite.peak_bandwidth_gbps;
  j["peak_fp32_gflops"] = suite.peak_fp32_gflops;
  nlohmann::json labels = nlohmann::json::array(), groups = nlohmann::json::array();
  for (const BenchBaseline& b : suite.baselines) {
    labels.push_back(b.label);
    groups.push_back({{"label", b.label}, {"variants", b.variants}});
  }
  j["baselines"] = std::move(labels);
  j["baseline_groups"] = std::move(groups);
  j["notes"] = suite.notes;
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchRow& r : suite.rows) {
    nlohmann::json o = {{"stage", r.stage},
                        {"variant", r.variant},
                        {"block", r.block},
                        {"size", r.size},
                        {"width", r.width},
                        {"height", r.height},
                        {"input", r.input},
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
      o["speedup_vs_" + suite.baselines[b].label] = b < r.speedups.size() ? r.speedups[b] : 0.0;
    rows.push_back(std::move(o));
  }
  j["rows"] = std::move(rows);
  nlohmann::json targets = nlohmann::json::array();
  const std::vector<BenchTargetResult> results = check_targets(suite);
  for (size_t i = 0; i < suite.targets.size(); ++i) {
    const BenchTarget t = target_on_device(suite.targets[i], suite.device);
    const BenchTargetResult& r = results[i];
    targets.push_back({{"what", t.what},
                       {"kind", kind_name(r.kind)},
                       {"variants", t.variants},
                       {"versus", t.versus},
                       {"width", t.width},
                       {"height", t.height},
                       {"input", t.input},
                       {"min_items_per_s", t.min_items_per_s},
                       {"min_ratio", t.min_ratio},
                       {"max_ms", t.max_ms},
                       {"device_hint", t.device_hint},
                       {"status", r.status},
                       {"measured", r.measured},
                       {"pass", r.pass},
                       {"detail", r.detail},
                       {"value", r.value},
                       {"cases", r.cases},
                       {"case",
                        {{"stage", r.stage},
                         {"size", r.size},
                         {"input", r.input},
                         {"variant", r.variant},
                         {"block", r.block},
                         {"versus_variant", r.versus_variant}}},
                       {"other_device", r.other_device}});
  }
  j["targets"] = std::move(targets);
  return j.dump(2) + "\n";
}

}  // namespace gpulab

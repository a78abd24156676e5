// Benchmark output: the table, speedups over baselines measured in the same run, target checks, JSON.
#include "core/bench.h"

#include "core/demo.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

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

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      o += ' ';
      continue;
    }
    o += c;
  }
  return o;
}

}  // namespace

void compute_speedups(BenchSuite& suite) {
  for (BenchRow& r : suite.rows) {
    for (size_t b = 0; b < suite.baselines.size() && b < 2; ++b) {
      const BenchRow* base = nullptr;
      for (const BenchRow& c : suite.rows) {
        if (c.variant == suite.baselines[b] && c.width == r.width && c.height == r.height &&
            c.error.empty() && (!base || c.ms_median < base->ms_median))
          base = &c;
      }
      const double s = (base && r.error.empty() && r.ms_median > 0) ? base->ms_median / r.ms_median : 0;
      (b == 0 ? r.speedup_vs_first_baseline : r.speedup_vs_second_baseline) = s;
    }
  }
}

std::string format_bench(const BenchSuite& suite) {
  std::ostringstream os;
  os << "gpulab bench: " << suite.demo << " on " << suite.device;
  if (suite.peak_bandwidth_gbps > 0) os << " (peak memory bandwidth " << fmt("%.0f", suite.peak_bandwidth_gbps) << " GB/s)";
  os << "\n";
  const std::string b1 = suite.baselines.size() > 0 ? "x " + suite.baselines[0] : "";
  const std::string b2 = suite.baselines.size() > 1 ? "x " + suite.baselines[1] : "";
  char line[512];
  std::snprintf(line, sizeof line, "| %-17s | %-7s | %-11s | %10s | %11s | %8s | %6s | %13s | %13s |\n",
                "variant", "block", "grid", "ms/step", "cells/s", "GB/s", "%peak", b1.c_str(), b2.c_str());
  os << line;
  os << "|" << std::string(19, '-') << "|" << std::string(9, '-') << "|" << std::string(13, '-') << "|"
     << std::string(12, '-') << "|" << std::string(13, '-') << "|" << std::string(10, '-') << "|"
     << std::string(8, '-') << "|" << std::string(15, '-') << "|" << std::string(15, '-') << "|\n";
  for (const BenchRow& r : suite.rows) {
    const std::string grid = std::to_string(r.width) + "x" + std::to_string(r.height);
    const std::string name = r.variant + (r.baseline_only ? "*" : "");
    if (!r.error.empty()) {
      std::snprintf(line, sizeof line, "| %-17s | %-7s | %-11s | %s\n", name.c_str(), r.block.c_str(),
                    grid.c_str(), ("not measured: " + r.error).c_str());
      os << line;
      continue;
    }
    std::snprintf(line, sizeof line, "| %-17s | %-7s | %-11s | %10.4f | %11s | %8.1f | %6s | %13s | %13s |\n",
                  name.c_str(), r.block.c_str(), grid.c_str(), r.ms_median, sci(r.items_per_s).c_str(),
                  r.gbps, r.pct_peak > 0 ? fmt("%.1f", r.pct_peak).c_str() : "-",
                  speedup(r.speedup_vs_first_baseline).c_str(), speedup(r.speedup_vs_second_baseline).c_str());
    os << line;
  }
  bool any_baseline = false;
  for (const BenchRow& r : suite.rows) any_baseline |= r.baseline_only;
  if (any_baseline) os << "(* measured as a baseline for the speedup columns)\n";
  os << "ms/step: median of the timed repeats after a warm-up; GB/s counts the fewest bytes a step must move.\n";

  for (const BenchTarget& t : suite.targets) {
    const BenchRow* best = nullptr;
    for (const BenchRow& r : suite.rows) {
      if (r.width != t.size || r.height != t.size || !r.error.empty()) continue;
      if (std::find(t.variants.begin(), t.variants.end(), r.variant) == t.variants.end()) continue;
      if (!best || r.items_per_s > best->items_per_s) best = &r;
    }
    os << "target: " << t.what << ": ";
    if (!best) {
      os << "not run (needs --size " << t.size << ")\n";
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
  std::ostringstream os;
  os << "{\n  \"demo\": \"" << json_escape(suite.demo) << "\",\n  \"device\": \"" << json_escape(suite.device)
     << "\",\n  \"peak_bandwidth_gbps\": " << suite.peak_bandwidth_gbps << ",\n  \"rows\": [\n";
  for (size_t i = 0; i < suite.rows.size(); ++i) {
    const BenchRow& r = suite.rows[i];
    os << "    {\"variant\": \"" << json_escape(r.variant) << "\", \"block\": \"" << json_escape(r.block)
       << "\", \"width\": " << r.width << ", \"height\": " << r.height << ", \"steps\": " << r.steps
       << ", \"repeats\": " << r.repeats << ", \"ms_per_step_median\": " << r.ms_median
       << ", \"ms_per_step_min\": " << r.ms_min << ", \"ms_per_step_max\": " << r.ms_max
       << ", \"items_per_s\": " << r.items_per_s << ", \"item_unit\": \"" << json_escape(r.item_unit)
       << "\", \"gbps\": " << r.gbps << ", \"pct_peak\": " << r.pct_peak
       << ", \"speedup_vs_" << (suite.baselines.size() > 0 ? suite.baselines[0] : "a") << "\": "
       << r.speedup_vs_first_baseline << ", \"speedup_vs_"
       << (suite.baselines.size() > 1 ? suite.baselines[1] : "b") << "\": " << r.speedup_vs_second_baseline
       << ", \"baseline_only\": " << (r.baseline_only ? "true" : "false") << ", \"error\": \""
       << json_escape(r.error) << "\"}" << (i + 1 < suite.rows.size() ? "," : "") << "\n";
  }
  os << "  ]\n}\n";
  return os.str();
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

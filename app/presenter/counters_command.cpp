#include "presenter/counters_command.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/text.h"
#include "core/files.h"
#include "presenter/ladder_png.h"

namespace gpulab::presenter {

using cuda::KernelCounters;
using cuda::Metric;

std::string counters_unavailable(const cuda::Counters& counters, const Context& ctx) {
  if (std::string why = cuda::counters_build_reason(); !why.empty()) return why;
  if (!ctx.cuda)
    return "no CUDA device, and the counters count a GPU's work (" +
           (ctx.cuda_reason.empty() ? std::string("none found") : ctx.cuda_reason) + ")";
  return counters.unavailable();
}

CounterRow measure_counters(cuda::Counters& counters, Demo& demo, const Context& ctx, const Pick& pick) {
  CounterRow row;
  row.pick = pick;
  const StageTables& tables = demo.stage_tables();
  if (pick.stage < tables.stages.size()) {
    const VariantChoice& v = variant_of(tables, pick);
    row.stage_id = std::string(tables.stages[pick.stage].id);
    row.variant = std::string(v.id);
    row.gpu = v.needs_cuda;
    row.block_label = block_label(v, pick.block > 0 ? pick.block : v.default_block);
  }
  if (!row.gpu) {
    row.unavailable = "a CPU variant: the GPU's counters count GPU kernels only";
    return row;
  }
  if (std::string why = counters_unavailable(counters, ctx); !why.empty()) {
    row.unavailable = why;
    return row;
  }
  try {
    Picks picks = demo.setup().picks;
    picks.at(pick.stage) = pick;
    Probe p = demo.probe(picks, pick.stage);
    if (!p.unavailable.empty() || !p.run) {
      row.unavailable = p.unavailable.empty() ? "the variant cannot be run step by step" : p.unavailable;
      return row;
    }
    // One whole pass through memory is measured (a Life rung's k generations: what the demo runs), and
    // the ideal is that many steps', so the figures per item are a step's: DRAM bytes per cell update
    // fall as 1/k.
    const int steps = std::max(p.steps_per_pass, 1);
    row.ideal.items_per_step = p.items_per_step * steps;
    row.ideal.item_unit = p.item_unit;
    row.ideal.bytes_per_step = p.bytes_per_step * steps;
    row.ideal.flops_per_step = p.flops_per_step * steps;
    row.ideal.peak_bandwidth_gbps = ctx.peak_bandwidth_gbps;
    row.ideal.peak_fp32_gflops = ctx.peak_fp32_gflops;
    p.run(steps);  // warm: first launches, lazily made buffers and caches are not the step's
    row.result = counters.measure([&] { p.run(steps); });
    if (!row.result.ok()) row.unavailable = row.result.unavailable;
  } catch (const std::exception& e) {
    row.unavailable = std::string("the step failed: ") + e.what();
  }
  return row;
}

namespace {

std::string num(double v, const char* fmt = "%.4g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string csv_field(const std::string& f) {
  if (f.find_first_of(",\"\n\r") == std::string::npos) return f;
  std::string q = "\"";
  for (char c : f) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string table_line(std::string name, const KernelCounters& k, const StepIdeal& ideal) {
  if (name.size() > 28) name = name.substr(0, 27) + "~";
  const CounterFigures f = counter_figures(k, ideal);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-28s %10s %8s %8s %8s %8s %10s %10s %6s %6s %5s\n", name.c_str(),
                format_time_ms(f.ms).c_str(), format_sig3(f.read_per_item).c_str(),
                format_sig3(f.write_per_item).c_str(),
                ideal.bytes_per_step > 0 ? format_sig3(f.ideal_per_item).c_str() : "-",
                format_sig3(f.l2_per_item).c_str(), format_sig3(k[Metric::BankConflicts]).c_str(),
                format_sig3(k[Metric::SharedLoads]).c_str(), num(k[Metric::WarpsActivePct], "%.0f%%").c_str(),
                num(k[Metric::DramThroughputPct], "%.0f%%").c_str(), num(k[Metric::Ipc], "%.2f").c_str());
  return buf;
}

}  // namespace

std::string counters_table(const std::vector<CounterRow>& rows) {
  std::string unit;
  for (const CounterRow& r : rows)
    if (r.measured() && !r.ideal.item_unit.empty()) unit = singular_unit(r.ideal.item_unit);
  std::string out;
  char head[512];
  std::snprintf(head, sizeof head, "%-28s %10s %8s %8s %8s %8s %10s %10s %6s %6s %5s\n", "variant / kernel",
                "kernel", "read", "written", "ideal", "L2", "bank", "shared", "occ.", "DRAM", "IPC");
  out += head;
  std::snprintf(head, sizeof head, "%-28s %10s %8s %8s %8s %8s %10s %10s %6s %6s %5s\n", "", "time",
                ("B/" + (unit.empty() ? std::string("item") : unit.substr(0, 6))).c_str(), "B/item", "B/item",
                "B/item", "conflicts", "loads", "", "%peak", "");
  out += head;
  for (const CounterRow& r : rows) {
    const std::string name =
        r.variant + (r.block_label.empty() || r.block_label == "-" ? "" : " " + r.block_label);
    if (!r.measured()) {
      out += "  " + name + ": " + r.unavailable + "\n";
      continue;
    }
    out += table_line(name, r.result.total, r.ideal);
    if (r.result.kernels.size() > 1)
      for (const KernelCounters& k : r.result.kernels) out += table_line("  " + k.kernel, k, r.ideal);
  }
  for (const CounterRow& r : rows) {
    if (!r.measured()) continue;
    out += "\n" + r.variant + " (" + r.result.total.kernel + "):\n";
    for (const Reading& x : counter_readings(r.result.total, r.ideal)) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "  %-22s %-40s ", x.name.c_str(), x.value.c_str());
      out += buf + x.meaning + "\n";
    }
  }
  return out;
}

std::string counters_csv(const std::vector<CounterRow>& rows) {
  std::string out =
      "stage,variant,block,kernel,launches,kernel_ms,dram_read_bytes,dram_write_bytes,l2_bytes,"
      "bank_conflicts,shared_loads,warps_active_pct,dram_throughput_pct,ipc,shared_wavefronts,items_per_step,"
      "item_unit,"
      "ideal_bytes_per_step,read_bytes_per_item,write_bytes_per_item,reason\n";
  auto line = [&](const CounterRow& r, const KernelCounters* k) {
    const CounterFigures f = k ? counter_figures(*k, r.ideal) : CounterFigures{};
    std::vector<std::string> fields = {r.stage_id, r.variant, r.block_label, k ? k->kernel : ""};
    if (k) {
      for (std::string v :
           {num(k->launches, "%.0f"), num(f.ms, "%.6g"), num((*k)[Metric::DramRead], "%.0f"),
            num((*k)[Metric::DramWrite], "%.0f"), num((*k)[Metric::L2Bytes], "%.0f"),
            num((*k)[Metric::BankConflicts], "%.0f"), num((*k)[Metric::SharedLoads], "%.0f"),
            num((*k)[Metric::WarpsActivePct], "%.4g"), num((*k)[Metric::DramThroughputPct], "%.4g"),
            num((*k)[Metric::Ipc], "%.4g"), num((*k)[Metric::SharedWavefronts], "%.0f"),
            num(r.ideal.items_per_step, "%.0f"), r.ideal.item_unit, num(r.ideal.bytes_per_step, "%.0f"),
            num(f.read_per_item), num(f.write_per_item)})
        fields.push_back(v);
    } else {
      fields.resize(fields.size() + 16);
    }
    fields.push_back(r.unavailable);
    for (size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    out += "\n";
  };
  for (const CounterRow& r : rows) {
    if (!r.measured()) {
      line(r, nullptr);
      continue;
    }
    for (const KernelCounters& k : r.result.kernels) line(r, &k);
    if (r.result.kernels.size() > 1) line(r, &r.result.total);
  }
  return out;
}

namespace {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double phase_ms(const cuda::CounterResult& r, const std::string& name) {
  double s = 0;
  for (const cuda::Phase& p : r.phases)
    if (p.name == name) s += p.ms;
  return s;
}

}  // namespace

std::string counters_phase_table(const std::vector<CounterRow>& rows) {
  std::string out;
  for (const CounterRow& r : rows) {
    if (r.timings.empty()) continue;
    // The phases in the order they first occur over the measurements.
    std::vector<std::string> names;
    for (const cuda::CounterResult& t : r.timings)
      for (const cuda::Phase& p : t.phases)
        if (std::find(names.begin(), names.end(), p.name) == names.end()) names.push_back(p.name);
    const cuda::CounterResult& first = r.timings.front();
    std::vector<double> rest_host, rest_call;
    for (size_t i = 1; i < r.timings.size(); ++i) rest_host.push_back(r.timings[i].host_ms);
    for (size_t i = 1; i < r.call_ms.size(); ++i) rest_call.push_back(r.call_ms[i]);
    out += r.variant + " (" + first.strategy + ", " + (first.user_replay ? "user" : "kernel") + " replay, " +
           std::to_string(r.timings.size()) + " measurement" + (r.timings.size() == 1 ? "" : "s") +
           "): first " + num(first.host_ms, "%.1f") + " ms" + (first.first ? " (prepared CUPTI)" : "") +
           (r.call_ms.empty() ? "" : ", " + num(r.call_ms.front(), "%.1f") + " ms with the probe");
    if (!rest_host.empty())
      out += "; median of the others " + num(median_of(rest_host), "%.1f") + " ms" +
             (rest_call.empty() ? "" : ", " + num(median_of(rest_call), "%.1f") + " ms with the probe");
    out += "\n";
    char buf[160];
    std::snprintf(buf, sizeof buf, "  %-14s %10s %10s\n", "phase (ms)", "first", "others");
    out += buf;
    for (const std::string& n : names) {
      std::vector<double> rest;
      for (size_t i = 1; i < r.timings.size(); ++i) rest.push_back(phase_ms(r.timings[i], n));
      std::snprintf(buf, sizeof buf, "  %-14s %10.2f %10s\n", n.c_str(), phase_ms(first, n),
                    rest.empty() ? "-" : num(median_of(rest), "%.2f").c_str());
      out += buf;
    }
  }
  return out;
}

std::string counters_json(const std::vector<CounterRow>& rows, std::string_view demo,
                          const std::string& device, bool phase_times) {
  nlohmann::json j;
  j["demo"] = std::string(demo);
  j["device"] = device;
  j["metrics"] = std::vector<std::string>(cuda::kMetricNames.begin(), cuda::kMetricNames.end());
  auto kernel = [](const KernelCounters& k) {
    nlohmann::json o;
    o["kernel"] = k.kernel;
    o["launches"] = k.launches;
    for (size_t i = 0; i < cuda::kMetricCount; ++i) o[cuda::kMetricNames[i]] = k.values[i];
    return o;
  };
  nlohmann::json list = nlohmann::json::array();
  for (const CounterRow& r : rows) {
    nlohmann::json o;
    o["stage"] = r.stage_id;
    o["variant"] = r.variant;
    o["block"] = r.block_label;
    if (phase_times && !r.timings.empty()) {
      nlohmann::json ms = nlohmann::json::array();
      for (size_t i = 0; i < r.timings.size(); ++i) {
        const cuda::CounterResult& t = r.timings[i];
        nlohmann::json m;
        m["host_ms"] = t.host_ms;
        if (i < r.call_ms.size()) m["call_ms"] = r.call_ms[i];
        m["prepared"] = t.first;
        m["strategy"] = t.strategy;
        m["passes"] = t.passes;
        m["replay"] = t.user_replay ? "user" : "kernel";
        if (!t.ok()) m["unavailable"] = t.unavailable;
        nlohmann::json phases = nlohmann::json::array();
        for (const cuda::Phase& p : t.phases) phases.push_back({{"name", p.name}, {"ms", p.ms}});
        m["phases"] = phases;
        ms.push_back(m);
      }
      o["measurements"] = ms;
    }
    if (!r.measured()) {
      o["unavailable"] = r.unavailable;
      list.push_back(o);
      continue;
    }
    o["items_per_step"] = r.ideal.items_per_step;
    o["item_unit"] = r.ideal.item_unit;
    o["ideal_bytes_per_step"] = r.ideal.bytes_per_step;
    o["flops_per_step"] = r.ideal.flops_per_step;
    o["total"] = kernel(r.result.total);
    nlohmann::json ks = nlohmann::json::array();
    for (const KernelCounters& k : r.result.kernels) ks.push_back(kernel(k));
    o["kernels"] = ks;
    nlohmann::json readings = nlohmann::json::array();
    for (const Reading& x : counter_readings(r.result.total, r.ideal))
      readings.push_back({{"name", x.name}, {"value", x.value}, {"meaning", x.meaning}});
    o["readings"] = readings;
    list.push_back(o);
  }
  j["variants"] = list;
  return j.dump(2) + "\n";
}

RooflineData counters_roofline(const std::vector<CounterRow>& rows, std::string_view demo_title,
                               const std::string& device, double peak_gflops, double peak_gbps) {
  RooflineData d;
  d.title = std::string(demo_title) + ": roofline";
  d.device = device;
  d.peak_gflops = peak_gflops;
  d.peak_gbps = peak_gbps;
  std::time_t now = std::time(nullptr);
  char date[16] = "";
  if (const std::tm* t = std::localtime(&now)) std::strftime(date, sizeof date, "%Y-%m-%d", t);
  d.date = date;
  for (const CounterRow& r : rows) {
    if (!r.measured()) continue;
    const CounterFigures f = counter_figures(r.result.total, r.ideal);
    if (f.intensity > 0 && f.achieved_gflops > 0) {
      d.points.push_back({r.variant, f.intensity, f.achieved_gflops});
    } else {
      std::string why =
          r.ideal.flops_per_step > 0 ? "no DRAM traffic measured" : "the demo counts no floating-point work";
      d.unplaced.push_back(
          r.variant + ": not on the FP32 roofline (" + why + "); DRAM " + format_sig3(f.achieved_gbps) +
          " GB/s = " + format_sig3(r.result.total[Metric::DramThroughputPct]) + "% of its roof");
    }
  }
  return d;
}

int run_counters_command(Demo& demo, const Context& ctx, const Options& o) {
  const std::vector<Stage> stages = demo.stages();
  const std::vector<size_t> order = stage_order(demo);  // the running stage first
  std::vector<std::string> known;
  for (size_t s : order)
    for (const VariantChoice& v : stages[s].variants) known.push_back(std::string(v.id));
  for (const std::string& id : o.counters_variants)
    if (std::find(known.begin(), known.end(), id) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      std::fprintf(stderr, "gpulab: counters: no variant %s in the %s demo (variants: %s)\n",
                   text::quote(id).c_str(), std::string(demo.name()).c_str(), list.c_str());
      return 1;
    }
  cuda::Counters counters;
  if (std::string why = counters_unavailable(counters, ctx); !why.empty()) {
    std::printf("counters unavailable: %s\n", why.c_str());
    return 0;
  }
  std::vector<CounterRow> rows;
  for (size_t s : order) {
    for (size_t i = 0; i < stages[s].variants.size(); ++i) {
      const VariantChoice& v = stages[s].variants[i];
      const bool asked = o.counters_variants.empty() ||
                         std::find(o.counters_variants.begin(), o.counters_variants.end(), v.id) !=
                             o.counters_variants.end();
      if (!asked) continue;
      if (!stages[s].active && o.counters_variants.empty()) continue;
      CounterRow row;
      std::vector<cuda::CounterResult> timings;
      std::vector<double> call_ms;
      for (int rep = 0; rep < std::max(o.counters_repeats, 1); ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        row = measure_counters(counters, demo, ctx, Pick{s, static_cast<int>(i), 0});
        call_ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        cuda::CounterResult t = row.result;
        t.kernels.clear();
        timings.push_back(std::move(t));
        if (!row.measured()) break;
      }
      row.timings = std::move(timings);
      row.call_ms = std::move(call_ms);
      rows.push_back(std::move(row));
      const CounterRow& r = rows.back();
      std::fprintf(
          stderr, "counters: %-22s %s\n", r.variant.c_str(),
          r.measured()
              ? (format_time_ms(r.result.total.ms()) + ", " + std::to_string(r.result.kernels.size()) +
                 " kernel(s), " + num(r.result.host_ms, "%.0f") + " ms to measure (prepare " +
                 num(r.result.prepare_ms, "%.0f") + ", enable " + num(r.result.enable_ms, "%.0f") +
                 ", step " + num(r.result.step_ms, "%.0f") + ", decode " + num(r.result.decode_ms, "%.0f") +
                 ")")
                    .c_str()
              : r.unavailable.c_str());
      // Permissions, a build without CUPTI, another profiler: the same for every variant.
      if (r.gpu && !r.measured() && !counters.unavailable().empty()) {
        std::printf("counters unavailable: %s\n", counters.unavailable().c_str());
        return 0;
      }
    }
  }
  std::string device;
  for (const CounterRow& r : rows)
    if (r.measured() && device.empty()) device = r.result.device;
  int passes = 0;
  for (const CounterRow& r : rows)
    if (r.measured()) passes = r.result.passes;
  bool kernel_replay = false;
  for (const CounterRow& r : rows)
    if (r.measured() && !r.result.user_replay) kernel_replay = true;
  const std::string strategy = cuda::counters_strategy_name(counters.strategy());
  std::printf("%s counters, %s (CUPTI range profiler, one range a kernel, %d pass%s%s)\n",
              std::string(demo.title()).c_str(), device.empty() ? "no device" : device.c_str(), passes,
              passes == 1 ? "" : "es",
              (std::string(kernel_replay ? ", kernel replay" : ", user replay") +
               (strategy == "default" ? "" : ", GPULAB_COUNTERS " + strategy))
                  .c_str());
  std::fputs(counters_table(rows).c_str(), stdout);
  if (o.counters_phase_times) {
    std::printf(
        "\nWhere each measurement's host time went (ms; the probe is the demo's copy and warm-up step):\n");
    std::fputs(counters_phase_table(rows).c_str(), stdout);
  }
  int status = 0;
  auto write = [&](const std::string& path, const std::string& text, const char* what) {
    if (!write_command_output("counters", path, text, what)) status = 1;
  };
  write(o.counters_csv, counters_csv(rows), "--csv");
  write(o.counters_json, counters_json(rows, demo.name(), device, o.counters_phase_times), "--json");
  return status;
}

}  // namespace gpulab::presenter

// ---- gpulab ladder --counters ------------------------------------------------------------------

namespace gpulab::presenter {

namespace {

// The records of a CSV text, each record's text without its line end (quoted line ends kept).
std::vector<std::string> csv_records(const std::string& csv) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : csv) {
    if (c == '"') quoted = !quoted;
    if (c == '\n' && !quoted) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::filesystem::path beside(const std::string& path, const std::string& suffix) {
  std::filesystem::path p(path);
  return p.parent_path() / (p.stem().string() + suffix);
}

}  // namespace

std::string ladder_counters_csv(const std::string& ladder_csv_text, const std::vector<CounterRow>& rows) {
  const std::vector<std::string> records = csv_records(ladder_csv_text);
  std::string out;
  for (size_t i = 0; i < records.size(); ++i) {
    out += records[i];
    if (i == 0) {
      out +=
          ",kernel_ms,dram_read_bytes_per_item,dram_write_bytes_per_item,ideal_bytes_per_item,l2_bytes_per_"
          "item,"
          "bank_conflicts,shared_loads,warps_active_pct,dram_throughput_pct,ipc,counters_reason\n";
      continue;
    }
    const CounterRow* r = i - 1 < rows.size() ? &rows[i - 1] : nullptr;
    if (r && r->measured()) {
      const KernelCounters& k = r->result.total;
      const CounterFigures f = counter_figures(k, r->ideal);
      for (const std::string& v :
           {num(f.ms, "%.6g"), num(f.read_per_item), num(f.write_per_item), num(f.ideal_per_item),
            num(f.l2_per_item), num(k[Metric::BankConflicts], "%.0f"), num(k[Metric::SharedLoads], "%.0f"),
            num(k[Metric::WarpsActivePct], "%.4g"), num(k[Metric::DramThroughputPct], "%.4g"),
            num(k[Metric::Ipc], "%.4g")})
        out += "," + v;
      out += ",\n";
    } else {
      out += ",,,,,,,,,,," + csv_field(r ? r->unavailable : "") + "\n";  // ten empty columns, the reason
    }
  }
  return out;
}

std::string counters_chart_line(const CounterRow& row) {
  if (!row.measured())
    return "counters: " + (row.unavailable.empty() ? std::string("not measured") : row.unavailable);
  const KernelCounters& k = row.result.total;
  const CounterFigures f = counter_figures(k, row.ideal);
  const std::string unit = singular_unit(row.ideal.item_unit);
  std::string dram =
      "DRAM " + (row.ideal.items_per_step > 0 && !unit.empty() ? format_sig3(f.dram_per_item) + " B/" + unit
                                                               : format_bytes(k.dram_bytes()) + " a step");
  const double conflicts = k[Metric::BankConflicts];
  const std::string count =
      conflicts < 1e5 ? num(conflicts, "%.0f") : format_sig3(conflicts);  // a count: no "1.00"
  return dram + " \xC2\xB7 " + count + (conflicts == 1 ? " bank conflict" : " bank conflicts") +
         " \xC2\xB7 " + num(k[Metric::WarpsActivePct], "%.0f%%") + " occupancy";
}

std::function<void(const Rung&, ChartRung&)> ladder_chart_counters(const std::vector<CounterRow>& rows,
                                                                   size_t stage_count) {
  return [rows, stage_count](const Rung& r, ChartRung& c) {
    c.counters_slot = r.gpu && !r.yardstick && r.state == RungState::Measured && r.pick.stage < stage_count;
    for (const CounterRow& row : rows)
      if (row.gpu && !r.yardstick && same_variant(row.pick, r.pick)) c.counters = counters_chart_line(row);
  };
}

int ladder_counters_outputs(Demo& demo, const Context& ctx, const Options& o, const std::vector<Rung>& rungs,
                            const std::string& device) {
  cuda::Counters counters;
  if (std::string why = counters_unavailable(counters, ctx); !why.empty()) {
    std::printf("counters unavailable: %s\n", why.c_str());
    return 0;
  }
  const size_t stage_count = demo.stages().size();
  std::vector<CounterRow> rows;
  for (const Rung& r : rungs) {
    if (r.pick.stage >= stage_count) {  // the whole pipeline's panel: several variants chained, not one
      CounterRow row;
      row.pick = r.pick;
      row.stage_id = r.stage_id;
      row.variant = r.variant;
      row.unavailable = "the whole pipeline is measured stage by stage";
      rows.push_back(std::move(row));
      continue;
    }
    if (r.state != RungState::Measured || r.yardstick) {
      CounterRow row;
      row.pick = r.pick;
      row.stage_id = r.stage_id;
      row.variant = r.variant;
      row.unavailable = r.yardstick        ? "a yardstick, not a variant"
                        : r.reason.empty() ? "not measured"
                                           : r.reason;
      rows.push_back(std::move(row));
      continue;
    }
    rows.push_back(measure_counters(counters, demo, ctx, r.pick));
    if (rows.back().gpu && !rows.back().measured() && !counters.unavailable().empty()) {
      std::printf("counters unavailable: %s\n", counters.unavailable().c_str());
      return 0;
    }
  }
  std::printf("\nCounters, one step of each rung (CUPTI range profiler):\n");
  std::fputs(counters_table(rows).c_str(), stdout);
  int status = 0;
  auto report = [&](const std::string& why, const std::string& path, const char* what) {
    if (!why.empty()) {
      std::fprintf(stderr, "gpulab: ladder --counters %s: %s\n", what, why.c_str());
      status = 1;
    } else {
      std::fprintf(stderr, "ladder: wrote %s\n", text::escape(path, 4096).c_str());
    }
  };
  if (!o.ladder_csv.empty())
    report(files::write_regular_file(o.ladder_csv, ladder_counters_csv(ladder_csv(rungs), rows)),
           o.ladder_csv, "--csv");
  if (!o.ladder_json.empty()) {
    const std::string path = beside(o.ladder_json, "-counters.json").string();
    report(files::write_regular_file(path, counters_json(rows, demo.name(), device)), path, "--json");
  }
  if (!o.ladder_png.empty()) {
    // The ladder's PNG again, with each rung's counters line under its bar.
    const ChartData chart =
        ladder_chart(rungs, demo.title(), device, ladder_chart_counters(rows, stage_count));
    if (o.png_style.empty())
      report(save_chart_png(chart, o.ladder_png_width, o.ladder_png_height, o.ladder_png), o.ladder_png,
             "--png");
    else if (!write_ladder_pngs(chart,
                                ladder_png_request(o)))  // slides carry no counters line: the same again
      status = 1;
    const std::string path = beside(o.ladder_png, "-roofline.png").string();
    const RooflineData d =
        counters_roofline(rows, demo.title(), device, ctx.peak_fp32_gflops, ctx.peak_bandwidth_gbps);
    const int w = o.ladder_png_width, h = o.ladder_png_height;
    report(
        save_layout_png([&](const TextMeasure& m) { return layout_roofline(d, float(w), float(h), m).chart; },
                        roofline_glyph_text(d), w, h, path),
        path, "--png");
  }
  return status;
}

}  // namespace gpulab::presenter

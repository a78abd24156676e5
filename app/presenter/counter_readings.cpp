#include "presenter/counter_readings.h"

#include <cmath>
#include <cstdio>

#include "presenter/ladder_chart.h"

namespace gpulab::presenter {

using cuda::KernelCounters;
using cuda::Metric;

namespace {

double ratio(double a, double b) { return b > 0 && std::isfinite(a) ? a / b : 0; }

std::string pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 10 || v == 0 ? "%.0f%%" : "%.1f%%", v);
  return buf;
}

}  // namespace

std::string format_sig3(double v) {
  if (!std::isfinite(v)) return "-";
  const double a = std::fabs(v);
  char buf[48];
  if (a == 0) return "0";
  if (a >= 1e6 || a < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3g", v);
  else if (a >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else if (a >= 1)
    std::snprintf(buf, sizeof buf, "%.2f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes) || bytes < 0) return "-";
  static constexpr struct {
    double scale;
    const char* unit;
  } kUnits[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "kB"}};
  for (const auto& u : kUnits)
    if (bytes >= u.scale * 0.9995) {
      char buf[32];
      const double v = bytes / u.scale;
      std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, u.unit);
      return buf;
    }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  return buf;
}

std::string singular_unit(const std::string& plural) {
  if (plural.size() > 1 && plural.back() == 's' && plural[plural.size() - 2] != 's')
    return plural.substr(0, plural.size() - 1);
  return plural;
}

CounterFigures counter_figures(const KernelCounters& k, const StepIdeal& ideal) {
  CounterFigures f;
  f.ms = k.ms();
  const double items = ideal.items_per_step;
  f.read_per_item = ratio(k[Metric::DramRead], items);
  f.write_per_item = ratio(k[Metric::DramWrite], items);
  f.dram_per_item = ratio(k.dram_bytes(), items);
  f.l2_per_item = ratio(k[Metric::L2Bytes], items);
  f.ideal_per_item = ratio(ideal.bytes_per_step, items);
  f.dram_vs_ideal = ratio(k.dram_bytes(), ideal.bytes_per_step);
  f.l2_vs_dram = ratio(k[Metric::L2Bytes], k.dram_bytes());
  f.conflicts_per_shared_load = ratio(k[Metric::BankConflicts], k[Metric::SharedLoads]);
  const double seconds = f.ms * 1e-3;
  f.achieved_gbps = ratio(k.dram_bytes(), seconds) * 1e-9;
  f.achieved_gflops = ratio(ideal.flops_per_step, seconds) * 1e-9;
  f.intensity = ratio(ideal.flops_per_step, k.dram_bytes());
  return f;
}

std::vector<Reading> counter_readings(const KernelCounters& k, const StepIdeal& ideal) {
  const CounterFigures f = counter_figures(k, ideal);
  const std::string unit = singular_unit(ideal.item_unit);
  const bool per_item = ideal.items_per_step > 0 && !unit.empty();
  auto per = [&](double v) { return per_item ? " · " + format_sig3(v) + " B per " + unit : std::string(); };
  std::vector<Reading> out;

  out.push_back({"kernel time", format_time_ms(f.ms),
                 std::string("timed by the GPU itself (no launch or event overhead)") +
                     (k.launches > 1 ? ", " + std::to_string(k.launches) + " kernels summed" : "")});

  // DRAM against the ideal: the one figure that says whether the memory traffic is the minimum.
  std::string dram_meaning;
  if (ideal.bytes_per_step > 0) {
    const double r = f.dram_vs_ideal;
    const std::string times = format_sig3(r) + "× the fewest bytes a step needs (" +
                              format_sig3(f.ideal_per_item) + (per_item ? " B per " + unit : " B") + ")";
    if (r < 0.5)
      dram_meaning = times + ": the input stayed in the L2 cache between steps";
    else if (r <= 1.3)
      dram_meaning = times + ": each byte crosses DRAM about once, the minimum";
    else if (r <= 2.5)
      dram_meaning = times + ": some data is fetched twice (halos, neighbours, or partial sectors)";
    else
      dram_meaning = times + ": data is fetched many times over (uncoalesced or repeated reads)";
  } else {
    dram_meaning = "the demo gives no ideal byte count to compare with";
  }
  out.push_back({"DRAM read", format_bytes(k[Metric::DramRead]) + per(f.read_per_item), dram_meaning});
  out.push_back(
      {"DRAM written", format_bytes(k[Metric::DramWrite]) + per(f.write_per_item),
       k[Metric::DramWrite] < 0.05 * k[Metric::DramRead]
           ? "almost nothing reached DRAM yet: the results still sit in the L2 cache (written back later)"
           : "written back to DRAM while it ran: its results, or earlier data leaving the L2 cache"});

  const double l2 = f.l2_vs_dram;
  out.push_back(
      {"L2 traffic", format_bytes(k[Metric::L2Bytes]) + per(f.l2_per_item),
       k.dram_bytes() <= 0 ? "every request was served by the L2 cache: nothing came from DRAM"
       : l2 >= 2 ? format_sig3(l2) + "× the DRAM bytes: most requests hit in L2 (data reused across blocks)"
       : l2 >= 1.2 ? format_sig3(l2) + "× the DRAM bytes: some reuse in L2"
                   : format_sig3(l2) + "× the DRAM bytes: little reuse, nearly every L2 byte went to DRAM"});

  const double loads = k[Metric::SharedLoads];
  out.push_back({"shared loads", format_sig3(loads) + " warp loads",
                 loads <= 0
                     ? "no shared-memory loads: this variant reads global memory only"
                     : "warp instructions reading shared memory: data staged once on chip, read many times"});

  const double conflicts = k[Metric::BankConflicts];
  const double cps = f.conflicts_per_shared_load;
  std::string conflict_meaning;
  if (conflicts <= 0)
    conflict_meaning = loads > 0
                           ? "none: each warp's shared accesses fall in 32 different banks (or share a word)"
                           : "none (no shared memory used)";
  else if (loads > 0 && cps < 0.01)
    conflict_meaning =
        "almost none (" + format_sig3(cps) + " a shared load): the warps' accesses fall in different banks";
  else if (loads > 0)
    conflict_meaning =
        format_sig3(cps) +
        " extra passes per shared load: threads of a warp hit the same bank and wait their turn";
  else
    conflict_meaning = "threads of a warp hit the same bank (on shared stores) and wait their turn";
  out.push_back({"bank conflicts", format_sig3(conflicts), conflict_meaning});

  const double waves = k[Metric::SharedWavefronts];
  if (waves > 0) {
    const double per = ratio(waves, loads);
    out.push_back(
        {"shared passes", format_sig3(waves) + " wavefronts",
         loads > 0 && per > 4
             ? format_sig3(per) + " per shared load: shared accesses are serialised (conflicts, atomics)"
             : "wavefronts of the L1/shared data stage for shared memory; compare variants doing the same "
               "work"});
  }

  const double occ = k[Metric::WarpsActivePct];
  std::string occ_value = pct(occ);
  std::string occ_meaning;
  if (ideal.theoretical_occupancy >= 0) {
    occ_value += " (theoretical " + pct(ideal.theoretical_occupancy) + ")";
    occ_meaning = occ < 0.7 * ideal.theoretical_occupancy
                      ? "well below the theoretical figure: too few blocks to fill the GPU, uneven blocks, "
                        "or a short launch"
                      : "close to the theoretical figure: the SMs hold as many warps as the resources allow";
  } else {
    occ_meaning = "of the warps an SM can hold, the share that was resident on average while it ran";
  }
  out.push_back({"achieved occupancy", occ_value, occ_meaning});

  const double bw = k[Metric::DramThroughputPct];
  out.push_back(
      {"DRAM bandwidth",
       pct(bw) + " of peak" + (f.achieved_gbps > 0 ? " · " + format_sig3(f.achieved_gbps) + " GB/s" : ""),
       bw >= 70   ? "memory-bound: DRAM is nearly saturated; only moving fewer bytes makes it faster"
       : bw >= 30 ? "partly memory-bound"
                  : "DRAM is not the limit: the time goes to computing, latency or synchronisation"});

  const double ipc = k[Metric::Ipc];
  out.push_back({"instructions per cycle", format_sig3(ipc) + " per SM (at most 4)",
                 ipc >= 2    ? "busy issuing instructions: compute-heavy"
                 : ipc < 0.5 ? "mostly stalled: warps wait on memory or barriers"
                             : "warps issue about every other cycle or less"});

  if (ideal.flops_per_step > 0 && k.dram_bytes() > 0) {
    const double ridge = ratio(ideal.peak_fp32_gflops, ideal.peak_bandwidth_gbps);
    std::string m = ridge > 0
                        ? (f.intensity < ridge
                               ? "below the ridge point (" + format_sig3(ridge) + "): bound by DRAM bandwidth"
                               : "above the ridge point (" + format_sig3(ridge) +
                                     "): bound by FP32 throughput, not memory")
                        : "FP32 operations per DRAM byte";
    out.push_back({"arithmetic intensity", format_sig3(f.intensity) + " FLOP/byte", m});
    std::string v = format_sig3(f.achieved_gflops) + " GFLOP/s";
    if (ideal.peak_fp32_gflops > 0)
      v += " · " + pct(100 * f.achieved_gflops / ideal.peak_fp32_gflops) + " of FP32 peak";
    out.push_back({"FP32 rate", v, "the demo's counted operations over the kernels' own time"});
  }
  return out;
}

}  // namespace gpulab::presenter

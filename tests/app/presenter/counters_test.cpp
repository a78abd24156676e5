// The counters' CUDA-free half: sums over kernels, the readings' arithmetic and words, the roofline's
// placement and layout, the CSV, and the messages where counters cannot be read.
#include <gtest/gtest.h>

#include <cmath>

#include "cuda/counters.h"
#include "presenter/counter_readings.h"
#include "presenter/counters_command.h"
#include "presenter/roofline.h"

namespace gpulab {
namespace {

using cuda::KernelCounters;
using cuda::Metric;
using namespace presenter;

KernelCounters kernel(const std::string& name, double ns, double read, double write) {
  KernelCounters k;
  k.kernel = name;
  k[Metric::Duration] = ns;
  k[Metric::DramRead] = read;
  k[Metric::DramWrite] = write;
  return k;
}

const Reading* find(const std::vector<Reading>& rs, const std::string& name) {
  for (const Reading& r : rs)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(Counters, SumsAddCountsAndWeighPercentagesByDuration) {
  KernelCounters a = kernel("ghost", 1000, 100, 50), b = kernel("step", 3000, 1000, 500);
  a[Metric::WarpsActivePct] = 20, b[Metric::WarpsActivePct] = 60;
  a[Metric::Ipc] = 1, b[Metric::Ipc] = 3;
  a[Metric::BankConflicts] = 7, b[Metric::BankConflicts] = 5;
  const KernelCounters t = cuda::sum_kernels({a, b});
  EXPECT_EQ(t.launches, 2);
  EXPECT_EQ(t.kernel, "all kernels");
  EXPECT_DOUBLE_EQ(t[Metric::Duration], 4000);
  EXPECT_DOUBLE_EQ(t[Metric::DramRead], 1100);
  EXPECT_DOUBLE_EQ(t[Metric::DramWrite], 550);
  EXPECT_DOUBLE_EQ(t[Metric::BankConflicts], 12);
  EXPECT_DOUBLE_EQ(t[Metric::WarpsActivePct], 50);  // (20·1000 + 60·3000) / 4000
  EXPECT_DOUBLE_EQ(t[Metric::Ipc], 2.5);
  EXPECT_DOUBLE_EQ(t.ms(), 0.004);
  const KernelCounters one = cuda::sum_kernels({b});
  EXPECT_EQ(one.kernel, "step");
  EXPECT_DOUBLE_EQ(one[Metric::WarpsActivePct], 60);
  EXPECT_EQ(cuda::sum_kernels({}).launches, 0);
}

TEST(Counters, KernelNamesLoseTheirReturnTypeParametersAndNamespaces) {
  EXPECT_EQ(
      cuda::short_kernel_name("void life::step_shared<32>(const unsigned int*, unsigned int*, int, int)"),
      "step_shared<32>");
  EXPECT_EQ(cuda::short_kernel_name("_Z4copyPKfPfm"), "copy");
  EXPECT_EQ(cuda::short_kernel_name("plain_kernel"), "plain_kernel");
  EXPECT_EQ(
      cuda::short_kernel_name("void gpulab::life::cuda_detail::(anonymous namespace)::step_global<16>(int)"),
      "step_global<16>");
  EXPECT_EQ(cuda::short_kernel_name("void f<std::pair<int, int> >(int)"), "f<std::pair<int, int> >");
  EXPECT_EQ(cuda::short_kernel_name(
                "void cub::detail::histogram::DeviceHistogramSweepKernel<cub::policy_hub<unsigned "
                "char, 256>, 256, 1>(int)"),
            "DeviceHistogramSweepKernel<\xE2\x80\xA6>");
}

TEST(Counters, FiguresPerItemAgainstTheIdeal) {
  // A Life step on 1000 cells that should move 2 bytes a cell (one read, one write of a byte grid).
  KernelCounters k = kernel("step", 2e6, 3900, 1000);
  k[Metric::L2Bytes] = 9800;
  k[Metric::SharedLoads] = 200;
  k[Metric::BankConflicts] = 50;
  StepIdeal ideal;
  ideal.items_per_step = 1000;
  ideal.item_unit = "cell updates";
  ideal.bytes_per_step = 2000;
  const CounterFigures f = counter_figures(k, ideal);
  EXPECT_DOUBLE_EQ(f.ms, 2.0);
  EXPECT_DOUBLE_EQ(f.read_per_item, 3.9);
  EXPECT_DOUBLE_EQ(f.write_per_item, 1.0);
  EXPECT_DOUBLE_EQ(f.dram_per_item, 4.9);
  EXPECT_DOUBLE_EQ(f.ideal_per_item, 2.0);
  EXPECT_DOUBLE_EQ(f.dram_vs_ideal, 2.45);
  EXPECT_DOUBLE_EQ(f.l2_vs_dram, 2.0);
  EXPECT_DOUBLE_EQ(f.conflicts_per_shared_load, 0.25);
  EXPECT_NEAR(f.achieved_gbps, 4900 / 2e-3 * 1e-9, 1e-12);
  EXPECT_EQ(f.intensity, 0);  // no FLOP count
  const std::vector<Reading> rs = counter_readings(k, ideal);
  const Reading* read = find(rs, "DRAM read");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->value, "3.90 kB · 3.90 B per cell update");
  EXPECT_NE(read->meaning.find("2.45× the fewest bytes a step needs (2.00 B per cell update)"),
            std::string::npos)
      << read->meaning;
  EXPECT_NE(read->meaning.find("fetched twice"), std::string::npos) << read->meaning;
  const Reading* conflicts = find(rs, "bank conflicts");
  ASSERT_TRUE(conflicts);
  EXPECT_EQ(conflicts->value, "50.0");
  EXPECT_NE(conflicts->meaning.find("0.25 extra passes per shared load"), std::string::npos)
      << conflicts->meaning;
  EXPECT_FALSE(find(rs, "arithmetic intensity"));  // nothing to say without FLOPs
}

TEST(Counters, ReadingsNameTheMinimumNoConflictsAndOccupancyAgainstTheTheoretical) {
  KernelCounters k = kernel("copy", 1e6, 1e9, 1e9);
  k[Metric::L2Bytes] = 2.05e9;
  k[Metric::WarpsActivePct] = 30;
  k[Metric::DramThroughputPct] = 91;
  k[Metric::Ipc] = 0.2;
  StepIdeal ideal;
  ideal.items_per_step = 1e9;
  ideal.item_unit = "bytes";
  ideal.bytes_per_step = 2e9;
  ideal.theoretical_occupancy = 100;
  const std::vector<Reading> rs = counter_readings(k, ideal);
  EXPECT_NE(find(rs, "DRAM read")->meaning.find("about once, the minimum"), std::string::npos);
  EXPECT_EQ(find(rs, "DRAM read")->value, "1.00 GB · 1.00 B per byte");
  EXPECT_EQ(find(rs, "bank conflicts")->meaning, "none (no shared memory used)");
  EXPECT_EQ(find(rs, "shared loads")->meaning,
            "no shared-memory loads: this variant reads global memory only");
  EXPECT_EQ(find(rs, "achieved occupancy")->value, "30% (theoretical 100%)");
  EXPECT_NE(find(rs, "achieved occupancy")->meaning.find("well below the theoretical"), std::string::npos);
  EXPECT_NE(find(rs, "DRAM bandwidth")->meaning.find("memory-bound"), std::string::npos);
  EXPECT_EQ(find(rs, "DRAM bandwidth")->value, "91% of peak · 2000 GB/s");
  EXPECT_NE(find(rs, "instructions per cycle")->meaning.find("stalled"), std::string::npos);
  EXPECT_NE(find(rs, "L2 traffic")->meaning.find("little reuse"), std::string::npos);
  EXPECT_EQ(find(rs, "kernel time")->value, "1.00 ms");
}

TEST(Counters, IntensityAndTheRidgeForAVariantThatCountsFlops) {
  KernelCounters k = kernel("nbody", 1e6, 1e6, 0);  // 1 ms, 1 MB
  StepIdeal ideal;
  ideal.items_per_step = 1e8;
  ideal.item_unit = "interactions";
  ideal.flops_per_step = 2e10;  // 20 GFLOP in 1 ms: 20 TFLOP/s
  ideal.peak_fp32_gflops = 60000;
  ideal.peak_bandwidth_gbps = 3000;
  const CounterFigures f = counter_figures(k, ideal);
  EXPECT_DOUBLE_EQ(f.intensity, 2e4);
  EXPECT_NEAR(f.achieved_gflops, 2e4, 1e-6);
  const std::vector<Reading> rs = counter_readings(k, ideal);
  ASSERT_TRUE(find(rs, "arithmetic intensity"));
  EXPECT_NE(find(rs, "arithmetic intensity")->meaning.find("above the ridge point (20.0)"),
            std::string::npos);
  EXPECT_EQ(find(rs, "FP32 rate")->value, "20000 GFLOP/s · 33% of FP32 peak");
}

TEST(Counters, UnitsAndNumbers) {
  EXPECT_EQ(singular_unit("cell updates"), "cell update");
  EXPECT_EQ(singular_unit("pixels"), "pixel");
  EXPECT_EQ(singular_unit("class"), "class");
  EXPECT_EQ(singular_unit(""), "");
  EXPECT_EQ(presenter::format_bytes(512), "512 B");
  EXPECT_EQ(presenter::format_bytes(33.6e6), "33.6 MB");
  EXPECT_EQ(presenter::format_bytes(1.2e9), "1.20 GB");
  EXPECT_EQ(format_sig3(3.94), "3.94");
  EXPECT_EQ(format_sig3(0.0123), "0.0123");
  EXPECT_EQ(format_sig3(1234), "1234");
  EXPECT_EQ(format_sig3(0), "0");
}

TEST(Counters, UnavailableMessagesSayWhyAndWhatToDo) {
  const std::string priv = cuda::cupti_error_reason(35, "cuptiProfilerGetCounterAvailability");
  EXPECT_NE(priv.find("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), std::string::npos);
  EXPECT_NE(priv.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
  EXPECT_NE(priv.find("CAP_PERFMON"), std::string::npos);
  EXPECT_NE(priv.find("CAP_SYS_ADMIN"), std::string::npos);
  EXPECT_NE(cuda::cupti_error_reason(39, "cuptiRangeProfilerEnable").find("another profiler is attached"),
            std::string::npos);
  EXPECT_NE(cuda::cupti_error_reason(43, "x").find("MIG"), std::string::npos);
  EXPECT_EQ(cuda::cupti_error_reason(7, "cuptiRangeProfilerStart", "invalid operation"),
            "cuptiRangeProfilerStart failed: invalid operation (CUPTI error 7)");
  // No device in the context: said before CUPTI is touched.
  cuda::Counters counters;
  Context ctx;
  ctx.cuda = false;
  ctx.cuda_reason = "no driver";
  const std::string why = counters_unavailable(counters, ctx);
#if defined(GPULAB_HAVE_CUPTI)
  EXPECT_EQ(cuda::counters_build_reason(), "");
  EXPECT_EQ(why, "no CUDA device, and the counters count a GPU's work (no driver)");
#else
  EXPECT_NE(cuda::counters_build_reason().find("built without"), std::string::npos);
  EXPECT_EQ(why, cuda::counters_build_reason());
  EXPECT_EQ(counters.measure([] {}).unavailable, cuda::counters_build_reason());
#endif
}

TEST(Counters, CsvHasALineAKernelAndAppendsToTheLaddersRecords) {
  CounterRow measured;
  measured.stage_id = "step";
  measured.variant = "gpu-ghost";
  measured.block_label = "16x16";
  measured.result.kernels = {kernel("ghost", 1000, 10, 10), kernel("step", 2000, 100, 100)};
  measured.result.total = cuda::sum_kernels(measured.result.kernels);
  measured.ideal.items_per_step = 100;
  CounterRow cpu;
  cpu.stage_id = "step";
  cpu.variant = "cpu-lut";
  cpu.unavailable = "a CPU variant, \"host\"";
  const std::string csv = counters_csv({measured, cpu});
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 3u + 1u);  // header, two kernels and their sum, the CPU row
  EXPECT_NE(csv.find("\"a CPU variant, \"\"host\"\"\""), std::string::npos);
  EXPECT_NE(csv.find("step,gpu-ghost,16x16,ghost,1,0.001,10,10,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("step,gpu-ghost,16x16,all kernels,2,0.003,110,110,"), std::string::npos) << csv;
  // The ladder's CSV with a reason holding a line break: records, not lines, get the columns.
  const std::string ladder = "stage,variant,reason\nstep,gpu-ghost,\nstep,cpu-lut,\"two\nlines\"\n";
  const std::string joined = ladder_counters_csv(ladder, {measured, cpu});
  EXPECT_NE(joined.find("stage,variant,reason,kernel_ms,"), std::string::npos);
  EXPECT_NE(joined.find("step,gpu-ghost,,0.003,1.1,1.1,"), std::string::npos) << joined;
  EXPECT_NE(joined.find("\"two\nlines\",,,,,,,,,,,\"a CPU variant"), std::string::npos) << joined;
}

// ---- the roofline ----

RooflineData h100ish() {
  RooflineData d;
  d.title = "N-body: roofline";
  d.device = "a GPU";
  d.peak_gflops = 60000;
  d.peak_gbps = 3000;
  d.points = {{"memory-bound", 0.5, 1000}, {"compute-bound", 400, 30000}, {"gpu-tiled", 300, 28000}};
  d.unplaced = {"gpu-naive: not on the FP32 roofline (the demo counts no floating-point work)"};
  return d;
}

TEST(CountersStrategy, NamesParseAndRoundTrip) {
  std::string why;
  const auto def = cuda::parse_counters_strategy("", &why);
  ASSERT_TRUE(def.has_value());
  EXPECT_EQ(*def, cuda::CountersStrategy{});
  EXPECT_EQ(cuda::counters_strategy_name(*def), "default");
  const auto main_path = cuda::parse_counters_strategy("main", &why);
  ASSERT_TRUE(main_path.has_value());
  EXPECT_TRUE(main_path->kernel_replay);
  EXPECT_FALSE(main_path->keep_data_image);
  EXPECT_FALSE(main_path->keep_subscriber);
  EXPECT_FALSE(main_path->cold);
  const auto cold = cuda::parse_counters_strategy(" cold ", &why);
  ASSERT_TRUE(cold.has_value());
  EXPECT_TRUE(cold->cold);
  EXPECT_TRUE(cold->kernel_replay);
  for (const char* spec :
       {"default", "main", "cold", "kernel-replay", "image-each", "subscribe-each", "keep-enabled",
        "no-names", "kernel-replay+image-each", "main+keep-enabled", "subscribe-each,no-names"}) {
    const auto s = cuda::parse_counters_strategy(spec, &why);
    ASSERT_TRUE(s.has_value()) << spec << ": " << why;
    const auto again = cuda::parse_counters_strategy(cuda::counters_strategy_name(*s), &why);
    ASSERT_TRUE(again.has_value()) << cuda::counters_strategy_name(*s);
    EXPECT_EQ(*again, *s) << spec << " -> " << cuda::counters_strategy_name(*s);
  }
  EXPECT_FALSE(cuda::parse_counters_strategy("main+warp-speed", &why).has_value());
  EXPECT_NE(why.find("warp-speed"), std::string::npos) << why;
  EXPECT_NE(why.find("kernel-replay"), std::string::npos) << why;  // the names it knows
}

TEST(CountersStrategy, ImagesAreKeptPerDeviceChipMetricListAndRangeCount) {
  cuda::ImageCache<std::vector<int>> cache;
  int made = 0;
  auto make = [&] { return std::vector<int>{++made}; };
  const cuda::CounterImageKey a{0, "GH100", {"dram__bytes_read.sum", "lts__t_bytes.sum"}, 64};
  EXPECT_EQ(cache.get(a, make), std::vector<int>{1});
  EXPECT_EQ(cache.get(a, make), std::vector<int>{1});  // kept: not made again
  EXPECT_EQ(cache.made(), 1u);
  cuda::CounterImageKey other_device = a, other_chip = a, other_order = a, fewer = a, other_ranges = a;
  other_device.device = 1;
  other_chip.chip = "AD102";
  std::swap(other_order.metrics[0], other_order.metrics[1]);  // values are evaluated in list order
  fewer.metrics.pop_back();
  other_ranges.max_ranges = 32;
  int expect = 1;
  for (const cuda::CounterImageKey& k : {other_device, other_chip, other_order, fewer, other_ranges}) {
    EXPECT_EQ(cache.get(k, make), std::vector<int>{++expect});
    EXPECT_EQ(cache.get(k, make), std::vector<int>{expect});
  }
  EXPECT_EQ(cache.size(), 6u);
  EXPECT_EQ(cache.get(a, make), std::vector<int>{1});  // the first still kept beside the others
  cache.clear();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(cache.get(a, make), std::vector<int>{7});  // made afresh after clear()
  EXPECT_EQ(cache.made(), 7u);
}

TEST(CountersStrategy, PhaseTimerSumsNamedPhasesInOrder) {
  cuda::PhaseTimer t;
  t.mark("init");
  t.mark("launch");
  t.mark("init");
  ASSERT_EQ(t.phases().size(), 3u);
  EXPECT_EQ(t.phases()[0].name, "init");
  EXPECT_EQ(t.phases()[1].name, "launch");
  for (const cuda::Phase& p : t.phases()) EXPECT_GE(p.ms, 0);
  EXPECT_DOUBLE_EQ(t.sum({"init"}), t.phases()[0].ms + t.phases()[2].ms);
  EXPECT_DOUBLE_EQ(t.sum({"init", "launch"}), t.total());
  EXPECT_EQ(t.sum({"absent"}), 0);
}

TEST(CountersStrategy, PhaseTableShowsTheFirstAndTheMedianOfTheOthers) {
  CounterRow row;
  row.variant = "gpu-tiled";
  for (double ms : {400.0, 20.0, 30.0, 10.0}) {
    cuda::CounterResult t;
    t.strategy = "default";
    t.first = ms > 100;
    t.host_ms = ms;
    t.phases = {{"enable", ms / 2}, {"launch", ms / 2}};
    row.timings.push_back(t);
    row.call_ms.push_back(ms + 1);
  }
  const std::string table = counters_phase_table({row});
  EXPECT_NE(table.find("gpu-tiled (default, kernel replay, 4 measurements): first 400.0 ms (prepared CUPTI)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("median of the others 20.0 ms, 21.0 ms with the probe"), std::string::npos) << table;
  EXPECT_NE(table.find("enable             200.00      10.00"), std::string::npos) << table;
  const std::string json = counters_json({row}, "life", "dev", true);
  EXPECT_NE(json.find("\"measurements\""), std::string::npos);
  EXPECT_NE(json.find("\"host_ms\": 400.0"), std::string::npos) << json;
  EXPECT_EQ(counters_json({row}, "life", "dev").find("\"measurements\""), std::string::npos);
}

TEST(Roofline, RoofsAndTheRidge) {
  const RooflineData d = h100ish();
  EXPECT_DOUBLE_EQ(ridge_intensity(d), 20);
  EXPECT_DOUBLE_EQ(roof_gflops(d, 1), 3000);
  EXPECT_DOUBLE_EQ(roof_gflops(d, 20), 60000);
  EXPECT_DOUBLE_EQ(roof_gflops(d, 1000), 60000);
  EXPECT_EQ(roof_gflops(RooflineData{}, 1), 0);
  const RooflineAxes a = roofline_axes(d);
  EXPECT_LE(std::pow(10.0, a.x_lo), 0.5);
  EXPECT_GE(std::pow(10.0, a.x_hi), 400);
  EXPECT_GE(std::pow(10.0, a.y_hi), 60000);
  EXPECT_LE(std::pow(10.0, a.y_lo), 1000);
}

TEST(Roofline, PointsSitAtTheirValuesUnderTheRoofsAndNoTextOverlaps) {
  const RooflineData d = h100ish();
  for (auto [w, h] : {std::pair{1920.0f, 1080.0f}, std::pair{3840.0f, 2160.0f}, std::pair{640.0f, 360.0f}}) {
    const RooflineLayout L = layout_roofline(d, w, h, approximate_text_measure());
    ASSERT_EQ(L.point_dots.size(), d.points.size());
    for (size_t i = 0; i < d.points.size(); ++i) {
      const Rect& dot = L.point_dots[i];
      const float cx = (dot.x0 + dot.x1) / 2, cy = (dot.y0 + dot.y1) / 2;
      EXPECT_NEAR(cx, L.x_of(d.points[i].intensity), 0.01f);
      EXPECT_NEAR(cy, L.y_of(d.points[i].gflops), 0.01f);
      EXPECT_TRUE(dot.inside(L.plot)) << d.points[i].label;
      // Under (or on) the roof: a larger y is lower on the screen.
      EXPECT_GE(cy + 0.5f, L.y_of(roof_gflops(d, d.points[i].intensity))) << d.points[i].label;
      const TextRun* label = nullptr;
      for (const TextRun& t : L.chart.texts)
        if (t.role == TextRole::Name && t.rung == int(i)) label = &t;
      ASSERT_TRUE(label) << d.points[i].label;
      EXPECT_EQ(label->text, d.points[i].label);
    }
    // The memory-bound point is left of the ridge, the compute-bound one right of it.
    EXPECT_LT(L.x_of(0.5), L.x_of(ridge_intensity(d)));
    EXPECT_GT(L.x_of(400), L.x_of(ridge_intensity(d)));
    // Two roofs meeting at the ridge, the flat one at the FP32 peak (then any labels' leader lines).
    ASSERT_GE(L.chart.lines.size(), 2u);
    EXPECT_EQ(L.chart.lines[0].colour, ChartColour::Slowdown);
    EXPECT_EQ(L.chart.lines[1].colour, ChartColour::Speedup);
    EXPECT_NEAR(L.chart.lines[0].x1, L.chart.lines[1].x0, 0.01f);
    EXPECT_NEAR(L.chart.lines[1].y0, L.y_of(60000), 0.01f);
    EXPECT_NEAR(L.chart.lines[1].y1, L.y_of(60000), 0.01f);
    const Rect image{0, 0, w, h};
    for (size_t i = 0; i < L.chart.texts.size(); ++i) {
      const TextRun& a = L.chart.texts[i];
      EXPECT_TRUE(a.box().inside(image)) << a.text << " at " << w << "x" << h;
      EXPECT_GT(a.size, 0);
      for (size_t j = i + 1; j < L.chart.texts.size(); ++j)
        EXPECT_FALSE(a.box().overlaps(L.chart.texts[j].box()))
            << "'" << a.text << "' overlaps '" << L.chart.texts[j].text << "' at " << w << "x" << h;
    }
    bool note = false;
    for (const TextRun& t : L.chart.texts)
      note = note || (t.role == TextRole::Note && t.text.find("gpu-naive") == 0);
    EXPECT_TRUE(note);
  }
}

TEST(Roofline, MeasuredRowsWithoutFlopsAreListedNotPlaced) {
  CounterRow life;
  life.variant = "gpu-bitpacked";
  life.result.kernels = {kernel("step", 1e6, 1e9, 1e9)};
  life.result.total = cuda::sum_kernels(life.result.kernels);
  life.result.total[Metric::DramThroughputPct] = 60;
  life.ideal.items_per_step = 1e9;
  CounterRow nbody;
  nbody.variant = "gpu-tiled";
  nbody.result.kernels = {kernel("force", 1e6, 1e6, 1e6)};
  nbody.result.total = cuda::sum_kernels(nbody.result.kernels);
  nbody.ideal.flops_per_step = 2e10;
  CounterRow cpu;
  cpu.variant = "cpu-naive";
  cpu.unavailable = "a CPU variant";
  const RooflineData d = counters_roofline({life, nbody, cpu}, "Demo", "dev", 60000, 3000);
  ASSERT_EQ(d.points.size(), 1u);
  EXPECT_EQ(d.points[0].label, "gpu-tiled");
  EXPECT_DOUBLE_EQ(d.points[0].intensity, 1e4);
  EXPECT_NEAR(d.points[0].gflops, 2e4, 1e-6);
  ASSERT_EQ(d.unplaced.size(), 1u);
  EXPECT_EQ(
      d.unplaced[0],
      "gpu-bitpacked: not on the FP32 roofline (the demo counts no floating-point work); DRAM 2000 GB/s = "
      "60.0% of its roof");
}

TEST(Roofline, WithoutPeaksItSaysSoAndDrawsNoRoofs) {
  RooflineData d = h100ish();
  d.peak_gbps = 0;
  const RooflineLayout L = layout_roofline(d, 1920, 1080, approximate_text_measure());
  for (const ChartLine& l : L.chart.lines)
    EXPECT_EQ(l.colour, ChartColour::Dim);  // leader lines only, no roofs
  const TextRun* sub = L.chart.text(TextRole::Subtitle);
  ASSERT_TRUE(sub);
  EXPECT_NE(sub->text.find("no peaks known"), std::string::npos);
}

}  // namespace
}  // namespace gpulab

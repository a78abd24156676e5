// cpu label: the heads-up display's numbers (time per step, speed-up over the stage's CPU baseline,
// % of peak) from a demo's stages, read-out and timings; its refresh at most twice a second; its
// layout (inside the view, never over the view's middle, wrapped when narrow).
#include "presenter/hud.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "core/timings.h"
#include "presenter/baseline_job.h"

namespace gpulab::presenter {
namespace {

const int kBlocks[] = {64, 128, 256};

void sample(Timings& t, const Demo& d, double ms) {  // one frame's time of the step the demo runs
  t.cpu(TimingKey{d.pick(0)}, "step", ms);
  t.collect();
}

// A demo with one stage (a CPU baseline, a second CPU variant and a GPU one) and one read-out.
class FakeDemo : public Demo {
 public:
  bool pipeline = false;
  double items = 1000;
  FakeDemo() {
    s_.picks = default_picks(stage_tables(), false);
    bind(s_);
  }
  // Runs variant v of the stage (the GPU one at block 256).
  void use(int v) { s_.picks[0] = Pick{0, v, v == 2 ? 256 : 0}; }
  // Another input (a Setup of another --seed).
  void reseed(uint64_t seed) { s_.shared.seed = seed; }
  std::string_view name() const override { return "fake"; }
  std::string_view title() const override { return "Fake demo"; }
  const StageTables& stage_tables() const override {
    static const StageTables t = [] {
      StageTable s;
      s.id = "step";
      s.title = "step";
      VariantChoice cpu, lut, gpu;
      cpu.id = "cpu-naive";
      lut.id = "cpu-lut";
      gpu.id = "gpu-shared";
      gpu.needs_cuda = true;
      gpu.blocks = kBlocks;
      gpu.default_block = 128;
      s.variants = {cpu, lut, gpu};
      s.gpu_default = 2;
      StageTables out;
      out.stages = {s};
      return out;
    }();
    return t;
  }
  std::unique_ptr<DemoParams> make_params() const override { return nullptr; }
  std::string configure(const Options&) override { return {}; }
  void attach(Context&) override {}
  void compute(Frame&) override {}
  void render(Frame&) override {}
  void ui(Frame&) override {}
  void detach() override {}
  bool open_file(const std::filesystem::path&, std::string*) override { return false; }
  std::vector<Throughput> throughput() const override {
    Throughput t;
    t.label = "step (per generation)";
    t.timed = {pick(0)};
    t.steps = 2;  // each sample covers two steps
    t.items_per_step = items;
    t.item_unit = "cells";
    t.bytes_per_step = 2e9;  // 2 GB a step
    t.whole_pipeline = pipeline;
    return {t};
  }
  std::string caption() const override { return "fake"; }

 private:
  Setup s_;
};

// A HUD fed by a fake demo's timings, as HudElement feeds it each frame.
class HudFeed : public ::testing::Test {
 protected:
  void update(double now_seconds) { hud.update(now_seconds, hud_input(d, t, ctx)); }
  FakeDemo d;
  Timings t;
  Context ctx;
  Hud hud;
};

TEST(Hud, Formats) {
  EXPECT_EQ(hud_time(0.213), "213 µs");
  EXPECT_EQ(hud_time(4.71), "4.71 ms");
  EXPECT_EQ(hud_time(1250), "1.25 s");
  EXPECT_EQ(hud_time(0), "–");
  EXPECT_EQ(hud_speedup(412.3), "412×");
  EXPECT_EQ(hud_speedup(12.54), "12.5×");
  EXPECT_EQ(hud_speedup(1.04), "1.04×");
}

TEST(Hud, InputFromTheDemoTimingsAndPeaks) {
  FakeDemo d;
  d.use(2);
  Timings t;
  for (int i = 0; i < 5; ++i) sample(t, d, 20.0);  // 20 ms a sample of two steps: 10 ms a step
  Context ctx;
  ctx.peak_bandwidth_gbps = 1000;
  const HudInput in = hud_input(d, t, ctx);
  EXPECT_EQ(in.demo_title, "Fake demo");
  EXPECT_EQ(in.variant, "gpu-shared 256");
  EXPECT_EQ(in.baseline_variant, "cpu-naive");
  EXPECT_FALSE(in.on_baseline);
  ASSERT_TRUE(in.ms_per_step.has_value());
  EXPECT_DOUBLE_EQ(*in.ms_per_step, 10.0);
  EXPECT_EQ(in.per, "per generation");
  // 2 GB in 10 ms = 200 GB/s of 1000.
  EXPECT_NEAR(in.pct_peak, 20.0, 1e-9);
  EXPECT_EQ(in.peak_label, "of DRAM bandwidth");
  d.use(1);
  EXPECT_FALSE(hud_input(d, t, ctx).on_baseline) << "cpu-lut is a CPU variant but not the baseline";
  EXPECT_FALSE(hud_input(d, t, ctx).ms_per_step) << "cpu-lut has not run: gpu-shared's time is not its";
  d.use(0);
  EXPECT_TRUE(hud_input(d, t, ctx).on_baseline);
}

TEST_F(HudFeed, SpeedupIsOverTheBaselineMeasuredOnTheSameCase) {
  // The GPU variant first: no baseline yet, and the key that measures it is named.
  d.use(2);
  sample(t, d, 0.2);
  update(0.0);
  // No device peak (the CPU backend): no "% of peak" figure, so the HUD stays one row.
  ASSERT_EQ(hud.reading().figures.size(), 2u);
  EXPECT_EQ(hud.reading().figures[1].value, "not measured yet");
  EXPECT_NE(hud.reading().figures[1].caption.find("F5"), std::string::npos);
  // With a device whose peak is known the third figure is there.
  Context gpu = ctx;
  gpu.peak_bandwidth_gbps = 1000;
  gpu.cuda = true;
  const HudReading with_peak = hud.read(hud_input(d, t, gpu));
  ASSERT_EQ(with_peak.figures.size(), 3u);
  EXPECT_NE(with_peak.figures[2].caption.find("of "), std::string::npos) << with_peak.figures[2].caption;
  // The baseline runs: 50 ms a step.
  t.clear();
  d.use(0);
  sample(t, d, 100.0);
  update(1.0);
  EXPECT_EQ(hud.reading().figures[1].value, "1×");
  // Back on the GPU: 0.1 ms a step, 500× the baseline.
  t.clear();
  d.use(2);
  sample(t, d, 0.2);
  update(2.0);
  EXPECT_EQ(hud.reading().figures[0].value, "100 µs");
  EXPECT_EQ(hud.reading().figures[1].value, "500×");
  EXPECT_EQ(hud.reading().figures[1].caption, "vs cpu-naive (CPU)");
  // Another size is another case: its baseline is not measured.
  d.items = 4000;
  update(3.0);
  EXPECT_EQ(hud.reading().figures[1].value, "not measured yet");
  // The ladder's CPU rung gives it.
  hud.note_baseline(hud_input(d, t, ctx).baseline_case, 20.0);
  update(4.0);
  EXPECT_EQ(hud.reading().figures[1].value, "200×");
  // Another input (the Setup's: same_input) is another case too.
  d.reseed(7);
  update(5.0);
  EXPECT_EQ(hud.reading().figures[1].value, "not measured yet");
}

TEST_F(HudFeed, SaysTheBaselineIsMeasuredInTheBackgroundOrWhyItIsNot) {
  d.use(2);
  sample(t, d, 0.2);
  HudInput in = hud_input(d, t, ctx);
  in.baseline_measuring = true;
  EXPECT_EQ(hud.read(in).figures[1].value, "measuring…");
  EXPECT_EQ(hud.read(in).figures[1].caption, "vs cpu-naive (CPU), in the background");
  in.baseline_measuring = false;
  in.baseline_error = "out of memory";
  EXPECT_EQ(hud.read(in).figures[1].value, "–");
  EXPECT_EQ(hud.read(in).figures[1].caption, "vs cpu-naive (CPU): out of memory");
  // A measured baseline wins over both.
  hud.note_baseline(in.baseline_case, 10.0);
  in.baseline_measuring = true;
  EXPECT_EQ(hud.read(in).figures[1].value, "100×");
}

// A baseline timed while the cores were busy reads as an approximation, and while it is timed alone
// (the live step held) the caption says the demo waits for it.
TEST_F(HudFeed, ABaselineTimedOnBusyCoresIsShownAsAnApproximation) {
  d.use(2);
  sample(t, d, 0.2);
  HudInput in = hud_input(d, t, ctx);
  in.baseline_measuring = true;
  in.baseline_holds = true;
  EXPECT_EQ(hud.read(in).figures[1].caption, "vs cpu-naive (CPU), the demo held");
  hud.note_baseline(in.baseline_case, 10.0, true);
  EXPECT_EQ(hud.read(in).figures[1].value, "≈ 100×");  // 10 ms over 0.1 ms
  EXPECT_EQ(hud.read(in).figures[1].caption, "vs cpu-naive (CPU), on busy cores");
  // Timed again alone (the ladder's rung, a later job): a plain figure.
  hud.note_baseline(in.baseline_case, 10.0);
  EXPECT_EQ(hud.read(in).figures[1].value, "100×");
  EXPECT_EQ(hud.read(in).figures[1].caption, "vs cpu-naive (CPU)");
}

// The job's clocks injected: a probe whose steps take 1 ms of fake wall time each, and a thread that
// waited `wait_share` of it for a core.
struct FakeClocks {
  std::atomic<double> wall{0}, waited{0};
  BaselineClocks clocks() {
    BaselineClocks c;
    c.wall_ms = [this] { return wall.load(); };
    c.waited_ms = [this] { return waited.load(); };
    return c;
  }
};

Probe counting_probe(FakeClocks& fc, double wait_share, std::atomic<int>& runs,
                     const std::function<void()>& on_run = {}) {
  Probe p;
  p.device = "CPU";
  p.items_per_step = 1;
  p.run = [&fc, wait_share, &runs, on_run](int steps) {
    if (on_run) on_run();
    ++runs;
    fc.wall.store(fc.wall.load() + steps);
    fc.waited.store(fc.waited.load() + wait_share * steps);
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // the real clock moves too
  };
  return p;
}

void wait_done(const BaselineJob& job) {
  for (int i = 0; i < 20000 && !job.done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(job.done());
}

TEST(BaselineJobClock, AThreadThatWaitedForACoreGivesAnApproximation) {
  for (const double share : {0.0, 0.05, 0.2, 0.5}) {
    FakeClocks fc;
    std::atomic<int> runs{0};
    BaselineJob job(counting_probe(fc, share, runs), BenchSuite{}, false, fc.clocks());
    EXPECT_FALSE(job.wants_hold()) << "no hold asked";
    wait_done(job);
    EXPECT_GT(runs.load(), 0);
    EXPECT_NEAR(job.wait_share(), share, 1e-9);
    if (share > BaselineJob::kMaxApproximateShare) {
      // A time a third too long or worse is no figure: the HUD says why instead.
      EXPECT_FALSE(job.ms().has_value());
      EXPECT_EQ(job.error(), "cores busy, F5 measures it");
      continue;
    }
    ASSERT_TRUE(job.ms().has_value()) << job.error();
    EXPECT_EQ(job.approximate(), share > BaselineJob::kMaxWaitShare) << "waited " << share;
  }
}

TEST(BaselineJobClock, WithAHoldTheProbeRunsOnlyOnceTheLiveStepWaits) {
  FakeClocks fc;
  std::atomic<int> runs{0};
  std::atomic<bool> granted{false}, ran_before_grant{false};
  BaselineJob job(counting_probe(fc, 0.0, runs, [&] { ran_before_grant = ran_before_grant || !granted; }),
                  BenchSuite{}, true, fc.clocks());
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_TRUE(job.wants_hold());
  EXPECT_EQ(runs.load(), 0) << "timed before the live step was held";
  granted = true;
  job.hold_granted();
  wait_done(job);
  EXPECT_FALSE(ran_before_grant.load());
  EXPECT_FALSE(job.wants_hold()) << "the hold ends with the timing";
  ASSERT_TRUE(job.ms().has_value()) << job.error();
  EXPECT_FALSE(job.approximate());
}

TEST(BaselineJobClock, AHoldNeverGrantedOrOutlastedGivesAnApproximation) {
  {
    // Never granted: timed after kGrantTimeoutMs of the (fake) wall clock anyway.
    FakeClocks fc;
    std::atomic<int> runs{0};
    BaselineJob job(counting_probe(fc, 0.0, runs), BenchSuite{}, true, fc.clocks());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(runs.load(), 0);
    fc.wall.store(BaselineJob::kGrantTimeoutMs + 1);
    wait_done(job);
    ASSERT_TRUE(job.ms().has_value()) << job.error();
    EXPECT_TRUE(job.approximate());
  }
  {
    // Granted, but the timing outlasts kMaxHoldSeconds: the live step resumes, the figure is approximate.
    FakeClocks fc;
    std::atomic<int> runs{0};
    Probe p = counting_probe(fc, 0.0, runs);
    auto inner = p.run;
    p.run = [&fc, inner](int steps) {
      inner(steps);
      fc.wall.store(fc.wall.load() + 1000);  // a second a step
    };
    BaselineJob job(std::move(p), BenchSuite{}, true, fc.clocks());
    job.hold_granted();
    wait_done(job);
    ASSERT_TRUE(job.ms().has_value()) << job.error();
    EXPECT_TRUE(job.approximate());
  }
}

TEST(Hud, TheBaselinesPicksAreEachStagesFirstCpuVariant) {
  FakeDemo d;
  d.use(2);
  const Picks p = baseline_picks(d.stage_tables(), d.setup().picks);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(variant_of(d.stage_tables(), p[0]).id, "cpu-naive");
  EXPECT_EQ(p[0].block, 0) << "a CPU variant has no block";
}

TEST_F(HudFeed, RefreshesAtMostTwiceASecond) {
  d.use(2);
  update(9.9);
  EXPECT_EQ(hud.reading().figures[0].value, "–") << "nothing measured yet";
  // The first measurement shows at once, not half a second later.
  sample(t, d, 2.0);
  update(10.0);
  EXPECT_EQ(hud.reading().figures[0].value, "1 ms");
  // Settled (a median of kSettleSamples steps and more): at most twice a second.
  for (size_t i = 1; i < Hud::kSettleSamples; ++i) sample(t, d, 2.0);
  update(10.1);
  t.clear();
  for (size_t i = 0; i < Hud::kSettleSamples; ++i) sample(t, d, 4.0);
  update(10.2);
  update(10.45);
  EXPECT_EQ(hud.reading().figures[0].value, "1 ms") << "refreshed sooner than half a second";
  update(10.6);
  EXPECT_EQ(hud.reading().figures[0].value, "2 ms");
}

TEST_F(HudFeed, TheFirstColdStepIsNotHeldWhileTheMedianSettles) {
  // A run's first step is cold (a module loaded, caches empty): shown at once, then replaced on each
  // frame by the median of the steps so far until there are kSettleSamples of them, not held for half
  // a second (a short headless run ended with the cold step, 18x the step's time, in its screenshot).
  d.use(2);
  sample(t, d, 40.0);
  update(10.0);
  EXPECT_EQ(hud.reading().figures[0].value, "20 ms") << "the cold step, at once";
  sample(t, d, 2.0);
  sample(t, d, 2.0);
  update(10.01);
  EXPECT_EQ(hud.reading().figures[0].value, "1 ms") << "three steps: their median, on the next frame";
  for (size_t i = 3; i < Hud::kSettleSamples; ++i) sample(t, d, 2.0);
  update(10.02);
  EXPECT_EQ(hud.reading().figures[0].value, "1 ms");
  for (int i = 0; i < 11; ++i) sample(t, d, 8.0);  // the median moves to 8 ms
  update(10.03);
  EXPECT_EQ(hud.reading().figures[0].value, "1 ms") << "settled: the next refresh waits for half a second";
  update(10.6);
  EXPECT_EQ(hud.reading().figures[0].value, "4 ms");
}

TEST(Hud, LayoutStaysInTheViewAndOffItsMiddle) {
  for (float width : {1920.0f, 1400.0f, 700.0f, 300.0f}) {
    for (float height : {1080.0f, 600.0f, 200.0f}) {
      HudSizes sz;
      sz.title_w = 400;
      sz.title_h = 20;
      sz.value_h = 77;
      sz.caption_h = 31;
      sz.value_w = {260, 560, 130};
      sz.caption_w = {200, 420, 380};
      const HudBox view{300, 0, 300 + width, height};
      const HudPlaced p = hud_layout(sz, view, 10);
      const std::string at = std::to_string(width) + "x" + std::to_string(height);
      EXPECT_GE(p.box.x0, view.x0) << at;
      EXPECT_LE(p.box.x1, view.x1) << at;
      EXPECT_LE(p.box.y1, view.y1) << at;
      EXPECT_GE(p.box.y0, (view.y0 + view.y1) / 2) << at << ": over the view's middle";
      for (size_t i = 0; i < p.items.size(); ++i) {
        EXPECT_GE(p.items[i].value_y, p.box.y0) << at;
        EXPECT_LE(p.items[i].caption_y + sz.caption_h, p.box.y1 + 0.01f) << at;
        // Side by side in a row: no overlap with the next figure.
        if (i + 1 < p.items.size() && p.items[i + 1].value_y == p.items[i].value_y) {
          EXPECT_GE(p.items[i + 1].x, p.items[i].x + std::max(sz.value_w[i], sz.caption_w[i])) << at;
        }
      }
      if (width >= 1400 && height >= 600) {
        EXPECT_EQ(p.items.size(), 3u) << at << ": one row fits";
      }
      if (width == 700 && height == 1080) {
        EXPECT_EQ(p.items.size(), 3u) << at;
        EXPECT_GT(p.items[2].value_y, p.items[0].value_y) << at << ": wrapped to a second row";
      }
    }
  }
}

TEST_F(HudFeed, AnotherVariantIsShownAtOnce) {
  // Within the half second between refreshes, a variant change (a lesson step) is not left under the
  // previous variant's name and figures.
  d.use(0);
  sample(t, d, 2.0);
  update(20.0);
  EXPECT_EQ(hud.reading().title, "Fake demo — cpu-naive");
  d.use(1);
  update(20.1);
  EXPECT_EQ(hud.reading().title, "Fake demo — cpu-lut");
  EXPECT_EQ(hud.reading().figures[0].value, "–") << "cpu-lut has no time of its own yet";
  // A step whose variant cannot run here says so in the speed-up at once.
  HudInput in = hud_input(d, t, ctx);
  in.not_run_here = "gpu-shared needs an NVIDIA GPU";
  in.variant = "cpu-lut, the CPU reference for gpu-shared";
  hud.update(20.2, in);
  ASSERT_EQ(hud.reading().figures.size(), 2u);
  EXPECT_EQ(hud.reading().figures[1].value, "not run here");
  EXPECT_EQ(hud.reading().figures[1].caption, "gpu-shared needs an NVIDIA GPU");
}

}  // namespace
}  // namespace gpulab::presenter

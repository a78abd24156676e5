// The transfers demo without a GPU (cpu label): sizes and sweeps, the memory checks, the line rate from
// sysfs text, the pattern and the pipeline's CPU reference, the host memcpy rungs, the command line and
// its refusals, the timeline's layout from recorded spans, the CSV, the slide PNG and the lesson.
#include "demos/transfers/transfers_demo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "gl/image_io.h"
#include "presenter/lesson.h"
#include "support/configure_demo.h"
#include "support/test_paths.h"
#include "transfers/transfers.h"

namespace gpulab {
namespace {

namespace fs = std::filesystem;
using namespace transfers;

std::string configure(TransfersDemo& demo, std::vector<const char*> args) {
  return testing::configure_demo(demo, std::move(args));
}

TEST(TransfersSizes, ParsesUnitsAndRefusesTheRest) {
  uint64_t b = 0;
  EXPECT_EQ(parse_bytes("4KiB", &b), "");
  EXPECT_EQ(b, 4096u);
  EXPECT_EQ(parse_bytes("256 MiB", &b), "");
  EXPECT_EQ(b, uint64_t(256) << 20);
  EXPECT_EQ(parse_bytes("1GiB", &b), "");
  EXPECT_EQ(b, uint64_t(1) << 30);
  EXPECT_EQ(parse_bytes("1000B", &b), "");
  EXPECT_EQ(b, 1000u);
  EXPECT_EQ(parse_bytes("17", &b), "");
  EXPECT_EQ(b, 17u);
  for (const char* bad : {"", "0", "0MiB", "4K", "4KB", "4MB", "nan", "NaN MiB", "-1MiB", "1.5MiB", "MiB",
                          "4 TiB", "65GiB", "99999999999999999999999GiB", "4KiB\x1b[31m"}) {
    uint64_t v = 7;
    const std::string why = parse_bytes(bad, &v);
    EXPECT_NE(why, "") << bad;
    EXPECT_EQ(v, 7u) << bad;
    EXPECT_EQ(why.find('\x1b'), std::string::npos) << "control bytes are escaped";
  }
  EXPECT_NE(parse_bytes("4K", &b).find("KiB"), std::string::npos);
  EXPECT_EQ(transfers::format_bytes(4096), "4 KiB");
  EXPECT_EQ(transfers::format_bytes(uint64_t(256) << 20), "256 MiB");
  EXPECT_EQ(transfers::format_bytes(1000), "1000 B");
  EXPECT_EQ(transfers::format_bytes(1536), "1.5 KiB");
}

TEST(TransfersSizes, SweepsDoubleUpToTheLastSize) {
  Sweep s;
  ASSERT_EQ(parse_sweep("4KiB..1GiB", &s), "");
  const std::vector<uint64_t> sizes = sweep_sizes(s);
  ASSERT_EQ(sizes.size(), 19u);
  EXPECT_EQ(sizes.front(), 4096u);
  EXPECT_EQ(sizes.back(), uint64_t(1) << 30);
  ASSERT_EQ(parse_sweep("3KiB..10KiB", &s), "");
  EXPECT_EQ(sweep_sizes(s), (std::vector<uint64_t>{3072, 6144, 10240}));
  ASSERT_EQ(parse_sweep("1MiB..1MiB", &s), "");
  EXPECT_EQ(sweep_sizes(s).size(), 1u);
  for (const char* bad : {"4KiB", "1GiB..4KiB", "..1GiB", "4KiB..", "4K..1G", "0..1MiB"})
    EXPECT_NE(parse_sweep(bad, &s), "") << bad;
}

TEST(TransfersMemory, RefusesBeyondFreeMemory) {
  const MemoryInfo m{uint64_t(10) << 30, uint64_t(80) << 30};
  EXPECT_EQ(check_fits("x", uint64_t(1) << 30, uint64_t(1) << 30, m), "");
  const std::string host = check_fits("h2d-pinned of 9 GiB", uint64_t(9) << 30, 0, m);
  EXPECT_NE(host.find("host memory"), std::string::npos) << host;
  EXPECT_NE(host.find("refused before allocating"), std::string::npos);
  const std::string dev = check_fits("managed", 0, uint64_t(70) << 30, m);
  EXPECT_NE(dev.find("never oversubscribed"), std::string::npos) << dev;
  EXPECT_EQ(check_fits("unknown", uint64_t(1) << 40, uint64_t(1) << 40, MemoryInfo{}), "")
      << "unknown: no refusal";
  EXPECT_GT(host_available_bytes(), 0u);
}

TEST(TransfersLink, LineRateFromSysfsText) {
  EXPECT_NEAR(line_rate_gbps("32.0 GT/s PCIe", "16"), 63.015, 0.01);  // Gen5 x16, 128b/130b
  EXPECT_NEAR(line_rate_gbps("16.0 GT/s PCIe", "16"), 31.51, 0.01);
  EXPECT_NEAR(line_rate_gbps("8 GT/s", "8"), 7.877, 0.01);
  EXPECT_NEAR(line_rate_gbps("5.0 GT/s", "16"), 8.0, 1e-9);  // Gen2: 8b/10b
  EXPECT_EQ(line_rate_gbps("Unknown", "16"), 0.0);
  EXPECT_EQ(line_rate_gbps("32.0 GT/s", "0"), 0.0);
  EXPECT_EQ(line_rate_gbps("", ""), 0.0);
  std::string why;
  EXPECT_EQ(pci_line_rate_gbps("00000000:ff:1f.7", &why), 0.0);
  EXPECT_NE(why, "");
}

TEST(TransfersData, PatternAndPipelineReference) {
  std::vector<uint8_t> buf(1003);
  fill_pattern(buf, 0, 9);
  EXPECT_EQ(verify_pattern(buf, 9), "");
  for (size_t i = 0; i < buf.size(); ++i) ASSERT_EQ(buf[i], pattern_byte(i, 9));
  std::vector<uint8_t> part(77);
  fill_pattern(part, 13, 9);  // an unaligned start
  EXPECT_EQ(first_mismatch(part, 13, 9), part.size());
  buf[517] ^= 1;
  EXPECT_NE(verify_pattern(buf, 9).find("byte 517"), std::string::npos);
  EXPECT_NE(verify_pattern(buf, 10), "") << "another seed differs";

  const std::vector<uint32_t> y = pipeline_cpu(100003, 7, 3);
  EXPECT_EQ(verify_pipeline(y, 7, 3), "");
  EXPECT_EQ(y[5], mix(pattern_word(5, 3), 7));
  EXPECT_NE(verify_pipeline(y, 8, 3), "");
  std::vector<uint32_t> bad = y;
  bad[99999] ^= 4;
  EXPECT_NE(verify_pipeline(bad, 7, 3).find("word 99999"), std::string::npos);
}

TEST(TransfersData, ChunksCoverTheWordsOnce) {
  for (size_t words : {size_t(1), size_t(7), size_t(64), size_t(1000003)})
    for (int chunks : {1, 3, 16, 64}) {
      if (words < size_t(chunks)) continue;
      size_t next = 0;
      for (int c = 0; c < chunks; ++c) {
        const ChunkRange r = chunk_range(words, chunks, c);
        EXPECT_EQ(r.first, next);
        EXPECT_GT(r.count, 0u);
        next = r.first + r.count;
      }
      EXPECT_EQ(next, words);
    }
  PipelineConfig c;
  EXPECT_EQ(check_pipeline(c), "");
  c.streams = 17;
  EXPECT_NE(check_pipeline(c), "");
  c.streams = 0;
  EXPECT_NE(check_pipeline(c), "");
  c = {};
  c.chunks = 65;
  EXPECT_NE(check_pipeline(c), "");
  c = {};
  c.intensity = 0;
  EXPECT_NE(check_pipeline(c), "");
  c = {};
  c.bytes = 4 * 10;
  c.chunks = 11;
  EXPECT_NE(check_pipeline(c), "") << "fewer words than chunks";
}

TEST(TransfersCpu, HostRungsCopyEveryByte) {
  auto e = make_cpu_engine();
  const Variant* pageable = find_variant("host-pageable");
  for (uint64_t b : {uint64_t(1), uint64_t(4099), uint64_t(1) << 20}) {
    e->prepare(*pageable, b, 1);
    EXPECT_EQ(e->verify_transfer(), "");
    EXPECT_GE(e->time_transfer(3), 0.0);
  }
  // Page-locking may be refused by ulimit -l here: then it says so.
  try {
    e->prepare(*find_variant("host-locked"), 8191, 1);
    EXPECT_EQ(e->verify_transfer(), "");
  } catch (const std::runtime_error& ex) {
    EXPECT_NE(std::string(ex.what()).find("mlock"), std::string::npos);
  }
  EXPECT_THROW(e->prepare(*find_variant("h2d-pinned"), 4096, 1), std::invalid_argument);
  EXPECT_NE(e->why_unavailable(*find_variant("h2d-pinned")), "");
  PipelineConfig c;
  c.bytes = 4 * 4097;
  c.chunks = 3;
  const PipelineRun r = e->run_pipeline(*find_variant("pipeline-cpu"), c, true);
  EXPECT_EQ(verify_pipeline(e->pipeline_output(), c.intensity, c.seed), "");
  ASSERT_EQ(r.spans.size(), 1u);
}

TEST(TransfersCpu, FaultsFromTheEnvironment) {
  ::setenv("GPULAB_TRANSFERS_FAULTS", "pinning,managed", 1);
  Faults f = faults_from_env();
  EXPECT_TRUE(f.refuse_pinning);
  EXPECT_TRUE(f.no_managed);
  EXPECT_FALSE(f.no_async_engines);
  ::unsetenv("GPULAB_TRANSFERS_FAULTS");
  f = faults_from_env();
  EXPECT_FALSE(f.refuse_pinning);
}

TEST(TransfersDemo, OptionsPickTheStageAndRefuseBadValues) {
  {
    TransfersDemo d;
    EXPECT_EQ(configure(d, {}), "");
    EXPECT_EQ(d.stage(), kBandwidthStage);
    EXPECT_EQ(d.bytes(), uint64_t(64) << 20);
  }
  {
    TransfersDemo d;
    EXPECT_EQ(configure(d, {"--bytes", "256MiB", "--sweep", "4KiB..1GiB"}), "");
    EXPECT_EQ(d.bytes(), uint64_t(256) << 20);
    EXPECT_EQ(d.sweep().hi, uint64_t(1) << 30);
  }
  {
    TransfersDemo d;
    EXPECT_EQ(configure(d, {"--streams", "8", "--chunks", "32", "--intensity", "100"}), "");
    EXPECT_EQ(d.stage(), kOverlapStage);
    EXPECT_EQ(d.pipeline().streams, 8);
    EXPECT_EQ(d.pipeline().chunks, 32);
    EXPECT_EQ(d.pipeline().intensity, 100);
    EXPECT_FALSE(d.stages()[kBandwidthStage].active);
  }
  {
    TransfersDemo d;
    EXPECT_EQ(configure(d, {"--variant", "graph"}), "");
    EXPECT_EQ(d.stage(), kOverlapStage);
    EXPECT_EQ(d.variant(kOverlapStage).id, "graph");
  }
  for (std::vector<const char*> bad : {std::vector<const char*>{"--bytes", "4K"},
                                       {"--bytes", "0"},
                                       {"--bytes", "nan"},
                                       {"--bytes", ""},
                                       {"--sweep", "1GiB..4KiB"},
                                       {"--streams", "17"},
                                       {"--streams", "0"},
                                       {"--chunks", "65"},
                                       {"--intensity", "0"},
                                       {"--intensity", "1e3"},
                                       {"--bytes", "8B", "--chunks", "4"},
                                       {"--sweep", "4KiB..1MiB", "--streams", "2"},
                                       {"--variant", "h2d-pinned", "--save-timeline", "/tmp/x.png"},
                                       {"--seed", "3"},
                                       {"--steps", "10"}}) {
    TransfersDemo d;
    std::string joined;
    for (const char* a : bad) joined += std::string(a) + " ";
    EXPECT_NE(configure(d, bad), "") << joined;
  }
}

TEST(TransfersView, TimelineLayoutFromRecordedSpans) {
  // Two streams, two chunks; stream 1's H2D was reached while the engine still copied chunk 0.
  const std::vector<Span> spans{{Op::H2D, 0, 0, 0.0, 1.0},    {Op::Kernel, 0, 0, 1.0, 2.0},
                                {Op::D2H, 0, 0, 2.0, 3.0},    {Op::H2D, 1, 1, 0.1, 2.0},
                                {Op::Kernel, 1, 1, 2.0, 3.0}, {Op::D2H, 1, 1, 3.0, 4.0}};
  PipelineBounds b{2.0, 2.0, 2.0};
  const transfers_view::TimelineLayout t = transfers_view::layout_timeline(spans, 2, 4.0, b);
  ASSERT_EQ(t.lanes.size(), 5u);
  EXPECT_EQ(t.lanes[0], "H2D copy engine");
  EXPECT_EQ(t.lanes[4], "stream 1");
  ASSERT_EQ(t.bars.size(), 12u);
  for (const transfers_view::Bar& bar : t.bars)
    if (bar.lane == 0 && bar.chunk == 1)
      EXPECT_DOUBLE_EQ(bar.begin_ms, 1.0) << "the engine was busy until 1 ms";
  EXPECT_DOUBLE_EQ(t.bound_ms, 2.0);
  EXPECT_DOUBLE_EQ(t.sum_ms, 6.0);
  EXPECT_GE(t.axis_ms, 6.0) << "the serial sum fits on the axis";
  EXPECT_DOUBLE_EQ(t.tick_ms, 1.0);
  EXPECT_DOUBLE_EQ(transfers_view::nice_step(37, 8), 5.0);
  EXPECT_DOUBLE_EQ(transfers_view::nice_step(0.9, 8), 0.2);
  const transfers_view::TimelineLayout empty = transfers_view::layout_timeline({}, 3, 0, {});
  EXPECT_EQ(empty.lanes.size(), 6u);
  EXPECT_TRUE(empty.bars.empty());
  EXPECT_EQ(empty.bound_ms, 0.0);
}

TEST(TransfersView, CurveHalfRateAndAxes) {
  transfers_view::Curve c{"h2d-pinned", {{4096, 2}, {65536, 20}, {1 << 20, 40}, {1 << 24, 50}}};
  EXPECT_EQ(transfers_view::half_rate_bytes(c), uint64_t(1) << 20);  // 40 >= 50 / 2
  transfers_view::BandwidthChart chart{{c}, 63.0, "", ""};
  const transfers_view::ChartAxes a = transfers_view::chart_axes(chart);
  EXPECT_LE(a.x_lo, 4096);
  EXPECT_GE(a.x_hi, double(1 << 24));
  EXPECT_LE(a.y_lo, 2);
  EXPECT_GE(a.y_hi, 63);
}

TEST(TransfersView, CsvRows) {
  const std::string s = transfers_view::sweep_csv({{"h2d-pinned", 4096, 0.01, 0.4096}}, 63.0);
  EXPECT_EQ(s, "rung,bytes,ms,gbps,pct_line_rate\nh2d-pinned,4096,0.01,0.4096,0.7\n");
  const std::string t = transfers_view::spans_csv({{Op::Kernel, 1, 2, 0.5, 1.25}});
  EXPECT_EQ(t, "stream,chunk,op,begin_ms,end_ms\n1,2,kernel,0.500000,1.250000\n");
}

TEST(TransfersView, TheSlidePngDrawsTheBars) {
  const std::vector<Span> spans{
      {Op::H2D, 0, 0, 0.0, 4.0}, {Op::Kernel, 0, 0, 4.0, 8.0}, {Op::D2H, 0, 0, 8.0, 12.0}};
  transfers_view::TimelineLayout t = transfers_view::layout_timeline(spans, 1, 12.0, {4.0, 4.0, 4.0});
  t.title = "test";
  const fs::path out = fs::temp_directory_path() / "gpulab-transfers-slide-test.png";
  ASSERT_EQ(transfers_view::save_timeline_png(out, t, 960, 540), "");
  std::string err;
  const gl::Image img = gl::read_image(out, &err);
  ASSERT_EQ(err, "");
  ASSERT_EQ(img.width, 960);
  ASSERT_EQ(img.height, 540);
  // Count pixels of the three op colours: each op's bar is there.
  for (Op op : {Op::H2D, Op::D2H}) {
    const uint32_t c = transfers_view::op_colour(op);
    size_t n = 0;
    for (size_t i = 0; i < img.rgba.size(); i += 4)
      if (img.rgba[i] == (c & 0xFF) && img.rgba[i + 1] == ((c >> 8) & 0xFF) &&
          img.rgba[i + 2] == ((c >> 16) & 0xFF))
        ++n;
    EXPECT_GT(n, 1000u) << transfers_view::op_name(op);
  }
  fs::remove(out);
  transfers_view::RasterPainter p(100, 50, 0xFF000000, 1);
  p.rect({10, 10, 20, 20}, 0xFF0000FF);
  EXPECT_EQ(p.pixel(15, 15), 0xFF0000FFu);
  EXPECT_EQ(p.pixel(25, 15), 0xFF000000u);
  p.text(30, 10, "GPU", 0xFFFFFFFF);
  size_t lit = 0;
  for (int y = 0; y < 50; ++y)
    for (int x = 30; x < 100; ++x) lit += p.pixel(x, y) != 0xFF000000u;
  EXPECT_GT(lit, 20u) << "text is drawn";
}

TEST(TransfersLesson, StepsParse) {
  const presenter::LessonLoad r =
      presenter::load_lesson(fs::path(GPULAB_TEST_ASSETS) / "lessons" / "06-transfers.toml", make_demos);
  ASSERT_TRUE(r.lesson) << r.error;
  ASSERT_GE(r.lesson->steps.size(), 8u);
  EXPECT_EQ(r.lesson->steps[0].demo, "transfers");
}

}  // namespace
}  // namespace gpulab

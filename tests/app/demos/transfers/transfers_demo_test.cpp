// The transfers demo without a GPU (cpu label): sizes and sweeps, the memory checks, the line rate from
// sysfs text, the pattern and the pipeline's CPU reference, the host memcpy rungs, the command line and
// its refusals, the timeline's layout from recorded spans, the CSV, the slide PNG and the lesson; the
// display stage's sizes, frames, table and bars; one transfer at --bytes a frame while a curve is swept.
#include "demos/transfers/transfers_demo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <tuple>
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
  // A number without a unit was taken as bytes without a word (--bytes 256: 256 bytes, not MiB):
  // the unit is required, and the message gives the spelling for bytes.
  uint64_t unchanged = 7;
  EXPECT_EQ(parse_bytes("256", &unchanged),
            "size '256' has no unit: write 256B for bytes, or 256KiB, 256MiB or 256GiB");
  EXPECT_EQ(unchanged, 7u);
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

// The H100's figures (256 MiB, 16 chunks): the graph rung's 6.05 ms was this bound, 1.11x the floor.
TEST(TransfersData, TheFloorIsTheSlowerOfKernelAndDuplexAndChunksAddTheirFillAndDrain) {
  PipelineBounds b{5.04, 4.56, 4.86};
  EXPECT_DOUBLE_EQ(b.floor_ms(), 5.04) << "no duplex measured: the bound";
  b.duplex_ms = 5.446;
  EXPECT_DOUBLE_EQ(b.bound_ms(), 5.04);
  EXPECT_DOUBLE_EQ(b.floor_ms(), 5.446);
  EXPECT_NEAR(b.chunked_ms(16), 5.446 + 9.9 / 16, 1e-12);
  EXPECT_NEAR(b.chunked_ms(16) / b.floor_ms(), 1.114, 1e-3);
  EXPECT_NEAR(b.chunked_ms(32), 5.446 + 9.9 / 32, 1e-12);
  EXPECT_DOUBLE_EQ(b.chunked_ms(0), b.chunked_ms(1)) << "no chunk count is one chunk";
  b.kernel_ms = 7.0;
  EXPECT_DOUBLE_EQ(b.chunked_ms(4), 7.0 + 9.9 / 4);
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
  // A pipeline larger than the host's free memory is refused before allocating, as the host rungs are,
  // and the last output stays.
  const uint64_t avail = host_available_bytes();
  ASSERT_GT(avail, 0u) << "MemAvailable unreadable";
  PipelineConfig huge;
  huge.bytes = avail & ~uint64_t(3);
  try {
    e->run_pipeline(*find_variant("pipeline-cpu"), huge, false);
    ADD_FAILURE() << "a pipeline of all free memory ran";
  } catch (const std::invalid_argument& ex) {
    EXPECT_NE(std::string(ex.what()).find("of host memory, but only"), std::string::npos) << ex.what();
    EXPECT_NE(std::string(ex.what()).find("refused before allocating"), std::string::npos) << ex.what();
  }
  EXPECT_EQ(e->pipeline_output().size(), c.words());
  EXPECT_EQ(verify_pipeline(e->pipeline_output(), c.intensity, c.seed), "");
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
  {
    // Too few bytes for the chunks: the options are named, with what would do (it blamed "the pipeline").
    TransfersDemo d;
    EXPECT_EQ(
        configure(d, {"--bytes", "1B"}),
        "--bytes '1B' with 16 chunks: the pipeline's 1 B is fewer 4-byte words than its 16 chunks (give "
        "at least 64 B, or fewer --chunks)");
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
  for (const transfers_view::Bar& bar : t.bars) {
    if (bar.lane == 0 && bar.chunk == 1) {
      EXPECT_DOUBLE_EQ(bar.begin_ms, 1.0) << "the engine was busy until 1 ms";
    }
  }
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

TEST(TransfersDisplay, FrameSizesAndTheCpuFrame) {
  FrameSize f;
  EXPECT_EQ(parse_frame_size("1920x1080", &f), "");
  EXPECT_EQ(f, (FrameSize{1920, 1080}));
  EXPECT_EQ(parse_frame_size(" 333X217 ", &f), "");
  EXPECT_EQ(f, (FrameSize{333, 217}));
  EXPECT_EQ(parse_frame_size("1x1", &f), "");
  EXPECT_EQ(parse_frame_size("8192x8192", &f), "");
  for (const char* bad : {"", "1920", "1920x", "x1080", "0x10", "10x0", "8193x10", "-5x5", "1920x1080x3",
                          "4K", "1920 x 1080", "99999999999999999999x1", "12x12\x1b[31m"}) {
    FrameSize g{7, 7};
    const std::string why = parse_frame_size(bad, &g);
    EXPECT_NE(why, "") << bad;
    EXPECT_EQ(g, (FrameSize{7, 7})) << bad;
    EXPECT_EQ(why.find('\x1b'), std::string::npos) << "control bytes are escaped";
  }
  // The reference at odd sizes; one pixel changed, a row swapped: both found.
  for (FrameSize s : {FrameSize{1, 1}, FrameSize{7, 3}, FrameSize{333, 217}}) {
    std::vector<uint32_t> px = frame_reference(s.width, s.height, 5);
    ASSERT_EQ(px.size(), size_t(s.width) * s.height);
    EXPECT_EQ(verify_frame(px, s.width, s.height, 5), "");
    EXPECT_EQ(px[0], frame_pixel(0, 0, s.width, s.height, 5));
    EXPECT_EQ(px.back() >> 24, 0xFFu) << "opaque";
    EXPECT_NE(verify_frame(px, s.width, s.height, 6), "") << "another frame differs";
    px.back() ^= 1;
    EXPECT_NE(verify_frame(px, s.width, s.height, 5).find("pixel (" + std::to_string(s.width - 1)),
              std::string::npos);
  }
  std::vector<uint32_t> px = frame_reference(64, 48, 2);
  std::swap_ranges(px.begin() + 64 * 10, px.begin() + 64 * 11, px.begin() + 64 * 11);
  EXPECT_NE(verify_frame(px, 64, 48, 2).find("(0, 10)"), std::string::npos) << "two rows swapped show";
  EXPECT_NE(verify_frame(std::vector<uint32_t>(10), 4, 4, 0), "") << "the wrong count of pixels";
}

TEST(TransfersDisplay, TheStageTableAndItsOptions) {
  TransfersDemo d;
  ASSERT_EQ(configure(d, {"--frame-size", "3840x2160"}), "");
  EXPECT_EQ(d.stage(), kDisplayStage);
  EXPECT_EQ(d.frame_size(), (FrameSize{3840, 2160}));
  const std::vector<gpulab::Stage> stages = d.stages();
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_EQ(stages[kDisplayStage].id, "display");
  EXPECT_TRUE(stages[kDisplayStage].active);
  EXPECT_FALSE(stages[kBandwidthStage].active);
  EXPECT_NE(stages[kBandwidthStage].inactive_reason.find("display"), std::string::npos);
  std::vector<std::string> ids;
  for (const VariantChoice& v : stages[kDisplayStage].variants) {
    ids.emplace_back(v.id);
    EXPECT_EQ(v.needs_cuda, v.id != "display-cpu") << v.id;
    EXPECT_FALSE(v.lesson.empty());
  }
  EXPECT_EQ(ids,
            (std::vector<std::string>{"display-cpu", "display-host-copy", "display-pbo", "display-interop"}));
  EXPECT_EQ(d.variant(kDisplayStage).id, "display-cpu") << "the CPU default without a device";
  EXPECT_NE(std::string(find_variant("display-interop")->title).find("gpulab's own"), std::string::npos);
  {
    TransfersDemo g;
    ASSERT_EQ(configure(g, {"--variant", "display-pbo"}), "");
    EXPECT_EQ(g.stage(), kDisplayStage);
    EXPECT_EQ(g.frame_size(), (FrameSize{1920, 1080}));
  }
  for (std::vector<const char*> bad : {std::vector<const char*>{"--frame-size", "0x0"},
                                       {"--frame-size", "4K"},
                                       {"--variant", "h2d-pinned", "--frame-size", "640x480"},
                                       {"--variant", "display-cpu", "--sweep", "4KiB..1MiB"},
                                       {"--variant", "display-cpu", "--save-timeline", "/tmp/x.png"}}) {
    TransfersDemo b;
    EXPECT_NE(configure(b, bad), "") << bad[0] << " " << bad[1];
  }
  // Attached without CUDA: the GPU display rungs are listed with the reason.
  Context ctx;
  ctx.cuda = false;
  ctx.cuda_reason = "no CUDA device (test)";
  d.attach(ctx);
  const std::vector<gpulab::Stage> attached = d.stages();
  for (const VariantChoice& v : attached[kDisplayStage].variants) {
    if (v.id == "display-cpu") {
      EXPECT_TRUE(v.available);
    } else {
      EXPECT_FALSE(v.available) << v.id;
      EXPECT_NE(v.unavailable_reason.find("no CUDA device"), std::string::npos) << v.unavailable_reason;
    }
  }
  d.detach();
}

TEST(TransfersDisplay, BarsGroupedBySize) {
  transfers_view::DisplayChart c;
  transfers_view::record_frame_time(c, "display-interop", 3840, 2160, 0.4);
  transfers_view::record_frame_time(c, "display-host-copy", 1920, 1080, 4.0);
  transfers_view::record_frame_time(c, "display-interop", 1920, 1080, 0.2);
  transfers_view::record_frame_time(c, "display-host-copy", 1920, 1080, 2.0);  // replaces 4.0
  ASSERT_EQ(c.times.size(), 3u);
  int rows = 0;
  const std::vector<transfers_view::DisplayBar> bars = transfers_view::layout_display_bars(c, &rows);
  ASSERT_EQ(bars.size(), 3u);
  EXPECT_EQ(rows, 5) << "two size headers and three bars";
  EXPECT_EQ(bars[0].size, "1920x1080") << "the smaller frame first";
  EXPECT_EQ(bars[0].label, "display-host-copy");
  EXPECT_DOUBLE_EQ(bars[0].fraction, 1.0) << "the longest bar";
  EXPECT_EQ(bars[0].row, 1);
  EXPECT_DOUBLE_EQ(bars[1].fraction, 0.1);
  EXPECT_EQ(bars[2].size, "3840x2160");
  EXPECT_EQ(bars[2].row, 4);
  transfers_view::RasterPainter p(640, 360, 0xFF000000, 1);
  transfers_view::draw_display_bars(p, c, {10, 10, 630, 350});
  size_t orange = 0;
  const uint32_t col = transfers_view::display_colour("display-host-copy");
  for (int y = 0; y < 360; ++y)
    for (int x = 0; x < 640; ++x) orange += p.pixel(x, y) == col;
  EXPECT_GT(orange, 1000u) << "the round trip's bar is drawn";
}

// A CPU engine that counts the transfers it times, by size: what one frame of the demo moves.
class CountingEngine final : public Engine {
 public:
  explicit CountingEngine(std::map<uint64_t, int>* counts) : e_(make_cpu_engine()), counts_(counts) {}
  Backend backend() const override { return e_->backend(); }
  std::string_view device_name() const override { return e_->device_name(); }
  std::string why_unavailable(const Variant& v) const override { return e_->why_unavailable(v); }
  void prepare(const Variant& v, uint64_t bytes, uint32_t seed) override {
    bytes_ = bytes;
    e_->prepare(v, bytes, seed);
  }
  void run(int steps) override {
    (*counts_)[bytes_] += steps;
    e_->run(steps);
  }
  double time_transfer(int repeats) override {
    (*counts_)[bytes_] += std::max(1, repeats);
    return e_->time_transfer(repeats);
  }
  std::string verify_transfer() override { return e_->verify_transfer(); }
  PipelineRun run_pipeline(const Variant& v, const PipelineConfig& c, bool spans) override {
    return e_->run_pipeline(v, c, spans);
  }
  void run_pipeline_steps(const Variant& v, const PipelineConfig& c, int steps) override {
    e_->run_pipeline_steps(v, c, steps);
  }
  std::vector<uint32_t> pipeline_output() override { return e_->pipeline_output(); }
  PipelineBounds measure_bounds(const PipelineConfig& c, int repeats) override {
    return e_->measure_bounds(c, repeats);
  }

 private:
  std::unique_ptr<Engine> e_;
  std::map<uint64_t, int>* counts_;
  uint64_t bytes_ = 0;
};

TEST(TransfersDemo, OneTransferAtBytesAFrameWhileSweeping) {
  TransfersDemo d;
  ASSERT_EQ(configure(d, {"--variant", "host-pageable", "--bytes", "1000B", "--sweep", "4KiB..16KiB"}), "");
  Context ctx;
  ctx.cuda = false;
  ctx.cuda_reason = "no CUDA device (test)";
  d.attach(ctx);
  std::map<uint64_t, int> counts;
  d.set_cpu_engine_for_tests(std::make_unique<CountingEngine>(&counts));
  Frame f;
  f.playing = true;
  for (int frame = 0; frame < 5; ++frame) {
    counts.clear();
    d.compute(f);
    EXPECT_EQ(counts[1000], 1) << "frame " << frame << ": the transfer at --bytes, once";
    const int sweep = counts[4096] + counts[8192] + counts[16384];
    EXPECT_EQ(sweep, frame < 3 ? 5 : 0)
        << "frame " << frame << ": one point of the curve (5 repeats), until done";
  }
  d.detach();
}

TEST(TransfersLesson, StepsParse) {
  const presenter::LessonLoad r =
      presenter::load_lesson(fs::path(GPULAB_TEST_ASSETS) / "lessons" / "06-transfers.toml", make_demos);
  ASSERT_TRUE(r.lesson) << r.error;
  ASSERT_GE(r.lesson->steps.size(), 14u);
  EXPECT_EQ(r.lesson->steps[0].demo, "transfers");
}

}  // namespace
}  // namespace gpulab

namespace gpulab {
namespace {

// Records where each text went (7 px a character, 13 px a line), to check the layout's text.
class TextBoxes final : public transfers_view::Painter {
 public:
  struct Box {
    float x0, y0, x1, y1;
    std::string text;
  };
  struct Line {
    float x0, y0, x1, y1;
    uint32_t colour;
  };
  std::vector<Box> boxes;
  std::vector<Line> lines;
  void rect(transfers_view::Rect, uint32_t) override {}
  void line(float x0, float y0, float x1, float y1, uint32_t c, float) override {
    lines.push_back({x0, y0, x1, y1, c});
  }
  void text(float x, float y, const std::string& s, uint32_t) override {
    boxes.push_back({x, y, x + text_width(s), y + text_height(), s});
  }
  float text_height() const override { return 13; }
  float text_width(const std::string& s) const override { return 7.0f * float(s.size()); }
};

TEST(TransfersTimeline, EveryTextFitsTheViewAndNoneOverlapsAnotherOrAMarkersLine) {
  // The H100's lesson screens: a view narrower than the slide, the bound and achieved times close
  // together, a long title. Drawn at three widths: no text leaves the view, no two overlap, and no
  // marker's line (bound, achieved, serial sum) runs through a text.
  for (const auto& [bound, total, sum] : {std::tuple{4.88, 6.25, 10.91}, std::tuple{5.07, 6.55, 11.14},
                                          std::tuple{5.0, 5.05, 11.9}, std::tuple{9.0, 11.0, 11.9}}) {
    transfers_view::TimelineLayout t;
    t.lanes = {"H2D copy engine", "SMs (kernels)", "D2H copy engine", "stream 0", "stream 1"};
    t.axis_ms = 12, t.tick_ms = 2, t.bound_ms = bound, t.total_ms = total, t.sum_ms = sum;
    t.title = "streams-4 | 256 MiB in 16 chunks | 4 streams | intensity 64 | NVIDIA H100 80GB HBM3";
    for (int i = 0; i < 16; ++i)
      t.bars.push_back({i % 3, transfers::Op::H2D, i % 2, i, 0.7 * i, 0.7 * i + 0.6});
    const transfers_view::TimelinePalette pal = transfers_view::timeline_palette("");
    for (float w : {1037.0f, 640.0f, 420.0f}) {
      char at_text[96];
      std::snprintf(at_text, sizeof at_text, "%.0f px, bound %.2f, achieved %.2f, sum %.2f ms", w, bound,
                    total, sum);
      const std::string at = at_text;
      TextBoxes p;
      const transfers_view::Rect v{20, 10, 20 + w, 10 + 600};
      transfers_view::draw_timeline(p, t, v, pal);
      ASSERT_FALSE(p.boxes.empty());
      auto ms2 = [](double ms) {
        char b[32];
        std::snprintf(b, sizeof b, "%.2f", ms);
        return std::string(b);
      };
      bool title = false, bound_label = false, achieved = false;
      for (const auto& b : p.boxes) {
        EXPECT_GE(b.x0, v.x0 - 0.5f) << at << ": " << b.text;
        EXPECT_LE(b.x1, v.x1 + 0.5f) << at << ": " << b.text << " runs out of the view";
        EXPECT_GE(b.y0, v.y0 - 0.5f) << at << ": " << b.text;
        EXPECT_LE(b.y1, v.y1 + 0.5f) << at << ": " << b.text;
        title = title || b.text.rfind("streams-4", 0) == 0;
        bound_label = bound_label || b.text.rfind("bound " + ms2(bound), 0) == 0;
        achieved = achieved || b.text.rfind("achieved " + ms2(total), 0) == 0;
      }
      EXPECT_TRUE(title && bound_label && achieved) << at;
      for (size_t i = 0; i < p.boxes.size(); ++i)
        for (size_t j = i + 1; j < p.boxes.size(); ++j) {
          const auto &a = p.boxes[i], &b = p.boxes[j];
          EXPECT_FALSE(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1)
              << at << ": \"" << a.text << "\" over \"" << b.text << "\"";
        }
      int marker_lines = 0;
      for (const auto& l : p.lines) {
        if (l.colour != pal.bound && l.colour != pal.total && l.colour != pal.sum) continue;
        ++marker_lines;
        for (const auto& b : p.boxes) {
          // A bar's chunk number lies under the lines by design; every other text is clear of them.
          if (b.text.find_first_not_of("0123456789") == std::string::npos) continue;
          EXPECT_FALSE(l.x0 > b.x0 && l.x0 < b.x1 && std::min(l.y0, l.y1) < b.y1 &&
                       std::max(l.y0, l.y1) > b.y0)
              << at << ": a marker's line at x " << l.x0 << " runs through \"" << b.text << "\"";
        }
      }
      EXPECT_EQ(marker_lines, 3) << at;
    }
  }
}

// The bandwidth chart's size axis at the lecture's widths (a panel, a projected half screen): every
// text stays in the view, no two overlap (the sweep's labels ran together as "4 Ki16 Ki64 Ki..."),
// and the axis still names its first and last size.
TEST(TransfersBandwidthChart, TheSizeLabelsNeverRunTogether) {
  transfers_view::BandwidthChart c;
  c.title = "bandwidth: 4 KiB to 256 MiB";
  for (const char* id : {"h2d-pinned", "h2d-pageable"}) {
    transfers_view::Curve cv;
    cv.id = id;
    for (uint64_t b = 4096; b <= (uint64_t(256) << 20); b *= 2)
      cv.points.push_back({b, 50.0 * double(b) / double(b + (uint64_t(1) << 20))});
    c.curves.push_back(cv);
  }
  c.line_rate_gbps = 63;
  for (float w : {1400.0f, 1037.0f, 640.0f, 420.0f, 300.0f}) {
    TextBoxes p;
    const transfers_view::Rect v{20, 10, 20 + w, 10 + 400};
    transfers_view::draw_bandwidth(p, c, v);
    const std::string at = std::to_string(int(w)) + " px";
    std::vector<TextBoxes::Box> sizes;
    for (const auto& b : p.boxes) {
      EXPECT_GE(b.x0, v.x0 - 0.5f) << at << ": " << b.text;
      EXPECT_LE(b.x1, v.x1 + 0.5f) << at << ": " << b.text << " runs out of the view";
      if (b.text.find("iB") != std::string::npos && b.text.find(' ') != std::string::npos &&
          b.text.find("to") == std::string::npos)
        sizes.push_back(b);
    }
    ASSERT_GE(sizes.size(), 2u) << at;
    EXPECT_EQ(sizes.front().text, "4 KiB") << at;
    for (size_t i = 0; i < sizes.size(); ++i)
      for (size_t j = i + 1; j < sizes.size(); ++j) {
        const auto &a = sizes[i], &b = sizes[j];
        EXPECT_FALSE(a.x0 < b.x1 + 4 && b.x0 < a.x1 + 4)
            << at << ": \"" << a.text << "\" runs into \"" << b.text << "\"";
      }
  }
}

}  // namespace
}  // namespace gpulab

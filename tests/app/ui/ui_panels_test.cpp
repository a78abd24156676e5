// cpu label: the shared panels run through real ImGui frames without a window or GPU (no renderer
// backend is needed to build draw lists). ImGui asserts on misuse (unbalanced tables, IDs, pushes);
// what a panel shows is read back as text through ImGui's log capture (every rendered string), so
// the tests check the numbers and words a lecturer sees; the throughput arithmetic is checked
// against hand-computed numbers.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <functional>

#include "base/stats.h"
#include "cuda/device_info.h"
#include "cuda/occupancy.h"
#include "ui/device_panel.h"
#include "ui/occupancy_panel.h"
#include "ui/timings_panel.h"

namespace {

class ImGuiFrame : public ::testing::Test {
 protected:
  void SetUp() override {
    IMGUI_CHECKVERSION();
    ctx_ = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 900);
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas; no texture upload needed
  }
  void TearDown() override { ImGui::DestroyContext(ctx_); }

  // Runs one frame with `body` inside a window and returns the vertices it produced.
  int frame(const std::function<void()>& body) {
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(600, 800));
    ImGui::Begin("panel");
    body();
    ImGui::End();
    ImGui::Render();
    return ImGui::GetDrawData()->TotalVtxCount;
  }

  // Runs one frame and returns the text it rendered (labels, table cells, overlays).
  std::string text(const std::function<void()>& body) {
    std::string out;
    frame([&] {
      ImGui::LogToBuffer();
      body();
      out = ImGui::GetCurrentContext()->LogBuffer.c_str();
      ImGui::LogFinish();
    });
    return out;
  }

  ImGuiContext* ctx_ = nullptr;
};

#define EXPECT_SHOWS(haystack, needle) \
  EXPECT_NE((haystack).find(needle), std::string::npos) << "missing '" << (needle) << "' in:\n" << (haystack)

gpulab::cuda::OccupancyReport sample_report() {
  using namespace gpulab::cuda;
  OccupancyReport r;
  r.name = "life_step_shared";
  r.device.cc_major = 9;
  r.device.max_threads_per_sm = 2048;
  r.device.max_blocks_per_sm = 32;
  r.device.max_threads_per_block = 1024;
  r.device.regs_per_sm = 65536;
  r.device.regs_per_block = 65536;
  r.device.smem_per_sm = 233472;
  r.device.smem_per_block_optin = 232448;
  r.device.reserved_smem_per_block = 1024;
  r.attr.num_regs = 40;
  r.attr.max_threads_per_block = 1024;
  r.attr.max_dynamic_smem = 48 * 1024;
  r.attr.local_bytes = 16;
  r.attr.ptx_version = 90;
  r.attr.binary_version = 90;
  r.block_threads = 256;
  r.dynamic_smem = 18 * 18;
  r.limits = occupancy_limits(r.device, r.attr, r.block_threads, r.dynamic_smem);
  r.active_blocks_per_sm = r.limits.min();
  r.formula_active_blocks = r.active_blocks_per_sm;
  r.max_warps_per_sm = 64;
  r.active_warps_per_sm = r.active_blocks_per_sm * r.limits.warps_per_block;
  r.occupancy = static_cast<float>(r.active_warps_per_sm) / 64.0f;
  r.limiters = r.limits.binding(r.active_blocks_per_sm);
  for (int b = 32; b <= 1024; b += 32) {
    const auto L = occupancy_limits(r.device, r.attr, b, r.dynamic_smem);
    OccupancyPoint p;
    p.block_threads = b;
    p.dynamic_smem = r.dynamic_smem;
    p.active_blocks = L.min();
    p.active_warps = p.active_blocks * L.warps_per_block;
    p.occupancy = p.active_warps / 64.0f;
    p.limiters = L.binding(p.active_blocks);
    r.curve.push_back(p);
  }
  r.suggested_block_threads = 768;
  r.suggested_min_grid = 132;
  r.suggested_occupancy = 0.75f;
  return r;
}

}  // namespace

TEST(ThroughputFigures, FromTheMedian) {
  gpulab::RollingSeries s("step", "ms", 16);
  for (double v : {2.0, 4.0, 3.0}) s.push(v);  // median 3 ms
  gpulab::ui::ThroughputRow row;
  row.series = &s;
  row.steps_per_sample = 6;    // 0.5 ms a step
  row.bytes_per_step = 1.0e9;  // 1 GB a step -> 2000 GB/s
  row.items_per_step = 4.0e6;  // -> 8e9 items/s
  const auto f = gpulab::ui::throughput_figures(row, 4000.0);
  ASSERT_TRUE(f.valid);
  EXPECT_DOUBLE_EQ(f.seconds_per_step, 0.5e-3);
  EXPECT_DOUBLE_EQ(f.gb_per_s, 2000.0);
  EXPECT_DOUBLE_EQ(f.percent_of_peak, 50.0);
  EXPECT_DOUBLE_EQ(f.items_per_s, 8.0e9);
  EXPECT_EQ(gpulab::ui::throughput_figures(row, 0.0).percent_of_peak, 0.0);

  row.steps_per_sample = 0;  // paused
  EXPECT_FALSE(gpulab::ui::throughput_figures(row, 4000.0).valid);
  gpulab::RollingSeries empty("e", "ms", 4);
  row.series = &empty;
  row.steps_per_sample = 1;
  EXPECT_FALSE(gpulab::ui::throughput_figures(row, 4000.0).valid);
  row.series = nullptr;
  EXPECT_FALSE(gpulab::ui::throughput_figures(row, 4000.0).valid);
}

TEST_F(ImGuiFrame, TimingsPanelWithNoDataOneSampleAndAFullWindow) {
  EXPECT_SHOWS(text([] { gpulab::ui::timings_panel({}); }), "no timings yet");

  gpulab::RollingSeries step("step", "ms", 240), display("display", "ms", 240), frame_ms("frame", "ms");
  gpulab::RollingSeries empty("upload", "ms");
  step.push(0.25);
  gpulab::ui::TimingsView view;
  view.series = {&step, &display, &empty, nullptr};
  view.frame = &frame_ms;
  view.peak_bandwidth_gbs = 3352.0;
  view.peak_label = "NVIDIA H100";
  gpulab::ui::ThroughputRow row;
  row.label = "step";
  row.series = &step;
  row.steps_per_sample = 4;
  row.bytes_per_step = 2.0 * 16384.0 * 16384.0;
  row.items_per_step = 16384.0 * 16384.0;
  row.item_unit = "cell updates";
  view.throughput = {row};
  const int one = frame([&] { gpulab::ui::timings_panel(view); });
  EXPECT_GT(one, 0);
  {
    // One sample of 0.25 ms for 4 generations: 0.0625 ms each, 2 bytes a cell of 16384².
    const std::string t = text([&] { gpulab::ui::timings_panel(view); });
    EXPECT_SHOWS(t, "step");
    EXPECT_SHOWS(t, "0.250");
    EXPECT_SHOWS(t, "upload");
    EXPECT_SHOWS(t, "8590 GB/s");  // 2 * 16384² B / 62.5 us
    EXPECT_SHOWS(t, "256%");       // of 3352 GB/s: an impossible figure is shown as it is
    EXPECT_SHOWS(t, "cell updates/s");
  }

  for (int i = 0; i < 500; ++i) {
    step.push(0.2 + 0.001 * (i % 17));
    display.push(0.05);
    frame_ms.push(16.6);
  }
  // Several frames: the plotted-series choice goes through ImGui's state storage between them.
  int full = 0;
  for (int i = 0; i < 3; ++i) full = frame([&] { gpulab::ui::timings_panel(view); });
  EXPECT_GT(full, one);  // the plot and throughput rows add geometry

  view.peak_bandwidth_gbs = 0.0;  // CPU backend: no % of peak
  const std::string cpu = text([&] { gpulab::ui::timings_panel(view); });
  EXPECT_SHOWS(cpu, "GB/s");
  EXPECT_EQ(cpu.find('%'), std::string::npos) << cpu;

  // A compute-bound row shows GFLOP/s against the FP32 peak instead of a bandwidth.
  view.peak_fp32_gflops = 66900.0;
  view.throughput[0].bytes_per_step = 0;
  view.throughput[0].flops_per_step = 20.0 * 16384.0 * 16384.0;
  const std::string flops = text([&] { gpulab::ui::timings_panel(view); });
  EXPECT_SHOWS(flops, "GFLOP/s");
  EXPECT_SHOWS(flops, "frame: 60.2 fps");
}

TEST_F(ImGuiFrame, DevicePanel) {
  gpulab::cuda::DeviceInfo d;
  EXPECT_GT(frame([&] { gpulab::ui::device_panel(d); }), 0);
  d.name = "NVIDIA H100 80GB HBM3";
  d.ordinal = 0;
  d.cc_major = 9;
  d.sm_count = 132;
  d.clock_khz = 1980000;
  d.mem_clock_khz = 2619000;
  d.mem_bus_width_bits = 5120;
  d.total_global_mem = 85ull << 30;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  const std::string t = text([&] { gpulab::ui::device_panel(d); });
  EXPECT_SHOWS(t, "NVIDIA H100 80GB HBM3");
  EXPECT_SHOWS(t, "132");
  EXPECT_SHOWS(t, "9.0");
}

TEST_F(ImGuiFrame, OccupancyPanel) {
  EXPECT_GT(frame([] { gpulab::ui::occupancy_panel({}); }), 0);
  std::vector<gpulab::cuda::OccupancyReport> reports{sample_report(), sample_report()};
  reports[1].name = "life_ghost_rows";
  reports[1].formulas_agree = false;
  reports[1].formula_active_blocks = reports[1].active_blocks_per_sm + 1;
  gpulab::cuda::OccupancyReport failed;
  failed.name = "broken";
  failed.error = "no device function address";
  reports.push_back(failed);
  gpulab::cuda::OccupancyReport no_curve = sample_report();
  no_curve.curve.clear();
  no_curve.suggested_block_threads = 0;
  reports.push_back(no_curve);
  const std::string all = text([&] { gpulab::ui::occupancy_panel(reports); });
  EXPECT_SHOWS(all, "life_step_shared");
  EXPECT_SHOWS(all, "life_ghost_rows");
  EXPECT_SHOWS(all, "broken");
  // The first report is open by default: its registers and occupancy are on show.
  const std::string first = text([&] { gpulab::ui::occupancy_report(reports[0]); });
  EXPECT_SHOWS(first, "40");   // registers a thread
  EXPECT_SHOWS(first, "256");  // threads a block
  EXPECT_SHOWS(text([&] { gpulab::ui::occupancy_report(failed); }), "no device function address");
}

#pragma once
// Host side of the transfers demo (the runtime-API lectures: page-locked memory, asynchronous copies,
// streams, events, concurrent kernels, unified memory). Three stages, one shown at a time (the one
// picked last, like the matrix demo's op):
//   bandwidth: a rung (pageable, registered, pinned, write-combined, mapped zero-copy, managed by
//     faults or by prefetch, D2H, D2D; the host's own memcpy as the CPU's yardstick) moving --bytes,
//     and its curve over the --sweep sizes, log-log, against the PCIe line rate read from sysfs;
//   overlap: a pipeline of --chunks chunks over --streams streams (H2D -> the demo's own kernel of
//     --intensity rounds a word -> D2H), its timeline drawn live from events around every chunk's ops
//     against the bound max(H2D, kernel, D2H) and the serial sum;
//   display: a kernel's frame of --frame-size pixels into the GL texture the view shows, by the CPU, by
//     the round trip through the host, through a mapped PBO, or through the mapped texture itself
//     (gpulab's own design), each frame timed until the texture is ready (transfers_display.h).
// Batch: --sweep A..B --save-csv OUT.csv (every bandwidth rung that runs here, or --variant's), and
// --save-timeline OUT.png (the overlap pick's timeline as a slide; --save-csv then writes its spans).
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/demo.h"
#include "demos/common/demo_engines.h"
#include "demos/transfers/transfers_display.h"
#include "demos/transfers/transfers_view.h"
#include "transfers/transfers.h"

namespace gpulab {

// The demo's parameters: its option group's values (sizes as written: "256MiB").
struct TransfersParams final : DemoParams {
  std::string bytes;                           // --bytes SIZE ("": 64 MiB)
  std::string sweep;                           // --sweep LO..HI ("": 4KiB..256MiB in the window)
  std::string frame_size;                      // --frame-size WxH ("": 1920x1080)
  int streams = 0, chunks = 0, intensity = 0;  // 0: not given (4 streams, 16 chunks, 64 rounds)
  std::string save_csv, save_timeline;

  std::unique_ptr<DemoParams> clone() const override { return std::make_unique<TransfersParams>(*this); }
  void add_options(CLI::App& cli) override;
  bool same_input(const DemoParams& other) const override;
  std::vector<std::string> given() const override;
};

// The stage of each table: 0 bandwidth, 1 overlap, 2 display.
inline constexpr size_t kBandwidthStage = 0, kOverlapStage = 1, kDisplayStage = 2;
// What a step of each stage is: the throughput labels' words, so the HUD's, the bench's and the
// ladder's ("2.09 ms per copy").
inline constexpr char kPerCopy[] = "per copy", kPerPass[] = "per pass", kPerFrame[] = "per frame";

// A probe of display rung `v` on `display` at `size` (the window's ladder and the bench make theirs):
// one step is one frame, on the host clock until the texture is ready; verify reads the texture back.
Probe make_display_probe(const transfers::Variant& v, std::shared_ptr<FrameDisplay> display,
                         transfers::FrameSize size, Stream stream);

class TransfersDemo final : public Demo {
 public:
  TransfersDemo();
  ~TransfersDemo() override;

  std::string_view name() const override { return "transfers"; }
  std::string_view title() const override { return "Transfers and streams"; }
  const StageTables& stage_tables() const override;
  std::unique_ptr<DemoParams> make_params() const override { return std::make_unique<TransfersParams>(); }
  std::string configure(const Options& options) override;
  bool picks_changed(const Picks& before, std::string* why) override;
  std::string inactive_reason(size_t stage) const override;
  std::string why_unavailable(size_t stage, int variant) const override;
  size_t lead_stage() const override { return stage_; }

  void attach(Context& ctx) override;
  void compute(Frame& frame) override;
  // The chart (bandwidth curves, timeline or display bars) in the view, with or without the panel.
  void render(Frame& frame) override { draw_view(frame); }
  void ui(Frame& frame) override;  // transfers_panel.cpp: the panel, and the chart drawn in the view
  void detach() override;

  bool open_file(const std::filesystem::path& path, std::string* error) override;
  bool batch_requested() const override;
  std::string run_batch(const Options& options) override;
  bool bench(const Setup& setup, const Options& options, BenchSpec* out) override;  // transfers_bench.cpp
  Probe probe(const Picks& picks, size_t stage) override;
  std::vector<KernelInfo> kernels() const override;
  std::vector<Throughput> throughput() const override;
  std::vector<KeyBinding> keys() const override;  // transfers_panel.cpp
  std::string caption() const override;           // transfers_panel.cpp

  // For tests and the panel.
  size_t stage() const { return stage_; }
  const transfers::Variant& variant(size_t stage) const;
  uint64_t bytes() const { return bytes_; }
  const transfers::Sweep& sweep() const { return sweep_; }
  const transfers::PipelineConfig& pipeline() const { return pipeline_; }
  // Runs the overlap pick once with chunk events (synchronous); its layout, with the bounds measured
  // for this configuration (once per configuration, on the GPU).
  transfers_view::TimelineLayout run_timeline(std::string* error);
  // The bandwidth of `v` at `bytes` (median of `repeats` transfers); *error set when it cannot run.
  double measure_gbps(const transfers::Variant& v, uint64_t bytes, int repeats, std::string* error);
  std::string verify();
  double line_rate_gbps() const { return line_rate_; }
  transfers::FrameSize frame_size() const { return frame_size_; }
  // The display stage: frame n of rung v at `size` into the view's texture (GL context current);
  // milliseconds until the texture was ready; *error set when it cannot run.
  double run_display_frame(const transfers::Variant& v, transfers::FrameSize size, uint32_t n,
                           std::string* error);
  // Every display rung that runs here, `frames` frames each at 1920x1080 and 3840x2160 (and
  // --frame-size), into the chart (the panel's button): the median of each.
  void time_display_paths(int frames);
  const transfers_view::DisplayChart& display_chart() const { return display_chart_; }
  const FrameDisplay* frame_display() const { return display_.get(); }
  // The cost of pinning `bytes` (the panel's button, shown in the panel and on the chart); "" or why not.
  std::string time_pinning(uint64_t bytes);
  const std::optional<transfers::PinningCost>& pinning() const { return pinning_; }
  // Tests: the CPU engine the demo runs its host rungs on (e.g. one that counts transfers).
  void set_cpu_engine_for_tests(std::unique_ptr<transfers::Engine> e) {
    engines_.set_cpu_for_tests(std::move(e));
  }

 private:
  void say_pipeline_estimate();  // a long batch pipeline's estimate, before it runs (transfers_demo.cpp)
  transfers::Engine* engine_for(const transfers::Variant& v) const {
    return engines_.of(v.backend == transfers::Backend::Cuda);
  }
  std::string configure_params();
  void notify(std::string line) const;
  void ui_bandwidth(float w);
  void ui_overlap(float w);
  void ui_display(float w);
  FrameDisplay& display();
  Probe display_probe(const transfers::Variant& v);
  void draw_view(const Frame& frame);

  Context* ctx_ = nullptr;
  DemoEngines<transfers::Engine> engines_;
  transfers::Faults faults_;
  size_t stage_ = kBandwidthStage;
  std::string cpu_pipeline_key_;  // the configuration the CPU pipeline last ran (it runs once each)
  uint64_t bytes_ = uint64_t(64) << 20;
  transfers::Sweep sweep_{uint64_t(4) << 10, uint64_t(256) << 20};
  transfers::PipelineConfig pipeline_;
  double line_rate_ = 0;
  std::string line_rate_why_;
  std::string save_image_;
  transfers::FrameSize frame_size_;

  // Live state.
  double last_gbps_ = 0, last_ms_ = 0;
  std::string last_error_;
  transfers_view::BandwidthChart chart_;
  size_t sweep_next_ = 0;   // the next size of the current rung's curve
  std::string sweep_rung_;  // whose curve is being measured
  transfers_view::TimelineLayout timeline_;
  transfers::PipelineBounds bounds_;
  std::string bounds_key_;
  double timeline_draw_ms_ = 0;
  std::string verify_result_;
  bool verify_ok_ = false;
  int last_runs_ = 0;
  // Display.
  std::unique_ptr<FrameDisplay> display_;  // made on first use, with the GL context current
  transfers_view::DisplayChart display_chart_;
  std::vector<double> frame_ms_;  // the current rung's last frames (the chart shows their median)
  std::string frame_rung_;        // whose frames they are, at which size
  uint32_t frame_n_ = 0;
  double kernel_ms_ = 0;  // the kernel alone at the current size (CUDA events)
  std::string kernel_key_;
  std::thread::id gl_thread_;  // the thread that attached: the one the GL context is current on
  // Pinning.
  std::optional<transfers::PinningCost> pinning_;
  std::string pinning_error_;
};

}  // namespace gpulab

// The transfers demo: its options, stages, engines, the frame's runs, probes and batch mode.
#include "demos/transfers/transfers_demo.h"
#include "core/batch.h"
#include "core/cli.h"

#include "core/timings.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "common/file_io.h"
#include "common/text.h"
#include "core/cli_number.h"
#include "demos/common/cuda_start.h"
#include "demos/common/stage_table.h"

namespace gpulab {

namespace {
// The timing section of a step (a transfer, or a pass of the pipeline).
constexpr const char* kStepSection = "step";
}  // namespace

using transfers::Backend;

using transfers::Variant;

namespace {
constexpr uint32_t kSeed = 1;
constexpr std::string_view kGpuDefaults[3] = {"h2d-pinned", "streams-n", "display-interop"};
constexpr std::string_view kCpuDefaults[3] = {"host-pageable", "pipeline-cpu", "display-cpu"};
constexpr std::string_view kStageIds[3] = {"bandwidth", "overlap", "display"};
constexpr std::string_view kStageTitles[3] = {"bandwidth ladder", "overlap (chunks over streams)",
                                              "display (a frame into the GL texture)"};
transfers::Stage stage_of(size_t s) {
  return s == kBandwidthStage ? transfers::Stage::Bandwidth
         : s == kOverlapStage ? transfers::Stage::Overlap
                              : transfers::Stage::Display;
}
size_t stage_index(size_t focus) { return focus <= kDisplayStage ? focus : kBandwidthStage; }
// The frame sizes the display stage is timed at (the panel's button, the bench).
constexpr transfers::FrameSize kFrameSizes[2] = {{1920, 1080}, {3840, 2160}};
std::string size_label(transfers::FrameSize s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}
}  // namespace

// ---------------------------------------------------------------------------------------------
// Options.

void TransfersParams::add_options(CLI::App& cli) {
  CLI::Option_group* g = cli.add_option_group("Transfers and streams (--demo transfers)");
  g->add_option("--bytes", bytes, "bytes a transfer moves / the pipeline's size, with a unit (default 64MiB)")
      ->type_name("SIZE");
  g->add_option("--sweep", sweep,
                "bandwidth: the curve's sizes, LO..HI doubling (window default 4KiB..256MiB)")
      ->type_name("LO..HI");
  g->add_option("--streams", streams, "overlap: streams of streams-n, graph, async-pageable (default 4)")
      ->type_name("N")
      ->check(whole_number(transfers::kMinStreams, transfers::kMaxStreams));
  g->add_option("--chunks", chunks, "overlap: chunks the pipeline is cut into (default 16)")
      ->type_name("N")
      ->check(whole_number(transfers::kMinChunks, transfers::kMaxChunks));
  g->add_option("--intensity", intensity, "overlap: rounds of the kernel's mix a word (default 64)")
      ->type_name("N")
      ->check(whole_number(transfers::kMinIntensity, transfers::kMaxIntensity));
  g->add_option("--frame-size", frame_size,
                "display: the frame the kernel writes into the GL texture, WxH (default 1920x1080)")
      ->type_name("WxH");
  g->add_option("--save-csv", save_csv,
                "batch: the sweep's GB/s (bandwidth), the spans (overlap) or each display path's ms a frame "
                "(display) as CSV")
      ->type_name(kOutputPath);
  g->add_option("--save-timeline", save_timeline,
                "batch: the overlap pick's timeline as a 1920x1080 PNG slide")
      ->type_name(kOutputPath);
}

bool TransfersParams::same_input(const DemoParams& other) const {
  const auto& o = dynamic_cast<const TransfersParams&>(other);
  return bytes == o.bytes && sweep == o.sweep && streams == o.streams && chunks == o.chunks &&
         intensity == o.intensity && frame_size == o.frame_size;
}

std::vector<std::string> TransfersParams::given() const {
  std::vector<std::string> out;
  if (!bytes.empty()) out.push_back("--bytes " + bytes);
  if (!sweep.empty()) out.push_back("--sweep " + sweep);
  if (streams) out.push_back("--streams " + std::to_string(streams));
  if (chunks) out.push_back("--chunks " + std::to_string(chunks));
  if (intensity) out.push_back("--intensity " + std::to_string(intensity));
  if (!frame_size.empty()) out.push_back("--frame-size " + frame_size);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Stages.

TransfersDemo::TransfersDemo()
    : engines_(transfers::make_cpu_engine()), faults_(transfers::faults_from_env()) {}
TransfersDemo::~TransfersDemo() = default;

const StageTables& TransfersDemo::stage_tables() const {
  static const StageTables tables = [] {
    StageTables t;
    for (size_t s : {kBandwidthStage, kOverlapStage, kDisplayStage})
      t.stages.push_back(make_stage_table(
          kStageIds[s], kStageTitles[s], transfers::variants_of(stage_of(s)),
          [](const Variant& v) { return v.backend == Backend::Cuda; }, kGpuDefaults[s], kCpuDefaults[s]));
    return t;
  }();
  return tables;
}

const Variant& TransfersDemo::variant(size_t stage) const {
  return *transfers::variants_of(stage_of(stage))[size_t(pick(stage).variant)];
}

std::string TransfersDemo::why_unavailable(size_t stage, int vi) const {
  const Variant& v = *transfers::variants_of(stage_of(stage))[size_t(vi)];
  if (std::string why = engines_.why_unavailable(v.backend == Backend::Cuda); !why.empty()) return why;
  if (v.backend == Backend::Cuda && engines_.gpu() && v.stage != transfers::Stage::Display)
    return engines_.gpu()->why_unavailable(v);
  return {};
}

std::string TransfersDemo::inactive_reason(size_t stage) const {
  if (stage == stage_) return {};
  const char* shown = stage_ == kBandwidthStage ? "the bandwidth ladder is shown"
                      : stage_ == kOverlapStage ? "the timeline is shown"
                                                : "the display paths are shown";
  const char* choose = stage == kBandwidthStage ? "choosing a bandwidth rung shows the ladder"
                       : stage == kOverlapStage ? "choosing an overlap rung shows the timeline"
                                                : "choosing a display rung shows the frame and its paths";
  return std::string(shown) + " (" + choose + ")";
}

bool TransfersDemo::picks_changed(const Picks&, std::string* why) {
  if (setup().focus) stage_ = stage_index(*setup().focus);
  verify_result_.clear();
  last_error_.clear();
  if (ctx_) {
    const Variant& v = variant(stage_);
    if (std::string w = why_unavailable(stage_, pick(stage_).variant); !w.empty()) {
      if (why) *why = std::string(v.id) + ": " + w;
      return false;
    }
  }
  return true;
}

void TransfersDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

// ---------------------------------------------------------------------------------------------
// Configure.

std::string TransfersDemo::configure_params() {
  const TransfersParams& p = params<TransfersParams>();
  uint64_t bytes = uint64_t(64) << 20;
  if (!p.bytes.empty())
    if (std::string bad = transfers::parse_bytes(p.bytes, &bytes); !bad.empty()) return "--bytes: " + bad;
  transfers::Sweep sweep{uint64_t(4) << 10, uint64_t(256) << 20};
  if (!p.sweep.empty())
    if (std::string bad = transfers::parse_sweep(p.sweep, &sweep); !bad.empty()) return bad;
  transfers::FrameSize frame;
  if (!p.frame_size.empty())
    if (std::string bad = transfers::parse_frame_size(p.frame_size, &frame); !bad.empty())
      return "--frame-size: " + bad;
  transfers::PipelineConfig c;
  c.bytes = bytes;
  c.streams = p.streams ? p.streams : 4;
  c.chunks = p.chunks ? p.chunks : 16;
  c.intensity = p.intensity ? p.intensity : 64;
  c.seed = kSeed;
  if (std::string bad = transfers::check_pipeline(c); !bad.empty()) {
    // Too few bytes for the chunks: the options that set them are named, with what would do.
    if (c.words() < size_t(c.chunks))
      return "--bytes " + text::quote(p.bytes.empty() ? "64MiB" : p.bytes) + " with " +
             std::to_string(c.chunks) + " chunks: " + bad + " (give at least " +
             std::to_string(4 * c.chunks) + " B, or fewer --chunks)";
    return "the pipeline: " + bad;
  }
  bytes_ = bytes;
  sweep_ = sweep;
  pipeline_ = c;
  frame_size_ = frame;
  return {};
}

std::string TransfersDemo::configure(const Options& o) {
  const TransfersParams& p = params<TransfersParams>();
  const SharedInputs& in = setup().shared;
  if (std::string bad = reject_image_options(in, o, name()); !bad.empty()) return bad;
  if (std::string bad = reject_seed(in, "the transfers demo (its bytes are a fixed pattern)"); !bad.empty())
    return bad;
  if (std::string bad = reject_init(in, name()); !bad.empty()) return bad;
  if (o.steps >= 0)
    return "--steps: the transfers demo has no steps to count (--save-csv / --save-timeline measure)";
  if (std::string bad = configure_params(); !bad.empty()) return bad;
  // The stage: the variant picked last, else what the options belong to.
  const bool overlap_options = p.streams || p.chunks || p.intensity || !p.save_timeline.empty();
  size_t stage = setup().focus           ? stage_index(*setup().focus)
                 : overlap_options       ? kOverlapStage
                 : !p.sweep.empty()      ? kBandwidthStage
                 : !p.frame_size.empty() ? kDisplayStage
                                         : stage_;
  if (stage != kOverlapStage && !p.save_timeline.empty())
    return "--save-timeline draws the overlap stage, but --variant " + std::string(variant(stage).id) +
           " is a " + std::string(kStageIds[stage]) + " rung";
  if (stage != kDisplayStage && !p.frame_size.empty())
    return "--frame-size belongs to the display stage, but --variant " + std::string(variant(stage).id) +
           " is a " + std::string(kStageIds[stage]) + " rung";
  if (stage == kDisplayStage && !p.sweep.empty())
    return "--sweep belongs to the bandwidth stage, but --variant " + std::string(variant(stage).id) +
           " is a display rung";
  if (stage == kOverlapStage && !p.sweep.empty())
    return "--sweep belongs to the bandwidth stage, but the overlap stage was asked for (--streams, "
           "--chunks, "
           "--intensity, --save-timeline or an overlap --variant)";
  stage_ = stage;
  return {};
}

// ---------------------------------------------------------------------------------------------
// Attach.

void TransfersDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  gl_thread_ = std::this_thread::get_id();
  display_.reset();
  display_chart_ = {};
  frame_ms_.clear();
  frame_rung_.clear();
  kernel_key_.clear();
  engines_.start(ctx, [this](Stream s) { return transfers::make_cuda_engine(s, faults_); });
  line_rate_ = engines_.gpu() ? engines_.gpu()->line_rate_gbps(&line_rate_why_) : 0;
  chart_ = {};
  chart_.line_rate_gbps = line_rate_;
  sweep_next_ = 0;
  sweep_rung_.clear();
  bounds_key_.clear();
}

void TransfersDemo::detach() {
  display_.reset();  // its registrations and GL objects, while the context is current
  engines_.stop();
  ctx_ = nullptr;
}

bool TransfersDemo::open_file(const std::filesystem::path& path, std::string* error) {
  *error = text::quote(path.string()) + ": the transfers demo opens no files";
  return false;
}

// ---------------------------------------------------------------------------------------------
// Runs.

double TransfersDemo::measure_gbps(const Variant& v, uint64_t bytes, int repeats, std::string* error) {
  transfers::Engine* e = engine_for(v);
  if (!e) {
    *error = std::string(v.id) + ": " + cuda_unavailable_reason(ctx_);
    return 0;
  }
  if (std::string why = e->why_unavailable(v); !why.empty()) {
    *error = std::string(v.id) + ": " + why;
    return 0;
  }
  try {
    e->prepare(v, bytes, kSeed);
    const double ms = e->time_transfer(repeats);
    last_ms_ = ms;
    return ms > 0 ? double(bytes) / (ms * 1e6) : 0;
  } catch (const std::exception& ex) {
    *error = std::string(v.id) + " at " + transfers::format_bytes(bytes) + ": " + ex.what();
    return 0;
  }
}

transfers_view::TimelineLayout TransfersDemo::run_timeline(std::string* error) {
  const Variant& v = variant(kOverlapStage);
  transfers_view::TimelineLayout t;
  transfers::Engine* e = engine_for(v);
  if (!e) {
    *error = std::string(v.id) + ": " + cuda_unavailable_reason(ctx_);
    return t;
  }
  try {
    const transfers::PipelineConfig& c = pipeline_;
    const std::string key = std::to_string(c.bytes) + "/" + std::to_string(c.intensity);
    if (v.backend == Backend::Cuda && key != bounds_key_) {
      bounds_ = e->measure_bounds(c, 3);
      bounds_key_ = key;
    }
    const transfers::PipelineRun r = e->run_pipeline(v, c, true);
    const int streams = v.streams > 0 ? v.streams : c.streams;
    t = transfers_view::layout_timeline(r.spans, v.backend == Backend::Cuda ? streams : 1, r.total_ms,
                                        v.backend == Backend::Cuda ? bounds_ : transfers::PipelineBounds{});
    char title[256];
    std::snprintf(title, sizeof title, "%s | %s in %d chunks | %d stream%s | intensity %d | %s",
                  std::string(v.id).c_str(), transfers::format_bytes(c.bytes).c_str(), c.chunks, streams,
                  streams == 1 ? "" : "s", c.intensity, std::string(e->device_name()).c_str());
    t.title = title;
    t.note = r.note;
    if (r.spans.empty() && v.backend == Backend::Cuda && t.note.empty()) t.note = "no chunk events recorded";
    last_ms_ = r.total_ms;
  } catch (const std::exception& ex) {
    *error = std::string(v.id) + ": " + ex.what();
  }
  return t;
}

FrameDisplay& TransfersDemo::display() {
  if (!display_) {
    const bool cuda = ctx_ && ctx_->cuda;
    display_ = std::make_unique<FrameDisplay>(cuda ? ctx_->stream : nullptr, cuda, cuda && ctx_->interop,
                                              ctx_ ? ctx_->interop_unavailable_reason() : "not attached");
  }
  return *display_;
}

double TransfersDemo::run_display_frame(const Variant& v, transfers::FrameSize size, uint32_t n,
                                        std::string* error) {
  if (!ctx_) {
    *error = std::string(v.id) + ": the demo is not attached (no GL context)";
    return 0;
  }
  if (std::string why = gpu_variant_unavailable(v.backend == Backend::Cuda, ctx_->cuda, ctx_); !why.empty()) {
    *error = std::string(v.id) + ": " + why;
    return 0;
  }
  try {
    return display().run(v, size, n);
  } catch (const std::exception& ex) {
    *error = std::string(v.id) + " at " + size_label(size) + ": " + ex.what();
    return 0;
  }
}

void TransfersDemo::time_display_paths(int frames) {
  std::vector<transfers::FrameSize> sizes(std::begin(kFrameSizes), std::end(kFrameSizes));
  if (std::find(sizes.begin(), sizes.end(), frame_size_) == sizes.end())
    sizes.insert(sizes.begin(), frame_size_);
  for (transfers::FrameSize size : sizes)
    for (const Variant* v : transfers::variants_of(transfers::Stage::Display)) {
      std::vector<double> ms;
      std::string err;
      for (int f = 0; f < std::max(1, frames) && err.empty(); ++f) {
        const double t = run_display_frame(*v, size, frame_n_++, &err);
        if (err.empty() && f > 0) ms.push_back(t);  // the first frame makes the buffers
      }
      if (!err.empty() || ms.empty()) continue;  // listed with its reason in the panel
      std::sort(ms.begin(), ms.end());
      transfers_view::record_frame_time(display_chart_, std::string(v->id), size.width, size.height,
                                        ms[ms.size() / 2]);
    }
  frame_rung_.clear();  // the live rung's frames start again at the frame size
}

void TransfersDemo::compute(Frame& frame) {
  if (!ctx_) return;
  const bool run = frame.playing || frame.step_once || frame.reset;
  last_runs_ = 0;
  if (!run) return;
  std::string err;
  if (stage_ == kBandwidthStage) {
    const Variant& v = variant(kBandwidthStage);
    if (sweep_rung_ != v.id || frame.reset) {
      sweep_rung_ = std::string(v.id);
      sweep_next_ = 0;
    }
    // One more point of this rung's curve a frame (while the curve is not done), then the transfer at
    // --bytes, once: the last one measured, so that its buffers stay for the next frame.
    const std::vector<uint64_t> sizes = transfers::sweep_sizes(sweep_);
    if (sweep_next_ < sizes.size()) {
      const uint64_t b = sizes[sweep_next_++];
      std::string e2;
      const double g = measure_gbps(v, b, b < (uint64_t(1) << 24) ? 5 : 1, &e2);
      auto it = std::find_if(chart_.curves.begin(), chart_.curves.end(),
                             [&](const transfers_view::Curve& c) { return c.id == v.id; });
      if (it == chart_.curves.end()) it = chart_.curves.insert(chart_.curves.end(), {std::string(v.id), {}});
      if (sweep_next_ == 1) it->points.clear();
      if (e2.empty()) it->points.push_back({b, g});
    }
    last_gbps_ = measure_gbps(v, bytes_, 1, &err);
  } else if (stage_ == kOverlapStage) {
    // The CPU's pipeline (the stand-in without a GPU) computes the same words every frame, and on a
    // laptop 256 MiB of it takes seconds: it runs once a configuration (and on a step or reset), not
    // once a frame.
    const Variant& v = variant(kOverlapStage);
    const transfers::PipelineConfig& c = pipeline_;
    const std::string key = std::string(v.id) + "/" + std::to_string(c.bytes) + "/" +
                            std::to_string(c.intensity) + "/" + std::to_string(c.chunks) + "/" +
                            std::to_string(c.seed);
    if (v.backend == Backend::Cuda || key != cpu_pipeline_key_ || frame.step_once || frame.reset) {
      transfers_view::TimelineLayout t = run_timeline(&err);
      if (err.empty()) timeline_ = std::move(t);
      cpu_pipeline_key_ = v.backend == Backend::Cuda ? std::string() : key;
    } else {
      return;  // nothing ran this frame: no new sample
    }
  } else {
    const Variant& v = variant(kDisplayStage);
    const std::string key = std::string(v.id) + "@" + size_label(frame_size_);
    if (key != frame_rung_ || frame.reset) {
      frame_rung_ = key;
      frame_ms_.clear();
    }
    const double ms = run_display_frame(v, frame_size_, frame_n_++, &err);
    if (err.empty()) {
      last_ms_ = ms;
      frame_ms_.push_back(ms);
      if (frame_ms_.size() > 31) frame_ms_.erase(frame_ms_.begin());
      std::vector<double> sorted = frame_ms_;
      std::sort(sorted.begin(), sorted.end());
      if (sorted.size() >= 3)  // past the first frames, which make the buffers
        transfers_view::record_frame_time(display_chart_, std::string(v.id), frame_size_.width,
                                          frame_size_.height, sorted[sorted.size() / 2]);
      // The kernel alone at this size, once (CUDA events): the floor every GPU path pays.
      const std::string kkey = size_label(frame_size_);
      if (ctx_->cuda && kernel_key_ != kkey) {
        kernel_key_ = kkey;
        try {
          kernel_ms_ = transfers::time_frame_kernel(frame_size_.width, frame_size_.height, 5, ctx_->stream);
        } catch (const std::exception&) {
          kernel_ms_ = 0;
        }
      }
    }
  }
  if (!err.empty() && err != last_error_) notify(err);
  last_error_ = err;
  last_runs_ = err.empty() ? 1 : 0;
  // The step's time in the timings (the HUD's and the panel's read-out): one transfer of --bytes, one
  // pass of the pipeline, or one frame into the texture.
  if (err.empty() && ctx_->timings) {
    const double ms = stage_ == kBandwidthStage ? (last_gbps_ > 0 ? double(bytes_) / (last_gbps_ * 1e6) : 0.0)
                      : stage_ == kOverlapStage ? timeline_.total_ms
                                                : last_ms_;
    if (ms > 0) ctx_->timings->cpu(TimingKey{pick(stage_)}, kStepSection, ms);
  }
}

std::string TransfersDemo::time_pinning(uint64_t bytes) {
  pinning_error_.clear();
  if (std::string why; !engines_.can_run(true, &why)) return pinning_error_ = "pinning for the GPU: " + why;
  try {
    pinning_ = engines_.gpu()->measure_pinning(bytes, 3);
  } catch (const std::exception& ex) {
    pinning_error_ = std::string("pinning ") + transfers::format_bytes(bytes) + ": " + ex.what();
  }
  return pinning_error_;
}

std::string TransfersDemo::verify() {
  const Variant& v = variant(stage_);
  verify_ok_ = false;
  if (stage_ == kDisplayStage) {
    std::string err;
    const uint32_t n = frame_n_++;
    run_display_frame(v, frame_size_, n, &err);
    if (!err.empty()) return verify_result_ = err;
    const std::string bad =
        transfers::verify_frame(display().read_back(), frame_size_.width, frame_size_.height, n);
    verify_ok_ = bad.empty();
    return verify_result_ = verify_ok_
                                ? std::string(v.id) + ": the texture holds the CPU's frame, every pixel (" +
                                      size_label(frame_size_) + ")"
                                : std::string(v.id) + ": " + bad;
  }
  transfers::Engine* e = engine_for(v);
  if (!e) return verify_result_ = cuda_unavailable_reason(ctx_);
  try {
    if (stage_ == kBandwidthStage) {
      e->prepare(v, bytes_, kSeed);
      const std::string bad = e->verify_transfer();
      verify_ok_ = bad.empty();
      verify_result_ = verify_ok_ ? "every one of the " + transfers::format_bytes(bytes_) +
                                        " arrived intact (" + std::string(v.id) + ")"
                                  : bad;
    } else {
      e->run_pipeline(v, pipeline_, false);
      const std::string bad =
          transfers::verify_pipeline(e->pipeline_output(), pipeline_.intensity, pipeline_.seed);
      verify_ok_ = bad.empty();
      verify_result_ =
          verify_ok_ ? std::string(v.id) + ": the pipeline's output equals the CPU reference" : bad;
    }
  } catch (const std::exception& ex) {
    verify_result_ = std::string("verify failed: ") + ex.what();
  }
  return verify_result_;
}

// ---------------------------------------------------------------------------------------------
// Probes: a fresh engine each (a probe owns its buffers), on a copy of the settings.

Probe TransfersDemo::probe(const Picks& picks, size_t stage) {
  if (stage > kDisplayStage) return probe_unavailable("the transfers demo's stages are measured one by one");
  const Variant& v = *transfers::variants_of(stage_of(stage))[size_t(picks.at(stage).variant)];
  if (std::string why = why_unavailable(stage, picks[stage].variant); !why.empty())
    return probe_unavailable(why);
  if (stage == kDisplayStage) return display_probe(v);
  std::shared_ptr<transfers::Engine> e;
  try {
    e = v.backend == Backend::Cuda
            ? std::shared_ptr<transfers::Engine>(transfers::make_cuda_engine(ctx_->stream, faults_))
            : std::shared_ptr<transfers::Engine>(transfers::make_cpu_engine());
  } catch (const std::exception& ex) {
    return probe_unavailable(ex.what());
  }
  Probe p;
  p.gpu = v.backend == Backend::Cuda;
  p.stream = p.gpu ? e->stream() : nullptr;
  p.device = std::string(e->device_name());
  p.state = e;
  const Variant* pv = &v;
  if (stage == kBandwidthStage) {
    try {
      e->prepare(v, bytes_, kSeed);
    } catch (const std::exception& ex) {
      return probe_unavailable(ex.what());
    }
    p.items_per_step = p.bytes_per_step = double(bytes_);
    p.item_unit = "bytes";
    p.per = kPerCopy;
    p.size = transfers::format_bytes(bytes_);
    p.width = (long long)bytes_;
    p.height = 1;
    transfers::Engine* raw = e.get();
    p.run = [raw](int steps) { raw->run(steps); };
    p.verify = [raw]() { return raw->verify_transfer(); };
    if (v.memory == transfers::Memory::ManagedFaults || v.memory == transfers::Memory::ManagedPrefetch)
      p.note =
          "a step moves the pages back to the host first (cudaMemPrefetchAsync to the CPU): the bench times "
          "the move to the device alone";
    return p;
  }
  const transfers::PipelineConfig c = pipeline_;
  p.items_per_step = double(c.words());
  p.item_unit = "words";
  p.per = kPerPass;
  p.bytes_per_step = 8.0 * double(c.words());  // each word crosses the bus twice
  p.flops_per_step = 0;
  p.size = transfers::format_bytes(c.bytes);
  p.width = (long long)c.bytes;
  p.height = 1;
  transfers::Engine* raw = e.get();
  p.run = [raw, pv, c](int steps) { raw->run_pipeline_steps(*pv, c, steps); };
  p.verify = [raw, pv, c]() {
    raw->run_pipeline(*pv, c, false);
    return transfers::verify_pipeline(raw->pipeline_output(), c.intensity, c.seed);
  };
  return p;
}

Probe TransfersDemo::display_probe(const Variant& v) {
  if (!ctx_ || !ctx_->platform)
    return probe_unavailable("a display rung needs the app's GL context (gpulab bench makes its own)");
  if (std::this_thread::get_id() != gl_thread_)
    return probe_unavailable(
        "a display rung runs GL on the thread that owns the context, not the ladder's worker: the panel's "
        "'time every path', `gpulab ladder --demo transfers --variant " +
        std::string(v.id) + "` and `gpulab bench --demo transfers` measure it");
  const bool cuda = ctx_->cuda;
  auto d = std::make_shared<FrameDisplay>(cuda ? ctx_->stream : nullptr, cuda, cuda && ctx_->interop,
                                          ctx_->interop_unavailable_reason());
  return make_display_probe(v, d, frame_size_, cuda ? ctx_->stream : nullptr);
}

Probe make_display_probe(const Variant& v, std::shared_ptr<FrameDisplay> d, transfers::FrameSize size,
                         Stream stream) {
  if (std::string why = d->why_unavailable(v, size); !why.empty()) return probe_unavailable(why);
  Probe p;
  p.gpu = false;  // the host clock until the texture is ready: the same clock for every path
  p.stream = stream;
  p.device = v.backend == Backend::Cuda ? "GPU" : "CPU";
  p.state = d;
  const double pixels = double(size.width) * double(size.height);
  p.items_per_step = pixels;
  p.item_unit = "pixels";
  p.per = kPerFrame;
  p.bytes_per_step = 4 * pixels;  // the frame, written once
  p.size = size_label(size);
  p.width = size.width;
  p.height = size.height;
  FrameDisplay* raw = d.get();
  const Variant* pv = &v;
  auto n = std::make_shared<uint32_t>(0);
  p.run = [raw, pv, size, n](int steps) {
    for (int i = 0; i < steps; ++i) raw->run(*pv, size, (*n)++);
  };
  p.verify = [raw, pv, size, n]() {
    const uint32_t k = (*n)++;
    raw->run(*pv, size, k);
    return transfers::verify_frame(raw->read_back(), size.width, size.height, k);
  };
  p.note =
      "ms a frame: the host clock from the fill until the texture is ready (CUDA synchronised, glFinish)";
  return p;
}

std::vector<KernelInfo> TransfersDemo::kernels() const {
  const Variant& v = variant(stage_);
  if (v.backend == Backend::Cuda && engines_.gpu()) return engines_.gpu()->kernels(v);
  return {};
}

std::vector<Throughput> TransfersDemo::throughput() const {
  // Bytes moved a step: the transfer's, or the pipeline's (H2D and D2H of the whole buffer).
  Throughput t;
  t.timed = {pick(stage_)};
  t.steps = last_runs_;
  if (stage_ == kDisplayStage) {
    t.label = std::string("into the texture (") + kPerFrame + ")";
    t.items_per_step = double(frame_size_.width) * double(frame_size_.height);
    t.item_unit = "pixels";
    t.bytes_per_step = 4 * t.items_per_step;
    return {t};
  }
  t.label = stage_ == kBandwidthStage ? std::string("transfer (") + kPerCopy + ")"
                                      : std::string("pipeline (") + kPerPass + ")";
  t.items_per_step = stage_ == kBandwidthStage ? double(bytes_) : 2.0 * double(pipeline_.bytes);
  t.item_unit = "bytes over the bus";
  return {t};
}

// ---------------------------------------------------------------------------------------------
// Batch.

bool TransfersDemo::batch_requested() const {
  if (!bound()) return false;
  const TransfersParams& p = params<TransfersParams>();
  return !p.save_csv.empty() || !p.save_timeline.empty();
}

namespace {
// The end of a failed batch run's message where it was asked to write a table: that nothing was.
std::string not_written(const std::string& csv) {
  return csv.empty() ? std::string() : ": " + text::quote(csv) + " was not written";
}
}  // namespace

// A pipeline that takes long says so first, with an estimate (the CPU's at --intensity 4096 takes
// minutes): a 1/1024 of its bytes timed and scaled, the GPU's bounds (measured first, about nine runs
// of the phases alone) counted in.
void TransfersDemo::say_pipeline_estimate() {
  const Variant& v = variant(kOverlapStage);
  transfers::Engine* e = engine_for(v);
  if (!e || !e->why_unavailable(v).empty()) return;
  transfers::PipelineConfig small = pipeline_;
  small.bytes = std::max<uint64_t>(uint64_t(small.chunks) * 4 * 256, (pipeline_.bytes / 1024) & ~uint64_t(3));
  if (small.bytes >= pipeline_.bytes) return;
  try {
    const auto sample = [&] { e->run_pipeline(v, small, false); };
    const double per = std::min(sample_seconds(sample), sample_seconds(sample));  // the first one warms up
    const double runs = v.backend == Backend::Cuda ? 10 : 1;
    say_long_run(std::string(v.id) + " over " + transfers::format_bytes(pipeline_.bytes) + " at intensity " +
                     std::to_string(pipeline_.intensity),
                 per * runs * double(pipeline_.bytes) / double(small.bytes),
                 "from a sample of " + transfers::format_bytes(small.bytes));
  } catch (const std::exception&) {
    // The run itself says what is wrong.
  }
}

std::string TransfersDemo::run_batch(const Options& options) {
  const TransfersParams& p = params<TransfersParams>();
  if (stage_ == kDisplayStage) {
    // Every display rung (or --variant's) at --frame-size, 30 frames each: the median a frame.
    std::string csv = "rung,width,height,ms_per_frame,path\n";
    int measured = 0;
    for (const Variant* v : transfers::variants_of(transfers::Stage::Display)) {
      if (setup().focus && *setup().focus == kDisplayStage && v != &variant(kDisplayStage)) continue;
      std::vector<double> ms;
      std::string err;
      for (int f = 0; f < 31 && err.empty(); ++f) {
        const double t = run_display_frame(*v, frame_size_, frame_n_++, &err);
        if (err.empty() && f > 0) ms.push_back(t);
      }
      if (!err.empty()) {
        std::fprintf(stderr, "%s\n", text::escape(err).c_str());
        continue;
      }
      std::sort(ms.begin(), ms.end());
      const double med = ms[ms.size() / 2];
      std::printf("%-20s %10s  %8.3f ms a frame  (%s)\n", std::string(v->id).c_str(),
                  size_label(frame_size_).c_str(), med, display().path_description().c_str());
      char line[512];
      std::snprintf(line, sizeof line, "%s,%d,%d,%.6g,\"%s\"\n", std::string(v->id).c_str(),
                    frame_size_.width, frame_size_.height, med, display().path_description().c_str());
      csv += line;
      ++measured;
    }
    // A run that measured nothing writes nothing: yesterday's table is not replaced by a bare header.
    if (!measured) return "no display rung could run here" + not_written(p.save_csv);
    if (!p.save_csv.empty()) {
      if (std::string bad = files::write_regular_file(p.save_csv, csv); !bad.empty()) return bad;
      std::printf("wrote %s\n", text::quote(p.save_csv).c_str());
    }
    return {};
  }
  if (stage_ == kOverlapStage) {
    say_pipeline_estimate();
    std::string err;
    const transfers_view::TimelineLayout t = run_timeline(&err);
    if (!err.empty()) return err;
    std::printf("%s: %.3f ms achieved", t.title.c_str(), t.total_ms);
    if (t.bound_ms > 0)
      std::printf(", bound %.3f ms (%.2fx), serial sum %.3f ms", t.bound_ms, t.total_ms / t.bound_ms,
                  t.sum_ms);
    std::printf("\n");
    if (!p.save_timeline.empty()) {
      if (std::string bad =
              transfers_view::save_timeline_png(p.save_timeline, t, 1920, 1080, options.png_style);
          !bad.empty())
        return bad;
      std::printf("wrote %s\n", text::quote(p.save_timeline).c_str());
    }
    if (!p.save_csv.empty()) {
      std::vector<transfers::Span> spans;
      // The layout keeps each span twice (engine and stream lanes): the stream lanes' are the spans.
      for (const transfers_view::Bar& b : t.bars)
        if (b.lane >= transfers_view::kEngineLanes)
          spans.push_back({b.op, b.stream, b.chunk, b.begin_ms, b.end_ms});
      if (std::string bad = files::write_regular_file(p.save_csv, transfers_view::spans_csv(spans));
          !bad.empty())
        return bad;
      std::printf("wrote %s\n", text::quote(p.save_csv).c_str());
    }
    return {};
  }
  // The sweep: --variant's rung, else every bandwidth rung that runs here.
  std::vector<const Variant*> rungs;
  if (setup().focus && *setup().focus == kBandwidthStage)
    rungs.push_back(&variant(kBandwidthStage));
  else
    for (const Variant* v : transfers::variants_of(transfers::Stage::Bandwidth))
      if (engine_for(*v) && engine_for(*v)->why_unavailable(*v).empty()) rungs.push_back(v);
  const std::vector<uint64_t> sizes = params<TransfersParams>().sweep.empty()
                                          ? std::vector<uint64_t>{bytes_}
                                          : transfers::sweep_sizes(sweep_);
  std::vector<transfers_view::SweepRow> rows;
  for (const Variant* v : rungs) {
    for (uint64_t b : sizes) {
      std::string err;
      const double g = measure_gbps(*v, b, b < (uint64_t(1) << 24) ? 7 : 3, &err);
      if (!err.empty()) {
        std::fprintf(stderr, "%s\n", text::escape(err).c_str());
        continue;
      }
      rows.push_back({std::string(v->id), b, last_ms_, g});
      std::printf("%-20s %10s  %10.4f ms  %8.2f GB/s\n", std::string(v->id).c_str(),
                  transfers::format_bytes(b).c_str(), last_ms_, g);
    }
  }
  if (line_rate_ > 0) std::printf("PCIe line rate: %.1f GB/s\n", line_rate_);
  if (rows.empty()) return "no bandwidth rung could run here" + not_written(p.save_csv);
  if (!p.save_csv.empty()) {
    if (std::string bad = files::write_regular_file(p.save_csv, transfers_view::sweep_csv(rows, line_rate_));
        !bad.empty())
      return bad;
    std::printf("wrote %s\n", text::quote(p.save_csv).c_str());
  }
  return {};
}

}  // namespace gpulab

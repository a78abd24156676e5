#pragma once
// Host side of the histogram-equalization demo: an image (generated, from assets/images, --image,
// typed or dropped) equalized or contrast-stretched live by a four-stage pipeline (histogram, scan,
// reduce, apply; each stage with its variants), shown before | after across a draggable split, with
// the histograms and CDFs before and after, verify against the CPU reference, and batch mode
// (--image IN --save-image OUT.png). The CPU variants form one backend: every stage runs on the
// CPU or every stage on the GPU.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/demo.h"
#include "demos/common/demo_engines.h"
#include "demos/common/image_source.h"
#include "demos/common/image_view.h"
#include "histeq/histeq.h"
#include "image/image.h"

namespace gpulab {

class HisteqDisplay;  // the before / after textures and the split (histeq_display.cpp)

// Gives `stage` its input on `e` with the engine's plain variants, for every processed plane: a
// histogram for scan, a histogram and LUT for apply (histeq_probe.cpp; the bench and the ladder).
void prepare_stage_inputs(histeq::Engine& e, histeq::StageId stage, int planes);
// The probe of stage variant v at `block` on `engine` (a GPU one runs on `stream`), which holds
// `planes` (histeq_probe.cpp): HisteqDemo::probe uploads a copy of the current planes to a fresh
// engine, the bench (histeq_bench.cpp) its case's plane once for all the case's jobs. The stage's
// inputs are made first (prepare_stage_inputs); one step runs v over every processed plane; verify
// compares the stage's own result with the CPU engine's for the same stage, byte for byte.
Probe make_histeq_probe(std::shared_ptr<histeq::Engine> engine, Stream stream,
                        std::shared_ptr<const histeq::Planes> planes, const histeq::Variant& v, int block);
// The probe of a whole pipeline: each plane of `planes` (uploaded to `engine`) through `steps`, a
// variant and block each, in order; a scan after a histogram variant that writes the LUT is left out.
// Its note says what runs ("hist-fused-scan 1024 → apply-shared 256"). The bench's pipeline rows and
// the ladder's last panel (HisteqDemo::probe of kWholePipeline) use it.
Probe make_histeq_pipeline_probe(std::shared_ptr<histeq::Engine> engine, Stream stream,
                                 const histeq::Planes& planes,
                                 const std::vector<std::pair<const histeq::Variant*, int>>& steps);

// Defined across the folder by responsibility: histeq_demo.cpp (lifecycle, variants, read-outs),
// histeq_pipeline.cpp (image, planes, the pipeline, verify), histeq_input.cpp (keys, mouse),
// histeq_panel.cpp (panel, plots, labels, caption), histeq_probe.cpp.
// The histogram-equalization demo's parameters: its command-line option group's values.
struct HisteqParams final : DemoParams {
  std::string mode;  // "equalize" (also when empty: not given) or "stretch"
  bool per_channel = false;
  bool histogram_overlay = false;  // the histograms and CDFs drawn over the view (a lesson's overlay)

  std::unique_ptr<DemoParams> clone() const override { return std::make_unique<HisteqParams>(*this); }
  void add_options(CLI::App& cli) override;
  bool same_input(const DemoParams& other) const override;
  std::vector<std::string> given() const override;
};

class HisteqDemo final : public Demo {
 public:
  HisteqDemo();
  ~HisteqDemo() override;

  std::string_view name() const override { return "histeq"; }
  std::string_view title() const override { return "Histogram equalization"; }
  const StageTables& stage_tables() const override;
  std::unique_ptr<DemoParams> make_params() const override { return std::make_unique<HisteqParams>(); }
  std::string configure(const Options& options) override;
  bool picks_changed(const Picks& before, std::string* why) override;
  std::string inactive_reason(size_t stage) const override;
  std::string why_unavailable(size_t stage, int variant) const override;

  void attach(Context& ctx) override;
  void compute(Frame& frame) override;
  void render(Frame& frame) override;
  std::vector<ViewMark> view_marks() const override { return marks_; }
  void ui(Frame& frame) override;
  void detach() override;

  bool open_file(const std::filesystem::path& path, std::string* error) override;
  bool batch_requested() const override { return !save_image_.empty(); }
  std::string run_batch(const Options& options) override;
  bool bench(const Setup& setup, const Options& options, BenchSpec* out) override;  // histeq_bench.cpp
  Probe probe(const Picks& picks, size_t stage) override;                           // histeq_probe.cpp
  std::vector<KernelInfo> kernels() const override;
  std::vector<Throughput> throughput() const override;
  std::vector<KeyBinding> keys() const override;
  std::string caption() const override;

  // For tests: the engine in use, the image shown, the settings, and the display path switch.
  histeq::Engine& engine() { return *active_; }
  const image::Image& source_image() const { return image_; }
  histeq::Mode mode() const { return mode_; }
  histeq::Colour colour() const { return colour_; }
  void set_mode(histeq::Mode m);
  void set_colour(histeq::Colour c);
  // Uses `img` (named `name` in messages); false with the reason when it cannot be shown or does
  // not fit (the current image stays).
  bool set_image(image::Image img, const std::string& name, std::string* error);
  void set_force_host_copy(bool on) {
    force_host_copy_ = on;
    display_stale_ = true;
  }
  const HisteqDisplay* display() const { return display_.get(); }
  // The output image of the current pipeline (runs it first when settings changed), merged.
  image::Image output_image();
  // Compares output_image() with histeq::process_cpu: the verify button's line.
  std::string verify();
  float split() const { return split_; }

 private:
  SetImage set_image_fn();  // set_image, for open_image_file / open_generated_image
  const histeq::StageInfo& info(size_t stage) const;
  // The variant and block `picks` (the Setup's by default) give `stage`.
  const histeq::Variant& variant(size_t stage) const;
  const histeq::Variant& variant(const Picks& picks, size_t stage) const;
  int block(size_t stage) const { return pick(stage).block; }
  bool stage_active(size_t stage) const;
  bool stage_active(const Picks& picks, size_t stage) const;
  TimingKey pipeline_key() const;  // the whole pipeline's timing section: the active stages' picks
  bool on_gpu() const;  // the picks are the GPU's and its engine runs (one backend for every stage)
  Probe pipeline_probe(const Picks& picks);  // probe(picks, kWholePipeline)
  bool variant_available(const histeq::Variant& v, std::string* why) const {
    return engines_.can_run(v.backend == histeq::Backend::Cuda, why);
  }
  histeq::Engine* engine_for(histeq::Backend b) const { return engines_.of(b == histeq::Backend::Cuda); }
  // Makes the engine of the current backend hold the planes (uploading them when it does not).
  void sync_engine();
  bool load_generated(const image::Generated& g, std::string* error);
  bool load_path(const std::filesystem::path& path, std::string* error);
  void resplit();  // the colour changed: new planes, same image
  void compute_before();
  void read_after();
  void run_pipeline(int times, bool timed);
  void handle_input(const Frame& frame);
  void layout(const Frame& frame);
  std::string pipeline_label() const;  // "hist-bank-private > scan-block > apply-shared"
  std::string size_label() const;      // "3840x2160 grey"
  void notify(std::string line) const;
  void ui_image(float w);
  void ui_plots(float w);
  void ui_labels(const Frame& frame);
  // The histograms and CDFs, before and after, over the view's lower left (the projected picture has
  // them whatever the panel shows).
  void draw_overlay(const Frame& frame);

  Context* ctx_ = nullptr;
  DemoEngines<histeq::Engine> engines_;  // the CUDA one a histeq::CudaEngine
  histeq::Engine* active_ = nullptr;
  std::unique_ptr<HisteqDisplay> display_;
  int max_texture_ = 0;    // GL_MAX_TEXTURE_SIZE, queried at attach
  bool headless_ = false;  // --headless: an --image that cannot be shown is an error (exit 1)

  std::string save_image_;  // --save-image (from the shell's Options)

  // Settings (the Setup's parameters, read by configure; the panel changes them from there on).
  histeq::Mode mode_ = histeq::Mode::Equalize;
  histeq::Colour colour_ = histeq::Colour::Luminance;
  bool force_host_copy_ = false;

  // The image and its planes; which engine holds them.
  image::Image image_;
  ImageOrigin origin_;  // where the image shown came from
  histeq::Planes planes_;
  uint64_t planes_serial_ = 0;               // bumps with every new set of planes
  std::array<uint64_t, 2> engine_serial_{};  // the planes each engine (CPU, GPU) holds
  ImagePicker picker_;                       // the panel's image picker (assets/images/*)

  // Pipeline state.
  bool dirty_ = true;            // settings or image changed: run once even when paused
  bool output_current_ = false;  // the engine's output matches the settings
  bool display_stale_ = true;    // the result texture needs the current output
  int last_runs_ = 0;            // pipeline runs in the last frame
  bool last_timed_stages_ = false;

  // Before (at load) and after (read from the engine while the panel shows) statistics, per plane.
  std::vector<histeq::Histogram> before_;
  std::vector<histeq::Histogram> engine_hist_;  // the pipeline's own histogram (equalize mode)
  std::vector<histeq::Histogram> after_;
  std::vector<histeq::Lut> luts_;
  std::vector<histeq::MinMax> minmax_;
  bool after_fresh_ = false;
  int channel_ = 0;  // plane shown in the plots (per-channel mode)
  bool log_scale_ = false;
  bool overlay_ = false;         // draw_overlay (--histogram-overlay, the panel's checkbox)
  std::vector<ViewMark> marks_;  // what the last render drew over the view (view_marks)

  // View: the image fitted into the free area, then zoomed (1 = fitted) around its centre (cx, cy),
  // in image pixels; the split as a fraction of the image's width.
  float split_ = 0.5f;
  ImageView view_;
  bool dragging_split_ = false;

  // UI results.
  std::string verify_result_;
  bool verify_ok_ = false;
  std::string status_;
};

}  // namespace gpulab

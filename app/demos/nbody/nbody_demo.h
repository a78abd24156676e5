#pragma once
// Host side of the N-body demo: settings and UI, the CPU and CUDA engines (the state moves with the
// variant's backend), the vertex buffer CUDA writes every frame (or the host fills when interop is
// unavailable), the orbiting camera, the conservation plots, verify, batch mode and the bench.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/demo.h"
#include "demos/common/demo_engines.h"
#include "demos/nbody/orbit_camera.h"
#include "nbody/nbody.h"

namespace gpulab {

class NbodyDisplay;  // the vertex buffer and the point-sprite drawing (nbody_display.cpp)

// The probe of variant v at `block` on `engine` (a GPU one runs on `stream`), which it loads with
// `start` and `params`: NbodyDemo::probe makes it on a copy of the current system, the bench
// (nbody_bench.cpp) on a Plummer sphere. verify runs two steps from `start` beside the CPU reference
// (up to the verify button's body count; above it the note says so).
Probe make_nbody_probe(std::shared_ptr<nbody::Engine> engine, Stream stream,
                       std::shared_ptr<const nbody::System> start, const nbody::Params& params,
                       const nbody::Variant& v, int block);

// The N-body demo's parameters: its command-line option group's values.
struct NbodyParams final : DemoParams {
  long long bodies = 0;  // 0: the default for the backend
  double dt = 0, softening = 0, gravity = 0;
  bool dt_given = false, softening_given = false, gravity_given = false;
  std::string load_bodies, save_bodies;

  std::unique_ptr<DemoParams> clone() const override { return std::make_unique<NbodyParams>(*this); }
  void add_options(CLI::App& cli) override;
  bool same_input(const DemoParams& other) const override;
  std::vector<std::string> given() const override;
};

class NbodyDemo final : public Demo {
 public:
  NbodyDemo();
  ~NbodyDemo() override;

  std::string_view name() const override { return "nbody"; }
  std::string_view title() const override { return "N-body"; }
  const StageTables& stage_tables() const override;
  std::unique_ptr<DemoParams> make_params() const override { return std::make_unique<NbodyParams>(); }
  std::string configure(const Options& options) override;
  bool picks_changed(const Picks& before, std::string* why) override;
  std::string why_unavailable(size_t stage, int variant) const override;

  void attach(Context& ctx) override;
  void compute(Frame& frame) override;
  void render(Frame& frame) override;
  void ui(Frame& frame) override;
  void detach() override;

  bool open_file(const std::filesystem::path& path, std::string* error) override;
  bool batch_requested() const override;
  std::string run_batch(const Options& options) override;
  bool bench(const Setup& setup, const Options& options, BenchSpec* out) override;  // nbody_bench.cpp
  Probe probe(const Picks& picks, size_t stage) override;
  std::vector<KernelInfo> kernels() const override;
  std::vector<KeyBinding> keys() const override;
  std::vector<Throughput> throughput() const override;
  std::string caption() const override;

  // For tests: the engine in use, the step count, and the display path switch.
  nbody::Engine& engine() { return *active_; }
  uint64_t step_count() const { return step_; }
  void set_force_host_copy(bool on) { force_host_copy_ = on; }
  const NbodyDisplay* display() const { return display_.get(); }

 private:
  struct Sample {  // one diagnostics sample, for the plots
    uint64_t step;
    nbody::Diagnostics d;
  };

  const nbody::Variant& current() const;  // the pick
  int block() const { return pick(0).block; }
  nbody::Engine* engine_for(const nbody::Variant& v) const {
    return engines_.of(v.backend == nbody::Backend::Cuda);
  }
  bool variant_available(const nbody::Variant& v, std::string* why) const {
    return engines_.can_run(v.backend == nbody::Backend::Cuda, why);
  }
  void switch_engine(nbody::Engine* to);
  // Makes the initial state from the settings (or the loaded file) and uploads it; on failure
  // (out of memory) keeps the current system and returns false with the reason.
  bool rebuild(std::string* error);
  void reset_state();
  void set_body_count(long long n);  // from the panel: refused with a note when out of range
  void advance(int steps);
  void apply_params(const nbody::Params& p);
  void handle_input(const Frame& frame);
  void fit_view(float aspect);
  void verify(int steps);
  void save_csv(const std::filesystem::path& path);
  void notify(std::string line) const;
  void ui_system(float w);
  void ui_plots();

  Context* ctx_ = nullptr;
  DemoEngines<nbody::Engine> engines_;  // the CUDA one an nbody::CudaEngine
  nbody::Engine* active_ = nullptr;
  std::unique_ptr<NbodyDisplay> display_;

  // Settings (the Setup's parameters, read by configure; the panel changes them from there on).
  long long bodies_ = 0;  // 0: chosen at attach (16384 with CUDA, 2048 on the CPU backend)
  nbody::InitKind init_ = nbody::InitKind::Plummer;
  uint64_t seed_ = 1;
  nbody::Params params_;
  std::filesystem::path loaded_path_;  // a body file in use instead of the generated system
  std::optional<nbody::System> loaded_;
  bool force_host_copy_ = false;

  // State.
  nbody::System initial_;  // what reset restores, bit for bit
  uint64_t step_ = 0;
  int last_steps_ = 0;
  int diag_every_ = 10;  // steps between conservation samples
  uint64_t last_diag_step_ = 0;
  bool diag_pending_ = false;
  bool first_frame_estimated_ = false;          // (a large CPU system's first frame is estimated up front)
  std::optional<nbody::Diagnostics> baseline_;  // the sample of the initial state
  std::vector<Sample> samples_;                 // since the last reset (capped)
  float speed_scale_ = 1.0f;                    // colour ramp maximum (from the kinetic energy)
  bool view_fitted_ = false;
  int last_fb_w_ = 0, last_fb_h_ = 0;
  Frame::Rect last_area_;
  OrbitCamera camera_;
  float point_size_ = 3.0f, brightness_ = 0.6f;

  // UI fields and results.
  int bodies_input_ = 16384;
  float dt_input_ = 0, softening_input_ = 0, gravity_input_ = 0;
  std::string param_note_;
  char path_input_[512] = "";
  int verify_steps_ = 10;
  std::string verify_result_;
  std::string status_;
};

}  // namespace gpulab

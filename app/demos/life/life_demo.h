#pragma once
// Host side of the Game of Life demo: settings, engines (CPU always, CUDA when a device exists), the
// displayed texture (written by CUDA through interop, or uploaded from the host), input and UI.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/demo.h"
#include "demos/common/demo_engines.h"
#include "life/life.h"
#include "life/pattern.h"

namespace gpulab {

class LifeDisplay;  // the displayed texture and how pixels reach it (life_display.cpp)

// What a Life probe starts from: a width x height torus under `rule`, with the given cells, else
// random ones (at `density`, from `seed`: the bench's input).
struct LifeInput {
  int width = 0, height = 0;
  life::Rule rule = life::Rule::conway();
  std::optional<life::Grid> cells;
  double density = 0.25;
  uint64_t seed = 42;
  int generations_per_pass = life::kDefaultGenerationsPerPass;  // gpu-bit-multistep's k
};
// The probe of variant v at `block` (ghost copies at `ghost`) on `engine` (a GPU one runs on
// `stream`), which it loads with `input`: LifeDemo::probe makes it on a copy of the current grid,
// the bench (life_bench.cpp) on a random one. verify compares a few generations from the input with
// the CPU reference (cpu-lut, or cpu-naive for cpu-lut itself), as the verify button does.
Probe make_life_probe(std::shared_ptr<life::Engine> engine, Stream stream,
                      std::shared_ptr<const LifeInput> input, const life::Variant& v, int block, int ghost);

// The Game of Life's parameters: its command-line option group's values.
struct LifeParams final : DemoParams {
  std::string grid, rule, pattern, save_pattern, generations_per_pass;
  double density = 0.25;

  std::unique_ptr<DemoParams> clone() const override { return std::make_unique<LifeParams>(*this); }
  void add_options(CLI::App& cli) override;
  bool same_input(const DemoParams& other) const override;
  std::vector<std::string> given() const override;
};

class LifeDemo final : public Demo {
 public:
  LifeDemo();
  ~LifeDemo() override;

  std::string_view name() const override { return "life"; }
  std::string_view title() const override { return "Game of Life"; }
  const StageTables& stage_tables() const override;
  std::unique_ptr<DemoParams> make_params() const override { return std::make_unique<LifeParams>(); }
  std::string configure(const Options& options) override;
  bool picks_changed(const Picks& before, std::string* why) override;
  std::string inactive_reason(size_t stage) const override;
  std::string why_unavailable(size_t stage, int variant) const override;

  void attach(Context& ctx) override;
  void compute(Frame& frame) override;
  void render(Frame& frame) override;
  void ui(Frame& frame) override;
  void detach() override;

  bool open_file(const std::filesystem::path& path, std::string* error) override;
  bool batch_requested() const override;
  std::string run_batch(const Options& options) override;
  bool bench(const Setup& setup, const Options& options, BenchSpec* out) override;  // life_bench.cpp
  Probe probe(const Picks& picks, size_t stage) override;
  std::vector<KernelInfo> kernels() const override;
  std::vector<Throughput> throughput() const override;
  std::string caption() const override;
  std::string recorded_row(size_t stage, std::string_view variant) const override;

  // For tests and batch use.
  life::Engine& engine() { return *active_; }
  uint64_t generation() const { return generation_; }

 private:
  const life::Variant& current() const;  // the step stage's pick
  int block() const { return pick(0).block; }
  int ghost_block() const { return pick(1).block; }
  life::Engine* engine_for(const life::Variant& v) const {
    return engines_.of(v.backend == life::Backend::Cuda);
  }
  bool variant_available(const life::Variant& v, std::string* why) const {
    return engines_.can_run(v.backend == life::Backend::Cuda, why);
  }
  void switch_engine(life::Engine* to);
  void reset_contents();
  bool load_pattern(const std::filesystem::path& path, std::string* error);
  std::string adopt_pattern(life::PatternResult read, const std::filesystem::path& path, bool command_line);
  void forget_pattern();
  bool resize_grid(int w, int h, std::string* error);
  void set_rule(const life::Rule& r);
  void advance(int generations);
  void fit_view(int fb_w, int fb_h, const Frame::Rect& area);
  life::View make_view(int fb_w, int fb_h) const;
  void handle_input(const Frame& frame);
  void verify(int generations);
  void save_rle(const std::filesystem::path& path);
  void notify(std::string line) const;

  Context* ctx_ = nullptr;
  DemoEngines<life::Engine> engines_;  // the CUDA one a life::CudaEngine
  life::Engine* active_ = nullptr;
  std::unique_ptr<LifeDisplay> display_;

  // Settings (the Setup's parameters, read by configure; the panel changes them from there on).
  int generations_per_pass_ = life::kDefaultGenerationsPerPass;  // gpu-bit-multistep's k (the slider)
  int grid_w_ = 1024, grid_h_ = 1024;
  life::Rule rule_;
  std::string rule_text_ = "B3/S23";
  // The pattern that reset places, read once from pattern_path_ (a reset never reads the file
  // again); none: random fill.
  std::optional<life::Pattern> pattern_;
  std::filesystem::path pattern_path_;
  bool rule_from_command_line_ = false;       // --rule given: it beats the rule in --pattern's file
  std::vector<std::string> pending_notices_;  // from configure(), told at attach
  double density_ = 0.25;
  uint64_t seed_ = 1;
  bool fade_ = false;
  bool grid_lines_ = true;
  bool light_ = false;  // the light theme: the view's light palette (demos/common/view_palette.h)
  bool draw_mode_ = false;
  int verify_generations_ = 100;
  // The UI's text fields.
  char rule_input_[32] = "";
  char path_input_[512] = "";
  int custom_size_[2] = {0, 0};     // the resize fields: the grid's size until edited
  int custom_size_of_[2] = {0, 0};  // the grid size the fields were last set from

  // View: pixels per cell and the cell at the centre of the framebuffer.
  double zoom_ = 1.0;
  double centre_x_ = 0.0, centre_y_ = 0.0;
  bool view_fitted_ = false;
  int last_fb_w_ = 0, last_fb_h_ = 0;
  Frame::Rect last_area_;
  bool view_touched_ = false;  // the user zoomed or panned: stop refitting

  // State.
  uint64_t generation_ = 0;
  uint64_t population_ = 0;
  int population_age_ = 1 << 30;  // frames since the population was read
  int last_steps_ = 0;
  std::string status_;
  std::string verify_result_;
  std::vector<std::filesystem::path> pattern_files_;
  std::vector<life::CellEdit> pending_edits_;
};

}  // namespace gpulab

#pragma once
// Host side of the texture-rotation demo: an image (generated, from assets/images, --image, typed or
// dropped) rotated and scaled about its centre by the engine of the chosen variant, written by CUDA
// straight into the displayed GL texture (a surface) or into a mapped pixel buffer GL then copies
// into it (the output-path toggle), or by the CPU reference and uploaded. Angle by slider, left drag
// or animation; quarter turns on keys; scale on the wheel; CUDA's texture options live, with what
// CUDA does not allow said in the panel; a pixel inspector with the lecture's interpolation formula
// in numbers, a magnifier, verify against the CPU reference and batch mode
// (--image IN --angle DEG --save-image OUT.png).
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
#include "demos/rotate/rotate_display.h"
#include "image/image.h"
#include "rotate/rotate.h"

namespace gpulab {

// The probe of rotation variant v at `block` with `settings` on `engine` (a GPU one runs on
// `stream`), which holds `source` (rotate_probe.cpp): RotateDemo::probe uploads a copy of the current
// image to a fresh engine, the bench (rotate_bench.cpp) its case's image once for all the case's
// jobs. One step is one rotation of the whole image; verify checks one output as the verify button
// does (verify_rotation; `settings_label` names the settings in its message).
Probe make_rotate_probe(std::shared_ptr<rotate::Engine> engine, Stream stream,
                        std::shared_ptr<const image::Image> source, const rotate::Settings& settings,
                        const std::string& settings_label, const rotate::Variant& v, int block);
// "grey linear 8192x8192: best tex-array-x4 6.1e+11 px/s = 76% of the fetch-only ceiling (...)", one
// line for each case of `suite` with a fetch-ceiling row.
std::vector<std::string> ceiling_report(const BenchSuite& suite);

// What the inspector shows for one output pixel: the definition's arithmetic (rotate.h) step by step,
// with the texel values read from the source image on the host.
struct RotateInspection {
  int x = 0, y = 0;                         // the output pixel
  int width = 0, height = 0, channels = 0;  // of the source (and the output)
  bool lecture = false;                     // the lecture's unfixed coordinates (lecture_source_coord)
  rotate::Params params;                    // what the variant runs with (rotate::effective)
  rotate::Coord source{0, 0};               // (sx, sy) in texel units
  // Point filtering: one tap, texel (floor sx, floor sy). Linear: four, in the definition's order
  // (i0, j0), (i1, j0), (i0, j1), (i1, j1), around (sx − 0.5, sy − 0.5).
  int taps = 0;
  int raw_i[4] = {}, raw_j[4] = {};  // texel indices before the address mode
  int i[4] = {}, j[4] = {};          // after it (−1: a border texel, 0 in every channel)
  float weight[4] = {};              // linear: w00, w10, w01, w11; point: 1
  float fx = 0, fy = 0;              // linear: the fractions the weights come from
  float texel[4][4] = {};            // [tap][channel], 0..255
  float filtered[4] = {};            // per channel, before rounding
  uint8_t value[4] = {};             // rotate::to_byte(filtered): the definition's output pixel
  // A GPU variant does what the texture unit does (rotate.h's unit model): its taps (after the address
  // mode; point filtering may pick the next texel at a tie), and for linear filtering its 8-bit
  // fractions a, b and integer weights in 256ths (they sum to 256); unit_value is the pixel it gives.
  bool unit = false;
  int unit_i[4] = {}, unit_j[4] = {};
  int unit_a = 0, unit_b = 0;
  int unit_weight[4] = {};
  uint8_t unit_value[4] = {};
};

// Defined across the folder by responsibility: rotate_demo.cpp (lifecycle, image, the rotation, read-outs),
// rotate_settings.cpp (command line, setters), rotate_input.cpp (keys, mouse), rotate_inspector.cpp
// (the pixel inspector), rotate_panel.cpp (panel, overlay, caption), rotate_probe.cpp.
// The texture-rotation demo's parameters: its command-line option group's values, as given (configure
// checks them; the bench's sweep keeps every one that is not given).
struct RotateParams final : DemoParams {
  // Empty: not given (configure takes 0°, scale 1, linear, border, on, normalized, surface).
  std::string angle, scale, spin, filter, address, normalized, read_mode, output;

  std::unique_ptr<DemoParams> clone() const override { return std::make_unique<RotateParams>(*this); }
  void add_options(CLI::App& cli) override;
  bool same_input(const DemoParams& other) const override;
  std::vector<std::string> given() const override;
};

class RotateDemo final : public Demo {
 public:
  RotateDemo();
  ~RotateDemo() override;

  std::string_view name() const override { return "rotate"; }
  std::string_view title() const override { return "Texture rotation"; }
  const StageTables& stage_tables() const override;
  std::unique_ptr<DemoParams> make_params() const override { return std::make_unique<RotateParams>(); }
  std::string configure(const Options& options) override;  // rotate_settings.cpp
  bool picks_changed(const Picks& before, std::string* why) override;
  std::string why_unavailable(size_t stage, int variant) const override;

  void attach(Context& ctx) override;
  void compute(Frame& frame) override;
  void render(Frame& frame) override;
  void ui(Frame& frame) override;
  void detach() override;

  bool open_file(const std::filesystem::path& path, std::string* error) override;
  bool batch_requested() const override { return !save_image_.empty(); }
  std::string run_batch(const Options& options) override;
  bool bench(const Setup& setup, const Options& options, BenchSpec* out) override;  // rotate_bench.cpp
  Probe probe(const Picks& picks, size_t stage) override;                           // rotate_probe.cpp
  std::vector<KernelInfo> kernels() const override;
  std::vector<Throughput> throughput() const override;
  std::vector<KeyBinding> keys() const override;
  std::string caption() const override;
  std::vector<ViewMark> view_marks() const override { return marks_; }

  // For tests: the engine in use, the variant, the image, the settings, the output path.
  rotate::Engine& engine() { return *active_; }
  const rotate::Variant& variant() const;  // the pick
  const image::Image& source_image() const { return image_; }
  const rotate::Settings& settings() const { return settings_; }
  void set_settings(const rotate::Settings& s);  // clamps the scale; non-finite values are ignored
  float angle() const { return settings_.params.angle_deg; }
  void set_angle(float degrees);  // reduced into [0, 360)
  float spin() const { return spin_; }
  RotateOutput output_path() const { return output_; }
  void set_output_path(RotateOutput o);
  void set_force_host_copy(bool on) {
    force_host_copy_ = on;
    dirty_ = true;
  }
  // Uses `img` (named `name` in messages); false with the reason when it cannot be shown or does not
  // fit (the current image stays).
  bool set_image(image::Image img, const std::string& name, std::string* error);
  const RotateDisplay* display() const { return display_.get(); }
  // The current variant's output with the source's channels (runs it first when settings changed;
  // waits for the GPU).
  image::Image output_image();
  // The output against the CPU reference (rotate_cpu, or rotate_lecture_cpu for the lecture's
  // kernel, with rotate::effective's params): the verify button's line.
  std::string verify();
  bool verify_ok() const { return verify_ok_; }
  // The inspector's numbers for output pixel (x, y); nothing outside the image.
  std::optional<RotateInspection> inspect(int x, int y) const;
  // The output pixel under the cursor in the last frame, if the cursor was on the image.
  std::optional<std::pair<int, int>> hovered_pixel() const;

 private:
  SetImage set_image_fn();                       // set_image, for open_image_file / open_generated_image
  void inspect_unit(RotateInspection& r) const;  // the unit fields of r, for a GPU variant
  bool on_gpu() const {
    return variant().backend == rotate::Backend::Cuda && engines_.gpu();
  }  // and its engine runs
  bool variant_available(const rotate::Variant& v, std::string* why) const {
    return engines_.can_run(v.backend == rotate::Backend::Cuda, why);
  }
  int block() const { return pick(0).block; }
  rotate::Engine* engine_for(rotate::Backend b) const { return engines_.of(b == rotate::Backend::Cuda); }
  void sync_engine();  // the engine of the current variant holds the image (uploads it when not)
  bool load_generated(const image::Generated& g, std::string* error);
  bool load_path(const std::filesystem::path& path, std::string* error);
  void settings_changed();
  void run_output(int runs);  // rotates `runs` times into the displayed texture, timed
  void handle_input(const Frame& frame);
  void layout(const Frame& frame);
  double screen_angle(double mx, double my) const;  // of the cursor about the image's centre, degrees
  std::string settings_label() const;               // "linear, border, normalized"
  void notify(std::string line) const;
  void ui_angle(float w);
  void ui_texture_options();
  void ui_output(float w);
  void ui_inspector(bool turning);
  void draw_overlay(const Frame& frame);  // image outline, source frame, magnifier (render: foreground)

  Context* ctx_ = nullptr;
  DemoEngines<rotate::Engine> engines_;  // the CUDA one a rotate::CudaEngine
  rotate::Engine* active_ = nullptr;
  std::unique_ptr<RotateDisplay> display_;
  int max_texture_ = 0;    // GL_MAX_TEXTURE_SIZE, queried at attach
  bool headless_ = false;  // --headless: an --image that cannot be shown is an error (exit 1)

  std::string save_image_;  // --save-image (from the shell's Options)

  // Settings.
  rotate::Settings settings_;
  float start_angle_ = 0, start_scale_ = 1;  // what R goes back to (the command line's)
  float spin_ = 0;                           // degrees a second while playing
  RotateOutput output_ = RotateOutput::Surface;
  bool force_host_copy_ = false;

  // The image and which engine holds it.
  image::Image image_;
  ImageOrigin origin_;  // where the image shown came from
  uint64_t image_serial_ = 0;
  uint64_t engine_serial_[2] = {};  // the image each engine (CPU, GPU) holds
  ImagePicker picker_;

  // Output state.
  bool dirty_ = true;                   // settings or image changed: run once even when paused
  bool engine_output_current_ = false;  // the engine's output() matches the settings
  uint64_t output_version_ = 0;         // bumps when what the output shows changes
  int last_runs_ = 0;

  ImageView view_;
  bool dragging_angle_ = false, dragging_split_ = false;
  double drag_angle_ = 0;  // the cursor's angle about the centre at the last drag step
  bool compare_ = false;   // the source left of a split, the output right of it
  float split_ = 0.5f;
  bool show_frame_ = true;  // the source image's outline where the rotation puts it
  bool magnifier_ = true;
  std::vector<ViewMark> marks_;  // what the last draw_overlay drew (view_marks)
  bool hovering_ = false;
  int hover_x_ = 0, hover_y_ = 0;
  int inspect_x_ = -1, inspect_y_ = -1;  // the inspector's pixel: the last one hovered (−1: the centre)
  float mouse_x_ = 0, mouse_y_ = 0;

  // Inspector's read-back of the displayed pixel (cached: a read waits for GL).
  struct Shown {
    int x = -1, y = -1;
    uint64_t version = ~uint64_t(0);
    uint8_t rgba[4] = {};
  } shown_;

  std::string verify_result_;
  bool verify_ok_ = false;
  std::string status_;
};

}  // namespace gpulab

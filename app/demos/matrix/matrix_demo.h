#pragma once
// Host side of the matrix demo (the course's matrix lab): op transpose, an image (generated with
// text and a grid, from assets/images, --image, typed or dropped) transposed as a matrix of RGBA
// words by the chosen variant into the displayed texture, with the tile a block works on overlaid
// (which pixels one warp reads and writes); op multiply, C = A·B of generated (random in a seed,
// identity, a pattern whose product spells a word) or .npy matrices, drawn as a heat map with its
// colour scale, GFLOP/s and % of peak in the timings. Verify against the CPU reference; batch mode
// (--op transpose --image IN --save-image OUT.png; --op multiply --a A.npy --b B.npy --save-c C.npy,
// or --m/--n/--k/--seed/--init with --save-a/--save-b).
//
// Stages: the current op's variants are the first stage (V cycles them, the ladder measures them),
// the other op's the second, shown as not run; choosing a variant of the other op switches the op.
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
#include "image/image.h"
#include "matrix/matrix.h"

namespace gpulab {

class MatrixDisplay;  // matrix_display.cpp

// The image as a matrix of RGBA8 words (grey replicated, alpha 255 where it has none), and back with
// `channels` channels.
matrix::Words image_words(const image::Image& img);
image::Image words_image(const matrix::Words& w, int channels);

// What one step of variant v does on these inputs (the timings panel's and the probes' figures): its
// items (elements of the transposed matrix or of C), the fewest bytes it must move and its FLOPs.
struct MatrixWork {
  double items = 0, bytes = 0, flops = 0;
  const char* unit = "";
  const char* per = "";        // what a step is: the throughput label's, the bench's and the ladder's words
  long width = 0, height = 0;  // the size the probe reports: the input matrix (transpose), C (multiply)
};
MatrixWork matrix_work(const matrix::Words& words, const matrix::Operands& ops, const matrix::Variant& v);

// The probe of variant v at `block` on `engine` holding the inputs (a GPU one runs on `stream`);
// `cublas` / `memcpy`: the yardstick rows of the bench instead of v (cuBLAS at v's precision, the
// device-to-device copy). One step is one transpose or one product.
Probe make_matrix_probe(std::shared_ptr<matrix::Engine> engine, Stream stream,
                        std::shared_ptr<const matrix::Words> words,
                        std::shared_ptr<const matrix::Operands> ops, const matrix::Variant& v, int block);

// The matrix demo's parameters: its command-line option group's values.
struct MatrixParams final : DemoParams {
  static constexpr long long kNotGiven = -(1LL << 62);
  std::string op, a, b, save_c, save_a, save_b;
  long long m = kNotGiven, n = kNotGiven, k = kNotGiven;

  std::unique_ptr<DemoParams> clone() const override { return std::make_unique<MatrixParams>(*this); }
  void add_options(CLI::App& cli) override;  // matrix_settings.cpp
  bool same_input(const DemoParams& other) const override;
  std::vector<std::string> given() const override;
};

class MatrixDemo final : public Demo {
 public:
  MatrixDemo();
  ~MatrixDemo() override;

  std::string_view name() const override { return "matrix"; }
  std::string_view title() const override { return "Matrix transpose and multiply"; }
  // Two stages, transpose and multiply; the op's runs (lead_stage), choosing the other's variant switches.
  const StageTables& stage_tables() const override;
  std::unique_ptr<DemoParams> make_params() const override { return std::make_unique<MatrixParams>(); }
  std::string configure(const Options& options) override;  // matrix_settings.cpp
  bool picks_changed(const Picks& before, std::string* why) override;
  std::string inactive_reason(size_t stage) const override;
  std::string why_unavailable(size_t stage, int variant) const override;
  size_t lead_stage() const override { return index(op_); }

  void attach(Context& ctx) override;
  void compute(Frame& frame) override;
  void render(Frame& frame) override;
  void ui(Frame& frame) override;  // matrix_panel.cpp
  void detach() override;

  bool open_file(const std::filesystem::path& path, std::string* error) override;
  bool batch_requested() const override;
  std::string run_batch(const Options& options) override;                           // matrix_settings.cpp
  bool bench(const Setup& setup, const Options& options, BenchSpec* out) override;  // matrix_bench.cpp
  Probe probe(const Picks& picks, size_t stage) override;                           // matrix_probe.cpp
  // The mma.sync ceiling at TF32 and BF16 (mma-sync-peak-*, the bench's yardstick rows): mma.sync on
  // registers only for the current product's 2·M·N·K FLOPs, after gemm-tensor-tf32 / -bf16.
  std::vector<Yardstick> yardsticks() const override;                // matrix_probe.cpp
  Probe yardstick_probe(const Picks& picks, size_t index) override;  // matrix_probe.cpp
  std::vector<KernelInfo> kernels() const override;
  std::vector<Throughput> throughput() const override;
  std::vector<KeyBinding> keys() const override;  // matrix_panel.cpp
  std::string caption() const override;           // matrix_panel.cpp
  std::vector<ViewMark> view_marks() const override { return marks_; }

  // For tests and the panel.
  matrix::Op op() const { return op_; }
  void set_op(matrix::Op op);
  const matrix::Variant& variant() const { return variant(index(op_)); }  // the op's pick
  matrix::Engine& engine() { return *active(); }
  const MatrixDisplay* display() const { return display_.get(); }
  void set_force_host_copy(bool on) {
    force_host_copy_ = on;
    dirty_ = true;
  }
  // Inputs: an image to transpose; operands to multiply. False with the reason (the current input stays).
  bool set_image(image::Image img, const std::string& name, std::string* error);
  bool set_operands(matrix::Operands ops, const std::string& name, std::string* error);
  const matrix::Operands& operands() const { return *ops_; }
  // The current variant's output (runs it when stale; waits for the GPU).
  matrix::Words transposed();
  matrix::Matrix product();
  std::string verify();     // the verify button's line
  int output_rows() const;  // of the displayed output
  int output_cols() const;

 private:
  static size_t index(matrix::Op op) { return op == matrix::Op::Transpose ? 0 : 1; }
  const matrix::Variant& variant(size_t stage) const;  // the pick of stage (0: transpose, 1: multiply)
  int block() const { return pick(index(op_)).block; }
  bool on_gpu() const;  // the op's pick is a GPU variant and the GPU engine runs
  matrix::Engine* active() const;
  matrix::Engine* engine_for(matrix::Backend b) const { return engines_.of(b == matrix::Backend::Cuda); }
  bool variant_available(const matrix::Variant& v, std::string* why) const;
  void sync_engine();  // the current variant's engine holds the current inputs
  void run(int runs);
  bool load_generated(const image::Generated& g, std::string* error);
  bool load_path(const std::filesystem::path& path, std::string* error);
  bool generate_operands(std::string* error);  // from init_, seed_, m_/n_/k_
  void notify(std::string line) const;
  void handle_input(const Frame& frame);
  void ui_inputs(float w);
  void ui_scale(float w);
  void draw_overlay(const Frame& frame);  // the tile overlay over the view (render: foreground)
  void ui_overlay_legend();               // what its colours mean (the panel)
  std::string section() const;
  std::string input_label() const;

  Context* ctx_ = nullptr;
  DemoEngines<matrix::Engine> engines_;  // the CUDA one a matrix::CudaEngine
  std::unique_ptr<MatrixDisplay> display_;
  int max_texture_ = 0;

  std::string save_image_;

  matrix::Op op_ = matrix::Op::Transpose;

  // Inputs, and which engine holds them (serials: CPU, GPU).
  image::Image image_;
  ImageOrigin origin_;
  std::shared_ptr<matrix::Words> words_ = std::make_shared<matrix::Words>();
  std::shared_ptr<matrix::Operands> ops_ = std::make_shared<matrix::Operands>();
  std::string ops_name_;
  matrix::Init init_ = matrix::Init::Pattern;
  uint64_t seed_ = 1;
  int m_ = 384, n_ = 512, k_ = 200;
  void say_cpu_product_estimate(int runs);  // before a long CPU product, once for its sizes
  std::array<int, 3> estimated_sizes_{};    // m, n, k of the last CPU product estimated up front
  uint64_t words_serial_ = 0, ops_serial_ = 0;
  std::array<uint64_t, 2> engine_words_{}, engine_ops_{};
  ImagePicker picker_;

  bool dirty_ = true;
  bool output_current_ = false;  // the active engine's output matches the settings
  bool force_host_copy_ = false;
  bool overlay_ = true;
  std::vector<ViewMark> marks_;  // what the last draw_overlay drew (view_marks)
  int last_runs_ = 0;
  std::pair<float, float> range_{0.0f, 0.0f};  // the heat map's scale (multiply)

  ImageView view_;
  bool hovering_ = false;
  int hover_x_ = 0, hover_y_ = 0;  // output pixel under the cursor
  std::string verify_result_;
  bool verify_ok_ = false;
};

}  // namespace gpulab

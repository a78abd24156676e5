// The matrix demo's lifecycle: variants per op (the current op's are the first stage), attach and
// detach, the inputs and which engine holds them, compute and render, the read-outs.
#include "demos/matrix/matrix_demo.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "common/text.h"
#include "core/batch.h"
#include "core/timings.h"
#include "demos/common/cuda_start.h"
#include "demos/common/stage_table.h"
#include "demos/matrix/matrix_display.h"

#include "matrix/matrix_cuda.h"

namespace gpulab {
namespace {

using matrix::Backend;
using matrix::Op;

// The GPU variant each op starts on: its fastest hand-written one.
constexpr std::string_view kGpuDefaults[2] = {"transpose-vector", "gemm-warp-tile"};

const matrix::Variant* cpu_variant(Op op) {
  for (const matrix::Variant* v : matrix::variants_of(op))
    if (v->backend == Backend::Cpu) return v;
  throw std::logic_error("matrix: an op without a CPU variant");
}

Op other(Op op) { return op == Op::Transpose ? Op::Multiply : Op::Transpose; }

}  // namespace

matrix::Words image_words(const image::Image& img) {
  const image::Image rgba = img.channels == 4 ? img : image::convert_channels(img, 4);
  matrix::Words w(rgba.height, rgba.width);
  std::memcpy(w.data.data(), rgba.pixels.data(), w.size() * 4);
  return w;
}

image::Image words_image(const matrix::Words& w, int channels) {
  image::Image img;
  img.width = w.cols;
  img.height = w.rows;
  img.channels = 4;
  img.pixels.resize(w.size() * 4);
  std::memcpy(img.pixels.data(), w.data.data(), w.size() * 4);
  return channels == 4 ? img : image::convert_channels(img, channels);
}

MatrixDemo::MatrixDemo() : engines_(matrix::make_cpu_engine()) {}

MatrixDemo::~MatrixDemo() = default;

const matrix::Variant& MatrixDemo::variant(size_t stage) const {
  return *matrix::variants_of(stage == 0 ? Op::Transpose
                                         : Op::Multiply)[static_cast<size_t>(pick(stage).variant)];
}

bool MatrixDemo::on_gpu() const { return variant().backend == Backend::Cuda && engines_.gpu(); }

matrix::Engine* MatrixDemo::active() const { return engine_for(on_gpu() ? Backend::Cuda : Backend::Cpu); }

bool MatrixDemo::variant_available(const matrix::Variant& v, std::string* why) const {
  if (!engines_.can_run(v.backend == Backend::Cuda, why)) return false;
  if (v.backend == Backend::Cpu) return true;
  // A kernel this build or this GPU lacks (the wgmma rungs: sm_90a code, a Hopper GPU).
  std::string no = engines_.gpu()->why_unavailable(v);
  if (no.empty()) return true;
  if (why) *why = std::move(no);
  return false;
}

void MatrixDemo::notify(std::string line) const {
  if (ctx_ && ctx_->notify) ctx_->notify(std::move(line));
}

// ---------------------------------------------------------------------------------------------
// Stages and variants.

const StageTables& MatrixDemo::stage_tables() const {
  static const StageTables tables = [] {
    StageTables t;
    for (Op op : {Op::Transpose, Op::Multiply})
      t.stages.push_back(make_stage_table(
          matrix::name(op), op == Op::Transpose ? "transpose" : "multiply", matrix::variants_of(op),
          [](const matrix::Variant& v) { return v.backend == Backend::Cuda; }, kGpuDefaults[index(op)],
          cpu_variant(op)->id));
    return t;
  }();
  return tables;
}

std::string MatrixDemo::why_unavailable(size_t stage, int v) const {
  const matrix::Variant& variant = *matrix::variants_of(stage == 0 ? Op::Transpose : Op::Multiply)[size_t(v)];
  if (variant.backend == Backend::Cuda && engines_.gpu()) return engines_.gpu()->why_unavailable(variant);
  return engines_.why_unavailable(variant.backend == Backend::Cuda);
}

std::string MatrixDemo::inactive_reason(size_t stage) const {
  if (stage == index(op_)) return {};
  const Op op = other(op_);
  return std::string("the op is ") + std::string(matrix::name(op_)) + " (O switches; choosing a " +
         std::string(matrix::name(op)) + " variant switches too)";
}

void MatrixDemo::set_op(Op op) {
  if (op == op_) return;
  op_ = op;
  dirty_ = true;
  output_current_ = false;
  view_.fitted = false;
  verify_result_.clear();
}

// A variant or block chosen for a stage (the focus) switches the op to that stage's.
bool MatrixDemo::picks_changed(const Picks&, std::string* why) {
  if (setup().focus) set_op(*setup().focus == 0 ? Op::Transpose : Op::Multiply);
  dirty_ = true;
  output_current_ = false;
  verify_result_.clear();
  if (ctx_) {
    const matrix::Variant& v = variant();
    if (!variant_available(v, why)) return false;
    try {
      sync_engine();
    } catch (const std::exception& e) {
      if (why) *why = std::string("cannot give the inputs to ") + std::string(v.id) + ": " + e.what();
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Attach and detach.

void MatrixDemo::attach(Context& ctx) {
  ctx_ = &ctx;
  engines_.start(ctx, [](Stream s) { return matrix::CudaEngine::create(s); });
  // GPU picks without a GPU engine run on the CPU: the shell picks the CPU rungs and says so.
  engine_words_[1] = engine_ops_[1] = 0;
  max_texture_ = gl::max_texture_size();
  display_ = std::make_unique<MatrixDisplay>(ctx);
  picker_.set_files(list_image_files(ctx.assets / "images"));
  std::string err;
  if (image_.empty() && !load_generated(*image::find_generated("filter-test"), &err))
    throw std::runtime_error("matrix: the generated picture: " + err);
  if (ops_->a.size() == 0 && !generate_operands(&err)) throw std::runtime_error("matrix: " + err);
  sync_engine();
  view_.fitted = false;
  dirty_ = true;
}

void MatrixDemo::detach() {
  display_.reset();
  engines_.stop();
  engine_words_[1] = engine_ops_[1] = 0;
  ctx_ = nullptr;
  output_current_ = false;
}

void MatrixDemo::sync_engine() {
  const size_t e = on_gpu() ? 1 : 0;
  matrix::Engine* eng = active();
  if (!eng) throw std::logic_error("matrix: no engine for the current variant");
  if (op_ == Op::Transpose && engine_words_[e] != words_serial_ && words_->size() > 0) {
    eng->set_words(*words_);
    engine_words_[e] = words_serial_;
    output_current_ = false;
  }
  if (op_ == Op::Multiply && engine_ops_[e] != ops_serial_ && ops_->a.size() > 0) {
    eng->set_operands(ops_->a, ops_->b);
    engine_ops_[e] = ops_serial_;
    output_current_ = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs.

bool MatrixDemo::set_image(image::Image img, const std::string& name, std::string* error) {
  if (std::string bad = image_refusal(img, name, 0); !bad.empty()) {
    *error = bad;
    return false;
  }
  // The transpose is shown: its height is the image's width.
  if (std::string bad = gl_texture_limit_error(name + " transposed", img.height, img.width, max_texture_);
      !bad.empty()) {
    *error = bad + "; the current image stays";
    return false;
  }
  image::Image old_image = std::exchange(image_, std::move(img));
  matrix::Words old_words = std::exchange(*words_, image_words(image_));
  ++words_serial_;
  if (ctx_ && op_ == Op::Transpose) {
    try {
      sync_engine();  // the engine keeps its previous matrix when this throws
    } catch (const std::exception& e) {
      image_ = std::move(old_image);
      *words_ = std::move(old_words);
      ++words_serial_;
      *error = name + ": " + e.what() + "; the current image stays";
      return false;
    }
  }
  origin_ = {name, {}, {}};
  output_current_ = false;
  dirty_ = true;
  view_.fitted = false;
  verify_result_.clear();
  return true;
}

bool MatrixDemo::set_operands(matrix::Operands ops, const std::string& name, std::string* error) {
  if (std::string bad = matrix::operands_refusal(ops.a, ops.b); !bad.empty()) {
    *error = name + ": " + bad;
    return false;
  }
  if (std::string bad = gl_texture_limit_error(name + " (C)", ops.b.cols, ops.a.rows, max_texture_);
      !bad.empty()) {
    *error = bad;
    return false;
  }
  matrix::Operands old = std::exchange(*ops_, std::move(ops));
  ++ops_serial_;
  if (ctx_ && op_ == Op::Multiply) {
    try {
      sync_engine();  // the engine keeps its previous matrices when this throws
    } catch (const std::exception& e) {
      *ops_ = std::move(old);
      ++ops_serial_;
      *error = name + ": " + e.what() + "; the current matrices stay";
      return false;
    }
  }
  ops_name_ = name;
  output_current_ = false;
  dirty_ = true;
  view_.fitted = false;
  verify_result_.clear();
  return true;
}

bool MatrixDemo::generate_operands(std::string* error) {
  try {
    const std::string name = std::string(matrix::name(init_)) + " " + std::to_string(m_) + "x" +
                             std::to_string(k_) + " · " + std::to_string(k_) + "x" + std::to_string(n_) +
                             (init_ == matrix::Init::Random ? ", seed " + std::to_string(seed_) : "");
    return set_operands(matrix::generate(init_, m_, n_, k_, seed_), name, error);
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

static SetImage matrix_set_image(MatrixDemo* d) {
  return [d](image::Image img, const std::string& name, std::string* err) {
    return d->set_image(std::move(img), name, err);
  };
}

bool MatrixDemo::load_generated(const image::Generated& g, std::string* error) {
  // Not square and not a multiple of 32, so the flip and the edge tiles show.
  // (the filter test is generated at that size rather than read from its asset PNG)
  image::Generated sized = g;
  if (g.id == "filter-test") sized.width = 600, sized.height = 360;
  const std::filesystem::path assets = ctx_ && g.id != "filter-test" ? ctx_->assets : std::filesystem::path();
  return open_generated_image(sized, assets, matrix_set_image(this), &origin_, error);
}

bool MatrixDemo::load_path(const std::filesystem::path& path, std::string* error) {
  return open_image_file(path, matrix_set_image(this), &origin_, error);
}

bool MatrixDemo::open_file(const std::filesystem::path& path, std::string* error) {
  if (path.extension() == ".npy") {
    const matrix::NpyResult r = matrix::read_npy(path);
    if (!r.error.empty()) {
      *error = r.error;
      return false;
    }
    // A dropped .npy is A; B is the identity of its columns, so C shows A itself.
    try {
      matrix::Operands o{r.m, matrix::generate(matrix::Init::Identity, 1, r.m.cols, r.m.cols, 0).b};
      if (!set_operands(std::move(o), path.filename().string() + " · I", error)) return false;
    } catch (const std::exception& e) {
      *error = path.filename().string() + ": " + e.what();
      return false;
    }
    set_op(Op::Multiply);
    return true;
  }
  if (!load_path(path, error)) return false;
  set_op(Op::Transpose);
  return true;
}

// ---------------------------------------------------------------------------------------------
// The frame.

std::string MatrixDemo::section() const {
  return std::string(matrix::name(op_)) + (on_gpu() ? "" : " (CPU)");
}

int MatrixDemo::output_rows() const { return op_ == Op::Transpose ? words_->cols : ops_->a.rows; }
int MatrixDemo::output_cols() const {
  if (op_ == Op::Transpose) return words_->rows;
  return variant().aat() ? ops_->a.rows : ops_->b.cols;
}

// A large product on the CPU can take minutes to hours: said before it (once for these sizes), from
// the same variant on 512x512 operands scaled by the multiply-adds.
void MatrixDemo::say_cpu_product_estimate(int runs) {
  const double madds = double(m_) * double(n_) * double(k_) * runs;
  if (on_gpu() || op_ != Op::Multiply || madds <= 4e9 || estimated_sizes_ == std::array<int, 3>{m_, n_, k_})
    return;
  estimated_sizes_ = {m_, n_, k_};
  auto sample = matrix::make_cpu_engine();
  matrix::Matrix a(512, 512), b(512, 512);
  for (size_t i = 0; i < a.data.size(); ++i) a.data[i] = b.data[i] = float(i % 7) - 3.0f;
  sample->set_operands(a, b);
  const double per = sample_seconds([&] { sample->run(variant(), block()); });
  say_long_run(std::to_string(runs) + " product" + (runs == 1 ? "" : "s") + " of " + std::to_string(m_) +
                   "x" + std::to_string(k_) + " by " + std::to_string(k_) + "x" + std::to_string(n_) +
                   " on the CPU",
               per * madds / (512.0 * 512.0 * 512.0), "from a 512x512 sample");
}

void MatrixDemo::run(int runs) {
  if (runs <= 0) return;
  if (!ctx_) throw std::logic_error("matrix: runs once attached");
  const bool changed = dirty_;  // the output differs from the last run's (repeats give the same C)
  sync_engine();
  matrix::Engine* e = active();
  const int block = this->block();
  const std::string name = section();
  const TimingKey key{pick(lead_stage())};
  if (on_gpu()) {
    const Stream s = static_cast<matrix::CudaEngine*>(e)->stream();
    if (ctx_->timings) ctx_->timings->gpu_begin(key, name, s);
    for (int i = 0; i < runs; ++i) e->run(variant(), block);
    if (ctx_->timings) ctx_->timings->gpu_end(key, name, s);
  } else {
    say_cpu_product_estimate(runs);
    KeyedCpuSection cpu(ctx_->timings, key, name);
    for (int i = 0; i < runs; ++i) e->run(variant(), block);
  }
  output_current_ = true;
  if (display_) {
    display_->update(*e, op_, output_rows(), output_cols(), force_host_copy_);
    // The heat map's scale: read back (a stream sync) only when the product changed, not every frame.
    if (op_ == Op::Multiply && changed) range_ = e->product_range();
  }
  dirty_ = false;
}

void MatrixDemo::compute(Frame& frame) {
  view_.layout(frame, output_cols(), output_rows());
  handle_input(frame);
  if (frame.reset) {
    view_.fitted = false;
    dirty_ = true;
  }
  view_.layout(frame, output_cols(), output_rows());
  // The output is the same every run: paused, only a change runs it; playing, it runs every frame
  // (the timings need runs), steps_per_frame times.
  int runs = frame.playing ? std::max(1, frame.steps_per_frame) : frame.step_once ? 1 : 0;
  if (dirty_ && runs == 0) runs = 1;
  run(runs);
  last_runs_ = runs;
}

void MatrixDemo::render(Frame& frame) {
  if (!display_) return;
  display_->draw(split_view(view_, frame, output_cols(), output_rows(), 0.0));
  draw_overlay(frame);
}

matrix::Words MatrixDemo::transposed() {
  if (!ctx_) throw std::logic_error("matrix: the output needs the demo attached");
  if (op_ != Op::Transpose) set_op(Op::Transpose);
  sync_engine();
  if (!output_current_) {
    active()->run(variant(), block());
    output_current_ = true;
  }
  return active()->transposed();
}

matrix::Matrix MatrixDemo::product() {
  if (!ctx_) throw std::logic_error("matrix: the output needs the demo attached");
  if (op_ != Op::Multiply) set_op(Op::Multiply);
  sync_engine();
  if (!output_current_) {
    say_cpu_product_estimate(1);
    active()->run(variant(), block());
    output_current_ = true;
  }
  return active()->product();
}

std::string MatrixDemo::verify() {
  try {
    const std::string bad = op_ == Op::Transpose ? verify_transpose(transposed(), *words_)
                                                 : verify_product(product(), ops_->a, ops_->b, variant());
    verify_ok_ = bad.empty();
    verify_result_ = verify_ok_ ? std::string(variant().id) + " matches the CPU reference" +
                                      (op_ == Op::Transpose
                                           ? " bit for bit"
                                           : " within its bound (" +
                                                 std::string(variant().precision == matrix::Precision::Fp32
                                                                 ? "float32 rounding"
                                                                 : "its input precision") +
                                                 ")")
                                : bad;
  } catch (const std::exception& e) {
    verify_ok_ = false;
    verify_result_ = std::string("verify failed: ") + e.what();
  }
  return verify_result_;
}

bool MatrixDemo::batch_requested() const {
  if (!bound()) return false;
  const MatrixParams& p = params<MatrixParams>();
  return !save_image_.empty() || !p.save_c.empty() || !p.save_a.empty() || !p.save_b.empty();
}

// ---------------------------------------------------------------------------------------------
// Read-outs.

std::vector<KernelInfo> MatrixDemo::kernels() const {
  if (on_gpu()) return engines_.gpu_as<const matrix::CudaEngine>()->kernels(variant(), block());
  return {};
}

std::vector<Throughput> MatrixDemo::throughput() const {
  Throughput t;
  t.timed = {pick(lead_stage())};
  t.steps = last_runs_;
  const MatrixWork w = matrix_work(*words_, *ops_, variant());
  t.label = std::string(op_ == Op::Transpose ? "transpose"
                        : variant().aat()    ? "A·Aᵀ"
                                             : "A·B") +
            " (" + w.per + ")";
  t.items_per_step = w.items;
  t.item_unit = w.unit;
  t.bytes_per_step = w.bytes;
  t.flops_per_step = w.flops;
  return {t};
}

}  // namespace gpulab

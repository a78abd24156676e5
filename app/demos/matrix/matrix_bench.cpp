// The matrix benchmark: transpose of a 16384x16384 float32 matrix (every variant, GB/s, against a
// device-to-device cudaMemcpy of the same bytes measured in the same run), and C = A·B of random
// float32 matrices at 4096³ and 8192³ (--size N: N x N and N³ instead): GFLOP/s, % of the FP32 peak,
// the ratio to cublasSgemm for every variant, the tensor variants against cuBLAS (cublasLt's fastest) at
// their own precision (the Hopper rungs' target: 0.90x at both sizes), the mma.sync ceiling (mma-sync-peak-*:
// a yardstick row, no product) that the mma.sync rungs sit under, and the lab's A·Aᵀ unpadded /
// padded ratio. Core's stepper measures the jobs.
#include <array>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "common/random.h"
#include "core/bench_stepper.h"
#include "core/bench_table.h"
#include "demos/common/bench_engines.h"
#include "demos/matrix/matrix_demo.h"

#include "matrix/matrix_cuda.h"

namespace gpulab {
namespace {

using matrix::Op;

constexpr const char* kMemcpy = "memcpy-d2d";
constexpr const char* kCublasTf32 = "cublas-tf32";
constexpr const char* kCublasBf16 = "cublas-bf16";
// The mma.sync ceiling (not a variant: no product): mma.sync on registers only, the FLOPs of the case.
constexpr const char* kMmaPeakTf32 = "mma-sync-peak-tf32";
constexpr const char* kMmaPeakBf16 = "mma-sync-peak-bf16";
constexpr const char* kTransposeInput = "transpose float32";
constexpr const char* kMultiplyInput = "multiply random";
constexpr long long kCpuGemmMax = 4096;  // gemm-cpu above this: minutes a step

bool mma_peak(const std::string& id) { return id == kMmaPeakTf32 || id == kMmaPeakBf16; }
bool yardstick(const std::string& id) {
  return id == kMemcpy || id == kCublasTf32 || id == kCublasBf16 || mma_peak(id);
}
Op op_of(const std::string& id) {
  if (id == kMemcpy) return Op::Transpose;
  if (yardstick(id)) return Op::Multiply;
  const matrix::Variant* v = matrix::find_variant(id);
  return v ? v->op : Op::Multiply;
}

// The row of the fastest of `ids` in `like`'s case; nullptr when none was measured.
const BenchRow* best(const BenchSuite& s, const BenchRow& like, const std::vector<std::string>& ids) {
  const BenchRow* b = nullptr;
  for (const BenchRow& r : s.rows)
    if (r.error.empty() && bench_same_case(r, like) &&
        std::find(ids.begin(), ids.end(), r.variant) != ids.end() && (!b || r.ms_median < b->ms_median))
      b = &r;
  return b;
}

}  // namespace

bool MatrixDemo::bench(const Setup& setup, const Options& o, BenchSpec* out) {
  if (std::string bad = configure_for_bench(*this, setup, o); !bad.empty()) throw std::invalid_argument(bad);
  const MatrixParams& given = setup.params.as<MatrixParams>();
  constexpr long long kNotGiven = MatrixParams::kNotGiven;
  const bool shape_given = given.m != kNotGiven || given.n != kNotGiven || given.k != kNotGiven;
  const bool files_given = !given.a.empty();
  const bool image_given = !setup.shared.image.empty();
  const bool init_given = !setup.shared.init.empty();
  // The op: the one the options ask for (configure found it), else both.
  const bool op_given = !given.op.empty() || shape_given || files_given || image_given || init_given;
  if ((shape_given || files_given || image_given) && !o.bench_sizes.empty())
    throw std::invalid_argument(std::string(image_given   ? "--image"
                                            : files_given ? "--a and --b"
                                                          : "--m, --n and --k") +
                                " and bench --size both give the size: give one");
  BenchSpec& spec = *out;
  spec.item_unit = "elements";
  spec.variants = bench_variants(stage_tables());
  const uint64_t seed = bench_seed(o);

  std::vector<std::string> fp32_ids, transpose_ids;
  for (const matrix::Variant& v : matrix::variants()) {
    if (v.backend != matrix::Backend::Cuda) continue;
    if (v.op == Op::Transpose)
      transpose_ids.emplace_back(v.id);
    else if (v.precision == matrix::Precision::Fp32 && v.kind() != matrix::Kind::GemmCublas && !v.aat())
      fp32_ids.emplace_back(v.id);
  }
  bench_declare(spec, "matrix", {{"transpose", transpose_ids}, {"fp32", fp32_ids}});

  if (std::string note = pinned_note(setup); !note.empty()) spec.suite.notes.push_back(note);
  // Cases: transpose N x N, multiply N³ for each --size N (default 16384 and 4096, 8192); the options
  // pin the op, the multiply's shape (--m, --n, --k) or operands (--a, --b) and its kind (--init), the
  // transpose's matrix (--image).
  // A transpose case is WxH (square unless --size WxH with --op transpose); a multiply case N³.
  std::vector<std::pair<long long, long long>> tsizes{{16384, 16384}};
  std::vector<long long> msizes{4096, 8192};
  if (!o.bench_sizes.empty()) {
    tsizes.clear();
    msizes.clear();
    for (const BenchSize& s : o.bench_sizes) {
      const long long h = s.height ? s.height : s.width;
      if (h != s.width && !(op_given && op_ == Op::Transpose))
        throw std::invalid_argument(
            "matrix bench: --size WxH (not square) is a transpose's: add --op transpose");
      if (std::string bad = matrix::check_shape("--size", h, s.width); !bad.empty())
        throw std::invalid_argument(bad);
      tsizes.emplace_back(s.width, h);
      if (h == s.width) msizes.push_back(s.width);
    }
  }
  if (op_given && op_ == Op::Transpose) msizes.clear();
  if (op_given && op_ == Op::Multiply) tsizes.clear();
  if (image_given) tsizes = {{0, 0}};            // one case: the image's
  if (shape_given || files_given) msizes = {0};  // one case: the operands configure made
  const matrix::Init init = init_given ? init_ : matrix::Init::Random;
  const std::string multiply_input = files_given  ? "multiply " + ops_name_
                                     : init_given ? "multiply " + std::string(matrix::name(init))
                                                  : kMultiplyInput;
  std::vector<Op> case_op;
  for (const auto& [w, h] : tsizes) {
    if (w == 0)
      spec.cases.push_back({std::to_string(words_->rows) + "x" + std::to_string(words_->cols), words_->cols,
                            words_->rows, "transpose " + origin_.name});
    else
      spec.cases.push_back({std::to_string(w) + "x" + std::to_string(h), w, h, kTransposeInput});
    case_op.push_back(Op::Transpose);
  }
  for (long long n : msizes) {
    if (n == 0)
      spec.cases.push_back({std::to_string(ops_->a.rows) + "x" + std::to_string(ops_->b.cols) + "x" +
                                std::to_string(ops_->a.cols),
                            ops_->b.cols, ops_->a.rows, multiply_input});
    else
      spec.cases.push_back(
          {std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n), n, n, multiply_input});
    case_op.push_back(Op::Multiply);
  }

  struct State {
    std::shared_ptr<BenchEngines<matrix::Engine>> engines;
    size_t key = size_t(-1);
    std::shared_ptr<matrix::Words> words;
    std::shared_ptr<matrix::Operands> ops;
    uint64_t seed = 1;
    matrix::Init init = matrix::Init::Random;
    std::vector<Op> case_op;
    std::shared_ptr<const matrix::Words> given_words;   // --image's
    std::shared_ptr<const matrix::Operands> given_ops;  // --a/--b's or --m/--n/--k's
    std::vector<std::string> cublas_said;               // what each case's cublas-* rows ran (cublas_choice)
    void make(const BenchCase& c, size_t index) {
      if (key == index) return;
      key = index;
      words.reset();
      ops.reset();
      const int n = int(c.width);
      if (case_op[index] == Op::Transpose) {
        if (given_words) {
          words = std::make_shared<matrix::Words>(*given_words);
          return;
        }
        words = std::make_shared<matrix::Words>(int(c.height), n);  // rows, columns
        uint64_t s = seed;
        for (uint32_t& w : words->data) w = uint32_t(splitmix64(s));
      } else if (given_ops) {
        ops = std::make_shared<matrix::Operands>(*given_ops);
      } else {
        ops = std::make_shared<matrix::Operands>(matrix::generate(init, n, n, n, seed));
      }
    }
    std::shared_ptr<matrix::Engine> engine(bool gpu, const BenchCase& c, size_t index, std::string* why) {
      make(c, index);
      return engines->get(
          gpu, index,
          [&](matrix::Engine& e) {
            if (words)
              e.set_words(*words);
            else
              e.set_operands(ops->a, ops->b);
          },
          why);
    }
  };
  auto st = std::make_shared<State>();
  st->seed = seed;
  st->init = init;
  st->case_op = case_op;
  if (image_given) st->given_words = std::make_shared<const matrix::Words>(*words_);
  if (shape_given || files_given) st->given_ops = std::make_shared<const matrix::Operands>(*ops_);
  st->engines = std::make_shared<BenchEngines<matrix::Engine>>(spec.suite, o, matrix::make_cpu_engine());
  if (st->engines->cuda()) {
    st->engines->set_gpu(matrix::CudaEngine::create(st->engines->stream()));
    for (const char* id : {kMemcpy, kCublasTf32, kCublasBf16, kMmaPeakTf32, kMmaPeakBf16}) {
      BenchJob job;
      job.stage = std::string(id) == kMemcpy ? 0 : 1;
      job.stage_id = std::string(matrix::name(op_of(id)));
      job.variant = id;
      job.block_label = "-";
      spec.extra.push_back(job);
    }
  }
  spec.probe = [st](const BenchCase& c, const BenchJob& job) -> Probe {
    const bool extra = yardstick(job.variant);
    const matrix::Variant* v =
        extra ? matrix::find_variant(job.variant == kMemcpy ? "transpose-naive" : "gemm-cublas")
              : matrix::find_variant(job.variant);
    if (!v) return probe_unavailable("no variant " + job.variant);
    std::string why;
    std::shared_ptr<matrix::Engine> e =
        st->engine(v->backend == matrix::Backend::Cuda, c, job.case_index, &why);
    if (!e) return probe_unavailable(why);
    if (!extra)
      if (std::string no = e->why_unavailable(*v); !no.empty()) return probe_unavailable(no);
    Probe p =
        make_matrix_probe(e, st->engines->stream(), st->words ? st->words : std::make_shared<matrix::Words>(),
                          st->ops ? st->ops : std::make_shared<matrix::Operands>(), *v, job.block);
    if (extra) {
      auto* cuda = static_cast<matrix::CudaEngine*>(e.get());
      p.verify = nullptr;
      if (job.variant == kMemcpy) {
        p.run = [cuda](int steps) {
          for (int i = 0; i < steps; ++i) cuda->run_memcpy();
        };
      } else if (mma_peak(job.variant)) {
        const matrix::Precision prec =
            job.variant == kMmaPeakTf32 ? matrix::Precision::Tf32 : matrix::Precision::Bf16;
        p.run = [cuda, prec](int steps) {
          for (int i = 0; i < steps; ++i) cuda->run_mma_peak(prec);
        };
      } else {
        const matrix::Precision prec =
            job.variant == kCublasTf32 ? matrix::Precision::Tf32 : matrix::Precision::Bf16;
        // The library's best for the problem, chosen on the first call (the warm-up) and said then: the
        // timed repeats do nothing on the host but the launches.
        p.run = [cuda, prec, st, said = c.size + ": " + job.variant + ": ",
                 noted = false](int steps) mutable {
          for (int i = 0; i < steps; ++i) cuda->run_cublas(prec);
          if (!noted) st->cublas_said.push_back(said + cuda->cublas_choice(prec));
          noted = true;
        };
      }
    }
    return p;
  };
  spec.skip = [case_op](const BenchCase& c, const BenchJob& job, const BenchSuite&, std::string* note) {
    const Op op = case_op[job.case_index];
    if (op_of(job.variant) != op) return true;
    if (job.variant == "gemm-cpu" && c.width > kCpuGemmMax) {
      *note = "gemm-cpu skipped at " + c.size + ": about 8x its time at 4096³ a step (minutes)";
      return true;
    }
    return false;
  };
  spec.finish = [fp32_ids, st](BenchSuite& suite) {
    for (const std::string& line : st->cublas_said) suite.notes.push_back(line);
    for (const BenchRow& r : suite.rows) {
      if (r.variant != "gemm-shared-tile-aat" || !r.error.empty()) continue;
      if (const BenchRow* padded = best(suite, r, {"gemm-shared-tile-aat-padded"})) {
        char line[256];
        std::snprintf(
            line, sizeof line,
            "%s: gemm-shared-tile-aat (no padding) / -padded (+1 column) = %.2fx the time (%.3f / %.3f ms; "
            "the lab measured 4.5x, 551 ms / 121 ms)",
            r.size.c_str(), r.ms_median / padded->ms_median, r.ms_median, padded->ms_median);
        suite.notes.push_back(line);
      }
    }
    for (const BenchRow& r : suite.rows) {
      if (r.input != kMultiplyInput || r.variant != "gemm-cublas" || !r.error.empty()) continue;
      const BenchRow* hand = best(suite, r, fp32_ids);
      if (!hand) continue;
      char line[256];
      std::snprintf(
          line, sizeof line, "%s: best hand-written FP32 %s = %.2f x cublasSgemm (%.0f vs %.0f GFLOP/s)",
          r.size.c_str(), hand->variant.c_str(), r.ms_median / hand->ms_median, hand->gflops, r.gflops);
      suite.notes.push_back(line);
    }
    // The tensor rungs against cuBLAS at their precision and against the mma.sync ceiling.
    for (const BenchRow& r : suite.rows) {
      if (!mma_peak(r.variant) || !r.error.empty()) continue;
      const bool bf = r.variant == kMmaPeakBf16;
      const BenchRow* lib = best(suite, r, {bf ? kCublasBf16 : kCublasTf32});
      // Named arrays, not braced lists in the ?: (whose arrays would end with the full expression).
      static constexpr std::array<const char*, 2> kBf16Rungs{"gemm-tensor-bf16", "gemm-tensor-wgmma-bf16"};
      static constexpr std::array<const char*, 2> kTf32Rungs{"gemm-tensor-tf32", "gemm-tensor-wgmma-tf32"};
      for (const char* id : bf ? kBf16Rungs : kTf32Rungs) {
        const BenchRow* rung = best(suite, r, {id});
        if (!rung) continue;
        char line[320];
        std::snprintf(line, sizeof line,
                      "%s: %s %.0f GFLOP/s = %.2f x the mma.sync ceiling (%s, %.0f GFLOP/s)", r.size.c_str(),
                      id, rung->gflops, r.ms_median / rung->ms_median, r.variant.c_str(), r.gflops);
        std::string note = line;
        if (lib) {
          std::snprintf(line, sizeof line, ", %.2f x cuBLAS", lib->ms_median / rung->ms_median);
          note += line;
        }
        suite.notes.push_back(note);
      }
      if (lib) {
        char line[200];
        std::snprintf(line, sizeof line, "%s: the mma.sync ceiling %s = %.2f x cuBLAS %s", r.size.c_str(),
                      r.variant.c_str(), lib->ms_median / r.ms_median, bf ? "BF16" : "TF32");
        suite.notes.push_back(line);
      }
    }
    suite.notes.push_back(
        "mma-sync-peak-*: a yardstick, not a variant: mma.sync on registers only (no loads), the case's "
        "2·M·N·K FLOPs; the ceiling of the mma.sync rungs");
    suite.notes.push_back(
        "transpose GB/s counts each element read once and written once (8 bytes); memcpy-d2d moves the same "
        "bytes");
    suite.notes.push_back(
        "multiply GFLOP/s = 2·M·N·K / time; % of peak is of the FP32 (non-tensor) peak; cublas-tf32 / "
        "cublas-bf16: "
        "cuBLAS (cublasLt, the fastest of its heuristic candidates, timed) at the tensor variants' "
        "precision, fp32 accumulate; gemm-tensor-bf16 and cublas-bf16 "
        "read "
        "the same bfloat16 copies (rounded once, outside the timing)");
  };
  return true;
}

}  // namespace gpulab

// The matrix demo's comparisons with the CPU reference and its probes (the ladder's, on copies of
// the current inputs, and the bench's): one step is one transpose or one product.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iterator>
#include <memory>

#include "common/text.h"
#include "demos/common/cuda_start.h"
#include "demos/common/probe_checks.h"
#include "demos/matrix/matrix_demo.h"

#include "matrix/matrix_cuda.h"

namespace gpulab {

using matrix::Op;

MatrixWork matrix_work(const matrix::Words& words, const matrix::Operands& ops, const matrix::Variant& v) {
  MatrixWork w;
  if (v.op == Op::Transpose) {
    w.items = double(words.size());
    w.unit = "elements";
    w.per = "per matrix";
    w.bytes = 8.0 * w.items;  // each 4-byte word read once and written once
    w.width = words.cols;
    w.height = words.rows;
  } else {
    const double m = ops.a.rows, k = ops.a.cols, n = v.aat() ? m : double(ops.b.cols);
    w.items = m * n;
    w.unit = "elements of C";
    w.per = "per product";
    w.flops = 2.0 * m * n * k;
    w.bytes = 4.0 * (m * k + (v.aat() ? 0.0 : k * n) + m * n);
    w.width = long(n);
    w.height = long(m);
  }
  return w;
}

Probe make_matrix_probe(std::shared_ptr<matrix::Engine> engine, Stream stream,
                        std::shared_ptr<const matrix::Words> words,
                        std::shared_ptr<const matrix::Operands> ops, const matrix::Variant& v, int block) {
  Probe p;
  p.gpu = v.backend == matrix::Backend::Cuda;
  p.stream = p.gpu ? stream : nullptr;
  p.device = std::string(engine->device_name());
  const matrix::Variant* pv = &v;
  matrix::Engine* e = engine.get();
  const MatrixWork w = matrix_work(*words, *ops, v);
  p.items_per_step = w.items;
  p.item_unit = w.unit;
  p.per = w.per;
  p.bytes_per_step = w.bytes;
  p.flops_per_step = w.flops;
  p.width = w.width;
  p.height = w.height;
  if (v.op == Op::Transpose) {
    p.verify = [e, pv, block, words]() {
      e->run(*pv, block);
      return verify_transpose(e->transposed(), *words);
    };
  } else {
    p.verify = [e, pv, block, ops]() {
      e->run(*pv, block);
      return verify_product(e->product(), ops->a, ops->b, *pv);
    };
  }
  p.size = std::to_string(p.height) + "x" + std::to_string(p.width) +
           (v.op == Op::Multiply ? "x" + std::to_string(ops->a.cols) : "");
  p.run = [e, pv, block](int steps) {
    for (int i = 0; i < steps; ++i) e->run(*pv, block);
  };
  p.state = engine;
  return p;
}

Probe MatrixDemo::probe(const Picks& picks, size_t stage) {
  if (stage > 1) return probe_unavailable("the matrix demo has no pipeline of stages");
  const matrix::Variant* v =
      matrix::variants_of(stage == 0 ? Op::Transpose : Op::Multiply)[size_t(picks.at(stage).variant)];
  int block = picks[stage].block;
  std::string why;
  if (!variant_available(*v, &why)) return probe_unavailable(why);
  if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
  std::shared_ptr<matrix::Engine> engine;
  if (v->backend == matrix::Backend::Cuda) engine = matrix::CudaEngine::create(ctx_->stream);
  if (!engine) engine = matrix::make_cpu_engine();
  auto words = std::make_shared<const matrix::Words>(*words_);
  auto ops = std::make_shared<const matrix::Operands>(*ops_);
  if (v->op == Op::Transpose)
    engine->set_words(*words);
  else
    engine->set_operands(ops->a, ops->b);
  return make_matrix_probe(std::move(engine), ctx_->stream, std::move(words), std::move(ops), *v, block);
}

namespace {
struct MmaPeak {
  const char* id;
  const char* rung;  // the mma.sync rung it is the ceiling of
  matrix::Precision precision;
  const char* name;
};
constexpr MmaPeak kMmaPeaks[] = {
    {"mma-sync-peak-tf32", "gemm-tensor-tf32", matrix::Precision::Tf32, "TF32"},
    {"mma-sync-peak-bf16", "gemm-tensor-bf16", matrix::Precision::Bf16, "BF16"},
};
}  // namespace

std::vector<Yardstick> MatrixDemo::yardsticks() const {
  std::vector<Yardstick> out;
  for (const MmaPeak& m : kMmaPeaks) {
    Yardstick y;
    y.id = m.id;
    y.stage = index(Op::Multiply);
    y.title = std::string("mma.sync ceiling (") + m.name + ")";
    y.lesson = std::string("mma.sync on registers only, no loads: the most ") + m.name +
               " FLOP/s the instruction gives, the ceiling of " + m.rung;
    y.bounds = {m.rung};
    out.push_back(std::move(y));
  }
  return out;
}

Probe MatrixDemo::yardstick_probe(const Picks& picks, size_t index) {
  (void)picks;  // the ceiling depends on the product's shape only, not on any pick
  if (index >= std::size(kMmaPeaks))
    return probe_unavailable("the matrix demo has no yardstick " + std::to_string(index));
  const MmaPeak& m = kMmaPeaks[index];
  const matrix::Variant* rung = matrix::find_variant(m.rung);
  std::string why;
  if (!rung) return probe_unavailable(std::string("no variant ") + m.rung);
  // Where the rung cannot run (no CUDA device), neither can its ceiling, for the same reason.
  if (!variant_available(*rung, &why)) return probe_unavailable(why);
  std::shared_ptr<matrix::CudaEngine> engine = matrix::CudaEngine::create(ctx_->stream);
  auto ops = std::make_shared<const matrix::Operands>(*ops_);
  engine->set_operands(ops->a, ops->b);
  try {
    engine->run_mma_peak(m.precision);  // refuses a GPU without tensor cores (below 8.0), as the rungs do
  } catch (const std::exception& e) {
    return probe_unavailable(e.what());
  }
  Probe p = make_matrix_probe(engine, ctx_->stream, std::make_shared<const matrix::Words>(), ops, *rung, 0);
  p.verify = nullptr;    // it computes no product: nothing to compare
  p.bytes_per_step = 0;  // and loads nothing: no GB/s
  p.note = "a yardstick: no product computed";
  matrix::CudaEngine* e = engine.get();
  const matrix::Precision prec = m.precision;
  p.run = [e, prec](int steps) {
    for (int i = 0; i < steps; ++i) e->run_mma_peak(prec);
  };
  return p;
}

}  // namespace gpulab

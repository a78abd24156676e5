// The matrix demo's comparisons with the CPU reference and its probes (the ladder's, on copies of
// the current inputs, and the bench's): one step is one transpose or one product.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "common/text.h"
#include "demos/common/probe_checks.h"
#include "demos/matrix/matrix_demo.h"

#if defined(GPULAB_HAVE_CUDA)
#include "matrix/matrix_cuda.h"
#endif

namespace gpulab {

using matrix::Op;

std::string verify_transpose(const matrix::Words& got, const matrix::Words& in) {
  if (got.rows != in.cols || got.cols != in.rows)
    return "the transpose is " + std::to_string(got.rows) + "x" + std::to_string(got.cols) + ", should be " +
           std::to_string(in.cols) + "x" + std::to_string(in.rows);
  size_t differ = 0;
  std::string first;
  for (int i = 0; i < in.rows; ++i)
    for (int j = 0; j < in.cols; ++j)
      if (got.at(j, i) != in.at(i, j)) {
        if (differ++ == 0) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "out[%d][%d] = 0x%08x, in[%d][%d] = 0x%08x", j, i, got.at(j, i), i,
                        j, in.at(i, j));
          first = buf;
        }
      }
  if (!differ) return {};
  return std::to_string(differ) + " of " + std::to_string(in.size()) +
         " elements differ from the CPU's; first " + first;
}

std::string verify_product(const matrix::Matrix& got, const matrix::Matrix& a, const matrix::Matrix& b,
                           const matrix::Variant& v) {
  const int m = a.rows, k = a.cols, n = v.aat() ? a.rows : b.cols;
  if (!v.aat() && a.cols != b.rows) return "A's columns differ from B's rows";
  if (got.rows != m || got.cols != n)
    return "C is " + std::to_string(got.rows) + "x" + std::to_string(got.cols) + ", should be " +
           std::to_string(m) + "x" + std::to_string(n);
  const double bound =
      v.precision == matrix::Precision::Fp32 ? matrix::fp32_bound(k) : matrix::tensor_bound(v.precision, k);
  // Large products: every row would take minutes in float64 on one thread; 17 rows spread over C.
  const bool sample = double(m) * n * k > double(1 << 30);
  const int step = sample ? std::max(1, m / 16) : 1;
  std::vector<double> exact(n), mag(n);
  size_t checked = 0, differ = 0;
  std::string first;
  std::vector<int> rows;
  for (int i = 0; i < m; i += step) rows.push_back(i);
  if (rows.back() != m - 1) rows.push_back(m - 1);
  for (const int i : rows) {
    std::fill(exact.begin(), exact.end(), 0.0);
    std::fill(mag.begin(), mag.end(), 0.0);
    for (int kk = 0; kk < k; ++kk) {
      const double av = a.at(i, kk);
      for (int j = 0; j < n; ++j) {
        const double bv = v.aat() ? a.at(j, kk) : b.at(kk, j);
        exact[j] += av * bv;
        mag[j] += std::fabs(av * bv);
      }
    }
    for (int j = 0; j < n; ++j) {
      ++checked;
      const double err = std::fabs(double(got.at(i, j)) - exact[j]);
      if (!(err <= bound * mag[j] + 1e-30)) {
        if (differ++ == 0) {
          char buf[200];
          std::snprintf(buf, sizeof buf, "C[%d][%d] = %.9g, exact %.9g: off by %.3g, the bound is %.3g", i, j,
                        double(got.at(i, j)), exact[j], err, bound * mag[j]);
          first = buf;
        }
      }
    }
  }
  if (!differ) return {};
  return std::to_string(differ) + " of " + std::to_string(checked) +
         " elements checked are outside the bound; first " + first;
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
  if (v.op == Op::Transpose) {
    const double n = double(words->size());
    p.items_per_step = n;
    p.item_unit = "elements";
    p.bytes_per_step = 8.0 * n;
    p.width = words->cols;
    p.height = words->rows;
    p.verify = [e, pv, block, words]() {
      e->run(*pv, block);
      return verify_transpose(e->transposed(), *words);
    };
  } else {
    const double m = ops->a.rows, k = ops->a.cols, n = v.aat() ? m : double(ops->b.cols);
    p.items_per_step = m * n;
    p.item_unit = "elements of C";
    p.flops_per_step = 2.0 * m * n * k;
    p.bytes_per_step = 4.0 * (m * k + (v.aat() ? 0.0 : k * n) + m * n);
    p.width = long(n);
    p.height = long(m);
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

Probe MatrixDemo::probe(size_t stage, std::string_view id, int block) {
  const matrix::Variant* v = matrix::find_variant(id);
  const Op stage_op = stage == 0 ? op_ : (op_ == Op::Transpose ? Op::Multiply : Op::Transpose);
  if (!v || v->op != stage_op) return probe_unavailable("no variant " + text::quote(id) + " in this stage");
  std::string why;
  if (!variant_available(*v, &why)) return probe_unavailable(why);
  if (why = check_probe_block(*v, &block); !why.empty()) return probe_unavailable(why);
  std::shared_ptr<matrix::Engine> engine;
#if defined(GPULAB_HAVE_CUDA)
  if (v->backend == matrix::Backend::Cuda) engine = matrix::CudaEngine::create(ctx_->stream);
#endif
  if (!engine) engine = matrix::make_cpu_engine();
  auto words = std::make_shared<const matrix::Words>(*words_);
  auto ops = std::make_shared<const matrix::Operands>(*ops_);
  if (v->op == Op::Transpose)
    engine->set_words(*words);
  else
    engine->set_operands(ops->a, ops->b);
  return make_matrix_probe(std::move(engine), ctx_->stream, std::move(words), std::move(ops), *v, block);
}

}  // namespace gpulab

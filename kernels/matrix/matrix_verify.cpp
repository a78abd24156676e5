// Verify's comparisons with the CPU reference (the demo's button, the ladder's and bench's probes,
// the tests): a transpose bit for bit, a product within its precision's derived bound.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "matrix/matrix.h"

namespace gpulab::matrix {

std::string verify_transpose(const Words& got, const Words& in) {
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

std::string verify_product(const Matrix& got, const Matrix& a, const Matrix& b, const Variant& v) {
  const int m = a.rows, k = a.cols, n = v.aat() ? a.rows : b.cols;
  if (!v.aat() && a.cols != b.rows) return "A's columns differ from B's rows";
  if (got.rows != m || got.cols != n)
    return "C is " + std::to_string(got.rows) + "x" + std::to_string(got.cols) + ", should be " +
           std::to_string(m) + "x" + std::to_string(n);
  const double bound = v.precision == Precision::Fp32 ? fp32_bound(k) : tensor_bound(v.precision, k);
  // Large products: every row would take minutes in float64 on one thread; 17 rows spread over C.
  const bool sample = double(m) * n * k > double(1 << 30);
  const int step = sample ? std::max(1, m / 16) : 1;
  std::vector<double> exact, mag;
  size_t checked = 0, differ = 0;
  std::string first;
  std::vector<int> rows;
  for (int i = 0; i < m; i += step) rows.push_back(i);
  if (rows.back() != m - 1) rows.push_back(m - 1);
  for (const int i : rows) {
    product_row_f64(a, b, v.aat(), i, exact, mag);
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

}  // namespace gpulab::matrix

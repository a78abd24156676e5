// The CPU side of kernels/matrix: shapes, the references (transpose is a template in matrix.h;
// the blocked multi-threaded SGEMM and the float64 product here), the error bounds, the generated
// inputs and the CPU engine.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "common/cpu_info.h"
#include "common/random.h"
#include "matrix/matrix.h"

namespace gpulab::matrix {

std::string operands_refusal(const Matrix& a, const Matrix& b) {
  if (a.size() == 0 || b.size() == 0) return "an empty matrix cannot be multiplied";
  if (a.cols != b.rows)
    return "A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " but B is " +
           std::to_string(b.rows) + "x" + std::to_string(b.cols) + ": A's columns (K) must equal B's rows";
  return {};
}

namespace {

// Runs body(first, last) over [0, n) split among the CPU's threads.
template <class Body>
void parallel_rows(int n, Body body) {
  const int threads = std::max(1, std::min(cpu_threads(), n / 8 > 0 ? n / 8 : 1));
  if (threads == 1) {
    body(0, n);
    return;
  }
  std::vector<std::thread> pool;
  const int per = (n + threads - 1) / threads;
  for (int t = 0; t < threads; ++t) {
    const int a = t * per, b = std::min(n, a + per);
    if (a < b) pool.emplace_back(body, a, b);
  }
  for (std::thread& t : pool) t.join();
}

void check_inner(const Matrix& a, const Matrix& b) {
  if (a.cols != b.rows) throw std::invalid_argument(operands_refusal(a, b));
}

// "GPU" in a 5x7 font, for the pattern input.
constexpr const char* kGlyphs[3][7] = {
    {"01110", "10001", "10000", "10111", "10001", "10001", "01110"},
    {"11110", "10001", "10001", "11110", "10000", "10000", "10000"},
    {"10001", "10001", "10001", "10001", "10001", "10001", "01110"},
};
// Whether cell (r, c) of a 9 x 19 canvas (1-cell margin, 1-cell gaps) is inside a letter.
bool glyph_bit(int r, int c) {
  if (r < 1 || r > 7 || c < 1 || c > 17) return false;
  const int letter = (c - 1) / 6, x = (c - 1) % 6;
  if (x == 5) return false;
  return kGlyphs[letter][r - 1][x] == '1';
}

}  // namespace

int cpu_threads() { return int(std::max(std::thread::hardware_concurrency(), 1u)); }

std::string check_shape(const std::string& what, long long r, long long c) {
  if (r < 1 || c < 1)
    return what + " must have at least one row and one column, got " + std::to_string(r) + "x" +
           std::to_string(c);
  if (r > kMaxSide || c > kMaxSide)
    return what + " is " + std::to_string(r) + "x" + std::to_string(c) + ": at most " +
           std::to_string(kMaxSide) + " a side";
  if (uint64_t(r) * uint64_t(c) > kMaxElements)
    return what + " is " + std::to_string(r) + "x" + std::to_string(c) +
           ": at most 2^28 elements (1 GiB of float32)";
  return {};
}

// snippet gemm_cpu
Matrix gemm_cpu(const Matrix& a, const Matrix& b) {
  check_inner(a, b);
  const int m = a.rows, n = b.cols, k = a.cols;
  Matrix c(m, n);
  constexpr int KB = 256, NB = 1024;  // a KB x NB panel of B stays in cache while rows of A pass
  parallel_rows(m, [&](int r0, int r1) {
    for (int j0 = 0; j0 < n; j0 += NB) {
      const int j1 = std::min(n, j0 + NB);
      for (int k0 = 0; k0 < k; k0 += KB) {
        const int k1 = std::min(k, k0 + KB);
        for (int i = r0; i < r1; ++i) {
          float* crow = &c.data[size_t(i) * n];
          const float* arow = &a.data[size_t(i) * k];
          for (int kk = k0; kk < k1; ++kk) {
            const float av = arow[kk];
            const float* brow = &b.data[size_t(kk) * n];
            for (int j = j0; j < j1; ++j) crow[j] += av * brow[j];  // vectorised by the compiler
          }
        }
      }
    }
  });
  return c;
}
// end snippet

void product_row_f64(const Matrix& a, const Matrix& b, bool aat, int i, std::vector<double>& exact,
                     std::vector<double>& magnitude) {
  const int k = a.cols, n = aat ? a.rows : b.cols;
  exact.assign(size_t(n), 0.0);
  magnitude.assign(size_t(n), 0.0);
  for (int kk = 0; kk < k; ++kk) {
    const double av = a.at(i, kk);
    for (int j = 0; j < n; ++j) {
      const double p = av * (aat ? a.at(j, kk) : b.at(kk, j));
      exact[size_t(j)] += p;
      magnitude[size_t(j)] += std::fabs(p);
    }
  }
}

namespace {
// A·B in float64, or Σ|a||b| (`magnitude`), row by row.
std::vector<double> product_f64(const Matrix& a, const Matrix& b, bool magnitude) {
  check_inner(a, b);
  const int m = a.rows, n = b.cols;
  std::vector<double> c(size_t(m) * n), exact, mag;
  for (int i = 0; i < m; ++i) {
    product_row_f64(a, b, false, i, exact, mag);
    std::copy((magnitude ? mag : exact).begin(), (magnitude ? mag : exact).end(), c.begin() + size_t(i) * n);
  }
  return c;
}
}  // namespace

std::vector<double> gemm_f64(const Matrix& a, const Matrix& b) { return product_f64(a, b, false); }
std::vector<double> gemm_abs_f64(const Matrix& a, const Matrix& b) { return product_f64(a, b, true); }

double fp32_bound(int k) {
  const double u = std::ldexp(1.0, -24);
  const double ku = double(std::max(k, 1)) * u;
  return ku / (1.0 - ku) + u;
}

double tensor_bound(Precision p, int k) {
  const double in = p == Precision::Bf16   ? std::ldexp(1.0, -8)
                    : p == Precision::Tf32 ? std::ldexp(1.0, -10)
                                           : 0.0;
  return 2.0 * in + in * in + fp32_bound(k);
}

std::string_view name(Init i) {
  switch (i) {
    case Init::Random:
      return "random";
    case Init::Identity:
      return "identity";
    default:
      return "pattern";
  }
}

std::optional<Init> parse_init(std::string_view id) {
  for (Init i : kInits)
    if (name(i) == id) return i;
  return std::nullopt;
}

Operands generate(Init init, int m, int n, int k, uint64_t seed) {
  for (const auto& [what, r, c] : {std::tuple{"A", m, k}, std::tuple{"B", k, n}})
    if (std::string bad = check_shape(what, r, c); !bad.empty()) throw std::invalid_argument(bad);
  Operands o{Matrix(m, k), Matrix(k, n)};
  switch (init) {
    case Init::Random: {
      uint64_t state = seed;
      auto next = [&] { return float(double(splitmix64(state) >> 40) * std::ldexp(1.0, -23) - 1.0); };
      for (float& v : o.a.data) v = next();
      for (float& v : o.b.data) v = next();
      break;
    }
    case Init::Identity:
      for (int i = 0; i < std::min(m, k); ++i) o.a.at(i, i) = 1.0f;
      for (int i = 0; i < std::min(k, n); ++i) o.b.at(i, i) = 1.0f;
      break;
    case Init::Pattern:
      // A: the word drawn over M x K, with a faint lattice; B: K columns resampled to N (column j of
      // C is column floor(j·K/N) of A), so C is the word stretched to M x N.
      for (int i = 0; i < m; ++i)
        for (int kk = 0; kk < k; ++kk) {
          const int r = int(int64_t(i) * 9 / m), c = int(int64_t(kk) * 19 / k);
          const bool lattice = (int64_t(i) * 16 / m) != (int64_t(i + 1) * 16 / m) ||
                               (int64_t(kk) * 16 / k) != (int64_t(kk + 1) * 16 / k);
          o.a.at(i, kk) = (glyph_bit(r, c) ? 1.0f : 0.0f) + (lattice ? 0.3f : 0.0f);
        }
      for (int j = 0; j < n; ++j) o.b.at(int(int64_t(j) * k / n), j) = 1.0f;
      break;
  }
  return o;
}

std::pair<float, float> value_range(std::span<const float> v) {
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (float x : v)
    if (x == x) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  if (lo > hi) lo = hi = 0.0f;
  return {lo, hi};
}

namespace {

class CpuEngine final : public Engine {
 public:
  CpuEngine() : name_(cpu_label(static_cast<unsigned>(cpu_threads()))) {}
  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return name_; }
  void set_words(const Words& w) override {
    if (w.size() == 0 || w.data.size() != w.size())
      throw std::invalid_argument("an empty matrix cannot be transposed");
    words_ = w;
  }
  void set_operands(const Matrix& a, const Matrix& b) override {
    if (a.size() == 0 || b.size() == 0) throw std::invalid_argument("an empty matrix cannot be multiplied");
    check_inner(a, b);
    a_ = a;
    b_ = b;
  }
  void run(const Variant& v, int) override {
    if (v.op == Op::Transpose) {
      if (words_.size() == 0) throw std::logic_error("matrix: transpose before set_words");
      out_ = transpose_cpu(words_);
    } else {
      if (a_.size() == 0) throw std::logic_error("matrix: multiply before set_operands");
      c_ = v.aat() ? gemm_cpu(a_, transpose_cpu(a_)) : gemm_cpu(a_, b_);
    }
  }
  Words transposed() override { return out_; }
  Matrix product() override { return c_; }
  std::pair<float, float> product_range() override { return value_range(c_.data); }

 private:
  std::string name_;
  Words words_, out_;
  Matrix a_, b_, c_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

}  // namespace gpulab::matrix

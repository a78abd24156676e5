// kernels/matrix on the CPU: the transpose of odd sizes, the blocked multi-threaded SGEMM against a
// float64 product within fp32_bound, the generated inputs, and .npy: a round trip (also of files as
// NumPy writes them) and every malformed case refused with its reason.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "matrix/matrix.h"

namespace gpulab {
namespace {

using matrix::Matrix;
using matrix::Words;

Words counting(int r, int c) {
  Words w(r, c);
  for (size_t i = 0; i < w.size(); ++i) w.data[i] = uint32_t(i * 2654435761u);
  return w;
}

TEST(MatrixCpu, TransposeOfOddSizesMovesEveryElement) {
  for (auto [r, c] : {std::pair{1, 1}, {1, 37}, {37, 1}, {33, 65}, {100, 31}, {129, 257}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    const Words in = counting(r, c);
    const Words out = matrix::transpose_cpu(in);
    ASSERT_EQ(out.rows, c);
    ASSERT_EQ(out.cols, r);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) ASSERT_EQ(out.at(j, i), in.at(i, j)) << i << "," << j;
    EXPECT_EQ(matrix::transpose_cpu(out), in);
  }
}

// |C − exact| <= fp32_bound(K)·Σ|a||b| everywhere, and the bound is not vacuous: the float64
// product differs from a deliberately wrong one by more than it.
void expect_within_bound(const Matrix& c, const Matrix& a, const Matrix& b) {
  const std::vector<double> exact = matrix::gemm_f64(a, b), mag = matrix::gemm_abs_f64(a, b);
  const double bound = matrix::fp32_bound(a.cols);
  ASSERT_EQ(c.rows, a.rows);
  ASSERT_EQ(c.cols, b.cols);
  for (size_t i = 0; i < c.size(); ++i)
    ASSERT_LE(std::fabs(double(c.data[i]) - exact[i]), bound * mag[i] + 1e-30) << "element " << i;
}

TEST(MatrixCpu, MultiplyMatchesTheFloat64ProductOnOddShapes) {
  struct Shape {
    int m, n, k;
  };
  for (Shape s :
       {Shape{1, 1, 1}, Shape{17, 33, 9}, Shape{5, 300, 2}, Shape{300, 7, 513}, Shape{64, 64, 1000}}) {
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
    const matrix::Operands o = matrix::generate(matrix::Init::Random, s.m, s.n, s.k, 42);
    const Matrix c = matrix::gemm_cpu(o.a, o.b);
    expect_within_bound(c, o.a, o.b);
  }
  // 1x1x1 by hand: 3 · 4 = 12 exactly.
  Matrix a(1, 1), b(1, 1);
  a.data = {3.0f};
  b.data = {4.0f};
  EXPECT_EQ(matrix::gemm_cpu(a, b).data, std::vector<float>{12.0f});
  // A known 2x3 · 3x2.
  Matrix p(2, 3), q(3, 2);
  p.data = {1, 2, 3, 4, 5, 6};
  q.data = {7, 8, 9, 10, 11, 12};
  EXPECT_EQ(matrix::gemm_cpu(p, q).data, (std::vector<float>{58, 64, 139, 154}));
}

TEST(MatrixCpu, MultiplyRefusesMismatchedShapes) {
  Matrix a(3, 4), b(5, 2);
  EXPECT_THROW(matrix::gemm_cpu(a, b), std::invalid_argument);
}

TEST(MatrixCpu, BoundsGrowWithKAndPrecision) {
  EXPECT_GT(matrix::fp32_bound(4096), matrix::fp32_bound(16));
  EXPECT_NEAR(matrix::fp32_bound(1), 2.0 * std::ldexp(1.0, -24), 1e-13);  // u/(1-u) + u
  EXPECT_GT(matrix::tensor_bound(matrix::Precision::Bf16, 64),
            matrix::tensor_bound(matrix::Precision::Tf32, 64));
  EXPECT_GT(matrix::tensor_bound(matrix::Precision::Tf32, 64), matrix::fp32_bound(64));
}

TEST(MatrixCpu, GeneratedInputs) {
  const auto r1 = matrix::generate(matrix::Init::Random, 7, 5, 3, 9),
             r2 = matrix::generate(matrix::Init::Random, 7, 5, 3, 9),
             r3 = matrix::generate(matrix::Init::Random, 7, 5, 3, 10);
  EXPECT_EQ(r1.a, r2.a);
  EXPECT_NE(r1.a, r3.a);
  for (float v : r1.a.data) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
  // identity: C is the M x N identity.
  const auto id = matrix::generate(matrix::Init::Identity, 6, 9, 8, 0);
  const Matrix c = matrix::gemm_cpu(id.a, id.b);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 9; ++j) EXPECT_EQ(c.at(i, j), i == j ? 1.0f : 0.0f);
  // pattern: C shows the word: some elements are on the letters (>= 1), and the background between
  // them is smaller.
  const auto pat = matrix::generate(matrix::Init::Pattern, 90, 190, 190, 0);
  const Matrix pc = matrix::gemm_cpu(pat.a, pat.b);
  const auto [lo, hi] = matrix::value_range(pc.data);
  EXPECT_GE(hi, 1.0f);
  EXPECT_LT(lo, 0.5f);
  EXPECT_GE(pc.at(45, 15), 1.0f) << "the G's left stroke (row 4 of 9, column 1 of 19)";
  EXPECT_LT(pc.at(5, 5), 1.0f) << "the margin above the letters";
  EXPECT_THROW(matrix::generate(matrix::Init::Random, 0, 3, 3, 1), std::invalid_argument);
  EXPECT_EQ(matrix::parse_init("identity"), matrix::Init::Identity);
  EXPECT_FALSE(matrix::parse_init("ones"));
}

TEST(MatrixCpu, HeatColoursRunDarkToLight) {
  const uint32_t lo = matrix::heat_colour(0.0f), hi = matrix::heat_colour(1.0f);
  EXPECT_EQ(lo, 0xFF540144u);  // (68, 1, 84)
  EXPECT_EQ(hi, 0xFF25E7FDu);  // (253, 231, 37)
  EXPECT_EQ(matrix::heat_colour(NAN), 0xFFFF00FFu);
  EXPECT_EQ(matrix::heat_t(5.0f, 5.0f, 5.0f), 0.5f);
}

// ---------------------------------------------------------------------------------------------
// .npy

std::vector<uint8_t> npy(const std::string& header, size_t data_bytes, int major = 1) {
  std::string h = header;
  const size_t pre = major == 1 ? 10 : 12;
  h.append((64 - (pre + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
  const uint32_t len = uint32_t(h.size());
  out.push_back(uint8_t(len & 0xFF));
  out.push_back(uint8_t(len >> 8));
  if (major != 1) {
    out.push_back(uint8_t(len >> 16));
    out.push_back(uint8_t(len >> 24));
  }
  out.insert(out.end(), h.begin(), h.end());
  out.resize(out.size() + data_bytes, 0);
  return out;
}

TEST(MatrixNpy, RoundTripAndNumpyHeaders) {
  Matrix m(3, 5);
  for (size_t i = 0; i < m.size(); ++i) m.data[i] = float(i) * 0.5f - 2.0f;
  const auto bytes = matrix::encode_npy(m);
  EXPECT_EQ((bytes[8] | (bytes[9] << 8)) + 10, 128) << "header padded to 64 bytes";
  const matrix::NpyResult r = matrix::parse_npy(bytes);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.m, m);
  // Through a file.
  const auto path = std::filesystem::temp_directory_path() / "gpulab_matrix_roundtrip.npy";
  ASSERT_EQ(matrix::write_npy(path, m), "");
  const matrix::NpyResult f = matrix::read_npy(path);
  ASSERT_EQ(f.error, "");
  EXPECT_EQ(f.m, m);
  std::filesystem::remove(path);
  // NumPy's own spelling (np.save of a (2, 3) float32 array), version 2.0, and a 1-D array.
  EXPECT_EQ(matrix::parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24)).error,
            "");
  EXPECT_EQ(
      matrix::parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24, 2)).error, "");
  const auto one = matrix::parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", 16));
  ASSERT_EQ(one.error, "");
  EXPECT_EQ(one.m.rows, 1);
  EXPECT_EQ(one.m.cols, 4);
}

TEST(MatrixNpy, EveryMalformedCaseIsRefusedWithItsReason) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  struct Bad {
    std::vector<uint8_t> bytes;
    const char* reason;  // a part of the message
  };
  std::vector<uint8_t> magic = npy(ok, 24);
  magic[1] = 'X';
  std::vector<uint8_t> version = npy(ok, 24);
  version[6] = 9;
  std::vector<uint8_t> long_header = npy(ok, 0);
  long_header[8] = 0xFF;
  long_header[9] = 0x7F;
  const Bad cases[] = {
      {{}, "not a NumPy"},
      {magic, "not a NumPy"},
      {version, "unsupported .npy version 9"},
      {long_header, "the header claims 32767 bytes"},
      {npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 48), "is not float32"},
      {npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 24), "big-endian"},
      {npy("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", 24), "is not float32"},
      {npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24), "Fortran"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", 96), "3 dimensions"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4), "0 dimensions"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }", 24), "negative"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", 0), "at least one row"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 3), }", 0), "at most 65536"},
      {npy(ok, 20), "truncated"},
      {npy(ok, 28), "4 bytes after the data"},
      {npy("{'descr': '<f4', 'shape': (2, 3), }", 24), "no 'fortran_order'"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1, }", 24), "'extra'"},
      {npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24), "twice"},
      {npy("['descr', '<f4']", 24), "not a Python dict"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", 24), "not an integer"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2.0, 3), }", 24),
       "a dimension must be a whole number, got '2.0'"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3e0), }", 24), "got '3e0'"},
      {npy("{'descr': '<f4', 'fortran_order': Nope, 'shape': (2, 3), }", 24), "'fortran_order'"},
      {npy(std::string("{'descr': '<f4',\x01 'fortran_order': False, 'shape': (2, 3), }"), 24),
       "the header holds the control byte 0x01"},  // not "a control byte byte 0x01"
  };
  for (const Bad& b : cases) {
    SCOPED_TRACE(b.reason);
    const matrix::NpyResult r = matrix::parse_npy(b.bytes);
    EXPECT_NE(r.error.find(b.reason), std::string::npos) << r.error;
    EXPECT_EQ(r.m.size(), 0u);
  }
  // A missing file names itself.
  const matrix::NpyResult missing = matrix::read_npy("/nonexistent/a.npy");
  EXPECT_NE(missing.error.find("/nonexistent/a.npy"), std::string::npos) << missing.error;
}

}  // namespace
}  // namespace gpulab

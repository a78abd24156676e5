#pragma once
// Matrix transpose and multiply (the course's matrix lab): float32 matrices in row-major (C) order,
// the CPU references, NumPy .npy files, the generated inputs, the variant table and the engines.
// No GL, no ImGui, no CUDA headers here.
//
// Definitions every variant, test and outside check relies on:
//   transpose: out[j][i] = in[i][j] for an R x C matrix of 32-bit words (float32 bits, or RGBA8
//     pixels as words): bit for bit, so every variant must equal the CPU's exactly.
//   multiply:  C = A·B, A M x K, B K x N, C M x N, float32 in and out; each variant sums in its own
//     order (and the tensor variants round their inputs), so results are compared within a bound
//     (fp32_bound, tensor_bound below). The aat variants compute C = A·Aᵀ (M x M) from A alone,
//     as the lab's kernel does.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"

namespace gpulab::matrix {

// An R x C row-major matrix of T (float for products, uint32_t for transposed words).
template <class T>
struct Mat {
  int rows = 0, cols = 0;
  std::vector<T> data;
  Mat() = default;
  Mat(int r, int c) : rows(r), cols(c), data(size_t(r) * size_t(c)) {}
  size_t size() const { return size_t(rows) * size_t(cols); }
  T& at(int r, int c) { return data[size_t(r) * cols + c]; }
  const T& at(int r, int c) const { return data[size_t(r) * cols + c]; }
  bool operator==(const Mat&) const = default;
};
using Matrix = Mat<float>;
using Words = Mat<uint32_t>;

// The largest side a matrix may have here (and 2^28 elements in all: 1 GiB of float32).
inline constexpr int kMaxSide = 65536;
inline constexpr uint64_t kMaxElements = uint64_t(1) << 28;
// "" when an r x c matrix is allowed, else why not (names `what`).
std::string check_shape(const std::string& what, long long r, long long c);

// ---------------------------------------------------------------------------------------------
// CPU references.
// snippet transpose_cpu
template <class T>
Mat<T> transpose_cpu(const Mat<T>& in) {
  Mat<T> out(in.cols, in.rows);
  constexpr int B = 32;  // cache blocking: a 32x32 block read by rows, written by rows of the other
  for (int i0 = 0; i0 < in.rows; i0 += B)
    for (int j0 = 0; j0 < in.cols; j0 += B)
      for (int i = i0; i < i0 + B && i < in.rows; ++i)
        for (int j = j0; j < j0 + B && j < in.cols; ++j)
          out.data[size_t(j) * in.rows + i] = in.data[size_t(i) * in.cols + j];
  return out;
}
// end snippet
// Why A·B cannot be formed ("" when it can): an empty matrix, or A's columns differing from B's rows.
std::string operands_refusal(const Matrix& a, const Matrix& b);
// C = A·B in float32, blocked (cache tiles of A, B and C) and shared among all cores by rows of C.
// Throws std::invalid_argument when A.cols != B.rows.
Matrix gemm_cpu(const Matrix& a, const Matrix& b);
// The same in float64 (accumulated in double, one thread): the tests' reference.
std::vector<double> gemm_f64(const Matrix& a, const Matrix& b);
// Σ_k |A[i][k]|·|B[k][j]| for every (i, j), in double: what the error bounds scale with.
std::vector<double> gemm_abs_f64(const Matrix& a, const Matrix& b);
// Row i of A·B (of A·Aᵀ when `aat`) in double, and its Σ_k |a||b|: both of the above, one row.
void product_row_f64(const Matrix& a, const Matrix& b, bool aat, int i, std::vector<double>& exact,
                     std::vector<double>& magnitude);

// Error bounds (derived, not fitted). A float32 dot product of length K, summed in any order with
// or without FMA, differs from the exact one by at most γ_K·Σ|a||b| with γ_K = K·u/(1 − K·u) and
// u = 2^-24 (Higham, Accuracy and Stability, §3.1); the float32 rounding of the stored result adds
// u·|c|. fp32_bound(K) is that γ_K plus one u (relative to Σ|a||b|).
double fp32_bound(int k);
// Tensor variants round (bf16: to nearest, 8 significant bits, u_in = 2^-8) or truncate (tf32 read
// from float32 bits by the tensor core: 11 significant bits kept, u_in = 2^-10) each input, so each
// product carries a relative error of at most 2·u_in + u_in², then it is accumulated in float32:
// tensor_bound = 2·u_in + u_in² + fp32_bound(K).
enum class Precision : uint8_t { Fp32, Tf32, Bf16 };
double tensor_bound(Precision p, int k);

// ---------------------------------------------------------------------------------------------
// NumPy .npy files (format 1.0/2.0/3.0, '<f4' float32, C order, 1-D or 2-D; a 1-D array of n is
// read as 1 x n). Every malformed case is refused with the reason (wrong magic or version, a header
// that is not a Python dict, a missing or repeated key, another dtype, Fortran order, a shape of
// other rank or a negative / too large dimension, data shorter or longer than the header claims).
struct NpyResult {
  Matrix m;
  std::string error;  // "" when read; else the reason (without the path)
};
NpyResult parse_npy(std::span<const uint8_t> bytes);
std::vector<uint8_t> encode_npy(const Matrix& m);
// Reads / writes a file; messages name the file (text::quote).
NpyResult read_npy(const std::filesystem::path& path);
std::string write_npy(const std::filesystem::path& path, const Matrix& m);

// ---------------------------------------------------------------------------------------------
// Generated inputs (deterministic for a seed).
enum class Init : uint8_t { Random, Identity, Pattern };
inline constexpr Init kInits[] = {Init::Random, Init::Identity, Init::Pattern};
std::string_view name(Init i);
std::optional<Init> parse_init(std::string_view id);
// A (M x K) and B (K x N) of kind `init`:
//   random    uniform in [-1, 1) from `seed` (a splitmix64 stream; A first, then B);
//   identity  A[i][k] = 1 where i == k, B likewise: C is the M x N identity (ones on the diagonal);
//   pattern   A holds a column of letters' stripes, B a row of bands, so that C = A·B draws the word
//             "GPU" over a lattice: A[i][k] = the glyph bit of row i in stripe k, B[k][j] = the bit of
//             column j in stripe k; the product counts the shared stripes, a picture of text.
struct Operands {
  Matrix a, b;
};
Operands generate(Init init, int m, int n, int k, uint64_t seed);

// ---------------------------------------------------------------------------------------------
// Heat map colours (shared by the CPU compose and the CUDA one): t in [0, 1] to RGBA8 (as a
// little-endian word 0xAABBGGRR) along a five-stop scale from dark blue through teal and yellow-green
// to light yellow (perceptually increasing lightness, like viridis). NaN: magenta.
GPULAB_HD uint32_t heat_colour(float t) {
  if (!(t == t)) return 0xFFFF00FFu;
  t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
  const float stops[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  const float x = t * 4.0f;
  int i = int(x);
  if (i > 3) i = 3;
  const float f = x - float(i);
  uint32_t rgba = 0xFF000000u;
  for (int c = 0; c < 3; ++c) {
    const float v = stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f;
    rgba |= uint32_t(v + 0.5f) << (8 * c);
  }
  return rgba;
}
// The scale's position of v between lo and hi (0.5 when they are equal).
GPULAB_HD float heat_t(float v, float lo, float hi) { return hi > lo ? (v - lo) / (hi - lo) : 0.5f; }

// ---------------------------------------------------------------------------------------------
// Variants.
enum class Op : uint8_t { Transpose, Multiply };
inline std::string_view name(Op o) { return o == Op::Transpose ? "transpose" : "multiply"; }
enum class Backend : uint8_t { Cpu, Cuda };
enum class Kind : uint8_t {
  TransposeCpu,
  TransposeNaive,
  TransposeShared,
  TransposePadded,
  TransposeSwizzled,
  TransposeVector,
  GemmCpu,
  GemmNaive,
  GemmSharedTile,
  GemmAat,
  GemmAatPadded,
  GemmRegisterTile,
  GemmWarpTile,
  GemmTensorTf32,
  GemmTensorBf16,
  GemmTensorWgmmaTf32,
  GemmTensorWgmmaBf16,
  GemmCublas,
};
struct Variant : VariantRecord {
  Backend backend;
  Op op;
  Precision precision = Precision::Fp32;
  Kind kind() const { return kernel.as<Kind>(); }
  bool aat() const { return kind() == Kind::GemmAat || kind() == Kind::GemmAatPadded; }
};
// Verify's comparisons (the button, the ladder's and bench's probes, the tests): "" when `got` is
// right, else the first difference. Transpose: bit for bit. Multiply: |got − exact| <= bound ·
// Σ|a||b| + 1e-30 at every element, with exact and Σ|a||b| in float64 and the bound of the
// variant's precision (fp32_bound / tensor_bound at K).
std::string verify_transpose(const Words& got, const Words& in);
std::string verify_product(const Matrix& got, const Matrix& a, const Matrix& b, const Variant& v);

std::span<const Variant> variants();
const Variant* find_variant(std::string_view id);
std::vector<const Variant*> variants_of(Op op);

// ---------------------------------------------------------------------------------------------
// An engine holds the inputs of both ops (the words to transpose; A and B) and the last outputs.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual Backend backend() const = 0;
  virtual std::string_view device_name() const = 0;
  // Replace an input. Throw GpuError (out of memory; the previous input stays) or
  // std::invalid_argument (an empty matrix, A.cols != B.rows).
  virtual void set_words(const Words& w) = 0;
  virtual void set_operands(const Matrix& a, const Matrix& b) = 0;
  // Runs v (of this backend) at `block` (one of v.blocks; ignored where it has none). Never
  // synchronises on the GPU. Throws std::logic_error when the op's input is missing.
  virtual void run(const Variant& v, int block) = 0;
  // The last outputs (wait for the GPU): the transposed words, the product (M x N, or M x M for aat).
  virtual Words transposed() = 0;
  virtual Matrix product() = 0;
  // The last product's smallest and largest value (the heat map's scale; NaN are left out).
  virtual std::pair<float, float> product_range() = 0;
  // "" when v (of this backend) can run here, else why not (a kernel this build or this GPU lacks:
  // the wgmma rungs need sm_90a code and a compute capability 9.0 GPU). run() throws with the same.
  virtual std::string why_unavailable(const Variant& v) const { return {}; }
};
std::unique_ptr<Engine> make_cpu_engine();
// The smallest and largest of v, NaN left out ({0, 0} when none is a number).
std::pair<float, float> value_range(std::span<const float> v);

// Threads the CPU references use (all cores).
int cpu_threads();

}  // namespace gpulab::matrix

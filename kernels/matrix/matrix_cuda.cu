// The CUDA engine behind matrix::Engine: device copies of the inputs (the words to transpose; A and
// B, with the tensor variants' padded, transposed or bfloat16 copies made once when they are set), the
// outputs, cuBLAS (cublasSgemm for gemm-cublas; cublasLt, its best algorithm for the problem timed once, as
// the tensor rows' yardstick), the heat map's range and the display fills. The Hopper rungs
// (sm90a/matrix_wgmma.cu) read the same padded copies as the mma.sync ones: their rows are 16-byte multiples,
// as the tensor copy needs.
#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_event.cuh"
#include "common/cuda_probe.h"
#include "common/device_memory.cuh"
#include "common/launch.cuh"
#include "matrix/matrix_cuda.h"
#include "matrix/matrix_cuda_internal.cuh"

namespace gpulab::matrix {
#if !defined(GPULAB_SM90A)
namespace detail {
// This build has no sm_90a code (the architecture list has no 90): the wgmma rungs say why.
std::string wgmma_refusal() {
#if defined(GPULAB_CUDA_ARCHITECTURES)
  const std::string archs = GPULAB_CUDA_ARCHITECTURES;
#else
  const std::string archs = "?";
#endif
  return "the wgmma rungs are built for sm_90a only when the CUDA architecture list has 90; this build's is "
         "\"" +
         archs + "\" (configure with -DCMAKE_CUDA_ARCHITECTURES=native on a Hopper GPU, or a list with 90)";
}
void launch_wgmma_tf32(const float*, int, const float*, int, float*, int, int, int, cudaStream_t) {
  throw std::runtime_error(wgmma_refusal());
}
void launch_wgmma_bf16(const __nv_bfloat16*, int, const __nv_bfloat16*, int, float*, int, int, int,
                       cudaStream_t) {
  throw std::runtime_error(wgmma_refusal());
}
std::vector<KernelInfo> wgmma_kernels(Precision) { return {}; }
}  // namespace detail
#endif

namespace {

bool is_wgmma(Kind k) { return k == Kind::GemmTensorWgmmaTf32 || k == Kind::GemmTensorWgmmaBf16; }

using cuda::DeviceBuffer;

#define CUBLAS_CHECK(expr)                                                                  \
  do {                                                                                      \
    const cublasStatus_t st_ = (expr);                                                      \
    if (st_ != CUBLAS_STATUS_SUCCESS)                                                       \
      throw GpuError(std::string("cuBLAS: ") + cublasGetStatusString(st_) + " (" #expr ")", \
                     st_ == CUBLAS_STATUS_ALLOC_FAILED);                                    \
  } while (0)

// Calls of a cublasLt candidate in one timed sample: about 0.2 ms of work at 1 PFLOP/s, at least one,
// at most 32 (a small product is mostly launch time, and the choice is made once per shape: the tests'
// many small shapes must not each spend seconds here).
constexpr int lt_calls_per_sample(double flops) {
  const double calls = 2e11 / (flops > 1 ? flops : 1);
  return calls >= 32 ? 32 : calls <= 1 ? 1 : int(calls);
}
static_assert(lt_calls_per_sample(2.0 * 4096 * 4096 * 4096) == 1);
static_assert(lt_calls_per_sample(2.0 * 2048 * 2048 * 2048) == 11);
static_assert(lt_calls_per_sample(2.0 * 128 * 128 * 128) == 32 && lt_calls_per_sample(2.0) == 32);

// cuBLAS's best for one tensor-precision problem (row-major C = A·B as column-major Cᵀ = Bᵀ·Aᵀ):
// cublasLt's heuristic candidates for it, with a workspace, each timed on the engine's stream, the
// fastest kept. A library's first choice is not always its best (the heuristic's pick ran 11-15% below
// a tuned call on the H200), and the yardstick the rungs are measured against must be the best.
class LtGemm {
 public:
  LtGemm() = default;
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;
  ~LtGemm() { release(); }

  bool made_for(Precision p, int m, int n, int k) const {
    return made_ && p_ == p && m_ == m && n_ == n && k_ == k;
  }
  const std::string& choice() const { return said_; }

  // Chooses for row-major C (m x n, fp32) = A (m x k) · B (k x n) at precision p, computed as the
  // column-major Cᵀ = Bᵀ·Aᵀ: `b` is Bᵀ to cuBLAS (n x k, leading dimension ldb), `a` is Aᵀ (k x m, lda).
  void choose(cublasLtHandle_t lt, Precision p, int m, int n, int k, const void* b, int ldb, const void* a,
              int lda, float* c, cudaStream_t stream, const std::string& device) {
    release();
    p_ = p, m_ = m, n_ = n, k_ = k;
    const cudaDataType_t in = p == Precision::Bf16 ? CUDA_R_16BF : CUDA_R_32F;
    const cublasComputeType_t compute =
        p == Precision::Bf16 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32;
    CUBLAS_CHECK(cublasLtMatmulDescCreate(&op_, compute, CUDA_R_32F));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lb_, in, n, k, ldb));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&la_, in, k, m, lda));
    CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&lc_, CUDA_R_32F, n, m, n));
    cublasLtMatmulPreference_t pref = nullptr;
    CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
    size_t ws = kWorkspace;
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
    std::array<cublasLtMatmulHeuristicResult_t, kCandidates> found{};
    int got = 0;
    const cublasStatus_t hs =
        cublasLtMatmulAlgoGetHeuristic(lt, op_, lb_, la_, lc_, lc_, pref, kCandidates, found.data(), &got);
    cublasLtMatmulPreferenceDestroy(pref);
    if (hs != CUBLAS_STATUS_SUCCESS || got == 0)
      throw GpuError(std::string("cuBLAS: cublasLtMatmulAlgoGetHeuristic found no algorithm (") +
                     cublasGetStatusString(hs) + ")");
    size_t most = 0;
    for (int i = 0; i < got; ++i) most = std::max(most, found[size_t(i)].workspaceSize);
    workspace_ = DeviceBuffer<unsigned char>(std::max<size_t>(most, 1), "cuBLAS's workspace", device);
    const float one = 1.0f, zero = 0.0f;
    const cuda::ScopedEvent e0, e1;
    double best_ms = 0, first_ms = 0;
    int best = -1;
    for (int i = 0; i < got; ++i) {
      const cublasLtMatmulHeuristicResult_t& h = found[size_t(i)];
      if (h.state != CUBLAS_STATUS_SUCCESS) continue;
      auto call = [&] {
        return cublasLtMatmul(lt, op_, &one, b, lb_, a, la_, &zero, c, lc_, c, lc_, &h.algo, workspace_.get(),
                              h.workspaceSize, stream);
      };
      if (call() != CUBLAS_STATUS_SUCCESS) continue;  // a candidate that does not run is passed over
      call();
      // The median of 5 timed samples (enough to order candidates a few % apart).
      std::array<float, 5> t{};
      const int per = lt_calls_per_sample(2.0 * m * n * k);
      for (float& ms : t) {
        CUDA_CHECK(cudaEventRecord(e0.get(), stream));
        for (int r = 0; r < per; ++r) call();
        CUDA_CHECK(cudaEventRecord(e1.get(), stream));
        CUDA_CHECK(cudaEventSynchronize(e1.get()));
        ms = float(cuda::elapsed_ms(e0, e1) / per);
      }
      std::sort(t.begin(), t.end());
      const double med = t[t.size() / 2];
      if (best < 0 && first_ms == 0) first_ms = med;
      if (best < 0 || med < best_ms) best = i, best_ms = med;
    }
    if (best < 0) throw GpuError("cuBLAS: none of cublasLt's candidate algorithms ran");
    algo_ = found[size_t(best)].algo;
    workspace_bytes_ = found[size_t(best)].workspaceSize;
    made_ = true;
    said_ = describe(got, best_ms, first_ms);
  }

  void run(cublasLtHandle_t lt, const void* b, const void* a, float* c, cudaStream_t stream) const {
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasLtMatmul(lt, op_, &one, b, lb_, a, la_, &zero, c, lc_, c, lc_, &algo_,
                                workspace_.get(), workspace_bytes_, stream));
  }

 private:
  static constexpr int kCandidates = 8;
  static constexpr size_t kWorkspace = size_t(64) << 20;

  std::string describe(int candidates, double best_ms, double first_ms) const {
    int id = 0, tile = 0, stages = 0, splitk = 1;
    size_t w = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof id, &w);
    cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &w);
    cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &w);
    cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof splitk, &w);
    char line[320];
    std::snprintf(
        line, sizeof line,
        "cublasLt algo %d (tile id %d, stages id %d, split-K %d, %zu B workspace): the fastest of %d "
        "heuristic candidates, timed (%.4f ms; the heuristic's first %.4f ms)",
        id, tile, stages, splitk, workspace_bytes_, candidates, best_ms, first_ms);
    return line;
  }
  void release() {
    if (op_) cublasLtMatmulDescDestroy(op_);
    for (cublasLtMatrixLayout_t* l : {&la_, &lb_, &lc_})
      if (*l) cublasLtMatrixLayoutDestroy(*l), *l = nullptr;
    op_ = nullptr;
    made_ = false;
    said_.clear();
  }

  bool made_ = false;
  Precision p_ = Precision::Fp32;
  int m_ = 0, n_ = 0, k_ = 0;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  DeviceBuffer<unsigned char> workspace_;
  size_t workspace_bytes_ = 0;
  std::string said_;
};

// Floats as unsigned integers that order as the floats do (for atomicMin / atomicMax).
__device__ __forceinline__ unsigned order_key(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}
__device__ __forceinline__ float from_key(unsigned k) {
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k);
}

__global__ void range_kernel(const float* __restrict__ v, size_t n, unsigned* __restrict__ keys) {
  unsigned lo = 0xFFFFFFFFu, hi = 0u;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const float f = v[i];
    if (f != f) continue;
    const unsigned k = order_key(f);
    lo = min(lo, k);
    hi = max(hi, k);
  }
  for (int o = 16; o > 0; o >>= 1) {
    lo = min(lo, __shfl_down_sync(0xFFFFFFFFu, lo, o));
    hi = max(hi, __shfl_down_sync(0xFFFFFFFFu, hi, o));
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMin(&keys[0], lo);
    atomicMax(&keys[1], hi);
  }
}

__device__ __forceinline__ void range_of(const unsigned* keys, float* lo, float* hi) {
  if (keys[0] > keys[1]) {  // no number at all
    *lo = *hi = 0.0f;
    return;
  }
  *lo = from_key(keys[0]);
  *hi = from_key(keys[1]);
}

__global__ void compose_words(const uint32_t* __restrict__ w, int rows, int cols, SurfaceObject surf,
                              uint32_t* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  const uint32_t v = w[size_t(y) * cols + x];
  if (out)
    out[size_t(y) * cols + x] = v;
  else
    surf2Dwrite(v, surf, x * 4, y);
}

__global__ void compose_heat(const float* __restrict__ c, int rows, int cols,
                             const unsigned* __restrict__ keys, SurfaceObject surf,
                             uint32_t* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  float lo, hi;
  range_of(keys, &lo, &hi);
  const uint32_t v = heat_colour(heat_t(c[size_t(y) * cols + x], lo, hi));
  if (out)
    out[size_t(y) * cols + x] = v;
  else
    surf2Dwrite(v, surf, x * 4, y);
}

class CudaEngineImpl final : public CudaEngine {
 public:
  CudaEngineImpl(Stream stream, const EngineDevice& d)
      : stream_(reinterpret_cast<cudaStream_t>(stream)), name_(d.name) {
    keys_ = DeviceBuffer<unsigned>(2, "the heat map's range", name_);
  }
  ~CudaEngineImpl() override {
    lt_bf16_.reset();
    lt_tf32_.reset();
    if (cublas_lt_) cublasLtDestroy(cublas_lt_);
    if (cublas_) cublasDestroy(cublas_);
  }
  Backend backend() const override { return Backend::Cuda; }
  std::string_view device_name() const override { return name_; }
  Stream stream() const override { return reinterpret_cast<Stream>(stream_); }

  void set_words(const Words& w) override {
    if (w.size() == 0 || w.data.size() != w.size())
      throw std::invalid_argument("an empty matrix cannot be transposed");
    DeviceBuffer<uint32_t> in(w.size(), "the matrix to transpose", name_),
        out(w.size(), "the transpose", name_);
    CUDA_CHECK(cudaMemcpyAsync(in.get(), w.data.data(), w.size() * 4, cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    words_in_ = std::move(in);
    words_out_ = std::move(out);
    rows_ = w.rows;
    cols_ = w.cols;
  }

  void set_operands(const Matrix& a, const Matrix& b) override {
    if (std::string bad = operands_refusal(a, b); !bad.empty()) throw std::invalid_argument(bad);
    const int m = a.rows, k = a.cols, n = b.cols;
    const int kp = (k + 7) / 8 * 8, np = (n + 7) / 8 * 8;
    const size_t cmax = std::max(size_t(m) * n, size_t(m) * m);
    DeviceBuffer<float> da(a.size(), "A", name_), db(b.size(), "B", name_), dc(cmax, "C", name_);
    // cuBLAS's BF16 operands (A and B rounded), and the tensor variants' B transposed (N x K) so that
    // both of their operands are K-contiguous.
    DeviceBuffer<__nv_bfloat16> ha(size_t(m) * kp, "A in bfloat16", name_),
        hb(size_t(k) * np, "B in bfloat16", name_), hbt(size_t(n) * kp, "B transposed in bfloat16", name_);
    DeviceBuffer<float> pbt(size_t(n) * kp, "B transposed for TF32", name_);
    const bool f32_ok = k % 4 == 0;  // TF32 reads A as it is
    DeviceBuffer<float> pa;
    if (!f32_ok) pa = DeviceBuffer<float>(size_t(m) * kp, "A padded for TF32", name_);
    CUDA_CHECK(cudaMemcpyAsync(da.get(), a.data.data(), a.size() * 4, cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaMemcpyAsync(db.get(), b.data.data(), b.size() * 4, cudaMemcpyHostToDevice, stream_));
    CUDA_CHECK(cudaMemsetAsync(dc.get(), 0, cmax * 4, stream_));
    detail::launch_pad_bf16(da.get(), m, k, ha.get(), kp, stream_);
    detail::launch_pad_bf16(db.get(), k, n, hb.get(), np, stream_);
    detail::launch_pad_transposed_bf16(db.get(), k, n, hbt.get(), kp, stream_);
    detail::launch_pad_transposed_f32(db.get(), k, n, pbt.get(), kp, stream_);
    if (!f32_ok) detail::launch_pad_f32(da.get(), m, k, pa.get(), kp, stream_);
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    a_ = std::move(da);
    b_ = std::move(db);
    c_ = std::move(dc);
    a16_ = std::move(ha);
    b16_ = std::move(hb);
    bt16_ = std::move(hbt);
    pa_ = std::move(pa);
    bt32_ = std::move(pbt);
    m_ = m;
    n_ = n;
    k_ = k;
    kp_ = f32_ok ? k : kp;
    kp16_ = kp;
    np16_ = np;
    c_rows_ = m;
    c_cols_ = n;
  }

  void run(const Variant& v, int block) override {
    if (v.backend != Backend::Cuda) throw std::logic_error("matrix: a CPU variant on the CUDA engine");
    if (v.op == Op::Transpose) {
      if (!words_in_) throw std::logic_error("matrix: transpose before set_words");
      detail::launch_transpose(v.kind(), words_in_.get(), words_out_.get(), rows_, cols_, stream_);
      return;
    }
    if (!a_) throw std::logic_error("matrix: multiply before set_operands");
    c_rows_ = m_;
    c_cols_ = v.aat() ? m_ : n_;
    switch (v.kind()) {
      case Kind::GemmTensorTf32:
        detail::launch_tensor_tf32(pa_ ? pa_.get() : a_.get(), kp_, bt32_.get(), kp16_, c_.get(), m_, n_, k_,
                                   stream_);
        break;
      case Kind::GemmTensorBf16:
        detail::launch_tensor_bf16(a16_.get(), kp16_, bt16_.get(), kp16_, c_.get(), m_, n_, k_, stream_);
        break;
      case Kind::GemmTensorWgmmaTf32:
        detail::launch_wgmma_tf32(pa_ ? pa_.get() : a_.get(), kp_, bt32_.get(), kp16_, c_.get(), m_, n_, k_,
                                  stream_);
        break;
      case Kind::GemmTensorWgmmaBf16:
        detail::launch_wgmma_bf16(a16_.get(), kp16_, bt16_.get(), kp16_, c_.get(), m_, n_, k_, stream_);
        break;
      case Kind::GemmCublas: {
        // snippet gemm_cublas
        const float one = 1.0f, zero = 0.0f;
        handle();
        // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: the same buffers, B first.
        CUBLAS_CHECK(cublasSgemm(cublas_, CUBLAS_OP_N, CUBLAS_OP_N, n_, m_, k_, &one, b_.get(), n_, a_.get(),
                                 k_, &zero, c_.get(), n_));
        // end snippet
        break;
      }
      default:
        detail::launch_gemm(v.kind(), block, a_.get(), b_.get(), c_.get(), m_, n_, k_, stream_);
    }
  }

  void run_cublas(Precision p) override {
    if (!a_) throw std::logic_error("matrix: multiply before set_operands");
    c_rows_ = m_;
    c_cols_ = n_;
    if (p == Precision::Fp32) {
      run(*find_variant("gemm-cublas"), 0);
      return;
    }
    // BF16 reads the same bfloat16 copies as gemm-tensor-bf16; TF32 reads A and B as they are.
    const bool bf = p == Precision::Bf16;
    const void* b = bf ? static_cast<const void*>(b16_.get()) : static_cast<const void*>(b_.get());
    const void* a = bf ? static_cast<const void*>(a16_.get()) : static_cast<const void*>(a_.get());
    std::unique_ptr<LtGemm>& g = bf ? lt_bf16_ : lt_tf32_;
    if (!g || !g->made_for(p, m_, n_, k_)) {
      if (!cublas_lt_) CUBLAS_CHECK(cublasLtCreate(&cublas_lt_));
      g = std::make_unique<LtGemm>();
      g->choose(cublas_lt_, p, m_, n_, k_, b, bf ? np16_ : n_, a, bf ? kp16_ : k_, c_.get(), stream_, name_);
    }
    g->run(cublas_lt_, b, a, c_.get(), stream_);
  }

  std::string cublas_choice(Precision p) const override {
    const std::unique_ptr<LtGemm>& g = p == Precision::Bf16 ? lt_bf16_ : lt_tf32_;
    return p != Precision::Fp32 && g && g->made_for(p, m_, n_, k_) ? g->choice() : std::string();
  }

  void run_mma_peak(Precision p) override {
    if (!a_) throw std::logic_error("matrix: multiply before set_operands");
    detail::launch_mma_peak(p, 2.0 * m_ * n_ * k_, stream_);
  }

  std::string why_unavailable(const Variant& v) const override {
    if (v.op == Op::Multiply && is_wgmma(v.kind())) return detail::wgmma_refusal();
    return {};
  }

  void run_memcpy() override {
    if (!words_in_) throw std::logic_error("matrix: copy before set_words");
    CUDA_CHECK(cudaMemcpyAsync(words_out_.get(), words_in_.get(), words_in_.bytes(), cudaMemcpyDeviceToDevice,
                               stream_));
  }

  Words transposed() override {
    Words w(cols_, rows_);
    if (words_out_) {
      CUDA_CHECK(
          cudaMemcpyAsync(w.data.data(), words_out_.get(), w.size() * 4, cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
    return w;
  }
  Matrix product() override {
    if (!c_) return {};
    Matrix c(c_rows_, c_cols_);
    CUDA_CHECK(cudaMemcpyAsync(c.data.data(), c_.get(), c.size() * 4, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return c;
  }
  std::pair<float, float> product_range() override {
    if (!c_) return {0.0f, 0.0f};
    update_range();
    unsigned keys[2];
    CUDA_CHECK(cudaMemcpyAsync(keys, keys_.get(), sizeof keys, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (keys[0] > keys[1]) return {0.0f, 0.0f};
    auto decode = [](unsigned k) {
      const unsigned u = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    };
    return {decode(keys[0]), decode(keys[1])};
  }

  void compose_surface(Op op, SurfaceObject surface) override { compose(op, surface, nullptr); }
  void compose_device(Op op, uint32_t* d_rgba) override { compose(op, 0, d_rgba); }

  std::vector<KernelInfo> kernels(const Variant& v, int block) const override {
    if (v.op == Op::Transpose) return detail::transpose_kernels(v.kind());
    if (v.kind() == Kind::GemmTensorTf32) return detail::tensor_kernels(Precision::Tf32);
    if (v.kind() == Kind::GemmTensorBf16) return detail::tensor_kernels(Precision::Bf16);
    if (is_wgmma(v.kind())) return detail::wgmma_kernels(v.precision);
    return detail::gemm_kernels(v.kind(), block);
  }

 private:
  void handle() {
    if (!cublas_) {
      CUBLAS_CHECK(cublasCreate(&cublas_));
      CUBLAS_CHECK(cublasSetMathMode(cublas_, CUBLAS_PEDANTIC_MATH));  // cublasSgemm stays FP32
    }
    CUBLAS_CHECK(cublasSetStream(cublas_, stream_));
  }
  void update_range() {
    const unsigned init[2] = {0xFFFFFFFFu, 0u};
    CUDA_CHECK(cudaMemcpyAsync(keys_.get(), init, sizeof init, cudaMemcpyHostToDevice, stream_));
    const size_t n = size_t(c_rows_) * c_cols_;
    const unsigned blocks = unsigned(std::min<long long>(cuda::ceil_div(n, 256), 1024));
    range_kernel<<<blocks, 256, 0, stream_>>>(c_.get(), n, keys_.get());
    CUDA_CHECK_LAUNCH("range_kernel");
  }
  void compose(Op op, SurfaceObject surface, uint32_t* out) {
    const dim3 block(32, 8);
    if (op == Op::Transpose) {
      if (!words_out_) throw std::logic_error("matrix: nothing transposed to show");
      const dim3 grid(unsigned(cuda::ceil_div(rows_, 32)), unsigned(cuda::ceil_div(cols_, 8)));
      compose_words<<<grid, block, 0, stream_>>>(words_out_.get(), cols_, rows_, surface, out);
    } else {
      if (!c_) throw std::logic_error("matrix: nothing multiplied to show");
      update_range();
      const dim3 grid(unsigned(cuda::ceil_div(c_cols_, 32)), unsigned(cuda::ceil_div(c_rows_, 8)));
      compose_heat<<<grid, block, 0, stream_>>>(c_.get(), c_rows_, c_cols_, keys_.get(), surface, out);
    }
    CUDA_CHECK_LAUNCH("compose");
  }

  cudaStream_t stream_;
  std::string name_;
  cublasHandle_t cublas_ = nullptr;
  cublasLtHandle_t cublas_lt_ = nullptr;
  std::unique_ptr<LtGemm> lt_bf16_, lt_tf32_;  // the tensor yardsticks' choices for the current operands
  DeviceBuffer<uint32_t> words_in_, words_out_;
  int rows_ = 0, cols_ = 0;
  DeviceBuffer<float> a_, b_, c_, pa_, bt32_;
  DeviceBuffer<__nv_bfloat16> a16_, b16_, bt16_;
  DeviceBuffer<unsigned> keys_;
  int m_ = 0, n_ = 0, k_ = 0, kp_ = 0, kp16_ = 0, np16_ = 0, c_rows_ = 0, c_cols_ = 0;
};

}  // namespace

std::unique_ptr<CudaEngine> CudaEngine::create(Stream stream) {
  return std::make_unique<CudaEngineImpl>(stream, engine_device());
}

}  // namespace gpulab::matrix

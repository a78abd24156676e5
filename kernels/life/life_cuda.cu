// The CUDA engine behind life::Engine: owns the device state of one grid, runs the GPU variants on
// one stream, converts between the byte and packed layouts on the device, and draws into GL textures
// (through surface objects) or device buffers.
//
// Variants (kernels in the files named):
//   gpu-global, gpu-lut-local, gpu-lut-constant, gpu-shared   life_bytes.cu (the lecture's kernels)
//   gpu-swar                                                   life_swar.cu  (16 cells a thread)
//   gpu-bitpacked                                              life_bitpacked.cu (64 cells a word)
//   gpu-bit-multistep                                          life_multistep.cu (k generations a pass)
//   display, population, random fills, edits                   life_display.cu
//
// Nothing here synchronises inside step(): the app times generations with events on the stream and
// must not stall. upload, download and population wait for the stream because their results are
// needed on the host right away.
#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "common/cuda_check.h"
#include "common/cuda_probe.h"
#include "common/device_memory.cuh"
#include "life/life_cuda.h"
#include "life/life_cuda_internal.cuh"

namespace gpulab::life {
namespace {

using namespace cuda_detail;

using cuda::DeviceBuffer;
using cuda::mib;
// A page-locked word the population count is read back into without stalling the frame.
using PinnedWord = cuda::PinnedBuffer<unsigned long long>;

ByteKernel byte_kernel(Kernel k) {
  switch (k) {
    case Kernel::LutLocal:
      return ByteKernel::LutLocal;
    case Kernel::LutConstant:
      return ByteKernel::LutConstant;
    case Kernel::Shared:
      return ByteKernel::Shared;
    default:
      return ByteKernel::Global;
  }
}

class CudaEngineImpl final : public CudaEngine {
 public:
  CudaEngineImpl(Stream stream, const EngineDevice& device)
      : stream_(reinterpret_cast<cudaStream_t>(stream)), device_name_(device.name) {
    sm_count_ = device.sm_count;
    total_ = DeviceBuffer<unsigned long long>(1, "the population counter", device_name_);
    async_total_ = DeviceBuffer<unsigned long long>(1, "the population counter", device_name_);
    upload_constant_rule(rule_, stream_);
  }
  // No explicit wait in the destructor: cudaFree waits for queued work itself, and the stream (not
  // ours) may already be gone.
  ~CudaEngineImpl() override {
    if (async_ready_) (void)cudaEventDestroy(async_ready_);
  }

  Backend backend() const override { return Backend::Cuda; }
  std::string_view device_name() const override { return device_name_; }
  Stream stream() const override { return reinterpret_cast<Stream>(stream_); }

  void resize(int width, int height) override {
    const std::string problem = check_size(width, height);
    if (!problem.empty()) throw std::invalid_argument(problem);
    const size_t need = bytes_needed(Layout::Bytes, width, height);
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t held =
        cells_[0].bytes() + cells_[1].bytes() + words_[0].bytes() + words_[1].bytes() + fade_.bytes();
    const std::string what = "a " + std::to_string(width) + "x" + std::to_string(height) + " grid";
    // Checked before anything is freed: a grid that cannot fit leaves the running one alone.
    if (need > free_bytes + held)
      throw GpuError(what + " needs " + mib(need) + ", " + mib(free_bytes) + " free on " + device_name_,
                     true);

    const size_t count = byte_grid_bytes(width, height);
    DeviceBuffer<uint8_t> a, b;
    if (need <= free_bytes) {
      // The new buffers fit beside the old ones: allocate first, so that a failure keeps the old grid.
      a = DeviceBuffer<uint8_t>(count, what, device_name_);
      b = DeviceBuffer<uint8_t>(count, what, device_name_);
      CUDA_CHECK(cudaStreamSynchronize(stream_));  // queued work may still read the old buffers
      release_state();
    } else {
      // Only room once the old grid is gone. Keep a host copy first: if the allocation still fails,
      // the old grid is put back as it was and the failure reported.
      const int old_w = width_, old_h = height_;
      Grid saved;
      if (old_w > 0) saved = download();
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      release_state();
      try {
        a = DeviceBuffer<uint8_t>(count, what, device_name_);
        b = DeviceBuffer<uint8_t>(count, what, device_name_);
      } catch (const GpuError&) {
        a = DeviceBuffer<uint8_t>();
        b = DeviceBuffer<uint8_t>();
        if (old_w > 0) {
          cells_[0] = DeviceBuffer<uint8_t>(byte_grid_bytes(old_w, old_h), "the previous grid", device_name_);
          cells_[1] = DeviceBuffer<uint8_t>(byte_grid_bytes(old_w, old_h), "the previous grid", device_name_);
          CUDA_CHECK(cudaMemsetAsync(cells_[0].get(), 0, cells_[0].bytes(), stream_));
          CUDA_CHECK(cudaMemsetAsync(cells_[1].get(), 0, cells_[1].bytes(), stream_));
          width_ = old_w;
          height_ = old_h;
          cur_ = 0;
          layout_ = Layout::Bytes;
          upload(saved);
        }
        throw;
      }
    }
    cells_[0] = std::move(a);
    cells_[1] = std::move(b);
    cur_ = 0;
    // Both buffers zero: the padding bytes must hold 0/1 (the SWAR sums rely on it) and the grid starts dead.
    CUDA_CHECK(cudaMemsetAsync(cells_[0].get(), 0, cells_[0].bytes(), stream_));
    CUDA_CHECK(cudaMemsetAsync(cells_[1].get(), 0, cells_[1].bytes(), stream_));
    width_ = width;
    height_ = height;
    layout_ = Layout::Bytes;
  }

  int width() const override { return width_; }
  int height() const override { return height_; }

  void set_rule(const Rule& rule) override {
    rule_ = rule;
    upload_constant_rule(rule_, stream_);  // gpu-lut-constant's table
  }
  Rule rule() const override { return rule_; }

  void upload(const Grid& grid) override {
    if (grid.width != width_ || grid.height != height_ ||
        grid.cells.size() != static_cast<size_t>(width_) * static_cast<size_t>(height_))
      throw std::invalid_argument("upload: grid is " + std::to_string(grid.width) + "x" +
                                  std::to_string(grid.height) + " but the engine holds " +
                                  std::to_string(width_) + "x" + std::to_string(height_));
    if (width_ == 0) return;
    const ByteGrid g = bytes();
    CUDA_CHECK(cudaMemcpy2DAsync(g.cells + g.pitch + 1, g.pitch, grid.cells.data(),
                                 static_cast<size_t>(width_), static_cast<size_t>(width_),
                                 static_cast<size_t>(height_), cudaMemcpyHostToDevice, stream_));
    launch_normalize(g, stream_);  // any non-zero byte is a live cell; the kernels index tables with it
    layout_ = Layout::Bytes;
    reset_fade();
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  Grid download() override {
    Grid grid(width_, height_);
    if (width_ == 0) return grid;
    to_bytes();
    const ByteGrid g = bytes();
    CUDA_CHECK(cudaMemcpy2DAsync(grid.cells.data(), static_cast<size_t>(width_), g.cells + g.pitch + 1,
                                 g.pitch, static_cast<size_t>(width_), static_cast<size_t>(height_),
                                 cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return grid;
  }

  void clear() override {
    if (width_ == 0) return;
    CUDA_CHECK(cudaMemsetAsync(cells_[cur_].get(), 0, cells_[cur_].bytes(), stream_));
    layout_ = Layout::Bytes;
    reset_fade();
  }

  void randomize(double density, uint64_t seed) override {
    if (width_ == 0) return;
    launch_randomize(bytes(), density, seed, stream_);
    layout_ = Layout::Bytes;
    reset_fade();
  }

  void set_cells(std::span<const CellEdit> edits) override {
    if (width_ == 0) return;
    // Off-grid edits (a stroke leaving the grid) are dropped; of several edits to one cell the last
    // wins, as on the CPU. Walking backwards keeps each cell's last edit.
    std::vector<CellEdit> kept;
    std::unordered_set<uint64_t> seen;
    for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
      const CellEdit& e = *it;
      if (e.x < 0 || e.y < 0 || e.x >= width_ || e.y >= height_) continue;
      if (seen.insert(static_cast<uint64_t>(e.y) * static_cast<uint64_t>(width_) + static_cast<uint64_t>(e.x))
              .second)
        kept.push_back(e);
    }
    if (kept.empty()) return;
    if (edits_.count() < kept.size()) {
      CUDA_CHECK(cudaStreamSynchronize(stream_));  // an earlier batch may still be read from the old buffer
      edits_ = DeviceBuffer<CellEdit>(std::max<size_t>(kept.size(), 256), "the cell edits", device_name_);
    }
    // Pageable source: the copy is staged before the call returns, so `kept` may go away after it.
    CUDA_CHECK(cudaMemcpyAsync(edits_.get(), kept.data(), kept.size() * sizeof(CellEdit),
                               cudaMemcpyHostToDevice, stream_));
    launch_set_cells(source(), edits_.get(), static_cast<int>(kept.size()), stream_);
  }

  void step(const Variant& v, int block, int generations, int ghost_block) override {
    if (v.backend != Backend::Cuda)
      throw std::invalid_argument("variant '" + std::string(v.id) +
                                  "' runs on the CPU backend; the CUDA engine runs only gpu-* variants");
    const Kernel kind = v.step_kernel();
    if (std::find(v.blocks.begin(), v.blocks.end(), block) == v.blocks.end())
      throw std::invalid_argument("block " + std::to_string(block) + " is not one of " + std::string(v.id) +
                                  "'s block shapes");
    if (ghost_block < 1 || ghost_block > 1024)
      throw std::invalid_argument("ghost block of " + std::to_string(ghost_block) +
                                  " threads (allowed: 1..1024)");
    if (generations < 0)
      throw std::invalid_argument("step: generations must be >= 0, got " + std::to_string(generations));
    if (width_ == 0 || generations == 0) return;

    // Sections named for the timings panel: the ghost copies apart from the step kernel.
    auto timed = [this](std::string_view name, auto&& launch) {
      if (timer_) timer_->begin(name);
      launch();
      if (timer_) timer_->end(name);
    };
    if (kind == Kernel::BitMultistep) {
      to_packed();
      for (int pass : multistep_passes(generations, generations_per_pass_)) {
        timed("step kernel",
              [&] { launch_multistep(packed(), words_[1 - cur_words_].get(), block, pass, rule_, stream_); });
        cur_words_ = 1 - cur_words_;
      }
      return;
    }
    if (kind == Kernel::Bitpacked) {
      to_packed();
      for (int g = 0; g < generations; ++g) {
        timed("step kernel", [&] {
          launch_packed_step(packed(), words_[1 - cur_words_].get(), block, sm_count_, rule_, stream_);
        });
        cur_words_ = 1 - cur_words_;
      }
      return;
    }
    to_bytes();
    for (int g = 0; g < generations; ++g) {
      const ByteGrid in = bytes();
      uint8_t* out = cells_[1 - cur_].get();
      timed("ghost copies", [&] { launch_ghosts(in, ghost_block, stream_); });
      timed("step kernel", [&] {
        if (kind == Kernel::Swar)
          launch_swar_step(in, out, block, sm_count_, rule_, stream_);
        else
          launch_byte_step(byte_kernel(kind), in, out, block, rule_, stream_);
      });
      cur_ = 1 - cur_;
    }
  }

  void set_kernel_timer(KernelTimer* timer) override { timer_ = timer; }

  void set_generations_per_pass(int k) override {
    check_generations_per_pass(k);
    generations_per_pass_ = k;
  }
  int generations_per_pass() const override { return generations_per_pass_; }

  void run_packed_copy() override {
    if (width_ == 0) return;
    to_packed();
    const PackedGrid g = packed();
    CUDA_CHECK(cudaMemcpyAsync(words_[1 - cur_words_].get(), g.words, packed_grid_bytes(width_, height_),
                               cudaMemcpyDeviceToDevice, stream_));
    cur_words_ = 1 - cur_words_;
  }

  uint64_t population() override {
    if (width_ == 0) return 0;
    CUDA_CHECK(cudaMemsetAsync(total_.get(), 0, sizeof(unsigned long long), stream_));
    launch_population(source(), total_.get(), sm_count_, stream_);
    CUDA_CHECK(cudaMemcpyAsync(host_total_.get(), total_.get(), sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return *host_total_.get();
  }

  void request_population() override {
    if (width_ == 0 || async_pending_) return;
    if (!async_ready_) CUDA_CHECK(cudaEventCreateWithFlags(&async_ready_, cudaEventDisableTiming));
    CUDA_CHECK(cudaMemsetAsync(async_total_.get(), 0, sizeof(unsigned long long), stream_));
    launch_population(source(), async_total_.get(), sm_count_, stream_);
    CUDA_CHECK(cudaMemcpyAsync(host_async_total_.get(), async_total_.get(), sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaEventRecord(async_ready_, stream_));
    async_pending_ = true;
  }

  std::optional<uint64_t> poll_population() override {
    if (!async_pending_) return std::nullopt;
    const cudaError_t e = cudaEventQuery(async_ready_);
    if (e == cudaErrorNotReady) {
      (void)cudaGetLastError();  // "not ready" is an answer, not an error
      return std::nullopt;
    }
    CUDA_CHECK(e);
    async_pending_ = false;
    return *host_async_total_.get();
  }

  void fade_tick() override {
    if (width_ == 0) return;
    if (!fade_) {  // allocated on first use: a view without age fade never pays W×H bytes for it
      fade_ = DeviceBuffer<uint8_t>(static_cast<size_t>(width_) * static_cast<size_t>(height_),
                                    "the fade buffer", device_name_);
      CUDA_CHECK(cudaMemsetAsync(fade_.get(), 0, fade_.bytes(), stream_));
    }
    launch_fade_tick(source(), fade_.get(), stream_);
  }

  void render_host(const View& view, uint32_t* h_rgba) override {
    const size_t pixels =
        static_cast<size_t>(std::max(view.tex_width, 0)) * static_cast<size_t>(std::max(view.tex_height, 0));
    if (pixels == 0) return;
    DeviceBuffer<uint32_t> d(pixels, "the rendered image", device_name_);
    render_device(view, d.get());
    CUDA_CHECK(cudaMemcpyAsync(h_rgba, d.get(), pixels * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void render_surface(const View& view, SurfaceObject surface) override {
    launch_render_surface(source(), fade_.get(), view, static_cast<cudaSurfaceObject_t>(surface), stream_);
  }

  void render_device(const View& view, uint32_t* d_rgba) override {
    launch_render_buffer(source(), fade_.get(), view, d_rgba, stream_);
  }

  std::vector<KernelInfo> kernels(const Variant& v, int block, int ghost_block) const override {
    if (v.backend != Backend::Cuda) return {};
    const Kernel kind = v.step_kernel();
    if (kind == Kernel::Bitpacked) return {packed_kernel_info(block, rule_)};
    if (kind == Kernel::BitMultistep) return {multistep_kernel_info(block, width_, rule_)};
    std::vector<KernelInfo> list;
    if (kind == Kernel::Swar)
      list.push_back(swar_kernel_info(block));
    else
      list = byte_kernel_infos(byte_kernel(kind), block);
    // The ghost kernels at the ghost-copy stage's block size.
    for (const KernelInfo& k : ghost_kernel_infos(ghost_block)) list.push_back(k);
    return list;
  }

 private:
  ByteGrid bytes() const { return ByteGrid{cells_[cur_].get(), width_, height_, byte_pitch(width_)}; }
  PackedGrid packed() const {
    return PackedGrid{words_[cur_words_].get(), width_, height_, packed_words_per_row(width_)};
  }
  CellSource source() const {
    CellSource s;
    s.layout = layout_;
    s.bytes = bytes();
    if (layout_ == Layout::Packed) s.packed = packed();
    return s;
  }

  void to_packed() {
    if (layout_ == Layout::Packed) return;
    if (!words_[0]) {
      // Lazily, on the first packed step. If it fails the byte state is untouched and still current.
      const size_t count = packed_grid_bytes(width_, height_) / sizeof(uint64_t);
      const std::string what =
          "the packed layout of a " + std::to_string(width_) + "x" + std::to_string(height_) + " grid";
      DeviceBuffer<uint64_t> a(count, what, device_name_);
      DeviceBuffer<uint64_t> b(count, what, device_name_);
      words_[0] = std::move(a);
      words_[1] = std::move(b);
    }
    cur_words_ = 0;
    launch_pack(bytes(), packed(), stream_);
    layout_ = Layout::Packed;
  }

  void to_bytes() {
    if (layout_ == Layout::Bytes) return;
    launch_unpack(packed(), bytes(), stream_);
    layout_ = Layout::Bytes;
  }

  void reset_fade() {
    if (fade_) CUDA_CHECK(cudaMemsetAsync(fade_.get(), 0, fade_.bytes(), stream_));
  }

  void release_state() {
    cells_[0] = DeviceBuffer<uint8_t>();
    cells_[1] = DeviceBuffer<uint8_t>();
    words_[0] = DeviceBuffer<uint64_t>();
    words_[1] = DeviceBuffer<uint64_t>();
    fade_ = DeviceBuffer<uint8_t>();
    width_ = height_ = 0;
    layout_ = Layout::Bytes;
  }

  cudaStream_t stream_;
  KernelTimer* timer_ = nullptr;  // per-kernel timing sections, when the app asks for them
  std::string device_name_;
  int sm_count_ = 1;
  int width_ = 0;
  int height_ = 0;
  Rule rule_;
  Layout layout_ = Layout::Bytes;   // which of the two layouts holds the current generation
  DeviceBuffer<uint8_t> cells_[2];  // byte layout, current and next
  int cur_ = 0;
  DeviceBuffer<uint64_t> words_[2];  // packed layout, allocated on the first packed step
  int cur_words_ = 0;
  int generations_per_pass_ = kDefaultGenerationsPerPass;  // gpu-bit-multistep's k
  DeviceBuffer<uint8_t> fade_;                             // W×H, allocated on the first fade_tick
  DeviceBuffer<CellEdit> edits_;
  DeviceBuffer<unsigned long long> total_;
  PinnedWord host_total_{1};
  // The frame loop's non-blocking count: its own counter, pinned word and completion event.
  DeviceBuffer<unsigned long long> async_total_;
  PinnedWord host_async_total_{1};
  cudaEvent_t async_ready_ = nullptr;
  bool async_pending_ = false;
};

}  // namespace

namespace cuda_detail {
StripTuning& strip_tuning() {
  static StripTuning tuning;
  return tuning;
}
}  // namespace cuda_detail

std::unique_ptr<CudaEngine> CudaEngine::create(Stream stream) {
  return std::make_unique<CudaEngineImpl>(stream, engine_device());
}

size_t CudaEngine::bytes_needed(Layout layout, int width, int height) {
  if (width <= 0 || height <= 0) return 0;
  return 2 * (layout == Layout::Bytes ? byte_grid_bytes(width, height) : packed_grid_bytes(width, height));
}

}  // namespace gpulab::life

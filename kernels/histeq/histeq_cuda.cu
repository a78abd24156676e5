// The CUDA engine behind histeq::Engine: one image's planes on the device, every processed plane's
// histogram, LUT, min/max and output, the stage variants of histeq_{histogram,scan,reduce,apply}.cu
// on one stream, and the displayed image composed into a surface or device memory.
//
// Layout: the source planes (and alpha) and the output planes each start at a multiple of 256 bytes
// of one allocation, so every plane is 16-byte aligned for the 128-bit loads. The output planes
// start as copies of the source, so the display shows the image before the first pipeline run.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_probe.h"
#include "common/device_memory.cuh"
#include "common/launch.cuh"
#include "histeq/histeq_cuda.h"
#include "histeq/histeq_cuda_internal.cuh"

namespace gpulab::histeq {
namespace {

using namespace cuda_detail;
using cuda::DeviceBuffer;
using cuda::mib;

size_t plane_stride(size_t pixels) { return gpulab::cuda::round_up(std::max<size_t>(pixels, 1), 256); }

struct Sizes {
  size_t stride = 0, src_planes = 0, out_planes = 0, partial_a = 0, partial_b = 0, cub = 0;
  size_t bytes() const {
    return stride * (src_planes + out_planes) +
           out_planes * (kBins * sizeof(uint32_t) + kBins + 2 * sizeof(uint32_t)) +
           2 * (partial_a + partial_b) * sizeof(uint32_t) + cub;
  }
};

Sizes sizes_for(size_t pixels, int src_planes, int out_planes) {
  Sizes s;
  s.stride = plane_stride(pixels);
  s.src_planes = static_cast<size_t>(src_planes);
  s.out_planes = static_cast<size_t>(out_planes);
  s.partial_a = reduce_partials(pixels);
  s.partial_b = reduce_partials(s.partial_a);
  s.cub = cub_histogram_temp_bytes(pixels);
  return s;
}

// Every device buffer of one image.
struct DeviceImage {
  Sizes sz;
  size_t pixels = 0;
  DeviceBuffer<uint8_t> src, out, lut, cub;
  DeviceBuffer<uint32_t> hist, minmax, partials;

  DeviceImage() = default;
  DeviceImage(const Sizes& s, size_t n, const std::string& what, const std::string& device)
      : sz(s),
        pixels(n),
        src(s.stride * s.src_planes, what, device),
        out(s.stride * s.out_planes, what, device),
        lut(s.out_planes * kBins, what, device),
        cub(std::max<size_t>(s.cub, 1), what, device),
        hist(s.out_planes * kBins, what, device),
        minmax(s.out_planes * 2, what, device),
        partials(2 * (s.partial_a + s.partial_b), what, device) {}
  size_t bytes() const {
    return src.bytes() + out.bytes() + lut.bytes() + cub.bytes() + hist.bytes() + minmax.bytes() +
           partials.bytes();
  }
  uint8_t* src_plane(size_t i) const { return src.get() + i * sz.stride; }
  uint8_t* out_plane(size_t i) const { return out.get() + i * sz.stride; }
};

int source_plane_count(const Planes& p) {
  return static_cast<int>(p.planes.size()) + (p.alpha.empty() ? 0 : 1);
}

class CudaEngineImpl final : public CudaEngine {
 public:
  CudaEngineImpl(Stream stream, const EngineDevice& device)
      : stream_(reinterpret_cast<cudaStream_t>(stream)), device_name_(device.name) {
    gpu_.sm_count = device.sm_count;
    gpu_.device = device.id;
    accum_ = DeviceBuffer<uint32_t>(kBins + 1, "the histogram accumulator", device_name_);
    thrust_.device = device_name_;
    npp_.device = device_name_;
    CUDA_CHECK(cudaMemsetAsync(accum_.get(), 0, accum_.bytes(), stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  Backend backend() const override { return Backend::Cuda; }
  std::string_view device_name() const override { return device_name_; }
  Stream stream() const override { return reinterpret_cast<Stream>(stream_); }
  int width() const override { return layout_.width; }
  int height() const override { return layout_.height; }

  void upload(const Planes& p) override {
    const size_t n = p.pixel_count();
    if (n == 0 || p.planes.empty()) throw std::invalid_argument("histeq: cannot upload an empty image");
    if (static_cast<int>(p.planes.size()) < p.processed() ||
        (p.layout != Layout::Grey && p.planes.size() != 3))
      throw std::invalid_argument("histeq: the planes do not match their layout");
    for (const auto& plane : p.planes)
      if (plane.size() != n)
        throw std::invalid_argument("histeq: a plane's size differs from width x height");
    if (!p.alpha.empty() && p.alpha.size() != n)
      throw std::invalid_argument("histeq: the alpha plane's size differs");

    const Sizes sz = sizes_for(n, source_plane_count(p), p.processed());
    const size_t need = sz.bytes();
    size_t free_bytes = 0, total_bytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const size_t held = img_.bytes();
    const std::string what = "an image of " + std::to_string(p.width) + "x" + std::to_string(p.height) +
                             " (" + std::to_string(sz.src_planes) + " planes)";
    if (need > free_bytes + held)
      throw GpuError(what + " needs " + mib(need) + ", " + mib(free_bytes + held) + " free on " +
                         device_name_ + " (" + mib(held) + " of it held by the current image)",
                     true);
    CUDA_CHECK(cudaStreamSynchronize(stream_));  // queued work may still read the old buffers
    cuda::replace_device_state(
        img_, img_.pixels > 0, need, free_bytes, [&] { return DeviceImage(sz, n, what, device_name_); },
        [&] { return download_source(); },
        [&](const Planes& saved) {
          img_ = DeviceImage(sizes_for(saved.pixel_count(), source_plane_count(saved), saved.processed()),
                             saved.pixel_count(), "the previous image", device_name_);
          put(saved);
        });
    put(p);
  }

  void run(const Variant& v, int block, int plane) override {
    if (v.backend != Backend::Cuda)
      throw std::invalid_argument("histeq: " + std::string(v.id) + " is not a CUDA variant");
    check_plane(plane);
    const size_t n = img_.pixels;
    uint8_t* src = img_.src_plane(static_cast<size_t>(plane));
    uint32_t* hist = img_.hist.get() + plane * kBins;
    uint8_t* lut = img_.lut.get() + plane * kBins;
    switch (v.stage) {
      case StageId::Histogram: {
        HistScratch s;
        s.accum = accum_.get();
        s.cub_temp = img_.cub.get();
        s.cub_temp_bytes = img_.sz.cub;
        s.thrust = &thrust_;
        if (v.kind<HistKind>() == HistKind::Npp)
          npp_histogram(src, layout_.width, layout_.height, hist, npp_, stream_);
        else
          launch_histogram(v.kind<HistKind>(), block, src, n, hist, lut, s, gpu_, stream_);
        break;
      }
      case StageId::Scan:
        launch_scan(v.kind<ScanKind>(), hist, lut, &thrust_, stream_);
        break;
      case StageId::Reduce: {
        ReduceScratch s;
        s.a = img_.partials.get();
        s.a_count = img_.sz.partial_a;
        s.b = img_.partials.get() + 2 * img_.sz.partial_a;
        s.b_count = img_.sz.partial_b;
        s.thrust = &thrust_;
        launch_reduce(v.kind<ReduceKind>(), block, src, n, s, img_.minmax.get() + 2 * plane, lut, gpu_,
                      stream_);
        break;
      }
      case StageId::Apply:
        if (v.kind<ApplyKind>() == ApplyKind::Npp)
          npp_apply(src, img_.out_plane(static_cast<size_t>(plane)), layout_.width, layout_.height, lut,
                    stream_);
        else
          launch_apply(v.kind<ApplyKind>(), block, src, img_.out_plane(static_cast<size_t>(plane)), n, lut,
                       gpu_, stream_);
        break;
    }
  }

  Histogram histogram(int plane) override {
    check_plane(plane);
    Histogram h{};
    copy_back(h.data(), img_.hist.get() + plane * kBins, sizeof(h));
    return h;
  }
  Lut lut(int plane) override {
    check_plane(plane);
    Lut l{};
    copy_back(l.data(), img_.lut.get() + plane * kBins, sizeof(l));
    return l;
  }
  MinMax minmax(int plane) override {
    check_plane(plane);
    uint32_t m[2] = {};
    copy_back(m, img_.minmax.get() + 2 * plane, sizeof(m));
    return MinMax{static_cast<uint8_t>(m[0]), static_cast<uint8_t>(m[1])};
  }
  std::vector<uint8_t> output(int plane) override {
    check_plane(plane);
    std::vector<uint8_t> out(img_.pixels);
    copy_back(out.data(), img_.out_plane(static_cast<size_t>(plane)), out.size());
    return out;
  }

  void compose(uint8_t* h_rgba) override {
    if (img_.pixels == 0) return;
    DeviceBuffer<uint8_t> rgba(img_.pixels * 4, "the composed image", device_name_);
    launch_compose_device(source(), rgba.get(), size_t(layout_.width) * 4, stream_);
    copy_back(h_rgba, rgba.get(), rgba.bytes());
  }
  void compose_surface(SurfaceObject surface) override {
    if (img_.pixels) launch_compose_surface(source(), surface, stream_);
  }
  void compose_device(uint8_t* d_rgba, size_t pitch) override {
    if (img_.pixels) launch_compose_device(source(), d_rgba, pitch, stream_);
  }

  std::vector<KernelInfo> kernels(const Variant& v, int block) const override {
    if (v.backend != Backend::Cuda) return {};
    switch (v.stage) {
      case StageId::Histogram:
        return histogram_kernels(v.kind<HistKind>(), block);
      case StageId::Scan:
        return scan_kernels(v.kind<ScanKind>());
      case StageId::Reduce:
        return reduce_kernels(v.kind<ReduceKind>(), block);
      case StageId::Apply:
        return apply_kernels(v.kind<ApplyKind>(), block);
    }
    return {};
  }

 private:
  void check_plane(int plane) const {
    if (img_.pixels == 0) throw std::logic_error("histeq: no image uploaded");
    if (plane < 0 || plane >= static_cast<int>(img_.sz.out_planes))
      throw std::out_of_range("histeq: plane " + std::to_string(plane) + " is not processed");
  }

  void copy_back(void* h_dst, const void* d_src, size_t bytes) {
    CUDA_CHECK(cudaMemcpyAsync(h_dst, d_src, bytes, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // Copies the planes in, the outputs start as the source, results cleared.
  void put(const Planes& p) {
    layout_ = Planes{};
    layout_.width = p.width;
    layout_.height = p.height;
    layout_.source_channels = p.source_channels;
    layout_.layout = p.layout;
    has_alpha_ = !p.alpha.empty();
    colour_planes_ = p.planes.size();
    const size_t n = p.pixel_count();
    for (size_t i = 0; i < p.planes.size(); ++i)
      CUDA_CHECK(cudaMemcpyAsync(img_.src_plane(i), p.planes[i].data(), n, cudaMemcpyHostToDevice, stream_));
    if (has_alpha_)
      CUDA_CHECK(cudaMemcpyAsync(img_.src_plane(p.planes.size()), p.alpha.data(), n, cudaMemcpyHostToDevice,
                                 stream_));
    for (int i = 0; i < p.processed(); ++i)
      CUDA_CHECK(cudaMemcpyAsync(img_.out_plane(i), img_.src_plane(i), n, cudaMemcpyDeviceToDevice, stream_));
    CUDA_CHECK(cudaMemsetAsync(img_.hist.get(), 0, img_.hist.bytes(), stream_));
    CUDA_CHECK(cudaMemsetAsync(img_.lut.get(), 0, img_.lut.bytes(), stream_));
    CUDA_CHECK(cudaMemsetAsync(img_.minmax.get(), 0, img_.minmax.bytes(), stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host planes may go once upload returns
  }

  Planes download_source() {
    Planes p = layout_;
    const size_t n = img_.pixels;
    p.planes.assign(colour_planes_, std::vector<uint8_t>(n));
    for (size_t i = 0; i < colour_planes_; ++i) copy_back(p.planes[i].data(), img_.src_plane(i), n);
    if (has_alpha_) {
      p.alpha.resize(n);
      copy_back(p.alpha.data(), img_.src_plane(colour_planes_), n);
    }
    return p;
  }

  ComposeSource source() const {
    ComposeSource s;
    s.layout = layout_.layout;
    s.width = layout_.width;
    s.height = layout_.height;
    switch (layout_.layout) {
      case Layout::Grey:
        s.p[0] = img_.out_plane(0);
        break;
      case Layout::YCrCb:
        s.p[0] = img_.out_plane(0);
        s.p[1] = img_.src_plane(1);
        s.p[2] = img_.src_plane(2);
        break;
      case Layout::Rgb:
        for (int i = 0; i < 3; ++i) s.p[i] = img_.out_plane(static_cast<size_t>(i));
        break;
    }
    if (has_alpha_) s.alpha = img_.src_plane(colour_planes_);
    return s;
  }

  cudaStream_t stream_;
  std::string device_name_;
  GpuShape gpu_;
  DeviceBuffer<uint32_t> accum_;  // hist-lane-private's counters and ticket (clear between launches)
  DeviceImage img_;
  ThrustArena thrust_;  // the Thrust rungs' temporary memory (grown on their first call)
  NppScratch npp_;      // hist-npp's scratch (grown on its first call)
  Planes layout_;       // width, height, channels and layout of the image (no pixels)
  size_t colour_planes_ = 0;
  bool has_alpha_ = false;
};

}  // namespace

std::string library_unavailable(const Variant& v) {
  if (v.backend != Backend::Cuda) return {};
  const bool npp = (v.stage == StageId::Histogram && v.kind<HistKind>() == HistKind::Npp) ||
                   (v.stage == StageId::Apply && v.kind<ApplyKind>() == ApplyKind::Npp);
  return npp ? cuda_detail::npp_unavailable() : std::string();
}

std::unique_ptr<CudaEngine> CudaEngine::create(Stream stream) {
  return std::make_unique<CudaEngineImpl>(stream, engine_device());
}

}  // namespace gpulab::histeq

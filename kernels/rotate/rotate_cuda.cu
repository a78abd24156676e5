// The CUDA engine behind rotate::Engine: the source as a 2D CUDA array (tex-array, lecture) and as
// pitched linear memory (tex-pitch through a texture object, global by hand), and the output in the
// engine's own pitched memory, in a surface (a mapped GL texture) or in a mapped GL pixel buffer.
//   tex-array, tex-pitch  tex2D with the settings' filter, address mode, normalized coordinates and
//                         read mode (where CUDA allows them: rotate::effective)
//   tex-array-x4          the same over the array, four neighbouring pixels of a row a thread and
//                         one vector store for them
//   tex-pitch-prefetch    the four-pixel kernel over pitched memory, each block first asking the L2
//                         for the source rows a block about 1.5 waves later will read
//   global                what the texture unit does, by hand from global memory: rotate.h's
//                         unit model (unit_point_tap / unit_linear_taps / unit_blend), the same
//                         functions as rotate_unit_cpu
//   lecture               the texture fetch at the lecture's unfixed coordinates
// Images of 1 channel are 8-bit textures; 2..4 channels are kept as RGBA8 (uchar4) textures.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_probe.h"
#include "common/device_memory.cuh"
#include "common/launch.cuh"
#include "rotate/rotate_cuda.h"

namespace gpulab::rotate {
namespace {

using cuda::CudaArray;
using cuda::mib;
using cuda::PitchedBuffer;
using cuda::TextureObject;

// What every kernel needs besides its source and output.
struct Launch {
  int w = 0, h = 0;
  Coefficients k;
  Filter filter = Filter::Linear;
  Address address = Address::Border;
  bool normalized = true;
  bool normalized_read = true;
  bool lecture = false;
  // 1/w and 1/h where w, h are powers of two (then x·(1/w) is exactly x/w, and cheaper), else 0.
  float inv_w = 0, inv_h = 0;
};

// Output writers: the engine's own memory in the source's format, or RGBA8 for the display.
// put4 writes pixels x .. x+3 of row y (those below w): with one vector store where it can.
struct OwnGrey {
  uint8_t* base;
  size_t pitch;
  __device__ void put(int x, int y, uchar4 v) const { base[size_t(y) * pitch + x] = v.x; }
  __device__ void put4(int x, int y, const uchar4 (&v)[4], int w) const {
    uint8_t* p = base + size_t(y) * pitch + x;
    if (x + 3 < w && (reinterpret_cast<uintptr_t>(p) & 3) == 0) {
      *reinterpret_cast<uchar4*>(p) = make_uchar4(v[0].x, v[1].x, v[2].x, v[3].x);
    } else {
      for (int k = 0; k < 4 && x + k < w; ++k) p[k] = v[k].x;
    }
  }
};
struct OwnRgba {
  uint8_t* base;
  size_t pitch;
  __device__ void put(int x, int y, uchar4 v) const {
    *reinterpret_cast<uchar4*>(base + size_t(y) * pitch + size_t(x) * 4) = v;
  }
  __device__ void put4(int x, int y, const uchar4 (&v)[4], int w) const {
    uint8_t* p = base + size_t(y) * pitch + size_t(x) * 4;
    if (x + 3 < w && (reinterpret_cast<uintptr_t>(p) & 15) == 0) {
      uint4 q;
      q.x = *reinterpret_cast<const unsigned*>(&v[0]);
      q.y = *reinterpret_cast<const unsigned*>(&v[1]);
      q.z = *reinterpret_cast<const unsigned*>(&v[2]);
      q.w = *reinterpret_cast<const unsigned*>(&v[3]);
      *reinterpret_cast<uint4*>(p) = q;
    } else {
      for (int k = 0; k < 4 && x + k < w; ++k) reinterpret_cast<uchar4*>(p)[k] = v[k];
    }
  }
};
struct SurfaceRgba {
  cudaSurfaceObject_t surface;
  __device__ void put(int x, int y, uchar4 v) const { surf2Dwrite(v, surface, x * 4, y); }
  __device__ void put4(int x, int y, const uchar4 (&v)[4], int w) const {
    for (int k = 0; k < 4 && x + k < w; ++k) surf2Dwrite(v[k], surface, (x + k) * 4, y);
  }
};

// No output: the pixels are folded into a word that is stored only when it equals `key`, which the
// compiler cannot know never happens, so every fetch stays while (almost) nothing is written. What a
// kernel runs at with this writer is the texture unit's fetch rate alone: the ceiling of the rotation
// bench (the stores' DRAM traffic makes the unit's misses slower; it does not overlap them).
struct FetchOnly {
  uint32_t* sink;
  uint32_t key;
  __device__ static uint32_t word(uchar4 v) {
    return uint32_t(v.x) | uint32_t(v.y) << 8 | uint32_t(v.z) << 16 | uint32_t(v.w) << 24;
  }
  __device__ void put(int, int, uchar4 v) const {
    if (word(v) == key) *sink = key;
  }
  __device__ void put4(int, int, const uchar4 (&v)[4], int) const {
    const uint32_t folded = word(v[0]) ^ (word(v[1]) * 3u) ^ (word(v[2]) * 5u) ^ (word(v[3]) * 7u);
    if (folded == key) *sink = key;
  }
};

__device__ __forceinline__ Coord coord_of(const Launch& L, int x, int y) {
  return L.lecture ? lecture_source_coord(x, y, L.w, L.h, L.k) : source_coord(x, y, L.w, L.h, L.k);
}

// A normalized-float read (f in [0, 1]) to its byte: to_byte(f·255), +0.5 and truncate. For f in
// [0, 1] the sum is in [0.5, 255.5], so a truncating conversion needs none of to_byte's clamps (the
// RGBA kernels are a third shorter).
__device__ __forceinline__ uint8_t byte_of(float f) {
  return static_cast<uint8_t>(__float2uint_rz(add_rn(mul_rn(f, 255.0f), 0.5f)));
}

// rotate.h's texture_coord, with a multiplication where it is exact.
__device__ __forceinline__ Coord tex_coord(const Launch& L, Coord s) {
  if (!L.normalized) return s;
  return {L.inv_w != 0 ? mul_rn(s.x, L.inv_w) : div_rn(s.x, float(L.w)),
          L.inv_h != 0 ? mul_rn(s.y, L.inv_h) : div_rn(s.y, float(L.h))};
}

// Output pixel (x, y) through the texture unit, as RGBA (grey replicated, alpha 255). kPlain: the
// launch is known to take the definition's coordinates, normalized with power-of-two sizes (inv_w,
// inv_h set), read as normalized floats: the common case, compiled without the others' branches.
template <bool kRgba, bool kPlain = false>
__device__ __forceinline__ uchar4 tex_pixel(cudaTextureObject_t tex, const Launch& L, int x, int y) {
  Coord c;
  if constexpr (kPlain) {
    c = source_coord(x, y, L.w, L.h, L.k);
    c = {mul_rn(c.x, L.inv_w), mul_rn(c.y, L.inv_h)};
  } else {
    c = tex_coord(L, coord_of(L, x, y));
  }
  if constexpr (kRgba) {
    if (kPlain || L.normalized_read) {
      const float4 f = tex2D<float4>(tex, c.x, c.y);
      return make_uchar4(byte_of(f.x), byte_of(f.y), byte_of(f.z), byte_of(f.w));
    }
    return tex2D<uchar4>(tex, c.x, c.y);
  } else {
    const uint8_t g = kPlain || L.normalized_read ? byte_of(tex2D<float>(tex, c.x, c.y))
                                                  : tex2D<unsigned char>(tex, c.x, c.y);
    return make_uchar4(g, g, g, 255);
  }
}

// snippet rotate_tex rotate_lecture
template <bool kRgba, class Out>
__global__ void rotate_tex(cudaTextureObject_t tex, Launch L, Out out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= L.w || y >= L.h) return;
  out.put(x, y, tex_pixel<kRgba>(tex, L, x, y));
}
// end snippet

// Where the blocks of tex-pitch-prefetch prefetch from: the source in pitched memory, and how many
// blocks later (in launch order, x fastest) the block runs whose rows a block prefetches; 0: none.
struct L2Prefetch {
  const uint8_t* src = nullptr;
  size_t pitch = 0;
  int texel_bytes = 1;
  int ahead = 0;
};

// The texture unit keeps only so many misses in flight, so its rate is that number over the miss
// latency: fetches that miss to DRAM (about a microsecond under load, longer while the output's
// writes stream out) leave it waiting. So each block asks the L2 for the source rows of the block
// `ahead` blocks later, a prefetch.global.L2 a 128-byte line, and that block's misses then hit the
// L2. The rows are the tile's footprint clipped row by row (rotate.h's tile_footprint /
// footprint_row), a thread a row; a footprint of more rows than the block has threads (a strong
// minification) is not prefetched. The TMA's bulk prefetch (cp.async.bulk.prefetch.L2, a row an
// instruction) was slower on the H100: 3.12e11 against 3.36e11 px/s for RGBA8 at 30°.
// Prefetches only warm the cache: what the kernel reads does not depend on them.
__device__ void prefetch_tile_rows(const Launch& L, const L2Prefetch& p, int tile_w, int tile_h) {
  const int gx = int(gridDim.x), b = int(blockIdx.y) * gx + int(blockIdx.x) + p.ahead;
  if (b >= gx * int(gridDim.y)) return;
  const int x0 = (b % gx) * tile_w, y0 = (b / gx) * tile_h;
  const TileFootprint f =
      tile_footprint(x0, y0, min(x0 + tile_w, L.w) - 1, min(y0 + tile_h, L.h) - 1, L.w, L.h, L.k);
  const int t = int(threadIdx.y * blockDim.x + threadIdx.x), rows = f.j1 - f.j0 + 1;
  if (rows > int(blockDim.x * blockDim.y) || t >= rows) return;
  const Span s = footprint_row(f, f.j0 + t, L.w);
  if (s.i0 > s.i1) return;
  // The lines that start inside the span: the line before (holding the span's first bytes) starts in
  // the span of the tile to the left, which the block before this one prefetches. Neighbouring
  // footprints overlap, so asking for every line a span touches asks for many twice (RGBA8: 3.38
  // against 3.53e11 px/s in a probe).
  const uint8_t* row = p.src + size_t(f.j0 + t) * p.pitch;
  const size_t first = size_t(s.i0) * p.texel_bytes, end = size_t(s.i1 + 1) * p.texel_bytes;
  for (size_t o = (first + 127) & ~size_t(127); o < end; o += 128)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(row + o));
}

// Four neighbouring pixels of a row per thread: the fetches are independent (the texture unit works
// on all four at once) and the writes go out as one vector store. The texture unit takes a warp's
// fetches four lanes (a quad) at a time, so the lanes are laid out for it: each quad is 2x2 threads,
// whose four-pixel runs lie on two neighbouring rows, rather than four threads of one row, whose
// runs spread over 16 pixels. Threads (blockDim.x, blockDim.y) with blockDim.x 4, 8 or 16: a warp is
// blockDim.x threads by 32 / blockDim.x rows, both even (shifts, not divisions: blockDim.x is a
// power of two).
// snippet rotate_tex_x4
template <bool kRgba, bool kPlain, class Out>
__global__ void rotate_tex_x4(cudaTextureObject_t tex, Launch L, Out out, L2Prefetch prefetch) {
  if (prefetch.ahead > 0) prefetch_tile_rows(L, prefetch, 4 * int(blockDim.x), int(blockDim.y));
  const int log_bx = __ffs(int(blockDim.x)) - 1, t = (int(threadIdx.y) << log_bx) + int(threadIdx.x);
  const int lane = t & 31, quad = lane >> 2;
  const int tx = ((quad & ((1 << (log_bx - 1)) - 1)) << 1) | (lane & 1);
  const int ty = ((t >> 5) << (5 - log_bx)) + (((quad >> (log_bx - 1)) << 1) | ((lane >> 1) & 1));
  const int x = 4 * int(blockIdx.x * blockDim.x + tx), y = int(blockIdx.y * blockDim.y) + ty;
  if (x >= L.w || y >= L.h) return;
  uchar4 v[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    v[k] = tex_pixel<kRgba, kPlain>(tex, L, x + k, y);  // past w: fetched, not written
  out.put4(x, y, v, L.w);
}
// end snippet

// A texel of the source in pitched memory, 0 for a border texel (index −1).
template <bool kRgba>
__device__ __forceinline__ uchar4 texel(const uint8_t* src, size_t pitch, int i, int j) {
  if (i < 0 || j < 0) return make_uchar4(0, 0, 0, 0);
  if constexpr (kRgba) return *reinterpret_cast<const uchar4*>(src + size_t(j) * pitch + size_t(i) * 4);
  const uint8_t g = src[size_t(j) * pitch + i];
  return make_uchar4(g, g, g, 255);
}

// What the texture unit does, by hand (rotate.h's unit model, measured on the H100): the same
// coordinate the texture variants hand to tex2D, the unit's fixed-point position, 8-bit weights and
// integer blend, so that this variant equals tex-pitch byte for byte.
// snippet rotate_global
template <bool kRgba, class Out>
__global__ void rotate_global(const uint8_t* __restrict__ src, size_t pitch, Launch L, Out out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= L.w || y >= L.h) return;
  const Coord c = tex_coord(L, coord_of(L, x, y));
  uchar4 px;
  if (L.filter == Filter::Point) {
    const PointTap t = unit_point_tap(c, L.w, L.h, L.normalized, L.address);
    px = texel<kRgba>(src, pitch, t.i, t.j);
    if (!kRgba) px.w = 255;
  } else {
    const UnitTaps t = unit_linear_taps(c, L.w, L.h, L.normalized, L.address);
    const uchar4 a = texel<kRgba>(src, pitch, t.i0, t.j0), b = texel<kRgba>(src, pitch, t.i1, t.j0);
    const uchar4 d = texel<kRgba>(src, pitch, t.i0, t.j1), e = texel<kRgba>(src, pitch, t.i1, t.j1);
    px.x = unit_blend(t, a.x, b.x, d.x, e.x);
    if constexpr (kRgba) {
      px.y = unit_blend(t, a.y, b.y, d.y, e.y);
      px.z = unit_blend(t, a.z, b.z, d.z, e.z);
      px.w = unit_blend(t, a.w, b.w, d.w, e.w);
    } else {
      px.y = px.z = px.x;
      px.w = 255;
    }
  }
  out.put(x, y, px);
}
// end snippet

cudaTextureFilterMode filter_mode(Filter f) {
  return f == Filter::Point ? cudaFilterModePoint : cudaFilterModeLinear;
}
cudaTextureAddressMode address_mode(Address a) {
  switch (a) {
    case Address::Wrap:
      return cudaAddressModeWrap;
    case Address::Clamp:
      return cudaAddressModeClamp;
    case Address::Mirror:
      return cudaAddressModeMirror;
    case Address::Border:
      return cudaAddressModeBorder;
  }
  return cudaAddressModeBorder;
}

// Every device buffer of one image: the source twice (array and pitched) and the output.
struct DeviceImage {
  int w = 0, h = 0;
  bool rgba = false;
  CudaArray array;
  PitchedBuffer<uint8_t> src1, out1;
  PitchedBuffer<uchar4> src4, out4;

  DeviceImage() = default;
  DeviceImage(int width, int height, bool four, const std::string& what, const std::string& device)
      : w(width), h(height), rgba(four) {
    if (four) {
      array = CudaArray::of<uchar4>(size_t(width), size_t(height), what, device);
      src4 = PitchedBuffer<uchar4>(size_t(width), size_t(height), what, device);
      out4 = PitchedBuffer<uchar4>(size_t(width), size_t(height), what, device);
    } else {
      array = CudaArray::of<unsigned char>(size_t(width), size_t(height), what, device);
      src1 = PitchedBuffer<uint8_t>(size_t(width), size_t(height), what, device);
      out1 = PitchedBuffer<uint8_t>(size_t(width), size_t(height), what, device);
    }
  }
  const uint8_t* src() const { return rgba ? reinterpret_cast<const uint8_t*>(src4.get()) : src1.get(); }
  size_t src_pitch() const { return rgba ? src4.pitch() : src1.pitch(); }
  uint8_t* out() const { return rgba ? reinterpret_cast<uint8_t*>(out4.get()) : out1.get(); }
  size_t out_pitch() const { return rgba ? out4.pitch() : out1.pitch(); }
};

size_t image_bytes(int w, int h, bool rgba) { return size_t(w) * size_t(h) * (rgba ? 4 : 1) * 3; }

class CudaEngineImpl final : public CudaEngine {
 public:
  CudaEngineImpl(Stream stream, const EngineDevice& device)
      : stream_(reinterpret_cast<cudaStream_t>(stream)),
        device_name_(device.name),
        sm_count_(device.sm_count) {}

  Backend backend() const override { return Backend::Cuda; }
  std::string_view device_name() const override { return device_name_; }
  Stream stream() const override { return reinterpret_cast<Stream>(stream_); }
  int width() const override { return img_.w; }
  int height() const override { return img_.h; }

  void upload(const image::Image& src) override {
    check_upload(src);
    const bool four = src.channels > 1;
    const image::Image tex_img = four ? image::convert_channels(src, 4) : src;
    const size_t need = image_bytes(src.width, src.height, four);
    size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    const size_t held = img_.w ? image_bytes(img_.w, img_.h, img_.rgba) : 0;
    const std::string what = "an image of " + std::to_string(src.width) + "x" + std::to_string(src.height);
    if (need > free_bytes + held)
      throw GpuError(what + " needs " + mib(need) + ", " + mib(free_bytes + held) + " free on " +
                         device_name_ + " (" + mib(held) + " of it held by the current image)",
                     true);
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    tex_ = TextureObject();  // it reads the memory about to be freed, whether or not the new image fits
    cuda::replace_device_state(
        img_, img_.w > 0, need, free_bytes,
        [&] { return DeviceImage(src.width, src.height, four, what, device_name_); }, [&] { return host_; },
        [&](const image::Image& saved) {
          img_ =
              DeviceImage(saved.width, saved.height, saved.channels > 1, "the previous image", device_name_);
          put(saved.channels > 1 ? image::convert_channels(saved, 4) : saved);
        });
    put(tex_img);
    host_ = src;
    channels_ = src.channels;
  }

  void run(const Variant& v, int block, const Settings& s) override {
    if (img_.rgba)
      launch(v, block, s, OwnRgba{img_.out(), img_.out_pitch()});
    else
      launch(v, block, s, OwnGrey{img_.out(), img_.out_pitch()});
  }
  void run_to_surface(const Variant& v, int block, const Settings& s, SurfaceObject surface) override {
    launch(v, block, s, SurfaceRgba{surface});
  }
  void run_to_buffer(const Variant& v, int block, const Settings& s, uint8_t* d_rgba, size_t pitch) override {
    launch(v, block, s, OwnRgba{d_rgba, pitch});
  }
  void run_fetch_only(const Variant& v, int block, const Settings& s) override {
    check_image();
    // The sink: the first word of the engine's own output (written at most when a fold hits the key).
    launch(v, block, s, FetchOnly{reinterpret_cast<uint32_t*>(img_.out()), 0x9E3779B9u});
  }

  image::Image output() override {
    check_image();
    image::Image out;
    out.width = img_.w;
    out.height = img_.h;
    out.channels = img_.rgba ? 4 : 1;
    out.pixels.resize(out.pixel_count() * size_t(out.channels));
    const size_t row = size_t(img_.w) * size_t(out.channels);
    CUDA_CHECK(cudaMemcpy2DAsync(out.pixels.data(), row, img_.out(), img_.out_pitch(), row, size_t(img_.h),
                                 cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return channels_ == out.channels ? out : image::convert_channels(out, channels_);
  }

  std::vector<KernelInfo> kernels(const Variant& v, int block) const override {
    const int threads = block / v.per_thread * block;
    const bool four = img_.rgba;
    if (v.per_thread == 4)
      return {{"rotate_tex_x4",
               four ? reinterpret_cast<const void*>(rotate_tex_x4<true, true, SurfaceRgba>)
                    : reinterpret_cast<const void*>(rotate_tex_x4<false, true, SurfaceRgba>),
               threads}};
    switch (v.kind()) {
      case Kind::TexArray:
      case Kind::TexPitch:
      case Kind::Lecture:
        return {{"rotate_tex",
                 four ? reinterpret_cast<const void*>(rotate_tex<true, SurfaceRgba>)
                      : reinterpret_cast<const void*>(rotate_tex<false, SurfaceRgba>),
                 threads}};
      case Kind::Global:
        return {{"rotate_global",
                 four ? reinterpret_cast<const void*>(rotate_global<true, SurfaceRgba>)
                      : reinterpret_cast<const void*>(rotate_global<false, SurfaceRgba>),
                 threads}};
      case Kind::Cpu:
        break;
    }
    return {};
  }

 private:
  void check_image() const {
    if (img_.w == 0) throw std::logic_error("rotate: no image uploaded");
  }

  void put(const image::Image& tex_img) {
    const size_t row = size_t(tex_img.width) * size_t(tex_img.channels);
    img_.array.copy_from_host(tex_img.pixels.data(), row, stream_);
    if (img_.rgba) {
      img_.src4.copy_from_host(reinterpret_cast<const uchar4*>(tex_img.pixels.data()), row, stream_);
      CUDA_CHECK(cudaMemcpy2DAsync(img_.out4.get(), img_.out4.pitch(), img_.src4.get(), img_.src4.pitch(),
                                   row, size_t(tex_img.height), cudaMemcpyDeviceToDevice, stream_));
    } else {
      img_.src1.copy_from_host(tex_img.pixels.data(), row, stream_);
      CUDA_CHECK(cudaMemcpy2DAsync(img_.out1.get(), img_.out1.pitch(), img_.src1.get(), img_.src1.pitch(),
                                   row, size_t(tex_img.height), cudaMemcpyDeviceToDevice, stream_));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host pixels may go once upload returns
  }

  // The texture object for (source kind, effective settings), made again only when they change.
  cudaTextureObject_t texture(Kind kind, const Settings& e) {
    const bool over_array = kind != Kind::TexPitch;
    const bool same = tex_ && tex_over_array_ == over_array &&
                      tex_settings_.params.filter == e.params.filter &&
                      tex_settings_.params.address == e.params.address &&
                      tex_settings_.normalized == e.normalized && tex_settings_.read_mode == e.read_mode;
    if (same) return tex_.get();
    const cudaTextureDesc desc = cuda::texture_desc(
        filter_mode(e.params.filter), address_mode(e.params.address),
        e.read_mode == ReadMode::NormalizedFloat ? cudaReadModeNormalizedFloat : cudaReadModeElementType,
        e.normalized);  // border colour: zero-initialised, 0 in every channel
    tex_ = TextureObject();
    if (over_array)
      tex_ = TextureObject::over(img_.array, desc);
    else if (img_.rgba)
      tex_ = TextureObject::over(img_.src4, desc);
    else
      tex_ = TextureObject::over(img_.src1, desc);
    tex_over_array_ = over_array;
    tex_settings_ = e;
    return tex_.get();
  }

  template <class Out>
  void launch(const Variant& v, int block, const Settings& s, Out out) {
    if (v.backend != Backend::Cuda)
      throw std::invalid_argument("rotate: " + std::string(v.id) + " is not a CUDA variant");
    check_image();
    const std::string bad = check_params(s.params);
    if (!bad.empty()) throw std::invalid_argument(bad);
    if (std::find(v.blocks.begin(), v.blocks.end(), block) == v.blocks.end())
      throw std::invalid_argument("rotate: block " + std::to_string(block) + " is not one of " +
                                  std::string(v.id) + "'s");
    const Settings e = effective(v, s);
    Launch L;
    L.w = img_.w;
    L.h = img_.h;
    L.k = coefficients(e.params);
    L.filter = e.params.filter;
    L.address = e.params.address;
    L.normalized = e.normalized;
    L.normalized_read = e.read_mode == ReadMode::NormalizedFloat;
    L.lecture = v.kind() == Kind::Lecture;
    auto pow2_inverse = [](int n) { return (n & (n - 1)) == 0 ? 1.0f / float(n) : 0.0f; };
    L.inv_w = pow2_inverse(L.w);
    L.inv_h = pow2_inverse(L.h);
    const dim3 threads(static_cast<unsigned>(block / v.per_thread), static_cast<unsigned>(block));
    const dim3 grid(static_cast<unsigned>(cuda::ceil_div(L.w, block)),
                    static_cast<unsigned>(cuda::ceil_div(L.h, block)));
    if (v.per_thread == 4) {
      const cudaTextureObject_t tex = texture(v.kind(), e);
      const bool plain = !L.lecture && L.normalized && L.inv_w != 0 && L.inv_h != 0 && L.normalized_read;
      auto x4 = [&](auto kernel) {
        L2Prefetch prefetch;
        if (v.l2_prefetch)
          prefetch = {img_.src(), img_.src_pitch(), img_.rgba ? 4 : 1,
                      prefetch_ahead(reinterpret_cast<const void*>(kernel), threads, grid)};
        kernel<<<grid, threads, 0, stream_>>>(tex, L, out, prefetch);
      };
      if (img_.rgba && plain)
        x4(rotate_tex_x4<true, true, Out>);
      else if (img_.rgba)
        x4(rotate_tex_x4<true, false, Out>);
      else if (plain)
        x4(rotate_tex_x4<false, true, Out>);
      else
        x4(rotate_tex_x4<false, false, Out>);
    } else if (v.kind() == Kind::Global) {
      if (img_.rgba)
        rotate_global<true><<<grid, threads, 0, stream_>>>(img_.src(), img_.src_pitch(), L, out);
      else
        rotate_global<false><<<grid, threads, 0, stream_>>>(img_.src(), img_.src_pitch(), L, out);
    } else {
      const cudaTextureObject_t tex = texture(v.kind(), e);
      if (img_.rgba)
        rotate_tex<true><<<grid, threads, 0, stream_>>>(tex, L, out);
      else
        rotate_tex<false><<<grid, threads, 0, stream_>>>(tex, L, out);
    }
    CUDA_CHECK_LAUNCH("rotate");
  }

  // How many blocks later the block runs whose rows a tex-pitch-prefetch block prefetches: 1.5 waves
  // (a wave: the blocks resident on the whole GPU at once), at most half the grid. Measured on the
  // H100 with a probe of this kernel (RGBA8, 8192², 30°, a wave of 1056 blocks, every line of a
  // span prefetched) over 1, 1.5, 2, 2.5 and 3 waves: 3.39, 3.38, 3.28, 2.96 and 2.73e11 px/s;
  // further ahead, the rows are pushed out of the L2 again before their block starts.
  int prefetch_ahead(const void* kernel, dim3 threads, dim3 grid) {
    const long long total = static_cast<long long>(grid.x) * grid.y;
    if (total < 2) return 0;
    const unsigned n = threads.x * threads.y * threads.z;
    int& per_sm = blocks_per_sm_[{kernel, n}];
    if (per_sm == 0)
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(n), 0));
    const long long wave = static_cast<long long>(std::max(per_sm, 1)) * sm_count_;
    return static_cast<int>(std::clamp(wave * 3 / 2, 1LL, total / 2));
  }

  cudaStream_t stream_;
  std::string device_name_;
  int sm_count_ = 1;
  std::map<std::pair<const void*, unsigned>, int> blocks_per_sm_;  // occupancy by (kernel, threads)
  DeviceImage img_;
  image::Image host_;  // the uploaded source, to restore after a failed upload
  int channels_ = 1;
  TextureObject tex_;
  bool tex_over_array_ = true;
  Settings tex_settings_;
};

}  // namespace

std::unique_ptr<CudaEngine> CudaEngine::create(Stream stream) {
  return std::make_unique<CudaEngineImpl>(stream, engine_device());
}

}  // namespace gpulab::rotate

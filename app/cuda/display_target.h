#pragma once
// GL objects that a demo's compute fills each frame and GL then draws, without the demo knowing
// how the data gets there:
//   InteropTexture  an RGBA8 texture (images, the Life grid);
//   InteropBuffer   a vertex buffer of N elements (N-body's points).
// Each takes the fastest path that works and says which one, and why (path_description()):
//   interop    the GL object is registered with CUDA once and mapped on the compute stream each
//              frame; a kernel writes it in place (a surface object for the texture, a pointer for
//              the buffer). No copy, no host round trip;
//   host copy  registration failed (GL not on the CUDA device: remote display, WSL2, Mesa), was
//              not allowed, or is switched off with force_host_copy: CUDA writes device memory,
//              which is copied back and uploaded (glTextureSubImage2D / glNamedBufferSubData);
//   CPU        a CPU backend fills host memory, which is uploaded.
// The caller supplies the fills (TextureFill / BufferFill) and leaves unset what its producer
// cannot do; nothing here knows a demo.
//
// Header-only on purpose: it must work in CPU-only builds too (app/cuda/*.cpp are compiled only
// with CUDA), so the CUDA parts are guarded by GPULAB_HAVE_CUDA here instead of living in a .cpp.
//
// Lifetime rules (cuda/interop.h): the registration is made after the GL object, with its context
// current, and dies before it (members are declared in that order), also with the context current:
// destroy these objects before the GL context goes. They are neither copyable nor movable.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/hd.h"
#include "gl/gl.h"

#if defined(GPULAB_HAVE_CUDA)
#include <optional>

#include "common/device_memory.cuh"
#include "cuda/interop.h"
#endif

namespace gpulab {

// How the last update() filled a display target.
enum class DisplayPath {
  None,        // nothing yet (or nothing to fill)
  Interop,     // CUDA wrote the mapped GL object
  DeviceCopy,  // CUDA wrote device memory, copied to the host, uploaded
  Host,        // a host fill, uploaded
};

// The fills of an InteropTexture, each writing the whole width × height image, row 0 = top,
// pixels RGBA8 (bytes R, G, B, A in memory: 0xAABBGGRR as a little-endian word).
struct TextureFill {
  // CUDA writes through a surface object over the mapped texture (surf2Dwrite, x in bytes), on the
  // target's stream, without synchronising.
  std::function<void(SurfaceObject surface, int width, int height)> surface;
  // CUDA writes width × height words of device memory, on the target's stream.
  std::function<void(uint32_t* d_rgba, int width, int height)> device;
  // The host writes width × height words (a CPU backend, or a producer that copies back itself).
  std::function<void(uint32_t* h_rgba, int width, int height)> host;
};

// The fills of an InteropBuffer, each writing all `bytes` of the buffer.
struct BufferFill {
  std::function<void(void* d_ptr, size_t bytes)> device;  // CUDA, on the target's stream
  std::function<void(void* h_ptr, size_t bytes)> host;
};

namespace detail {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// What the interop and fallback paths of both targets share: the stream, whether registration
// may be tried, why interop is not in use, the last path and its description.
class DisplayTargetState {
 public:
  DisplayTargetState(Stream stream, bool interop_allowed, std::string why_not)
      : stream_(stream), interop_allowed_(interop_allowed), not_allowed_reason_(std::move(why_not)) {
#if !defined(GPULAB_HAVE_CUDA)
    if (interop_allowed_) {
      interop_allowed_ = false;
      not_allowed_reason_ = "built without CUDA";
    }
#endif
    if (!interop_allowed_ && not_allowed_reason_.empty())
      not_allowed_reason_ = "CUDA-GL interop is not available";
  }

  Stream stream() const { return stream_; }
  void set_stream(Stream stream) { stream_ = stream; }
  bool interop_allowed() const { return interop_allowed_; }
  DisplayPath last_path() const { return path_; }
  const std::string& path_description() const { return description_; }
  double last_map_ms() const { return map_ms_; }

 protected:
  // `object`: "texture" / "vertex buffer"; `upload`: the GL call of the host paths.
  void set_path(DisplayPath path, bool forced, const std::string& why_not_interop, const char* object,
                const char* upload) {
    path_ = path;
    if (path != DisplayPath::Interop) map_ms_ = 0.0;
    switch (path) {
      case DisplayPath::None:
        description_.clear();
        break;
      case DisplayPath::Interop:
        description_ = std::string("interop: CUDA writes the mapped GL ") + object;
        break;
      case DisplayPath::DeviceCopy:
        description_ =
            forced ? std::string("host copy (forced): CUDA writes device memory, copied back, ") + upload
                   : std::string("host copy: CUDA writes device memory, copied back, ") + upload + " (" +
                         why_not_interop + ")";
        break;
      case DisplayPath::Host:
        description_ = std::string(forced ? "host copy (forced): " : "CPU: ") + "host memory, " + upload;
        break;
    }
  }

  Stream stream_ = nullptr;
  bool interop_allowed_ = false;
  std::string not_allowed_reason_;
  DisplayPath path_ = DisplayPath::None;
  std::string description_;
  double map_ms_ = 0.0;
};

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// An RGBA8 GL texture filled through CUDA-GL interop when it can be, else through host memory.
class InteropTexture : public detail::DisplayTargetState {
 public:
  // `stream`: the compute stream the fills run on; maps, copies and unmaps go there too.
  // `interop_allowed` false (no CUDA device, GL on another GPU, interop switched off): the texture
  // is never registered and `why_not` shows in path_description().
  InteropTexture(Stream stream, bool interop_allowed, std::string why_not = {})
      : DisplayTargetState(stream, interop_allowed, std::move(why_not)) {
    if (!interop_allowed_) why_not_ = not_allowed_reason_;
  }
  ~InteropTexture() { release(); }
  InteropTexture(const InteropTexture&) = delete;
  InteropTexture& operator=(const InteropTexture&) = delete;

  // Makes the texture width × height (sizes below 1 become 1) and registers it with CUDA when
  // allowed; does nothing when the size is unchanged. True when the texture was (re)made: then
  // interop_active() and interop_unavailable_reason() tell how registration went.
  bool ensure_size(int width, int height) {
    width = width < 1 ? 1 : width;
    height = height < 1 ? 1 : height;
    if (texture_ && texture_.width() == width && texture_.height() == height) return false;
    release();  // unregister before the old texture dies
    texture_ = gl::Texture2D(GL_RGBA8, width, height);
    why_not_ = not_allowed_reason_;
#if defined(GPULAB_HAVE_CUDA)
    if (interop_allowed_) {
      std::string why;
      registration_ = cuda::GraphicsResource::try_register_image(texture_.id(), &why, GL_TEXTURE_2D,
                                                                 cuda::kRegisterSurfaceLoadStore);
      why_not_ = registration_ ? std::string() : why;
    }
#endif
    return true;
  }

  // Fills the whole texture: with `fill.surface` on the mapped texture when it is registered
  // (interop) and force_host_copy is false; else with `fill.device` into device memory copied back
  // (waits for the stream); else with `fill.host`. Throws std::logic_error before ensure_size() or
  // when no given fill can be used, GpuError / GlError when CUDA or GL fail.
  void update(const TextureFill& fill, bool force_host_copy = false) {
    if (!texture_) throw std::logic_error("InteropTexture::update before ensure_size");
    const int w = texture_.width(), h = texture_.height();
    const size_t pixels = static_cast<size_t>(w) * static_cast<size_t>(h);
#if defined(GPULAB_HAVE_CUDA)
    if (fill.surface && registration_ && !force_host_copy) {
      const auto start = std::chrono::steady_clock::now();
      cuda::ScopedMap map({&*registration_}, stream_);
      cuda::Surface surface(map.array(0));
      map_ms_ = detail::ms_since(start);
      fill.surface(surface.get(), w, h);
      const auto unmap_start = std::chrono::steady_clock::now();
      surface.reset();  // the surface goes before the mapping whose array it writes
      map.unmap();      // on the stream: GL's later use of the texture waits for the fill
      map_ms_ += detail::ms_since(unmap_start);
      set_path(DisplayPath::Interop, false, {}, "texture", "glTextureSubImage2D");
      return;
    }
    if (fill.device) {
      if (d_pixels_.count() != pixels) {
        d_pixels_ = cuda::DeviceBuffer<uint32_t>(pixels, "the display's host-copy image", "the CUDA device");
        h_pinned_ = cuda::PinnedBuffer<uint32_t>(pixels);
      }
      fill.device(d_pixels_.get(), w, h);
      CUDA_CHECK(cudaMemcpyAsync(h_pinned_.get(), d_pixels_.get(), pixels * sizeof(uint32_t),
                                 cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      texture_.upload_rgba8_top_down(h_pinned_.get());
      set_path(DisplayPath::DeviceCopy, force_host_copy,
               why_not_.empty() ? std::string("no surface fill given") : why_not_, "texture",
               "glTextureSubImage2D");
      return;
    }
#endif
    if (!fill.host)
      throw std::logic_error(
          "InteropTexture::update: no usable fill (a host fill is needed without interop or CUDA)");
    h_pixels_.resize(pixels);
    fill.host(h_pixels_.data(), w, h);
    texture_.upload_rgba8_top_down(h_pixels_.data());
    set_path(DisplayPath::Host, force_host_copy, why_not_, "texture", "glTextureSubImage2D");
  }

  // Releases the registration and the texture (the context must be current); ensure_size() makes
  // them again.
  void release() noexcept {
#if defined(GPULAB_HAVE_CUDA)
    registration_.reset();  // unregister first: the texture must outlive its registration
#endif
    texture_ = gl::Texture2D();
  }

  const gl::Texture2D& texture() const { return texture_; }
  // GL copies RGBA8 rows from `pbo` (a pixel buffer, row 0 at the top) into the texture, on the GPU
  // (gl::Texture2D::upload_from_pixel_buffer). For a pixel buffer CUDA wrote, unmapped again.
  void upload_from(const gl::Buffer& pbo) {
    texture_.upload_from_pixel_buffer(pbo, GL_RGBA, GL_UNSIGNED_BYTE);
  }
  int width() const { return texture_.width(); }
  int height() const { return texture_.height(); }
  // The texture is registered: update() with a surface fill writes it in place.
  bool interop_active() const {
#if defined(GPULAB_HAVE_CUDA)
    return registration_.has_value();
#else
    return false;
#endif
  }
  // Why the texture is not registered (not allowed, or the registration's error); empty when it
  // is, or when registration is allowed but ensure_size() has not tried it yet.
  const std::string& interop_unavailable_reason() const { return why_not_; }

 private:
  std::string why_not_;
  gl::Texture2D texture_;
#if defined(GPULAB_HAVE_CUDA)
  std::optional<cuda::GraphicsResource> registration_;  // after texture_: destroyed first
  cuda::DeviceBuffer<uint32_t> d_pixels_;               // the host-copy path's device image
  cuda::PinnedBuffer<uint32_t> h_pinned_;               // ... and its copy in host memory
#endif
  std::vector<uint32_t> h_pixels_;  // the host fill's image
};

// ---------------------------------------------------------------------------------------------
// A GL vertex buffer of count() elements of stride() bytes, filled through CUDA-GL interop when it
// can be (registered once with WriteDiscard: CUDA overwrites all of it each frame), else through
// host memory and glNamedBufferSubData. Draw it with a gl::VertexArray pointed at buffer(); re-point
// the VAO whenever resize() returns true (a new GL buffer).
class InteropBuffer : public detail::DisplayTargetState {
 public:
  InteropBuffer(size_t stride, Stream stream, bool interop_allowed, std::string why_not = {})
      : DisplayTargetState(stream, interop_allowed, std::move(why_not)), stride_(stride) {
    if (stride == 0) throw std::invalid_argument("InteropBuffer: stride 0");
    if (!interop_allowed_) why_not_ = not_allowed_reason_;
  }
  ~InteropBuffer() { release(); }
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  // Makes the buffer `count` elements long (GL_DYNAMIC_STORAGE_BIT storage) and registers it when
  // allowed; nothing when the count is unchanged; no buffer at all for 0. True when the buffer was
  // (re)made or released.
  bool resize(size_t count) {
    if (count == count_ && (buffer_ || count == 0)) return false;
    release();  // unregister before the old buffer dies
    count_ = count;
    why_not_ = not_allowed_reason_;
    if (count == 0) return true;
    buffer_ = gl::Buffer::dynamic(bytes());
#if defined(GPULAB_HAVE_CUDA)
    if (interop_allowed_) {
      std::string why;
      registration_ =
          cuda::GraphicsResource::try_register_buffer(buffer_.id(), &why, cuda::kRegisterWriteDiscard);
      why_not_ = registration_ ? std::string() : why;
    }
#endif
    return true;
  }

  // Fills all bytes(): with `fill.device` on the mapped buffer when it is registered (interop) and
  // force_host_copy is false; else with `fill.device` into device memory copied back (waits for
  // the stream); else with `fill.host`. Nothing for 0 elements. Throws std::logic_error when no
  // given fill can be used, GpuError / GlError when CUDA or GL fail.
  void update(const BufferFill& fill, bool force_host_copy = false) {
    if (count_ == 0) {
      set_path(DisplayPath::None, false, {}, "vertex buffer", "glNamedBufferSubData");
      return;
    }
    const size_t n = bytes();
#if defined(GPULAB_HAVE_CUDA)
    if (fill.device && registration_ && !force_host_copy) {
      const auto start = std::chrono::steady_clock::now();
      cuda::ScopedMap map({&*registration_}, stream_);
      const cuda::MappedBuffer mapped = map.buffer(0);
      map_ms_ = detail::ms_since(start);
      if (mapped.bytes < n)
        throw GpuError("InteropBuffer: the mapped buffer has " + std::to_string(mapped.bytes) + " bytes, " +
                       std::to_string(n) + " expected");
      fill.device(mapped.d_ptr, n);
      const auto unmap_start = std::chrono::steady_clock::now();
      map.unmap();  // on the stream: GL's later draws from the buffer wait for the fill
      map_ms_ += detail::ms_since(unmap_start);
      set_path(DisplayPath::Interop, false, {}, "vertex buffer", "glNamedBufferSubData");
      return;
    }
    if (fill.device) {
      if (d_bytes_.count() != n) {
        d_bytes_ = cuda::DeviceBuffer<unsigned char>(n, "the vertex buffer's host copy", "the CUDA device");
        h_pinned_ = cuda::PinnedBuffer<unsigned char>(n);
      }
      fill.device(d_bytes_.get(), n);
      CUDA_CHECK(cudaMemcpyAsync(h_pinned_.get(), d_bytes_.get(), n, cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      buffer_.upload(h_pinned_.get(), n);
      set_path(DisplayPath::DeviceCopy, force_host_copy,
               why_not_.empty() ? std::string("interop not in use") : why_not_, "vertex buffer",
               "glNamedBufferSubData");
      return;
    }
#endif
    if (!fill.host)
      throw std::logic_error(
          "InteropBuffer::update: no usable fill (a host fill is needed without interop or CUDA)");
    h_bytes_.resize(n);
    fill.host(h_bytes_.data(), n);
    buffer_.upload(h_bytes_.data(), n);
    set_path(DisplayPath::Host, force_host_copy, why_not_, "vertex buffer", "glNamedBufferSubData");
  }

  // Releases the registration and the buffer (the context must be current); count() becomes 0.
  void release() noexcept {
#if defined(GPULAB_HAVE_CUDA)
    registration_.reset();  // unregister first: the buffer must outlive its registration
#endif
    buffer_ = gl::Buffer();
    count_ = 0;
  }

  const gl::Buffer& buffer() const { return buffer_; }
  size_t count() const { return count_; }
  size_t stride() const { return stride_; }
  size_t bytes() const { return count_ * stride_; }
  bool interop_active() const {
#if defined(GPULAB_HAVE_CUDA)
    return registration_.has_value();
#else
    return false;
#endif
  }
  // Why the buffer is not registered; as InteropTexture::interop_unavailable_reason().
  const std::string& interop_unavailable_reason() const { return why_not_; }

 private:
  size_t stride_ = 0;
  size_t count_ = 0;
  std::string why_not_;
  gl::Buffer buffer_;
#if defined(GPULAB_HAVE_CUDA)
  std::optional<cuda::GraphicsResource> registration_;  // after buffer_: destroyed first
  cuda::DeviceBuffer<unsigned char> d_bytes_;           // the host-copy path's device copy
  cuda::PinnedBuffer<unsigned char> h_pinned_;          // ... and its copy in host memory
#endif
  std::vector<unsigned char> h_bytes_;  // the host fill's data
};

}  // namespace gpulab

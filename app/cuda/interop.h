#pragma once
// CUDA-OpenGL interop: registrations of GL textures and buffers, one-call mapping of a frame's
// registrations, and surface objects over mapped textures (gpulab::cuda::Surface, which lives in
// kernels/common/device_memory.cuh with the other CUDA object owners and is re-exported here).
// Include only in CUDA builds (#if defined(GPULAB_HAVE_CUDA)): it brings in the CUDA runtime
// header, through device_memory.cuh.
//
// Lifetime rules (the order matters, and the destructors rely on it):
//   - register after the GL object exists, with its GL context current;
//   - a GraphicsResource must die BEFORE its GL object (declare it after the GL object in a class,
//     so it is destroyed first) and while the GL context is still current;
//   - a ScopedMap must die before the registrations it maps; a Surface before the ScopedMap whose
//     array it writes. While mapped, GL must not touch the object.
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gl/gl.h"  // glad first: cuda_gl_interop.h (in interop.cpp) would include <GL/gl.h>

#include "common/device_memory.cuh"  // Surface, CudaArray, ...
#include "common/hd.h"
#include "cuda/gl_device.h"

// Opaque CUDA types, declared as the runtime declares them (cudaGraphicsResource_t, cudaArray_t).
struct cudaGraphicsResource;
struct cudaArray;

namespace gpulab::cuda {

// The cudaGraphicsRegisterFlags values (checked against the runtime in interop.cpp).
enum RegisterFlags : unsigned {
  kRegisterNone = 0,
  kRegisterReadOnly = 1,          // CUDA only reads
  kRegisterWriteDiscard = 2,      // CUDA overwrites everything: the old contents need not be kept
  kRegisterSurfaceLoadStore = 4,  // images: CUDA writes through a surface object
  kRegisterTextureGather = 8,
};

class GraphicsResource {
 public:
  enum class Kind { None, Image, Buffer };

  GraphicsResource() = default;

  // Throwing forms: GpuError with the reason try_register_* would give.
  static GraphicsResource register_image(GLuint texture, GLenum target = GL_TEXTURE_2D,
                                         unsigned flags = kRegisterSurfaceLoadStore);
  static GraphicsResource register_buffer(GLuint buffer, unsigned flags = kRegisterWriteDiscard);

  // Non-throwing forms for the App's start-up: nullopt plus a reason a lecturer can act on, e.g.
  // "cudaGraphicsGLRegisterImage failed: cudaErrorUnknown — the GL context is not on a CUDA device
  // (remote session, WSL2, display on another GPU)". The runtime's last error is cleared, so a
  // later launch check does not report this failure again.
  static std::optional<GraphicsResource> try_register_image(GLuint texture, std::string* why,
                                                            GLenum target = GL_TEXTURE_2D,
                                                            unsigned flags = kRegisterSurfaceLoadStore);
  static std::optional<GraphicsResource> try_register_buffer(GLuint buffer, std::string* why,
                                                             unsigned flags = kRegisterWriteDiscard);

  GraphicsResource(GraphicsResource&& o) noexcept
      : res_(std::exchange(o.res_, nullptr)),
        kind_(std::exchange(o.kind_, Kind::None)),
        gl_name_(std::exchange(o.gl_name_, 0u)) {}
  GraphicsResource& operator=(GraphicsResource&& o) noexcept;
  GraphicsResource(const GraphicsResource&) = delete;
  GraphicsResource& operator=(const GraphicsResource&) = delete;
  ~GraphicsResource() { reset(); }

  cudaGraphicsResource* get() const { return res_; }
  Kind kind() const { return kind_; }
  GLuint gl_name() const { return gl_name_; }
  explicit operator bool() const { return res_ != nullptr; }
  void reset() noexcept;  // cudaGraphicsUnregisterResource; logs, never throws

 private:
  cudaGraphicsResource* res_ = nullptr;
  Kind kind_ = Kind::None;
  GLuint gl_name_ = 0;
};

struct MappedBuffer {
  void* d_ptr = nullptr;
  size_t bytes = 0;
};

// Maps a set of registrations with ONE cudaGraphicsMapResources call on `stream` (one GL->CUDA
// synchronisation a frame, not one per resource) and unmaps them on the same stream when it dies.
// Work CUDA issues on `stream` while mapped is ordered before the unmap, so GL sees its results.
class ScopedMap {
 public:
  ScopedMap() = default;
  // Throws GpuError (and maps nothing) on failure; null pointers are not allowed.
  ScopedMap(std::span<GraphicsResource* const> resources, gpulab::Stream stream);
  ScopedMap(std::initializer_list<GraphicsResource*> resources, gpulab::Stream stream)
      : ScopedMap(std::span<GraphicsResource* const>(resources.begin(), resources.size()), stream) {}

  ScopedMap(ScopedMap&& o) noexcept
      : owners_(std::move(o.owners_)), handles_(std::move(o.handles_)), stream_(o.stream_) {
    o.owners_.clear();
    o.handles_.clear();
  }
  ScopedMap& operator=(ScopedMap&& o) noexcept;
  ScopedMap(const ScopedMap&) = delete;
  ScopedMap& operator=(const ScopedMap&) = delete;
  ~ScopedMap() { unmap_noexcept(); }

  size_t size() const { return handles_.size(); }
  bool mapped() const { return !handles_.empty(); }

  // The CUDA array of a mapped image (layer/face `array_index`, level `mip_level`); throws
  // GpuError when the resource is not an image or not part of this mapping.
  cudaArray* array(size_t index, unsigned array_index = 0, unsigned mip_level = 0) const;
  cudaArray* array(const GraphicsResource& resource, unsigned array_index = 0, unsigned mip_level = 0) const;
  // Device pointer and size of a mapped buffer; throws GpuError when it is not a buffer.
  MappedBuffer buffer(size_t index) const;
  MappedBuffer buffer(const GraphicsResource& resource) const;

  void unmap();  // early unmap, throws GpuError; the destructor then does nothing

 private:
  size_t index_of(const GraphicsResource& resource) const;
  void unmap_noexcept() noexcept;

  std::vector<const GraphicsResource*> owners_;
  std::vector<cudaGraphicsResource*> handles_;
  gpulab::Stream stream_ = nullptr;
};

// Surface (a surface object over a CUDA array such as a mapped GL texture) is
// gpulab::cuda::Surface from common/device_memory.cuh, included above.

// gl_context_on_cuda_device: cuda/gl_device.h (included above), for every build.

}  // namespace gpulab::cuda

// CUDA-GL interop. glad's GL header comes first (through cuda/interop.h -> gl/gl.h): on x86
// cuda_gl_interop.h includes <GL/gl.h>, whose include guard glad has already defined.
#include "cuda/interop.h"

#include <cuda_runtime.h>
// clang-format off
#include <cuda_gl_interop.h>
// clang-format on

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <type_traits>

#include "common/cuda_check.h"
#include "common/device_health.h"

static_assert(static_cast<unsigned>(gpulab::cuda::kRegisterNone) ==
              static_cast<unsigned>(cudaGraphicsRegisterFlagsNone));
static_assert(static_cast<unsigned>(gpulab::cuda::kRegisterReadOnly) ==
              static_cast<unsigned>(cudaGraphicsRegisterFlagsReadOnly));
static_assert(static_cast<unsigned>(gpulab::cuda::kRegisterWriteDiscard) ==
              static_cast<unsigned>(cudaGraphicsRegisterFlagsWriteDiscard));
static_assert(static_cast<unsigned>(gpulab::cuda::kRegisterSurfaceLoadStore) ==
              static_cast<unsigned>(cudaGraphicsRegisterFlagsSurfaceLoadStore));
static_assert(static_cast<unsigned>(gpulab::cuda::kRegisterTextureGather) ==
              static_cast<unsigned>(cudaGraphicsRegisterFlagsTextureGather));
static_assert(std::is_same_v<gpulab::SurfaceObject, cudaSurfaceObject_t>);
static_assert(std::is_same_v<cudaGraphicsResource*, cudaGraphicsResource_t>);
static_assert(std::is_same_v<cudaArray*, cudaArray_t>);

namespace gpulab::cuda {

namespace {

std::string gl_renderer_name() {
  // glad leaves the pointer null until a context's functions are loaded; without a current
  // context glGetString returns null.
  if (!glad_glGetString) return {};
  const auto* s = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return s ? std::string(s) : std::string();
}

// Turns a failed registration into something a lecturer can act on: the most common cause by far
// is a GL context that is not on an NVIDIA GPU at all, which the runtime reports only as
// cudaErrorUnknown (or cudaErrorNoDevice / cudaErrorOperatingSystem on some drivers).
std::string explain_register_failure(const char* call, cudaError_t err) {
  std::ostringstream os;
  os << call << " failed: " << cudaGetErrorName(err) << " \u2014 ";
  int device = -1;
  const bool on_cuda = gl_context_on_cuda_device(&device);
  const std::string renderer = gl_renderer_name();
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || err == cudaErrorInitializationError) {
    os << "no usable CUDA device or driver (" << cudaGetErrorString(err) << ")";
  } else if (!on_cuda) {
    os << "the GL context is not on a CUDA device (remote session, WSL2, software renderer, or the "
          "display on another GPU)";
  } else if (err == cudaErrorInvalidValue || err == cudaErrorInvalidResourceHandle) {
    os << "the GL name, target or format is not registrable (an existing texture with immutable "
          "storage in a plain format such as RGBA8 or R32F, or a buffer with storage, is needed)";
  } else if (err == cudaErrorNotSupported || err == cudaErrorUnknown) {
    os << "the driver refused the registration although the context is on CUDA device " << device << " ("
       << cudaGetErrorString(err) << ")";
  } else {
    os << cudaGetErrorString(err);
  }
  if (!renderer.empty()) os << " [GL renderer: " << renderer << "]";
  return os.str();
}

void log_failure(const char* what, cudaError_t err) {
  if (sticky_cuda_error(err)) return;  // a broken context: the fault was said once where it happened
  std::fprintf(stderr, "gpulab: %s failed: %s (%s)\n", what, cudaGetErrorName(err), cudaGetErrorString(err));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
std::optional<GraphicsResource> GraphicsResource::try_register_image(GLuint texture, std::string* why,
                                                                     GLenum target, unsigned flags) {
  cudaGraphicsResource_t res = nullptr;
  const cudaError_t err = cudaGraphicsGLRegisterImage(&res, texture, target, flags);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // handled here: keep it out of the next launch check
    if (why) *why = explain_register_failure("cudaGraphicsGLRegisterImage", err);
    return std::nullopt;
  }
  GraphicsResource r;
  r.res_ = res;
  r.kind_ = Kind::Image;
  r.gl_name_ = texture;
  return r;
}

std::optional<GraphicsResource> GraphicsResource::try_register_buffer(GLuint buffer, std::string* why,
                                                                      unsigned flags) {
  cudaGraphicsResource_t res = nullptr;
  const cudaError_t err = cudaGraphicsGLRegisterBuffer(&res, buffer, flags);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    if (why) *why = explain_register_failure("cudaGraphicsGLRegisterBuffer", err);
    return std::nullopt;
  }
  GraphicsResource r;
  r.res_ = res;
  r.kind_ = Kind::Buffer;
  r.gl_name_ = buffer;
  return r;
}

GraphicsResource GraphicsResource::register_image(GLuint texture, GLenum target, unsigned flags) {
  std::string why;
  auto r = try_register_image(texture, &why, target, flags);
  if (!r) throw GpuError(why);
  return std::move(*r);
}

GraphicsResource GraphicsResource::register_buffer(GLuint buffer, unsigned flags) {
  std::string why;
  auto r = try_register_buffer(buffer, &why, flags);
  if (!r) throw GpuError(why);
  return std::move(*r);
}

GraphicsResource& GraphicsResource::operator=(GraphicsResource&& o) noexcept {
  if (this != &o) {
    reset();
    res_ = std::exchange(o.res_, nullptr);
    kind_ = std::exchange(o.kind_, Kind::None);
    gl_name_ = std::exchange(o.gl_name_, 0u);
  }
  return *this;
}

void GraphicsResource::reset() noexcept {
  if (!res_) return;
  const cudaError_t err = cudaGraphicsUnregisterResource(res_);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    log_failure("cudaGraphicsUnregisterResource", err);
  }
  res_ = nullptr;
  kind_ = Kind::None;
  gl_name_ = 0;
}

// ---------------------------------------------------------------------------------------------
ScopedMap::ScopedMap(std::span<GraphicsResource* const> resources, gpulab::Stream stream) : stream_(stream) {
  owners_.reserve(resources.size());
  handles_.reserve(resources.size());
  for (GraphicsResource* r : resources) {
    if (!r || !*r) throw GpuError("ScopedMap: a resource to map is null or not registered");
    owners_.push_back(r);
    handles_.push_back(r->get());
  }
  if (handles_.empty()) return;
  const cudaError_t err =
      cudaGraphicsMapResources(static_cast<int>(handles_.size()), handles_.data(), stream_);
  if (err != cudaSuccess) {
    owners_.clear();
    handles_.clear();          // nothing is mapped: the destructor must not unmap
    (void)cudaGetLastError();  // reported by the throw below, not again by the next launch check
    CUDA_CHECK(err);
  }
}

ScopedMap& ScopedMap::operator=(ScopedMap&& o) noexcept {
  if (this != &o) {
    unmap_noexcept();
    owners_ = std::move(o.owners_);
    handles_ = std::move(o.handles_);
    stream_ = o.stream_;
    o.owners_.clear();
    o.handles_.clear();
  }
  return *this;
}

size_t ScopedMap::index_of(const GraphicsResource& resource) const {
  const auto it = std::find(owners_.begin(), owners_.end(), &resource);
  if (it == owners_.end()) throw GpuError("ScopedMap: the resource is not part of this mapping");
  return static_cast<size_t>(it - owners_.begin());
}

cudaArray* ScopedMap::array(size_t index, unsigned array_index, unsigned mip_level) const {
  if (index >= handles_.size()) throw GpuError("ScopedMap::array: index out of range");
  if (owners_[index]->kind() != GraphicsResource::Kind::Image)
    throw GpuError("ScopedMap::array: the resource is a buffer, not an image");
  cudaArray_t arr = nullptr;
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&arr, handles_[index], array_index, mip_level));
  return arr;
}

cudaArray* ScopedMap::array(const GraphicsResource& resource, unsigned array_index,
                            unsigned mip_level) const {
  return array(index_of(resource), array_index, mip_level);
}

MappedBuffer ScopedMap::buffer(size_t index) const {
  if (index >= handles_.size()) throw GpuError("ScopedMap::buffer: index out of range");
  if (owners_[index]->kind() != GraphicsResource::Kind::Buffer)
    throw GpuError("ScopedMap::buffer: the resource is an image, not a buffer");
  MappedBuffer b;
  CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&b.d_ptr, &b.bytes, handles_[index]));
  return b;
}

MappedBuffer ScopedMap::buffer(const GraphicsResource& resource) const { return buffer(index_of(resource)); }

void ScopedMap::unmap() {
  if (handles_.empty()) return;
  const cudaError_t err =
      cudaGraphicsUnmapResources(static_cast<int>(handles_.size()), handles_.data(), stream_);
  owners_.clear();
  handles_.clear();
  CUDA_CHECK(err);
}

void ScopedMap::unmap_noexcept() noexcept {
  if (handles_.empty()) return;
  const cudaError_t err =
      cudaGraphicsUnmapResources(static_cast<int>(handles_.size()), handles_.data(), stream_);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    log_failure("cudaGraphicsUnmapResources", err);
  }
  owners_.clear();
  handles_.clear();
}

// ---------------------------------------------------------------------------------------------
bool gl_context_on_cuda_device(int* device) {
  unsigned int count = 0;
  int devices[16] = {};
  const cudaError_t err = cudaGLGetDevices(&count, devices, 16, cudaGLDeviceListAll);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  if (count == 0) return false;
  if (device) *device = devices[0];
  return true;
}

}  // namespace gpulab::cuda

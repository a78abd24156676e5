#pragma once
// Move-only owners of CUDA memory and objects, for every demo: linear device memory, pinned host
// memory, pitched 2D device memory, 2D CUDA arrays, texture objects and surface objects.
// A failed allocation throws GpuError(out_of_memory) naming what it was for and how much is free,
// and leaves the CUDA error state clean, so an engine's other buffers stay usable.
// Host code only (it compiles with nvcc or, in CUDA builds, with the host compiler); destructors
// never throw.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <utility>

#include "common/cuda_check.h"
#include "common/hd.h"

namespace gpulab::cuda {

inline std::string mib(size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// Throws the out-of-memory GpuError for `what` needing `bytes` on `device` (after a failed cudaMalloc).
[[noreturn]] inline void throw_alloc_failure(cudaError_t err, size_t bytes, const std::string& what,
                                             const std::string& device) {
  (void)cudaGetLastError();  // cudaMalloc's failure is not sticky: clear it for the next launch check
  size_t free_bytes = 0, total_bytes = 0;
  (void)cudaMemGetInfo(&free_bytes, &total_bytes);
  throw GpuError(what + " needs " + mib(bytes) + ", " + mib(free_bytes) + " free on " + device + " (" +
                     cudaGetErrorName(err) + ")",
                 err == cudaErrorMemoryAllocation);
}

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(size_t count, const std::string& what, const std::string& device) : count_(count) {
    if (count == 0) return;
    void* p = nullptr;
    const cudaError_t err = cudaMalloc(&p, count * sizeof(T));
    if (err != cudaSuccess) throw_alloc_failure(err, count * sizeof(T), what, device);
    ptr_ = static_cast<T*>(p);
  }
  ~DeviceBuffer() {
    if (ptr_) (void)cudaFree(ptr_);  // never throws; an error here has nowhere to go
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) (void)cudaFree(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t count() const { return count_; }
  size_t bytes() const { return count_ * sizeof(T); }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// Page-locked host memory for `count` T (asynchronous copies read back without stalling the frame).
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t count) : count_(count) {
    if (count) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (ptr_) (void)cudaFreeHost(ptr_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) (void)cudaFreeHost(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t count() const { return count_; }
  explicit operator bool() const { return ptr_ != nullptr; }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

namespace detail {
inline void log_release_failure(const char* what, cudaError_t err) noexcept {
  (void)cudaGetLastError();
  std::fprintf(stderr, "gpulab: %s failed: %s (%s)\n", what, cudaGetErrorName(err), cudaGetErrorString(err));
}
}  // namespace detail

// What a kernel gets of pitched memory: rows of `width` T, `pitch` BYTES apart (pitch >= width *
// sizeof(T): the allocator pads each row so that row starts are aligned for coalesced access).
template <class T>
struct Pitched2D {
  T* ptr = nullptr;
  size_t pitch = 0;  // bytes from one row to the next
  int width = 0, height = 0;
  __host__ __device__ T* row(int y) const {
    return reinterpret_cast<T*>(reinterpret_cast<char*>(ptr) + static_cast<size_t>(y) * pitch);
  }
};

// Pitched 2D device memory (cudaMallocPitch): width × height elements of T.
template <class T>
class PitchedBuffer {
 public:
  PitchedBuffer() = default;
  // Zero width or height: empty, no allocation.
  PitchedBuffer(size_t width, size_t height, const std::string& what, const std::string& device)
      : width_(width), height_(height) {
    if (width == 0 || height == 0) return;
    void* p = nullptr;
    const cudaError_t err = cudaMallocPitch(&p, &pitch_, width * sizeof(T), height);
    if (err != cudaSuccess) {
      width_ = height_ = pitch_ = 0;
      throw_alloc_failure(err, width * sizeof(T) * height, what, device);
    }
    ptr_ = static_cast<T*>(p);
  }
  ~PitchedBuffer() {
    if (ptr_) (void)cudaFree(ptr_);
  }
  PitchedBuffer(PitchedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        pitch_(std::exchange(o.pitch_, 0)),
        width_(std::exchange(o.width_, 0)),
        height_(std::exchange(o.height_, 0)) {}
  PitchedBuffer& operator=(PitchedBuffer&& o) noexcept {
    if (this != &o) {
      if (ptr_) (void)cudaFree(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      pitch_ = std::exchange(o.pitch_, 0);
      width_ = std::exchange(o.width_, 0);
      height_ = std::exchange(o.height_, 0);
    }
    return *this;
  }
  PitchedBuffer(const PitchedBuffer&) = delete;
  PitchedBuffer& operator=(const PitchedBuffer&) = delete;

  T* get() const { return ptr_; }
  size_t pitch() const { return pitch_; }  // bytes, >= width_bytes()
  size_t width() const { return width_; }  // elements
  size_t height() const { return height_; }
  size_t width_bytes() const { return width_ * sizeof(T); }
  explicit operator bool() const { return ptr_ != nullptr; }
  Pitched2D<T> view() const { return {ptr_, pitch_, static_cast<int>(width_), static_cast<int>(height_)}; }

  // The whole buffer from / to host rows `h_pitch` bytes apart (width_bytes() when tightly
  // packed), on `stream`. From pageable host memory the copy has left `h_src` when the call
  // returns; with pinned memory, or when reading `h_dst`, synchronise `stream` first.
  void copy_from_host(const T* h_src, size_t h_pitch, cudaStream_t stream = nullptr) const {
    if (!ptr_) return;
    CUDA_CHECK(cudaMemcpy2DAsync(ptr_, pitch_, h_src, h_pitch, width_bytes(), height_, cudaMemcpyHostToDevice,
                                 stream));
  }
  void copy_to_host(T* h_dst, size_t h_pitch, cudaStream_t stream = nullptr) const {
    if (!ptr_) return;
    CUDA_CHECK(cudaMemcpy2DAsync(h_dst, h_pitch, ptr_, pitch_, width_bytes(), height_, cudaMemcpyDeviceToHost,
                                 stream));
  }

 private:
  T* ptr_ = nullptr;
  size_t pitch_ = 0;
  size_t width_ = 0, height_ = 0;
};

// A 2D CUDA array (cudaMallocArray): memory laid out for 2D locality, read through texture
// objects (hardware filtering and addressing) and written through surface objects when made with
// cudaArraySurfaceLoadStore.
class CudaArray {
 public:
  CudaArray() = default;
  // width × height elements of the channel format `desc` (cudaCreateChannelDesc<uchar4>(), ...).
  // `flags`: cudaArrayDefault, or cudaArraySurfaceLoadStore for a Surface over it. Zero width or
  // height: empty, no allocation.
  CudaArray(const cudaChannelFormatDesc& desc, size_t width, size_t height, const std::string& what,
            const std::string& device, unsigned flags = cudaArrayDefault)
      : desc_(desc), width_(width), height_(height) {
    if (width == 0 || height == 0) return;
    const cudaError_t err = cudaMallocArray(&array_, &desc_, width, height, flags);
    if (err != cudaSuccess) {
      array_ = nullptr;
      width_ = height_ = 0;
      throw_alloc_failure(err, width * height * element_bytes(), what, device);
    }
  }
  // An array of T (uchar4, float, ...): the channel format comes from cudaCreateChannelDesc<T>.
  template <class T>
  static CudaArray of(size_t width, size_t height, const std::string& what, const std::string& device,
                      unsigned flags = cudaArrayDefault) {
    return CudaArray(cudaCreateChannelDesc<T>(), width, height, what, device, flags);
  }
  ~CudaArray() {
    if (array_) (void)cudaFreeArray(array_);
  }
  CudaArray(CudaArray&& o) noexcept
      : array_(std::exchange(o.array_, nullptr)),
        desc_(o.desc_),
        width_(std::exchange(o.width_, 0)),
        height_(std::exchange(o.height_, 0)) {}
  CudaArray& operator=(CudaArray&& o) noexcept {
    if (this != &o) {
      if (array_) (void)cudaFreeArray(array_);
      array_ = std::exchange(o.array_, nullptr);
      desc_ = o.desc_;
      width_ = std::exchange(o.width_, 0);
      height_ = std::exchange(o.height_, 0);
    }
    return *this;
  }
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;

  cudaArray_t get() const { return array_; }
  size_t width() const { return width_; }  // elements
  size_t height() const { return height_; }
  const cudaChannelFormatDesc& desc() const { return desc_; }
  size_t element_bytes() const { return static_cast<size_t>(desc_.x + desc_.y + desc_.z + desc_.w) / 8; }
  size_t row_bytes() const { return width_ * element_bytes(); }
  explicit operator bool() const { return array_ != nullptr; }

  // The whole array from / to memory whose rows are `pitch` bytes apart (row_bytes() when tightly
  // packed), on `stream`; the same rules as PitchedBuffer's copies.
  void copy_from_host(const void* h_src, size_t h_pitch, cudaStream_t stream = nullptr) const {
    if (!array_) return;
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(array_, 0, 0, h_src, h_pitch, row_bytes(), height_,
                                        cudaMemcpyHostToDevice, stream));
  }
  void copy_to_host(void* h_dst, size_t h_pitch, cudaStream_t stream = nullptr) const {
    if (!array_) return;
    CUDA_CHECK(cudaMemcpy2DFromArrayAsync(h_dst, h_pitch, array_, 0, 0, row_bytes(), height_,
                                          cudaMemcpyDeviceToHost, stream));
  }
  void copy_from_device(const void* d_src, size_t d_pitch, cudaStream_t stream = nullptr) const {
    if (!array_) return;
    CUDA_CHECK(cudaMemcpy2DToArrayAsync(array_, 0, 0, d_src, d_pitch, row_bytes(), height_,
                                        cudaMemcpyDeviceToDevice, stream));
  }

 private:
  cudaArray_t array_ = nullptr;
  cudaChannelFormatDesc desc_{};
  size_t width_ = 0, height_ = 0;
};

// How a texture object samples: point or linear filtering, what happens outside [0, size), what
// a fetch returns, and whether coordinates are normalised to [0, 1). Linear filtering of 8- or
// 16-bit integer data needs cudaReadModeNormalizedFloat (the fetch returns floats in [0, 1]).
inline cudaTextureDesc texture_desc(cudaTextureFilterMode filter = cudaFilterModePoint,
                                    cudaTextureAddressMode address = cudaAddressModeClamp,
                                    cudaTextureReadMode read = cudaReadModeElementType,
                                    bool normalized_coords = false) {
  cudaTextureDesc desc{};
  desc.addressMode[0] = desc.addressMode[1] = desc.addressMode[2] = address;
  desc.filterMode = filter;
  desc.readMode = read;
  desc.normalizedCoords = normalized_coords ? 1 : 0;
  return desc;
}

// A texture object (cudaCreateTextureObject) for tex2D<T>(tex, x, y) in kernels. It does not own
// what it reads: the array or buffer must outlive it.
class TextureObject {
 public:
  TextureObject() = default;
  TextureObject(const cudaResourceDesc& resource, const cudaTextureDesc& texture) {
    CUDA_CHECK(cudaCreateTextureObject(&tex_, &resource, &texture, nullptr));
  }
  static TextureObject over(const CudaArray& array, const cudaTextureDesc& texture) {
    if (!array) throw GpuError("TextureObject: empty CUDA array");
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeArray;
    resource.res.array.array = array.get();
    return TextureObject(resource, texture);
  }
  // Over pitched memory of T (uchar4, float, ...); the pitch cudaMallocPitch chose satisfies the
  // texture pitch alignment.
  template <class T>
  static TextureObject over(const PitchedBuffer<T>& buffer, const cudaTextureDesc& texture) {
    if (!buffer) throw GpuError("TextureObject: empty pitched buffer");
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypePitch2D;
    resource.res.pitch2D.devPtr = buffer.get();
    resource.res.pitch2D.desc = cudaCreateChannelDesc<T>();
    resource.res.pitch2D.width = buffer.width();
    resource.res.pitch2D.height = buffer.height();
    resource.res.pitch2D.pitchInBytes = buffer.pitch();
    return TextureObject(resource, texture);
  }
  ~TextureObject() { reset(); }
  TextureObject(TextureObject&& o) noexcept : tex_(std::exchange(o.tex_, 0ull)) {}
  TextureObject& operator=(TextureObject&& o) noexcept {
    if (this != &o) {
      reset();
      tex_ = std::exchange(o.tex_, 0ull);
    }
    return *this;
  }
  TextureObject(const TextureObject&) = delete;
  TextureObject& operator=(const TextureObject&) = delete;

  cudaTextureObject_t get() const { return tex_; }
  explicit operator bool() const { return tex_ != 0; }
  void reset() noexcept {
    if (!tex_) return;
    const cudaError_t err = cudaDestroyTextureObject(tex_);
    if (err != cudaSuccess) detail::log_release_failure("cudaDestroyTextureObject", err);
    tex_ = 0;
  }

 private:
  cudaTextureObject_t tex_ = 0;
};

// A surface object over a CUDA array, for surf2Dread / surf2Dwrite in kernels (x in BYTES): an
// array made with cudaArraySurfaceLoadStore, or a mapped GL texture (cuda/interop.h re-exports
// this class). The array must outlive it. The handle is gpulab::SurfaceObject, which is exactly
// cudaSurfaceObject_t, so launch APIs declared without CUDA headers can take it.
class Surface {
 public:
  Surface() = default;
  explicit Surface(cudaArray_t array) {  // throws GpuError
    if (!array) throw GpuError("Surface: null CUDA array");
    cudaResourceDesc desc{};
    desc.resType = cudaResourceTypeArray;
    desc.res.array.array = array;
    CUDA_CHECK(cudaCreateSurfaceObject(&surf_, &desc));
  }
  explicit Surface(const CudaArray& array) : Surface(array.get()) {}
  Surface(Surface&& o) noexcept : surf_(std::exchange(o.surf_, 0ull)) {}
  Surface& operator=(Surface&& o) noexcept {
    if (this != &o) {
      reset();
      surf_ = std::exchange(o.surf_, 0ull);
    }
    return *this;
  }
  Surface(const Surface&) = delete;
  Surface& operator=(const Surface&) = delete;
  ~Surface() { reset(); }

  gpulab::SurfaceObject get() const { return surf_; }
  explicit operator bool() const { return surf_ != 0; }
  void reset() noexcept {
    if (!surf_) return;
    const cudaError_t err = cudaDestroySurfaceObject(surf_);
    if (err != cudaSuccess) detail::log_release_failure("cudaDestroySurfaceObject", err);
    surf_ = 0;
  }

 private:
  gpulab::SurfaceObject surf_ = 0;
};

// Replaces an engine's device state (a move-only set of buffers) by make()'s. With `need` bytes free the
// new state is allocated beside the current one, so a failure keeps it. Otherwise the current state is
// copied to the host (save), freed, and the new one allocated; if that fails too, restore(copy) puts the
// current state back and the failure is rethrown. The caller has synchronised the stream first.
template <class State, class Make, class Save, class Restore>
void replace_device_state(State& state, bool has_state, size_t need, size_t free_bytes, Make&& make,
                          Save&& save, Restore&& restore) {
  if (need <= free_bytes) {
    State fresh = make();
    state = std::move(fresh);
    return;
  }
  decltype(save()) saved{};
  if (has_state) saved = save();
  state = State();
  try {
    state = make();
  } catch (const GpuError&) {
    state = State();
    if (has_state) restore(saved);
    throw;
  }
}

}  // namespace gpulab::cuda

// The display stage's four paths into the texture, and their timing. See transfers_display.h.
#include "demos/transfers/transfers_display.h"

#include <chrono>
#include <stdexcept>

#include "common/cuda_probe.h"

namespace gpulab {

using transfers::Kind;

FrameDisplay::FrameDisplay(Stream stream, bool cuda, bool interop_allowed, std::string why_not)
    : stream_(stream), cuda_(cuda && cuda_built()) {
  if (!cuda_ && interop_allowed) {
    interop_allowed = false;
    why_not = "no CUDA device";
  }
  texture_ = std::make_unique<InteropTexture>(stream, interop_allowed, why_not);
  pbo_ = std::make_unique<InteropBuffer>(4, stream, interop_allowed, why_not);
}

FrameDisplay::~FrameDisplay() {
  // The registrations go before their GL objects (each target's own order).
  pbo_.reset();
  texture_.reset();
}

void FrameDisplay::resize(transfers::FrameSize size) {
  if (texture_->ensure_size(size.width, size.height)) {
    // Shown smaller than it is (a 4K frame in the view): linear, so it does not shimmer.
    glTextureParameteri(texture_->texture().id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(texture_->texture().id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  }
}

std::string FrameDisplay::why_unavailable(const transfers::Variant& v, transfers::FrameSize size) {
  if (v.stage != transfers::Stage::Display) return std::string(v.id) + " is not a display rung";
  if (v.kind() == Kind::DisplayCpu) return {};
  if (!cuda_) return "no CUDA device: the kernel's paths need one";
  if (v.kind() == Kind::DisplayHostCopy) return {};
  if (v.kind() == Kind::DisplayInterop) {
    resize(size);
    if (!texture_->interop_active())
      return "the texture could not be registered with CUDA (" + texture_->interop_unavailable_reason() + ")";
    return {};
  }
  pbo_->resize(size_t(size.width) * size_t(size.height));
  if (!pbo_->interop_active())
    return "the pixel buffer could not be registered with CUDA (" + pbo_->interop_unavailable_reason() + ")";
  return {};
}

double FrameDisplay::run(const transfers::Variant& v, transfers::FrameSize size, uint32_t n) {
  if (std::string why = why_unavailable(v, size); !why.empty())
    throw std::invalid_argument(std::string(v.id) + ": " + why);
  resize(size);
  const int w = size.width, h = size.height;
  const auto start = std::chrono::steady_clock::now();
  switch (v.kind()) {
    case Kind::DisplayCpu: {
      TextureFill fill;
      fill.host = [n](uint32_t* rgba, int fw, int fh) { transfers::frame_cpu(rgba, fw, fh, n); };
      texture_->update(fill);
      description_ = texture_->path_description();
      last_path_ = texture_->last_path();
      break;
    }
    case Kind::DisplayHostCopy:
    case Kind::DisplayInterop: {
      TextureFill fill;
      if (v.kind() == Kind::DisplayInterop)
        fill.surface = [this, n](SurfaceObject s, int fw, int fh) {
          transfers::frame_to_surface(s, fw, fh, n, stream_);
        };
      else
        fill.device = [this, n](uint32_t* d, int fw, int fh) {
          transfers::frame_to_buffer(d, fw, fh, n, stream_);
        };
      texture_->update(fill, /*force_host_copy=*/v.kind() == Kind::DisplayHostCopy);
      description_ = texture_->path_description();
      last_path_ = texture_->last_path();
      break;
    }
    case Kind::DisplayPbo: {
      BufferFill fill;
      fill.device = [this, w, h, n](void* d, size_t) {
        transfers::frame_to_buffer(static_cast<uint32_t*>(d), w, h, n, stream_);
      };
      pbo_->update(fill);
      texture_->upload_from(pbo_->buffer());  // on the GPU: after the unmap on the stream
      description_ =
          "PBO: CUDA writes the mapped pixel buffer, then glTextureSubImage2D from the bound PBO "
          "into the texture (a copy on the GPU)";
      last_path_ = pbo_->last_path();
      break;
    }
    default:
      throw std::invalid_argument(std::string(v.id) + " is not a display rung");
  }
  // The frame is done when the texture holds it: CUDA's part finished, then GL's.
  if (cuda_ && v.kind() != Kind::DisplayCpu) synchronize_stream(stream_);
  glFinish();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // A path other than the rung's would time something else: never report it as the rung.
  const DisplayPath want = v.kind() == Kind::DisplayCpu        ? DisplayPath::Host
                           : v.kind() == Kind::DisplayHostCopy ? DisplayPath::DeviceCopy
                                                               : DisplayPath::Interop;
  if (last_path_ != want) throw std::runtime_error(std::string(v.id) + " took another path: " + description_);
  return ms;
}

std::vector<uint32_t> FrameDisplay::read_back() const {
  const gl::Texture2D& t = texture_->texture();
  std::vector<uint32_t> px(size_t(t.width()) * size_t(t.height()));
  if (px.empty()) return px;
  GLint pack_alignment = 4, pack_buffer = 0;
  glGetIntegerv(GL_PACK_ALIGNMENT, &pack_alignment);
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTextureImage(t.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(px.size() * 4), px.data());
  glPixelStorei(GL_PACK_ALIGNMENT, pack_alignment);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(pack_buffer));
  return px;
}

}  // namespace gpulab

// The matrix demo's display texture. See matrix_display.h.
#include "demos/matrix/matrix_display.h"

#include <chrono>
#include <cstring>

#include "core/timings.h"

#include "matrix/matrix_cuda.h"

namespace gpulab {

void compose_host(matrix::Engine& engine, matrix::Op op, uint32_t* rgba) {
  if (op == matrix::Op::Transpose) {
    const matrix::Words w = engine.transposed();
    std::memcpy(rgba, w.data.data(), w.size() * 4);
    return;
  }
  const matrix::Matrix c = engine.product();
  const auto [lo, hi] = matrix::value_range(c.data);
  for (size_t i = 0; i < c.size(); ++i) rgba[i] = matrix::heat_colour(matrix::heat_t(c.data[i], lo, hi));
}

MatrixDisplay::MatrixDisplay(Context& ctx)
    : ctx_(ctx),
      target_(std::make_unique<InteropTexture>(ctx.stream, ctx.cuda && ctx.interop,
                                               ctx.interop_unavailable_reason())) {}

MatrixDisplay::~MatrixDisplay() = default;

void MatrixDisplay::update(matrix::Engine& engine, matrix::Op op, int rows, int cols, bool force_host_copy) {
  if (resize_display_target(*target_, cols, rows, ctx_)) set_image_display_filter(target_->texture().id());
  Timings* t = ctx_.timings;
  TextureFill fill;
  if (engine.backend() == matrix::Backend::Cuda) {
    auto& gpu = static_cast<matrix::CudaEngine&>(engine);
    target_->set_stream(gpu.stream());
    fill.surface = [&](SurfaceObject surface, int, int) {
      if (t) t->gpu_begin("display", gpu.stream());
      gpu.compose_surface(op, surface);
      if (t) t->gpu_end("display", gpu.stream());
    };
    fill.device = [&](uint32_t* d_rgba, int, int) { gpu.compose_device(op, d_rgba); };
  }
  if (!fill.device) fill.host = [&](uint32_t* h_rgba, int, int) { compose_host(engine, op, h_rgba); };
  const auto start = std::chrono::steady_clock::now();
  target_->update(fill, force_host_copy);
  if (t) time_display_path(t, *target_, start);
}

void MatrixDisplay::draw(const SplitView& view) const {
  if (!has_image()) return;
  SplitView v = view;
  v.split_x = v.image_x;  // all of it the right-hand texture
  v.line_half = 0;
  quad_.draw(target_->texture(), target_->texture(), v);
}

}  // namespace gpulab

// The N-body vertex buffer and its drawing. See nbody_display.h.
#include "demos/nbody/nbody_display.h"

#include <algorithm>
#include <cmath>

#include "gl/gl.h"

#include "nbody/nbody_cuda.h"

namespace gpulab {

std::array<float, 3> speed_colour(float t) {
  const float x = std::clamp(t, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(static_cast<int>(x), 3);
  const float f = x - static_cast<float>(i);
  std::array<float, 3> c{};
  for (int k = 0; k < 3; ++k) c[k] = kSpeedRamp[i][k] + (kSpeedRamp[i + 1][k] - kSpeedRamp[i][k]) * f;
  return c;
}

struct NbodyDisplay::Gl {
  gl::VertexArray vao;
  gl::Program program = gl::Program::from_files("nbody.vert", "nbody.frag");
};

NbodyDisplay::NbodyDisplay(Context& ctx)
    : gl_(std::make_unique<Gl>()),
      target_(std::make_unique<InteropBuffer>(sizeof(nbody::Vertex), ctx.stream, ctx.interop,
                                              ctx.interop_reason)) {}
NbodyDisplay::~NbodyDisplay() = default;

bool NbodyDisplay::interop_active() const { return target_->last_path() == DisplayPath::Interop; }
const std::string& NbodyDisplay::path_description() const { return target_->path_description(); }
unsigned NbodyDisplay::buffer_id() const { return target_->buffer().id(); }
size_t NbodyDisplay::vertex_count() const { return target_->count(); }

void NbodyDisplay::update(nbody::Engine& engine, bool force_host_copy) {
  if (target_->resize(engine.size())) {
    // A new buffer (registered once, for as long as the body count stays): re-point the attributes.
    gl::VertexArray& vao = gl_->vao;
    vao.set_vertex_buffer(0, target_->buffer(), sizeof(nbody::Vertex));
    vao.set_float_attribute(0, 0, 3, offsetof(nbody::Vertex, x));
    vao.set_float_attribute(1, 0, 1, offsetof(nbody::Vertex, mass));
    vao.set_float_attribute(2, 0, 1, offsetof(nbody::Vertex, speed));
  }
  BufferFill fill;
  fill.host = [&](void* h, size_t) { engine.write_vertices(static_cast<nbody::Vertex*>(h)); };
  if (engine.backend() == nbody::Backend::Cuda) {
    auto& gpu = static_cast<nbody::CudaEngine&>(engine);
    fill.device = [&](void* d, size_t) { gpu.write_vertices_device(static_cast<nbody::Vertex*>(d)); };
  }
  target_->update(fill, force_host_copy);
}

void NbodyDisplay::draw(const NbodyLook& look, int x, int y, int w, int h) const {
  const size_t count = target_->count();
  if (!count) return;
  GLint viewport[4];
  glGetIntegerv(GL_VIEWPORT, viewport);
  glViewport(x, y, w, h);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);  // additive: dense regions glow
  glEnable(GL_PROGRAM_POINT_SIZE);
  const gl::Program& prog = gl_->program;
  const GLuint p = prog.id();
  prog.set_uniform("u_view_proj", look.view_proj);
  prog.set_uniform("u_pixels_per_unit", look.viewport_h / (2.0f * std::tan(look.fov_y / 2.0f)));
  prog.set_uniform("u_point_size", look.point_size);
  prog.set_uniform("u_mean_mass", look.mean_mass);
  prog.set_uniform("u_speed_max", look.speed_max);
  prog.set_uniform("u_brightness", look.brightness);
  prog.set_uniform("u_mark_scale", look.mark_scale);
  glProgramUniform3fv(p, prog.uniform("u_ramp"), 5, kSpeedRamp[0].data());
  glUseProgram(p);
  glBindVertexArray(gl_->vao.id());
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(count));
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_PROGRAM_POINT_SIZE);
  glDisable(GL_BLEND);
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
}

}  // namespace gpulab

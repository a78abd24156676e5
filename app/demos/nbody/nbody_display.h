#pragma once
// How the bodies reach the screen: one vertex a body (nbody::Vertex) in a GL vertex buffer that
// CUDA writes through interop (registered once, WriteDiscard, mapped each frame on the compute
// stream), or that the host fills when interop is unavailable; drawn as point sprites with additive
// blending, coloured by speed through a ramp (the legend uses the same colours) and sized by mass.
#include <array>
#include <memory>
#include <string>

#include <glm/glm.hpp>

#include "core/demo.h"
#include "cuda/display_target.h"
#include "nbody/nbody.h"

namespace gpulab {

struct NbodyLook {
  glm::mat4 view_proj{1.0f};
  float viewport_h = 1.0f;  // pixels
  float fov_y = 0.785f;     // radians
  float point_size = 3.0f;  // world-space size of a mean-mass body, scaled to pixels by distance
  float mean_mass = 1.0f;
  float speed_max = 1.0f;  // the ramp's top
  float brightness = 0.6f;
  float mark_scale = 1.0f;  // the smallest and largest sprite's pixels grow with the framebuffer
};

// The speed ramp: slow bodies deep blue, then cyan, white, yellow, fast ones red.
inline constexpr std::array<std::array<float, 3>, 5> kSpeedRamp{{{0.15f, 0.25f, 0.85f},
                                                                 {0.2f, 0.75f, 1.0f},
                                                                 {1.0f, 1.0f, 1.0f},
                                                                 {1.0f, 0.85f, 0.3f},
                                                                 {1.0f, 0.3f, 0.15f}}};
std::array<float, 3> speed_colour(float t);  // t in [0, 1], the same interpolation as the shader

class NbodyDisplay {
 public:
  explicit NbodyDisplay(Context& ctx);
  ~NbodyDisplay();
  // Fills the vertex buffer from `engine` (size() vertices), through interop when it works, else
  // through host memory. `force_host_copy` takes the host path (the same-picture test).
  void update(nbody::Engine& engine, bool force_host_copy = false);
  void draw(const NbodyLook& look, int x, int y, int w, int h) const;

  bool interop_active() const;
  const std::string& path_description() const;
  unsigned buffer_id() const;  // the GL vertex buffer (tests read it back)
  size_t vertex_count() const;

 private:
  struct Gl;  // the vertex array and the program
  std::unique_ptr<Gl> gl_;
  std::unique_ptr<InteropBuffer> target_;  // the vertex buffer and its CUDA registration
};

}  // namespace gpulab

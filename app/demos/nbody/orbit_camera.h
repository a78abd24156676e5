#pragma once
// An orbiting camera for 3D demos: it looks at a target from a distance along yaw/pitch angles.
// Left drag rotates, the wheel zooms, right drag pans, fit() frames a sphere. Pure GLM, no GL.
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace gpulab {

struct OrbitCamera {
  glm::vec3 target{0.0f};
  float yaw = 0.6f;     // radians about the world's y axis
  float pitch = 0.45f;  // radians above the xz plane, kept inside (-pi/2, pi/2)
  float distance = 5.0f;
  float fov_y = glm::radians(45.0f);
  float near_plane = 0.01f, far_plane = 1000.0f;

  glm::vec3 eye() const {
    const glm::vec3 dir(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return target + distance * dir;
  }
  glm::mat4 view() const { return glm::lookAt(eye(), target, glm::vec3(0, 1, 0)); }
  glm::mat4 projection(float aspect) const {
    // The far plane follows the distance, so a zoomed-out system is not clipped.
    return glm::perspective(fov_y, std::max(aspect, 1e-3f), near_plane * std::max(distance, 1e-3f),
                            std::max(far_plane, 100.0f * distance));
  }

  // Pixels dragged in a viewport `viewport_h` pixels high: a full-height drag turns by pi.
  void rotate(float dx_px, float dy_px, float viewport_h) {
    const float k = 3.14159265f / std::max(viewport_h, 1.0f);
    yaw -= dx_px * k;
    pitch = std::clamp(pitch + dy_px * k, -1.55f, 1.55f);
  }
  // Wheel clicks: each brings the camera 15% closer (positive) or further.
  void zoom(float clicks) { distance = std::clamp(distance * std::pow(0.85f, clicks), 1e-4f, 1e6f); }
  // Moves the target with the picture: a drag of the whole viewport height moves by the visible height.
  void pan(float dx_px, float dy_px, float viewport_h) {
    const glm::mat4 v = view();
    const glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    const float units_per_px = 2.0f * distance * std::tan(fov_y / 2) / std::max(viewport_h, 1.0f);
    target += (-dx_px * right + dy_px * up) * units_per_px;
  }
  // Frames a sphere (centre, radius) so that it fills the smaller of the two viewport extents.
  void fit(const glm::vec3& centre, float radius, float aspect) {
    target = centre;
    const float half = std::min(fov_y / 2, std::atan(std::tan(fov_y / 2) * std::max(aspect, 1e-3f)));
    distance = std::max(radius, 1e-4f) / std::sin(half) * 1.05f;
  }
};

}  // namespace gpulab

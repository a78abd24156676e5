// The orbiting camera: fit() frames a sphere, rotation keeps the distance, zoom and pan move as said.
#include <gtest/gtest.h>

#include <cmath>

#include "demos/nbody/orbit_camera.h"

namespace gpulab {
namespace {

glm::vec3 ndc(const OrbitCamera& c, float aspect, glm::vec3 p) {
  const glm::vec4 clip = c.projection(aspect) * c.view() * glm::vec4(p, 1.0f);
  return glm::vec3(clip) / clip.w;
}

TEST(OrbitCamera, FitKeepsTheSphereInsideTheViewAtAnyAngleAndAspect) {
  for (float aspect : {0.5f, 1.0f, 16.0f / 9.0f}) {
    for (float yaw : {0.0f, 1.0f, 2.5f}) {
      OrbitCamera c;
      c.yaw = yaw;
      c.pitch = 0.3f;
      const glm::vec3 centre(1.0f, -2.0f, 0.5f);
      const float r = 3.0f;
      c.fit(centre, r, aspect);
      float widest = 0;
      for (const glm::vec3 d : {glm::vec3(1, 0, 0), glm::vec3(-1, 0, 0), glm::vec3(0, 1, 0),
                                glm::vec3(0, -1, 0), glm::vec3(0, 0, 1), glm::vec3(0, 0, -1)}) {
        const glm::vec3 p = ndc(c, aspect, centre + r * d);
        EXPECT_LE(std::abs(p.x), 1.0f) << aspect << " " << yaw;
        EXPECT_LE(std::abs(p.y), 1.0f) << aspect << " " << yaw;
        widest = std::max({widest, std::abs(p.x), std::abs(p.y)});
      }
      EXPECT_GT(widest, 0.6f) << "fit should fill the view, not leave it mostly empty";
      const glm::vec3 mid = ndc(c, aspect, centre);
      EXPECT_NEAR(mid.x, 0.0f, 1e-5f);
      EXPECT_NEAR(mid.y, 0.0f, 1e-5f);
    }
  }
}

TEST(OrbitCamera, RotateKeepsDistanceZoomAndPanMoveAsSaid) {
  OrbitCamera c;
  c.distance = 10.0f;
  const float before = glm::length(c.eye() - c.target);
  c.rotate(300.0f, -120.0f, 900.0f);
  EXPECT_NEAR(glm::length(c.eye() - c.target), before, 1e-4f);
  c.rotate(0.0f, 1e6f, 900.0f);  // pitch is clamped short of the pole (lookAt stays defined)
  EXPECT_LT(c.pitch, 1.5708f);
  c.zoom(1.0f);
  EXPECT_NEAR(c.distance, 8.5f, 1e-4f);
  c.zoom(-1.0f);
  EXPECT_NEAR(c.distance, 10.0f, 1e-3f);
  // A pan moves the target across the view: the eye-to-target direction stays the same.
  OrbitCamera p;
  const glm::vec3 dir = glm::normalize(p.eye() - p.target);
  p.pan(100.0f, 50.0f, 800.0f);
  EXPECT_GT(glm::length(p.target), 0.0f);
  EXPECT_NEAR(glm::dot(glm::normalize(p.eye() - p.target), dir), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(p.target, dir), 0.0f, 1e-4f);  // within the view plane
}

}  // namespace
}  // namespace gpulab

#pragma once
// The rotation tests' parameter builders: rotate::Params and rotate::Settings in one call.
#include "rotate/rotate.h"

namespace gpulab::testing {

inline rotate::Params params(float angle, float scale, rotate::Filter f, rotate::Address a) {
  rotate::Params p;
  p.angle_deg = angle;
  p.scale = scale;
  p.filter = f;
  p.address = a;
  return p;
}

inline rotate::Settings settings(float angle, float scale, rotate::Filter f, rotate::Address a,
                                 bool normalized) {
  rotate::Settings s;
  s.params = params(angle, scale, f, a);
  s.normalized = normalized;
  return s;
}

}  // namespace gpulab::testing

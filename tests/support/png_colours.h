#pragma once
// How many distinct RGB colours a PNG holds (0 when it cannot be read): a screenshot of one flat
// colour is blank, one with panels, text and pictures has many.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include "gl/image_io.h"

namespace gpulab::testing {

inline size_t distinct_colours(const std::filesystem::path& png) {
  std::string err;
  const gl::Image img = gl::read_image(png, &err);
  std::set<uint32_t> seen;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    seen.insert(uint32_t(img.rgba[i]) | uint32_t(img.rgba[i + 1]) << 8 | uint32_t(img.rgba[i + 2]) << 16);
  return seen.size();
}

}  // namespace gpulab::testing

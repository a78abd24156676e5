#pragma once
// Image helpers the demo tests share: an image written as PNG and read back (the binary's input), an
// RGBA test image with an alpha ramp, RGBA bytes as the displays show an image, the pixels in which
// two RGBA buffers differ, the colours in a box of a screenshot, and a GL texture read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <vector>

#include "gl/gl.h"
#include "gl/image_io.h"
#include "image/image.h"

namespace gpulab::testing {

// Writes `img` as a PNG at `path` and returns it as it reads back (expected: exactly `img`).
inline image::Image save_png_checked(const std::filesystem::path& path, const image::Image& img) {
  EXPECT_EQ(image::save_png(path, img), "");
  const image::LoadResult back = image::load(path);
  EXPECT_EQ(back.error, "");
  EXPECT_EQ(back.image, img) << "PNG must round-trip exactly";
  return back.image;
}

// An RGBA image with an alpha ramp: colour and transparency both go through the demo.
inline image::Image rgba_image(int w, int h) {
  image::Image img = image::convert_channels(image::generate("hazy-landscape", w, h), 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img.pixels[(size_t(y) * w + x) * 4 + 3] = uint8_t((x * 255) / std::max(1, w - 1));
  return img;
}

// An image as the display shows it: grey replicated, alpha 255 where there is none (written out here,
// not through image::convert_channels, so that the tests do not lean on the code they check).
inline std::vector<uint8_t> rgba_of(const image::Image& img) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < img.pixel_count(); ++i) {
    const uint8_t* p = &img.pixels[i * img.channels];
    const bool colour = img.channels >= 3;
    out.push_back(p[0]);
    out.push_back(colour ? p[1] : p[0]);
    out.push_back(colour ? p[2] : p[0]);
    out.push_back(img.channels == 2 ? p[1] : img.channels == 4 ? p[3] : 255);
  }
  return out;
}

// How many RGBA pixels of two buffers differ (all of the larger when their sizes differ).
inline size_t differing_pixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size()) / 4;
  size_t n = 0;
  for (size_t i = 0; i < a.size(); i += 4)
    n += a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3];
  return n;
}

// The RGB colours in [x0, x1) x [y0, y1) of a screenshot (row 0 at the top).
inline std::set<uint32_t> colours_in_box(const gl::Image& img, int x0, int y0, int x1, int y1) {
  std::set<uint32_t> seen;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = &img.rgba[(size_t(y) * img.width + x) * 4];
      seen.insert(p[0] | p[1] << 8 | p[2] << 16);
    }
  return seen;
}

// An RGBA8 texture's bytes, row 0 first (needs the texture's GL context current).
inline std::vector<uint8_t> texture_bytes(const gl::Texture2D& t) {
  std::vector<uint8_t> px(size_t(t.width()) * t.height() * 4);
  glGetTextureImage(t.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, GLsizei(px.size()), px.data());
  return px;
}

}  // namespace gpulab::testing

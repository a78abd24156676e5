#pragma once
// RGBA PNG writing and reading for screenshots and read-backs (thin wrappers over gpulab::image,
// which decodes with stb and refuses bad files with the reason), and screenshot names that never
// overwrite.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::gl {

// Writes RGBA8 (row 0 = top), through a temporary file renamed into place. Returns an empty
// string on success, else why it failed.
std::string write_png(const std::filesystem::path& path, int width, int height, const uint8_t* rgba);

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // row 0 = top
};
// Reads any image gpulab::image::load accepts, as RGBA8 (grey replicated, alpha 255 added); on
// failure returns an empty image and says why ("cannot read <path>: <reason>").
Image read_image(const std::filesystem::path& path, std::string* error);

// dir/prefix-YYYYMMDD-HHMMSS.png (or another extension), with -2, -3 ... appended when that name
// exists already. Creates dir; throws std::runtime_error when it cannot.
std::filesystem::path unique_screenshot_path(const std::filesystem::path& dir, const std::string& prefix,
                                             const std::string& extension = ".png");

}  // namespace gpulab::gl

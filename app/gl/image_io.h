#pragma once
// PNG writing and reading (stb), and screenshot names that never overwrite.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::gl {

// Writes RGBA8 (row 0 = top). Returns an empty string on success, else why it failed.
std::string write_png(const std::filesystem::path& path, int width, int height,
                      const uint8_t* rgba);

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // row 0 = top
};
// Reads any image stb_image knows as RGBA8; on failure returns an empty image and says why.
Image read_image(const std::filesystem::path& path, std::string* error);

// dir/prefix-YYYYMMDD-HHMMSS.png (or another extension), with -2, -3 ... appended when that name
// exists already. Creates dir; throws std::runtime_error when it cannot.
std::filesystem::path unique_screenshot_path(const std::filesystem::path& dir, const std::string& prefix,
                                             const std::string& extension = ".png");

}  // namespace gpulab::gl

// PNG writing and image reading for the app (screenshots, the tests' read-backs) over
// gpulab::image, which holds the stb implementation; screenshot names that never overwrite.
#include "gl/image_io.h"

#include <chrono>
#include <ctime>
#include <stdexcept>
#include <system_error>

#include "common/text.h"
#include "image/image.h"

namespace gpulab::gl {

std::string write_png(const std::filesystem::path& path, int width, int height, const uint8_t* rgba) {
  return image::save_png(path, width, height, 4, rgba);
}

Image read_image(const std::filesystem::path& path, std::string* error) {
  image::LoadResult loaded = image::load(path);
  if (!loaded.error.empty()) {
    if (error) *error = std::move(loaded.error);
    return Image{};
  }
  Image out;
  out.width = loaded.image.width;
  out.height = loaded.image.height;
  out.rgba = loaded.image.channels == 4 ? std::move(loaded.image.pixels)
                                        : image::convert_channels(loaded.image, 4).pixels;
  if (error) error->clear();
  return out;
}

std::filesystem::path unique_screenshot_path(const std::filesystem::path& dir, const std::string& prefix,
                                             const std::string& extension) {
  // (For screenshots, recordings, saved patterns and bodies alike: the folder is named, not the use.)
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
    throw std::runtime_error("cannot save into " + text::quote(dir.string()) +
                             ": it is a file, not a folder");
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("cannot create the folder " + text::quote(dir.string()) + ": " + ec.message());
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error("cannot save into " + text::quote(dir.string()) + ": not a folder");

  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string base = prefix + "-" + stamp;

  for (int n = 1;; ++n) {
    const std::string name = n == 1 ? base + extension : base + "-" + std::to_string(n) + extension;
    std::filesystem::path candidate = dir / name;
    // symlink_status: a dangling link still occupies the name.
    if (!std::filesystem::exists(std::filesystem::symlink_status(candidate, ec))) {
      if (ec && ec != std::errc::no_such_file_or_directory)
        throw std::runtime_error("cannot check " + candidate.string() + ": " + ec.message());
      return candidate;
    }
  }
}

}  // namespace gpulab::gl

// PNG writing and image reading through stb (the one translation unit with the stb
// implementations), and screenshot names that never overwrite an existing file.
//
// stb does its own file I/O with no reason on failure, so files are read and written here and stb
// only encodes and decodes memory: every failure names the file and says why (strerror).
#include "gl/image_io.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC  // private to this file: no clash with any other copy of stb
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#include <stb_image.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <system_error>

namespace gpulab::gl {

namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* bytes = static_cast<const uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

std::string errno_text(int err) { return err ? std::strerror(err) : "unknown error"; }

}  // namespace

std::string write_png(const std::filesystem::path& path, int width, int height,
                      const uint8_t* rgba) {
  if (width <= 0 || height <= 0)
    return "cannot write " + path.string() + ": image size " + std::to_string(width) + "x" +
           std::to_string(height) + " is empty";
  if (rgba == nullptr) return "cannot write " + path.string() + ": no pixels";
  if (int64_t(width) * 4 > std::numeric_limits<int>::max())
    return "cannot write " + path.string() + ": image too wide for PNG encoder";

  std::vector<uint8_t> png;
  if (!stbi_write_png_to_func(append_bytes, &png, width, height, 4, rgba, width * 4) || png.empty())
    return "cannot write " + path.string() + ": PNG encoding failed (out of memory?)";

  // Write next to the target and rename into place, so a failed or interrupted write never leaves
  // a truncated PNG under the final name.
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return "cannot write " + tmp.string() + ": " + errno_text(errno);
    out.write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
    out.flush();
    if (!out) {
      const int err = errno;
      out.close();
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      return "cannot write " + tmp.string() + ": " + errno_text(err);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    return "cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message();
  }
  return {};
}

Image read_image(const std::filesystem::path& path, std::string* error) {
  auto fail = [&](const std::string& why) {
    if (error) *error = "cannot read " + path.string() + ": " + why;
    return Image{};
  };
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(errno_text(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) return fail(errno_text(errno));
  if (bytes.empty()) return fail("the file is empty");
  if (bytes.size() > size_t(std::numeric_limits<int>::max())) return fail("the file is too large");

  int width = 0, height = 0, channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(bytes.data(), int(bytes.size()), &width, &height, &channels, 4),
      stbi_image_free);
  if (!pixels) {
    const char* reason = stbi_failure_reason();
    return fail(std::string("not a readable image (") + (reason ? reason : "unknown reason") + ")");
  }
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.assign(pixels.get(), pixels.get() + size_t(width) * size_t(height) * 4);
  if (error) error->clear();
  return image;
}

std::filesystem::path unique_screenshot_path(const std::filesystem::path& dir,
                                             const std::string& prefix, const std::string& extension) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw std::runtime_error("cannot create screenshot folder " + dir.string() + ": " +
                             ec.message());
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error("cannot use " + dir.string() + " for screenshots: not a folder");

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

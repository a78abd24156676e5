#include "core/files.h"

#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "common/file_io.h"
#include "common/text.h"

namespace gpulab {

void write_text_file(const std::filesystem::path& path, std::string_view text) {
  if (std::string why = files::write_regular_file(path, text); !why.empty()) throw std::runtime_error(why);
}

bool write_command_output(std::string_view command, const std::string& path, std::string_view text,
                          std::string_view option) {
  if (path.empty()) return true;
  const std::string c(command);
  if (std::string why = files::write_regular_file(path, text); !why.empty()) {
    std::fprintf(stderr, "gpulab: %s %s: %s\n", c.c_str(), std::string(option).c_str(), why.c_str());
    return false;
  }
  std::fprintf(stderr, "%s: wrote %s\n", c.c_str(), text::escape(path, 4096).c_str());
  return true;
}

bool is_lesson_path(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".toml";
}

std::string lesson_given_as(const std::filesystem::path& path, std::string_view what) {
  return text::quote(path.string(), 200) + " is a lesson, not " + std::string(what) +
         ": drop it on the window, open it in the Lesson tab or give --lesson";
}

}  // namespace gpulab

#include "ui/fonts.h"

#include <cstdlib>
#include <system_error>
#include <vector>

namespace gpulab::ui {

const char* font_file_name(FontFace face) {
  switch (face) {
    case FontFace::Sans: return "DejaVuSans.ttf";
    case FontFace::SansBold: return "DejaVuSans-Bold.ttf";
    case FontFace::Mono: return "DejaVuSansMono.ttf";
  }
  return "DejaVuSans.ttf";
}

std::filesystem::path find_font(FontFace face, std::string* why) {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("GPULAB_FONT_DIR"); env && *env) dirs.emplace_back(env);
  dirs.emplace_back("/usr/share/fonts/truetype/dejavu");  // fonts-dejavu-core
  dirs.emplace_back("/usr/share/fonts/dejavu");           // other distributions
  dirs.emplace_back("/usr/local/share/fonts/dejavu");
  std::string looked;
  for (const auto& d : dirs) {
    const std::filesystem::path p = d / font_file_name(face);
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p;
    looked += (looked.empty() ? "" : ", ") + d.string();
  }
  if (why)
    *why = std::string("font ") + font_file_name(face) + " not found in " + looked +
           " (Debian package fonts-dejavu-core; or set GPULAB_FONT_DIR)";
  return {};
}

}  // namespace gpulab::ui

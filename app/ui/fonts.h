#pragma once
// The TrueType fonts gpulab draws text with: DejaVu Sans and DejaVu Sans Mono from Debian's
// fonts-dejavu-core (scripts/debian-packages.txt), rasterised at the pixel size needed, so text
// stays crisp at any UI scale. $GPULAB_FONT_DIR overrides where they are looked for.
#include <filesystem>
#include <string>

namespace gpulab::ui {

enum class FontFace { Sans, SansBold, Mono };

// The font file's name in fonts-dejavu-core ("DejaVuSans.ttf").
const char* font_file_name(FontFace face);

// The path of the face's file: $GPULAB_FONT_DIR, then the folders fonts-dejavu-core installs to.
// Empty, with `why` naming where it looked, when none holds a readable regular file of that name.
std::filesystem::path find_font(FontFace face, std::string* why);

}  // namespace gpulab::ui

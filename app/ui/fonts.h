#pragma once
// The TrueType fonts gpulab draws text with: DejaVu Sans and DejaVu Sans Mono from Debian's
// fonts-dejavu-core (scripts/debian-packages.txt), rasterised at the pixel size needed, so text
// stays crisp at any UI scale. $GPULAB_FONT_DIR, when set, is the one place they are looked for.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

struct ImFont;
struct ImFontAtlas;

namespace gpulab::ui {

enum class FontFace { Sans, SansBold, Mono };

// The font file's name in fonts-dejavu-core ("DejaVuSans.ttf").
const char* font_file_name(FontFace face);

// The path of the face's file: $GPULAB_FONT_DIR when set, else the folders fonts-dejavu-core
// installs to. Empty, with `why` naming where it looked, when none holds a readable regular file of
// that name.
std::filesystem::path find_font(FontFace face, std::string* why);

// UI text at scale 1, in pixels; the atlas holds it at kBaseFontPx × the UI scale.
inline constexpr float kBaseFontPx = 14.0f;
// The heads-up display's digits are at least this high on a 1080-pixel-high framebuffer, and
// proportionally higher (never lower than 2/3 of it) on others.
inline constexpr float kHudDigitPx1080 = 48.0f;

// The HUD font's pixel size for a framebuffer `height` pixels high (rounded up to a multiple of 4,
// so that resizing a window rebuilds the atlas only now and then).
float hud_font_px(int framebuffer_height);

struct Fonts {
  ImFont* ui = nullptr;    // DejaVu Sans, or ImGui's default font (the atlas's first: the default)
  ImFont* mono = nullptr;  // DejaVu Sans Mono, for numbers and code (the UI font when missing)
  ImFont* hud = nullptr;   // the large font for the heads-up display
  // DejaVu Sans Mono at half the UI size (from UI scale 2 up; else the mono font): code set well below
  // the UI size is drawn from glyphs rasterised near that size, not minified from large ones (a thin
  // stroke such as '_' vanishes when a 42-px glyph is drawn at 20 px).
  ImFont* mono_small = nullptr;
  float scale = 0.0f;  // the UI scale they were built for
  float ui_px = 0.0f;  // the pixel sizes they were rasterised at
  float hud_px = 0.0f;
  bool truetype = false;  // DejaVu Sans was found and loaded
  std::string problem;    // "" when every face loaded, else what is missing and what is used instead
};

// Clears `atlas` and fills it with the UI, mono and HUD fonts rasterised for `ui_scale` and `hud_px`,
// then builds it (the pixels are ready for the renderer to upload). Never fails: a missing or
// unreadable face falls back to ImGui's default font, and `problem` says so.
Fonts build_fonts(ImFontAtlas& atlas, float ui_scale, float hud_px);

// The characters of `utf8` that `font` has no glyph for (drawn as its fallback, a '?'), each once, in
// the order met, as "U+0416 Ж"; control characters and spaces are not counted. Empty: all drawn.
std::vector<std::string> missing_glyphs(const ImFont& font, std::string_view utf8);

}  // namespace gpulab::ui

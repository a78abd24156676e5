#include "ui/fonts.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <system_error>
#include <vector>

#include "common/file_io.h"
#include "common/text.h"

namespace gpulab::ui {
namespace {

// Latin-1, Latin Extended-A (č ć đ š ž ł ő, the course's Central European languages) and Romanian's
// ș ț, Greek (ε, Σ, µ), Cyrillic (Russian, Ukrainian, Serbian, Bulgarian, Macedonian, Belarusian, the
// historic letters too), dashes, quotes and the ellipsis, super- and subscripts, arrows, a few
// mathematical signs (≈ ≤ ≥ √ ∞), the transpose's ᵀ (A·Aᵀ) and geometric shapes (▶ ■): what the
// panels, notes and lessons write.
const ImWchar kUiRanges[] = {0x0020, 0x00FF, 0x0100, 0x017F, 0x0218, 0x021B, 0x0370, 0x03FF, 0x0400,
                             0x04FF, 0x1D40, 0x1D40, 0x2010, 0x205E, 0x2070, 0x209F, 0x2190, 0x21FF,
                             0x2200, 0x221E, 0x2248, 0x2248, 0x2260, 0x2265, 0x25A0, 0x25FF, 0};
// The HUD's digits and the lesson's captions (drawn with this font at 60% of its size): the same
// languages, with the Cyrillic of today's alphabets only (U+0400-045F, Ukrainian's Ґ ґ), since every
// glyph here is rasterised at up to 160 px; and the HUD's ≈ (a speed-up timed on busy cores).
const ImWchar kHudRanges[] = {0x0020, 0x00FF, 0x0100, 0x017F, 0x0218, 0x021B, 0x0400, 0x045F, 0x0490,
                              0x0491, 0x1D40, 0x1D40, 0x2010, 0x2026, 0x2248, 0x2248, 0};

// ImGui's pixel size is the font's ascent + descent (1.164 em for DejaVu Sans), whose digits are
// 0.729 em high: 0.626 of the pixel size.
constexpr float kDigitHeightEm = 0.729f / 1.164f;

// The files' bytes, read once per process (an atlas is rebuilt at every change of scale).
struct FontBytes {
  std::vector<uint8_t> bytes;
  std::string error;
};
const FontBytes& font_bytes(FontFace face) {
  static std::map<std::string, FontBytes> cache;  // by path: GPULAB_FONT_DIR may change in tests
  std::string why;
  const std::filesystem::path path = find_font(face, &why);
  FontBytes& fb = cache[path.string() + "|" + font_file_name(face)];
  if (!fb.bytes.empty() || !fb.error.empty()) return fb;
  if (path.empty()) {
    fb.error = why;
    return fb;
  }
  files::ReadResult r = files::read_regular_file(path, 64u << 20);
  if (!r.error.empty())
    fb.error = "font " + text::quote(path.string()) + " unreadable: " + r.error;
  else if (r.bytes.size() < 12)
    fb.error = "font " + text::quote(path.string()) + " is not a TrueType file";
  else
    fb.bytes = std::move(r.bytes);
  return fb;
}

ImFont* add_truetype(ImFontAtlas& atlas, FontFace face, float px, const ImWchar* ranges, std::string* error) {
  const FontBytes& fb = font_bytes(face);
  if (fb.bytes.empty()) {
    *error = fb.error;
    return nullptr;
  }
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;      // the bytes stay in the cache, for the next rebuild
  cfg.OversampleH = px < 24.0f ? 2 : 1;  // large glyphs need no horizontal oversampling
  cfg.OversampleV = 1;
  std::snprintf(cfg.Name, sizeof cfg.Name, "%s, %.0fpx", font_file_name(face), static_cast<double>(px));
  return atlas.AddFontFromMemoryTTF(const_cast<uint8_t*>(fb.bytes.data()), static_cast<int>(fb.bytes.size()),
                                    px, &cfg, ranges);
}

ImFont* add_default(ImFontAtlas& atlas, float px) {
  ImFontConfig cfg;
  cfg.SizePixels = std::round(px);
  return atlas.AddFontDefault(&cfg);
}

}  // namespace

const char* font_file_name(FontFace face) {
  switch (face) {
    case FontFace::Sans:
      return "DejaVuSans.ttf";
    case FontFace::SansBold:
      return "DejaVuSans-Bold.ttf";
    case FontFace::Mono:
      return "DejaVuSansMono.ttf";
  }
  return "DejaVuSans.ttf";
}

std::filesystem::path find_font(FontFace face, std::string* why) {
  std::vector<std::filesystem::path> dirs;
  if (const char* env = std::getenv("GPULAB_FONT_DIR"); env && *env) {
    dirs.emplace_back(env);  // set: the only place looked (a test or a packager knows where they are)
  } else {
    dirs.emplace_back("/usr/share/fonts/truetype/dejavu");  // fonts-dejavu-core
    dirs.emplace_back("/usr/share/fonts/dejavu");           // other distributions
    dirs.emplace_back("/usr/local/share/fonts/dejavu");
  }
  std::string looked;
  for (const auto& d : dirs) {
    const std::filesystem::path p = d / font_file_name(face);
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p;
    looked += (looked.empty() ? "" : ", ") + text::escape(d.string());
  }
  if (why)
    *why = std::string("font ") + font_file_name(face) + " not found in " + looked +
           " (Debian package fonts-dejavu-core; or set GPULAB_FONT_DIR)";
  return {};
}

float hud_font_px(int framebuffer_height) {
  const float rows = std::max(static_cast<float>(framebuffer_height), 720.0f) / 1080.0f;
  const float px = kHudDigitPx1080 / kDigitHeightEm * rows;
  return std::ceil(px / 4.0f) * 4.0f;
}

Fonts build_fonts(ImFontAtlas& atlas, float ui_scale, float hud_px) {
  Fonts f;
  f.scale = ui_scale;
  f.ui_px = std::round(kBaseFontPx * ui_scale);
  f.hud_px = hud_px;
  atlas.Clear();
  // The texture as tall as the glyphs need, not the next power of two: with the HUD's Latin Extended-A
  // and Cyrillic at 4K (160 px) that halves it (GL 4.5 takes any size).
  atlas.Flags |= ImFontAtlasFlags_NoPowerOfTwoHeight;
  std::string why;
  f.ui = add_truetype(atlas, FontFace::Sans, f.ui_px, kUiRanges, &why);
  f.truetype = f.ui != nullptr;
  if (!f.ui) {
    f.problem = why + "; ImGui's built-in font used instead";
    // ImGui's own font is 13 px at scale 1.
    f.ui_px = std::round(13.0f * ui_scale);
    f.ui = add_default(atlas, f.ui_px);
    f.mono = f.ui;
    f.hud = add_default(atlas, hud_px);
  } else {
    f.mono = add_truetype(atlas, FontFace::Mono, f.ui_px, kUiRanges, &why);
    if (!f.mono) {
      f.problem = why + "; numbers use DejaVu Sans";
      f.mono = f.ui;
    } else if (f.ui_px >= 2 * kBaseFontPx) {
      f.mono_small = add_truetype(atlas, FontFace::Mono, std::round(f.ui_px * 0.5f), kUiRanges, &why);
    }
    f.hud = add_truetype(atlas, FontFace::Sans, hud_px, kHudRanges, &why);
  }
  if (!f.mono_small) f.mono_small = f.mono;
  if (!atlas.Build()) {
    // stb_truetype refused a file (corrupt or not TrueType): start again with the built-in font.
    atlas.Clear();
    f.problem = "the font files could not be rasterised; ImGui's built-in font used instead";
    f.truetype = false;
    f.ui_px = std::round(13.0f * ui_scale);
    f.ui = f.mono = f.mono_small = add_default(atlas, f.ui_px);
    f.hud = add_default(atlas, hud_px);
    atlas.Build();
  }
  return f;
}

std::vector<std::string> missing_glyphs(const ImFont& font, std::string_view utf8) {
  std::vector<std::string> out;
  std::vector<uint32_t> seen;
  // Decoded here, not by ImGui's reader, which gives U+FFFD for everything above U+FFFF (an emoji).
  for (size_t i = 0; i < utf8.size();) {
    uint32_t c = 0;
    const size_t n = text::utf8_decode(utf8, i, &c);
    if (n == 0) {
      // Not UTF-8: the byte, by its number.
      char name[40];
      std::snprintf(name, sizeof name, "byte 0x%02X (not UTF-8)", static_cast<unsigned char>(utf8[i]));
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
      ++i;
      continue;
    }
    const std::string_view ch = utf8.substr(i, n);
    i += n;
    if (c <= 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0)) continue;  // controls and the space
    if (c <= 0xFFFF && font.FindGlyphNoFallback(static_cast<ImWchar>(c))) continue;
    if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    char name[16];
    std::snprintf(name, sizeof name, "U+%04X ", static_cast<unsigned>(c));
    out.push_back(std::string(name) + std::string(ch));  // the character itself after its number
  }
  return out;
}

}  // namespace gpulab::ui

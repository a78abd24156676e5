// cpu label: the TrueType fonts are found (fonts-dejavu-core is in scripts/debian-packages.txt),
// rasterised at the UI scale's pixel size rather than scaled, and a missing font gives ImGui's
// default font and a message, never a failure. Style sizes are scaled from a pristine style.
#include <gtest/gtest.h>
#include <imgui.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "support/font_dir.h"
#include "ui/appearance.h"
#include "ui/fonts.h"
#include "ui/theme.h"

namespace fs = std::filesystem;

namespace gpulab::ui {
namespace {

using gpulab::testing::FontDir;

class Atlas : public ::testing::Test {
 protected:
  void SetUp() override { ctx_ = ImGui::CreateContext(); }
  void TearDown() override { ImGui::DestroyContext(ctx_); }
  ImGuiContext* ctx_ = nullptr;
};

TEST(Fonts, AnEmptyFontDirGivesAMessageNamingItAndThePackage) {
  const fs::path empty = fs::temp_directory_path() / ("gpulab-nofonts-" + std::to_string(::getpid()));
  fs::create_directories(empty);
  FontDir env(empty.c_str());
  for (FontFace face : {FontFace::Sans, FontFace::Mono}) {
    std::string why;
    EXPECT_TRUE(find_font(face, &why).empty());
    EXPECT_NE(why.find(font_file_name(face)), std::string::npos) << why;
    EXPECT_NE(why.find(empty.string()), std::string::npos) << why;
    EXPECT_NE(why.find("fonts-dejavu-core"), std::string::npos) << why;
  }
  fs::remove_all(empty);
}

// The fonts of the Debian package, where it installs them (or where GPULAB_FONT_DIR says a machine
// keeps them, as the GPU servers' kit does).
TEST(Fonts, TheDebianPackageIsFound) {
  std::string why;
  const fs::path p = find_font(FontFace::Sans, &why);
  ASSERT_FALSE(p.empty()) << why << " (install fonts-dejavu-core: scripts/debian-packages.txt)";
  EXPECT_EQ(p.filename(), "DejaVuSans.ttf");
  EXPECT_FALSE(find_font(FontFace::Mono, &why).empty()) << why;
}

TEST_F(Atlas, GlyphsAreRasterisedAtTheScaledSizeNotScaled) {
  ImGuiIO& io = ImGui::GetIO();
  for (float scale : {1.0f, 3.0f}) {
    const Fonts f = build_fonts(*io.Fonts, scale, hud_font_px(1080));
    ASSERT_TRUE(f.truetype) << f.problem;
    EXPECT_EQ(f.problem, "");
    ASSERT_NE(f.ui, nullptr);
    EXPECT_FLOAT_EQ(f.ui->FontSize, std::round(kBaseFontPx * scale));
    EXPECT_FLOAT_EQ(f.mono->FontSize, std::round(kBaseFontPx * scale));
    EXPECT_NE(f.ui, f.mono);
    EXPECT_NE(std::string(f.ui->GetDebugName()).find("DejaVuSans.ttf"), std::string::npos);
    EXPECT_NE(std::string(f.mono->GetDebugName()).find("DejaVuSansMono.ttf"), std::string::npos);
    // A capital at 3x is three times as tall in the atlas: real pixels, not a stretched bitmap.
    const ImFontGlyph* h = f.ui->FindGlyphNoFallback('H');
    ASSERT_NE(h, nullptr);
    // (ImGui's pixel size is DejaVu's ascent + descent, 1.164 em; a capital is 0.729 em.)
    EXPECT_NEAR(h->Y1 - h->Y0, 0.729f / 1.164f * std::round(kBaseFontPx * scale), 1.5f);
    // The glyphs the panels write beyond ASCII are there.
    for (ImWchar c : {ImWchar(0x00B5), ImWchar(0x00D7), ImWchar(0x2014), ImWchar(0x03A3), ImWchar(0x2265)})
      EXPECT_NE(f.ui->FindGlyphNoFallback(c), nullptr) << "U+" << std::hex << c;
  }
}

TEST_F(Atlas, HudDigitsAreAtLeast48PixelsAt1080p) {
  for (int height : {1080, 2160}) {
    const Fonts f = build_fonts(*ImGui::GetIO().Fonts, 1.0f, hud_font_px(height));
    ASSERT_TRUE(f.truetype) << f.problem;
    const ImFontGlyph* zero = f.hud->FindGlyphNoFallback('0');
    ASSERT_NE(zero, nullptr);
    EXPECT_GE(zero->Y1 - zero->Y0, kHudDigitPx1080 * height / 1080.0f) << height;
  }
  EXPECT_LT(hud_font_px(720), hud_font_px(1080));
  EXPECT_EQ(hud_font_px(300), hud_font_px(720));  // a floor: a tiny window keeps a readable HUD
}

// The course's languages: Latin Extended-A (Croatian, Czech, Polish, Slovenian...), Romanian's comma
// letters and Cyrillic, in the panel's, the code's and the HUD's (the captions') fonts, at 1080p and 4K.
TEST_F(Atlas, CentralEuropeanAndCyrillicLettersHaveGlyphs) {
  const std::string text = "čćđšž ČĆĐŠŽ Жизнь łőűș ЂЉЊЋЏђљњћџ ґ";
  for (int height : {1080, 2160}) {
    SCOPED_TRACE(height);
    const Fonts f = build_fonts(*ImGui::GetIO().Fonts, height / 1080.0f, hud_font_px(height));
    ASSERT_TRUE(f.truetype) << f.problem;
    for (const ImFont* font : {f.ui, f.mono, f.hud}) {
      SCOPED_TRACE(font->GetDebugName());
      for (ImWchar c : {0x010D, 0x0107, 0x0111, 0x0161, 0x017E, 0x0416, 0x0438, 0x0437, 0x043D, 0x044C}) {
        const ImFontGlyph* g = font->FindGlyphNoFallback(c);
        ASSERT_NE(g, nullptr) << "U+" << std::hex << c;
        EXPECT_TRUE(g->Visible) << "U+" << std::hex << c;  // real ink, not an empty box
        EXPECT_GT(g->X1 - g->X0, 0.0f);
      }
      EXPECT_EQ(missing_glyphs(*font, text), std::vector<std::string>{});
    }
    // (ImGui's atlas is one texture: at 4K it stays within what any GL takes.)
    EXPECT_LE(ImGui::GetIO().Fonts->TexWidth, 4096);
    EXPECT_LE(ImGui::GetIO().Fonts->TexHeight, 4096);
    // What the fonts lack is named, once each, by code point.
    EXPECT_EQ(missing_glyphs(*f.hud, "日本 日 ok"), (std::vector<std::string>{"U+65E5 日", "U+672C 本"}));
    // Every figure the HUD writes: times, ratios, approximations, percentages.
    EXPECT_EQ(missing_glyphs(*f.hud, "805 µs 12.3 ms ≈ 2.08× 1× 78% – measuring… not run here"),
              std::vector<std::string>{});
    // A cut sequence is named by its bytes; a character above U+FFFF by its own code point (ImGui's
    // reader gave U+FFFD for an emoji).
    EXPECT_EQ(missing_glyphs(*f.ui, "Σ ε \xE2\x88"),
              (std::vector<std::string>{"byte 0xE2 (not UTF-8)", "byte 0x88 (not UTF-8)"}));
    EXPECT_EQ(missing_glyphs(*f.ui, "ok \xF0\x9F\x99\x82 \xF0\x9F\x99\x82"),
              std::vector<std::string>{"U+1F642 \xF0\x9F\x99\x82"});
  }
}

TEST_F(Atlas, MissingFontsFallBackToImGuisFontWithTheReason) {
  const fs::path empty = fs::temp_directory_path() / ("gpulab-nofonts2-" + std::to_string(::getpid()));
  fs::create_directories(empty);
  FontDir env(empty.c_str());
  const Fonts f = build_fonts(*ImGui::GetIO().Fonts, 2.0f, hud_font_px(1080));
  EXPECT_FALSE(f.truetype);
  ASSERT_NE(f.ui, nullptr);
  ASSERT_NE(f.hud, nullptr);
  EXPECT_EQ(f.ui->FontSize, 26.0f);  // ImGui's 13 px font, rasterised at 2x
  EXPECT_NE(f.problem.find("DejaVuSans.ttf not found"), std::string::npos) << f.problem;
  EXPECT_NE(f.problem.find("built-in font"), std::string::npos) << f.problem;
  EXPECT_TRUE(ImGui::GetIO().Fonts->IsBuilt());
  fs::remove_all(empty);
}

TEST_F(Atlas, StyleIsScaledFromPristineEveryTime) {
  const ImGuiStyle pristine;
  apply_style(Theme::Dark, 2.0f);
  apply_style(Theme::Dark, 2.0f);
  apply_style(Theme::Light, 2.0f);
  EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, pristine.FramePadding.x * 2.0f);
  EXPECT_FLOAT_EQ(ImGui::GetStyle().ScrollbarSize, pristine.ScrollbarSize * 2.0f);
  EXPECT_EQ(current_theme(), Theme::Light);
  // High contrast: black text on a white window.
  const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text],
               bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  EXPECT_EQ(text.x + text.y + text.z, 0.0f);
  EXPECT_EQ(bg.x + bg.y + bg.z, 3.0f);
  EXPECT_EQ(bg.w, 1.0f);
  apply_style(Theme::Dark, 1.0f);
  EXPECT_FLOAT_EQ(ImGui::GetStyle().FramePadding.x, pristine.FramePadding.x);
  EXPECT_EQ(current_theme(), Theme::Dark);
}

TEST(UiScaleSteps, StepAndClamp) {
  EXPECT_EQ(step_scale(1.0f, +1), 1.25f);
  EXPECT_EQ(step_scale(1.0f, -1), 0.75f);
  EXPECT_EQ(step_scale(0.75f, -1), 0.75f);
  EXPECT_EQ(step_scale(4.0f, +1), 4.0f);
  EXPECT_EQ(step_scale(1.1f, +1), 1.25f);  // a display's 1.1 goes to the next step
  EXPECT_EQ(step_scale(1.1f, -1), 1.0f);
  EXPECT_EQ(clamp_scale(9.0f), 4.0f);
  EXPECT_EQ(clamp_scale(0.1f), 0.75f);
  EXPECT_EQ(clamp_scale(std::nanf("")), 1.0f);
}

}  // namespace
}  // namespace gpulab::ui

// gl label, through the binary (headless EGL): a caption in Croatian and Russian ("čćđšž Жизнь") is
// drawn with its own glyphs, not the font's fallback. The same lesson with "?" in place of each letter
// (the fallback ImGui draws for a glyph the atlas lacks) gives other pixels in the caption band: were
// the letters missing, both would be the same question marks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "gl/image_io.h"
#include "support/layout_report.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

namespace {

struct Shot {
  gpulab::gl::Image img;
  float band_y0 = 0, band_y1 = 0;
  int x0 = 0;  // right of the panel (whose timings differ from run to run)
  std::string caption;
};

Shot caption_shot(const std::string& caption, const fs::path& dir, const std::string& name) {
  const fs::path lesson = dir / (name + ".toml");
  std::ofstream(lesson) << "title = \"glyphs\"\n[[step]]\ndemo = \"life\"\nvariant = \"cpu-lut\"\n"
                           "params = { grid = \"64x64\", seed = 1 }\ncaption = \""
                        << caption << "\"\n";
  const fs::path png = dir / (name + ".png");
  const gpulab::testing::ReportedRun run = gpulab::testing::run_with_layout_report(
      "--headless --lesson " + lesson.string() + " --frames 1 --size 1280x720 --ui-scale 1 --screenshot " +
          png.string(),
      dir, "gpulab-glyphs");
  EXPECT_EQ(run.process.status, 0) << run.process.output;
  Shot s;
  std::string err;
  s.img = gpulab::gl::read_image(png, &err);
  EXPECT_TRUE(err.empty()) << err;
  const nlohmann::json& l = run.report["lesson"];
  s.caption = l.value("caption", std::string());
  s.band_y0 = l["caption_band"][0].get<float>();
  s.band_y1 = l["caption_band"][1].get<float>();
  const nlohmann::json& win = run.report["window"];
  s.x0 = static_cast<int>(win[0].get<float>() + win[2].get<float>()) + 2;
  return s;
}

}  // namespace

TEST(LessonCaptionGlyphs, CentralEuropeanAndCyrillicLettersAreDrawnNotTheFallback) {
  const fs::path dir = gpulab::testing::temp_dir("gpulab-glyphs");
  const Shot letters = caption_shot("čćđšž Жизнь", dir, "letters");
  const Shot marks = caption_shot("????? ?????", dir, "marks");
  ASSERT_EQ(letters.caption, "čćđšž Жизнь");
  ASSERT_GT(letters.band_y1 - letters.band_y0, 20.0f);
  ASSERT_EQ(letters.band_y0, marks.band_y0);
  ASSERT_EQ(letters.img.width, marks.img.width);
  ASSERT_EQ(letters.img.height, marks.img.height);
  // The caption's rows: ink in both, and not the same ink.
  size_t differ = 0, ink = 0;
  const int y0 = static_cast<int>(letters.band_y0) + 1, y1 = static_cast<int>(letters.band_y1) - 1;
  for (int y = y0; y < y1; ++y)
    for (int x = letters.x0; x < letters.img.width; ++x) {
      const size_t i = (static_cast<size_t>(y) * letters.img.width + x) * 4;
      bool same = true;
      for (int c = 0; c < 3; ++c) same = same && letters.img.rgba[i + c] == marks.img.rgba[i + c];
      differ += same ? 0 : 1;
      ink += letters.img.rgba[i] !=
             letters.img.rgba[(static_cast<size_t>(y0) * letters.img.width + letters.x0) * 4];
    }
  EXPECT_GT(ink, 200u) << "no caption drawn";
  EXPECT_GT(differ, 200u) << "the letters were drawn as the fallback '?'";
  fs::remove_all(dir);
}

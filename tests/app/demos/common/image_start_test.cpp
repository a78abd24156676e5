// cpu label: the image an image demo starts with (demos/common/image_source.h, start_with_image):
// an --image larger than the GL texture limit falls back to a generated picture in a window, but is an
// error in a headless run, whose picture is the output (the README promises exit 1; it exited 0 with a
// generated image), and in batch mode it is processed without being shown.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "demos/common/image_source.h"
#include "image/image.h"

namespace gpulab {
namespace {

struct Calls {
  int uploads = 0, shows = 0, fallbacks = 0;
  std::vector<std::string> told;
};

// start_with_image on a 100x40 image with a texture limit of `max_texture`; the exception's text, or "".
std::string start(bool batch, bool headless, int max_texture, Calls& c) {
  image::Image img;
  img.width = 100;
  img.height = 40;
  img.channels = 1;
  img.pixels.assign(100 * 40, 7);
  try {
    start_with_image(
        img, "big.png", max_texture, batch, headless, "processed", [&] { ++c.uploads; }, [&] { ++c.shows; },
        image::find_generated("hazy-landscape"),
        [&](const image::Generated&, std::string*) {
          ++c.fallbacks;
          return true;
        },
        [&](std::string line) { c.told.push_back(std::move(line)); });
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

TEST(ImageStart, LargerThanATextureIsAnErrorHeadless) {
  Calls c;
  const std::string why = start(false, true, 64, c);
  EXPECT_NE(why.find("big.png"), std::string::npos) << why;
  EXPECT_NE(why.find("64"), std::string::npos) << why;
  EXPECT_EQ(c.fallbacks, 0) << "no generated image in its place";
  EXPECT_EQ(c.shows, 0);
}

TEST(ImageStart, LargerThanATextureFallsBackInAWindow) {
  Calls c;
  EXPECT_EQ(start(false, false, 64, c), "");
  EXPECT_EQ(c.fallbacks, 1);
  ASSERT_EQ(c.told.size(), 1u);
  EXPECT_NE(c.told[0].find("showing a generated image instead"), std::string::npos) << c.told[0];
}

TEST(ImageStart, BatchProcessesWhatItCannotShow) {
  Calls c;
  EXPECT_EQ(start(true, true, 64, c), "");
  EXPECT_EQ(c.uploads, 1);
  EXPECT_EQ(c.shows, 0);
  EXPECT_EQ(c.fallbacks, 0);
  // Within the limit: uploaded and shown, headless or not.
  Calls d;
  EXPECT_EQ(start(false, true, 4096, d), "");
  EXPECT_EQ(d.uploads, 1);
  EXPECT_EQ(d.shows, 1);
}

}  // namespace
}  // namespace gpulab

// Fuzz target: the image reader, gpulab::image::decode (kernels/image/image.h): PNG, JPEG, BMP, TGA,
// PGM/PPM and GIF as the demos read them, container checks first, then stb_image.
// Oracles: error messages hold no raw control byte; an image read is consistent (size within the
// limits, 1 to 4 channels, width x height x channels bytes); a small one encoded as PNG decodes
// back to the same pixels, and converts to every channel count.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.h"
#include "image/image.h"

using namespace gpulab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const image::LoadResult r = image::decode(std::span(data, size), "fuzz-input");
  if (r.image.empty()) {
    fuzz::require(!r.error.empty(), "image: no image and no error");
    fuzz::check_message("image decode", r.error);
    return 0;
  }
  const image::Image& im = r.image;
  fuzz::require(r.error.empty(), "image: an image and an error");
  fuzz::require(im.width >= 1 && im.height >= 1 && im.width <= image::kMaxSide &&
                    im.height <= image::kMaxSide && im.pixel_count() <= image::kMaxPixels,
                "image: size out of range");
  fuzz::require(im.channels >= 1 && im.channels <= 4, "image: channel count out of range");
  fuzz::require(im.pixels.size() == im.pixel_count() * size_t(im.channels),
                "image: pixels do not match the size");
  if (im.pixel_count() > (1u << 16)) return 0;  // round trips for small images only: they cost time
  const std::vector<uint8_t> png = image::encode_png(im);
  fuzz::require(!png.empty(), "image: encode_png failed on a decoded image");
  const image::LoadResult back = image::decode(png, "round-trip.png");
  if (back.image.empty()) fuzz::fail("image: decode refused what encode_png wrote: " + back.error);
  fuzz::require(back.image == im, "image: the pixels did not survive encode_png and decode");
  for (int c = 1; c <= 4; ++c) {
    const image::Image converted = image::convert_channels(im, c);
    fuzz::require(converted.channels == c && converted.width == im.width && converted.height == im.height &&
                      converted.pixels.size() == im.pixel_count() * size_t(c),
                  "image: convert_channels gave the wrong size");
  }
  return 0;
}

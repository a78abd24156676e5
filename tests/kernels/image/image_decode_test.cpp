// Decoding: every format loads with its own channel count, and every bad file a lecturer might drop
// on the window is refused with its name and the reason. The bad files are made here from valid
// ones (cut, flipped to 16 bits, animated, given absurd headers), byte by byte where stb cannot
// write them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "image/image.h"

#include <zlib.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

namespace gpulab::image {
namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

// ---------------------------------------------------------------------------------------------
// Byte builders.

void put16le(Bytes& b, uint32_t v) {
  b.push_back(uint8_t(v));
  b.push_back(uint8_t(v >> 8));
}
void put32le(Bytes& b, uint32_t v) {
  put16le(b, v & 0xFFFF);
  put16le(b, v >> 16);
}
void put32be(Bytes& b, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(uint8_t(v >> s));
}
void append(Bytes& b, std::string_view s) { b.insert(b.end(), s.begin(), s.end()); }

uint32_t crc32(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

Bytes png_chunk(std::string_view type, const Bytes& data) {
  Bytes c;
  put32be(c, uint32_t(data.size()));
  append(c, type);
  c.insert(c.end(), data.begin(), data.end());
  put32be(c, crc32(c.data() + 4, data.size() + 4));
  return c;
}

// zlib with stored (uncompressed) blocks: enough to write any PNG by hand.
Bytes zlib_stored(const Bytes& raw) {
  Bytes z = {0x78, 0x01};
  size_t pos = 0;
  do {
    const size_t n = std::min<size_t>(raw.size() - pos, 65535);
    z.push_back(pos + n == raw.size() ? 1 : 0);
    put16le(z, uint32_t(n));
    put16le(z, uint32_t(~n & 0xFFFF));
    z.insert(z.end(), raw.begin() + long(pos), raw.begin() + long(pos + n));
    pos += n;
  } while (pos < raw.size());
  uint32_t a = 1, b = 0;
  for (uint8_t v : raw) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  put32be(z, b << 16 | a);
  return z;
}

// A PNG of any header with `idat` as its one IDAT chunk's data.
Bytes png_with_idat(uint32_t w, uint32_t h, int depth, int colour_type, const Bytes& idat) {
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr;
  put32be(ihdr, w);
  put32be(ihdr, h);
  ihdr.insert(ihdr.end(), {uint8_t(depth), uint8_t(colour_type), 0, 0, 0});
  for (const Bytes& c : {png_chunk("IHDR", ihdr), png_chunk("IDAT", idat), png_chunk("IEND", {})})
    png.insert(png.end(), c.begin(), c.end());
  return png;
}

// A PNG of any header; `rows` is the filtered data (a filter byte before each row).
Bytes make_png(uint32_t w, uint32_t h, int depth, int colour_type, const Bytes& rows) {
  return png_with_idat(w, h, depth, colour_type, zlib_stored(rows));
}

Image pattern(int w, int h, int channels) {
  Image img{w, h, channels, {}};
  img.pixels.resize(size_t(w) * h * channels);
  for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = uint8_t(i * 37 + (i >> 4) * 11);
  return img;
}

void stb_append(void* context, void* data, int size) {
  auto* out = static_cast<Bytes*>(context);
  out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

// A smooth picture (so JPEG keeps it close) as a JPEG.
Bytes make_jpeg(int w, int h, int channels) {
  Image img{w, h, channels, Bytes(size_t(w) * h * channels)};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c)
        img.pixels[(size_t(y) * w + x) * channels + c] = uint8_t(40 + x * 2 + y + c * 30);
  Bytes jpg;
  EXPECT_TRUE(stbi_write_jpg_to_func(stb_append, &jpg, w, h, channels, img.pixels.data(), 95));
  return jpg;
}

// A GIF of `frames` frames, each w x h of palette index (frame + pixel) % 2, black and white. LZW
// codes of 3 bits: a clear code before each pixel, so no table is ever built.
Bytes make_gif(int w, int h, int frames) {
  Bytes g;
  append(g, "GIF89a");
  put16le(g, uint32_t(w));
  put16le(g, uint32_t(h));
  g.insert(g.end(), {0x80, 0, 0, 0, 0, 0, 255, 255, 255});  // 2-colour global table
  for (int f = 0; f < frames; ++f) {
    g.insert(g.end(), {0x21, 0xF9, 4, 0, 10, 0, 0, 0});  // graphic control: 0.1 s a frame
    g.push_back(0x2C);
    put16le(g, 0);
    put16le(g, 0);
    put16le(g, uint32_t(w));
    put16le(g, uint32_t(h));
    g.push_back(0);
    g.push_back(2);  // LZW minimum code size
    std::vector<int> codes;
    for (int i = 0; i < w * h; ++i) {
      codes.push_back(4);
      codes.push_back((f + i) % 2);
    }
    codes.push_back(5);
    Bytes data;
    uint32_t bits = 0;
    int n = 0;
    for (int c : codes) {
      bits |= uint32_t(c) << n;
      n += 3;
      while (n >= 8) {
        data.push_back(uint8_t(bits));
        bits >>= 8;
        n -= 8;
      }
    }
    if (n > 0) data.push_back(uint8_t(bits));
    for (size_t pos = 0; pos < data.size(); pos += 255) {
      const size_t len = std::min<size_t>(255, data.size() - pos);
      g.push_back(uint8_t(len));
      g.insert(g.end(), data.begin() + long(pos), data.begin() + long(pos + len));
    }
    g.push_back(0);
  }
  g.push_back(0x3B);
  return g;
}

// 24-bit bottom-up BMP of an RGB image.
Bytes make_bmp(const Image& img) {
  const uint32_t row = (uint32_t(img.width) * 3 + 3) / 4 * 4;
  Bytes b;
  append(b, "BM");
  put32le(b, 54 + row * uint32_t(img.height));
  put32le(b, 0);
  put32le(b, 54);
  put32le(b, 40);
  put32le(b, uint32_t(img.width));
  put32le(b, uint32_t(img.height));
  put16le(b, 1);
  put16le(b, 24);
  for (int i = 0; i < 6; ++i) put32le(b, 0);
  for (int y = img.height - 1; y >= 0; --y) {
    for (int x = 0; x < img.width; ++x) {
      const uint8_t* p = &img.pixels[(size_t(y) * img.width + x) * 3];
      b.insert(b.end(), {p[2], p[1], p[0]});
    }
    b.resize(b.size() + row - uint32_t(img.width) * 3, 0);
  }
  return b;
}

// Uncompressed TGA, rows from the top: grey (type 3) or BGR (type 2).
Bytes make_tga(const Image& img) {
  Bytes b = {0, 0, uint8_t(img.channels == 1 ? 3 : 2), 0, 0, 0, 0, 0, 0, 0, 0, 0};
  put16le(b, uint32_t(img.width));
  put16le(b, uint32_t(img.height));
  b.push_back(uint8_t(img.channels * 8));
  b.push_back(0x20);  // top-left origin
  for (size_t i = 0; i < img.pixel_count(); ++i) {
    const uint8_t* p = &img.pixels[i * img.channels];
    if (img.channels == 1)
      b.push_back(p[0]);
    else
      b.insert(b.end(), {p[2], p[1], p[0]});
  }
  return b;
}

Bytes make_pnm(std::string_view header, const Bytes& samples) {
  Bytes b;
  append(b, header);
  b.insert(b.end(), samples.begin(), samples.end());
  return b;
}

Bytes cut(const Bytes& b, size_t n) { return Bytes(b.begin(), b.begin() + long(n)); }

// The decode error, checked to name the file; "" when it loaded.
std::string refusal(const Bytes& bytes, const std::string& name = "lecture/bad-file.img") {
  const LoadResult r = decode(bytes, name);
  if (r.error.empty()) {
    EXPECT_FALSE(r.image.empty());
    return "";
  }
  EXPECT_TRUE(r.image.empty());
  EXPECT_EQ(r.error.rfind("cannot read " + name + ": ", 0), 0u) << r.error;
  return r.error;
}

#define EXPECT_REFUSED(bytes, word)                                              \
  do {                                                                           \
    const std::string e_ = refusal(bytes);                                       \
    EXPECT_NE(e_, "") << "accepted, expected a refusal with \"" << word << "\""; \
    EXPECT_NE(e_.find(word), std::string::npos) << e_;                           \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Formats that load.

TEST(ImageDecode, PngKeepsItsChannelCountExactly) {
  for (int channels = 1; channels <= 4; ++channels)
    for (auto [w, h] : {std::pair{1, 1}, std::pair{37, 23}, std::pair{2, 61}}) {
      const Image img = pattern(w, h, channels);
      const LoadResult r = decode(encode_png(img), "x.png");
      ASSERT_EQ(r.error, "");
      EXPECT_EQ(r.image, img) << channels << " channels, " << w << "x" << h;
    }
}

TEST(ImageDecode, HandWrittenPngLoads) {  // the builder the refusals below rely on is right
  const LoadResult r = decode(make_png(3, 2, 8, 0, {0, 1, 2, 3, 0, 4, 5, 6}), "grey.png");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, (Image{3, 2, 1, {1, 2, 3, 4, 5, 6}}));
}

TEST(ImageDecode, PgmAndPpmLoad) {
  LoadResult r = decode(make_pnm("P5\n# a comment\n3 2\n255\n", {0, 50, 100, 150, 200, 255}), "a.pgm");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, (Image{3, 2, 1, {0, 50, 100, 150, 200, 255}}));
  r = decode(make_pnm("P6 2 1 255\n", {1, 2, 3, 4, 5, 6}), "a.ppm");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, (Image{2, 1, 3, {1, 2, 3, 4, 5, 6}}));
}

TEST(ImageDecode, BmpAndTgaLoad) {
  const Image rgb = pattern(5, 3, 3);  // odd width: BMP rows are padded
  LoadResult r = decode(make_bmp(rgb), "a.bmp");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, rgb);
  r = decode(make_tga(rgb), "a.tga");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, rgb);
  const Image grey = pattern(7, 4, 1);
  r = decode(make_tga(grey), "grey.tga");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, grey);
}

TEST(ImageDecode, JpegLoads) {
  // Colour only: stb_image_write writes every JPEG as three components, even from grey pixels.
  const LoadResult r = decode(make_jpeg(24, 16, 3), "a.jpg");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image.channels, 3);
  EXPECT_EQ(r.image.width, 24);
  EXPECT_EQ(r.image.height, 16);
  EXPECT_NEAR(r.image.pixels[0], 40, 6);  // lossy, but close on a smooth picture
  Bytes trailing = make_jpeg(8, 8, 3);    // bytes after the end-of-image marker are ignored
  append(trailing, "junk");
  EXPECT_EQ(refusal(trailing), "");
}

TEST(ImageDecode, StillGifLoadsAsRgba) {  // stb decodes every GIF to RGBA
  const LoadResult r = decode(make_gif(2, 2, 1), "a.gif");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, (Image{2, 2, 4, {0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255}}));
}

// ---------------------------------------------------------------------------------------------
// Refusals.

TEST(ImageDecode, RefusesEmptyAndUnknownData) {
  EXPECT_REFUSED(Bytes{}, "empty");
  Bytes text;
  append(text, "this is not an image, it is a lecture note\n");
  EXPECT_REFUSED(text, "unknown format");
  EXPECT_REFUSED(make_pnm("P2\n2 1\n255\n0 255\n", {}), "P2");  // plain-text PGM: stb reads binary only
}

TEST(ImageDecode, RefusesTruncatedPngWhereverItIsCut) {
  const Bytes png = encode_png(pattern(40, 30, 3));
  // 4 bytes short: only IEND's checksum is missing, which stb alone accepts.
  for (size_t n : {png.size() - 1, png.size() - 4, png.size() - 12, png.size() / 2, size_t(40), size_t(9)})
    EXPECT_REFUSED(cut(png, n), "truncated");
}

TEST(ImageDecode, RefusesPngWithABadChecksum) {
  Bytes png = encode_png(pattern(40, 30, 3));
  png[60] ^= 0x10;  // inside IDAT
  EXPECT_REFUSED(png, "CRC");
}

TEST(ImageDecode, RefusesTruncatedJpeg) {
  const Bytes jpg = make_jpeg(32, 32, 3);
  for (size_t n : {jpg.size() - 1, jpg.size() - 2, jpg.size() - 40, jpg.size() / 2, size_t(100), size_t(3)})
    EXPECT_REFUSED(cut(jpg, n), "truncated");
}

TEST(ImageDecode, RefusesTruncatedGifBmpTgaAndPgm) {
  const Bytes gif = make_gif(3, 3, 1);
  EXPECT_REFUSED(cut(gif, gif.size() - 4), "truncated");
  EXPECT_REFUSED(cut(gif, 20), "truncated");
  // stb itself reads past the end of these as zeros or leaves the rest of the pixels unset.
  const Image rgb = pattern(9, 7, 3);
  const Bytes bmp = make_bmp(rgb), tga = make_tga(rgb);
  EXPECT_REFUSED(cut(bmp, bmp.size() - 30), "truncated");
  EXPECT_REFUSED(cut(tga, tga.size() - 1), "truncated");
  EXPECT_REFUSED(make_pnm("P5\n4 4\n255\n", Bytes(15, 7)), "truncated");
}

TEST(ImageDecode, Refuses16BitImages) {
  // 3x2 grey, 16 bits a sample, big-endian, a filter byte before each row.
  EXPECT_REFUSED(make_png(3, 2, 16, 0, {0, 0, 1, 0, 2, 0, 3, 0, 0, 4, 0, 5, 0, 6}), "16-bit");
  EXPECT_REFUSED(make_pnm("P5\n2 2\n65535\n", Bytes(8, 1)), "16-bit");
}

TEST(ImageDecode, RefusesAnimatedGif) {
  const std::string e = refusal(make_gif(2, 2, 2));
  EXPECT_NE(e.find("animated GIF"), std::string::npos) << e;
  EXPECT_NE(e.find("2 frames"), std::string::npos) << e;
}

TEST(ImageDecode, RefusesApng) {
  Bytes png = encode_png(pattern(3, 2, 3));
  Bytes actl;
  put32be(actl, 2);  // frames
  put32be(actl, 0);  // plays: forever
  const Bytes chunk = png_chunk("acTL", actl);
  png.insert(png.begin() + 33, chunk.begin(), chunk.end());  // after the signature and IHDR
  const std::string e = refusal(png);
  EXPECT_NE(e.find("APNG"), std::string::npos) << e;
  EXPECT_NE(e.find("2 frames"), std::string::npos) << e;
}

TEST(ImageDecode, RefusesZeroSizedImages) {
  EXPECT_REFUSED(make_png(0, 2, 8, 0, {0, 0}), "empty (0x2");
  EXPECT_REFUSED(make_pnm("P5\n0 4\n255\n", {}), "0x4");
}

TEST(ImageDecode, RefusesOversizedImagesFromTheHeaderAlone) {
  // The headers claim more than the limits; the files are tiny, and nothing that size is allocated.
  const auto start = std::chrono::steady_clock::now();
  std::string e = refusal(make_png(100000, 100000, 8, 2, {0, 1, 2, 3}));
  EXPECT_NE(e.find("100000x100000"), std::string::npos) << e;
  EXPECT_NE(e.find(std::to_string(kMaxSide)), std::string::npos) << e;

  Bytes bmp = make_bmp(pattern(2, 2, 3));
  bmp[18] = 0xA0, bmp[19] = 0x86, bmp[20] = 0x01;  // width 100000
  e = refusal(bmp);
  EXPECT_NE(e.find("100000x2"), std::string::npos) << e;
  EXPECT_NE(e.find(std::to_string(kMaxSide)), std::string::npos) << e;

  Bytes gif = make_gif(1, 1, 1);
  gif[6] = 0x50, gif[7] = 0xC3;  // screen 50000 wide
  e = refusal(gif);
  EXPECT_NE(e.find("50000x1"), std::string::npos) << e;

  // Within the hard limits (the decoded-size limit raised to them) but more than the file could hold:
  // refused before stb allocates (and, for GIF, clears) the full size.
  set_max_pixels(kMaxPixels);
  e = refusal(make_png(20000, 20000, 8, 0, {0, 1}));
  EXPECT_NE(e.find("20000x20000"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  e = refusal(make_png(30000, 30000, 8, 2, {0, 1, 2, 3}));  // past stb's 1 GiB for a PNG
  EXPECT_NE(e.find("30000x30000"), std::string::npos) << e;
  EXPECT_NE(e.find("too large"), std::string::npos) << e;
  gif = make_gif(1, 1, 1);
  gif[6] = gif[8] = 0x00, gif[7] = gif[9] = 0x80;  // screen 32768 x 32768, at the limits
  e = refusal(gif);
  EXPECT_NE(e.find("32768x32768"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  bmp = make_bmp(pattern(2, 2, 3));
  bmp[18] = 0x00, bmp[19] = 0x80, bmp[22] = 0x00, bmp[23] = 0x80;  // 32768 x 32768
  e = refusal(bmp);
  EXPECT_NE(e.find("32768x32768"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  set_max_pixels(kDefaultMaxPixels);

  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

// A decompression bomb (a small file declaring a huge image of one grey) is refused from its header by
// the decoded-size limit, which says how to raise it; raised, the same header goes on to the next check.
TEST(ImageDecode, ImagesPastTheDecodedSizeLimitAreRefusedFromTheHeader) {
  ASSERT_EQ(max_pixels(), kDefaultMaxPixels);
  const auto start = std::chrono::steady_clock::now();
  std::string e = refusal(make_png(16384, 16384, 8, 0, {0, 1}));
  EXPECT_NE(e.find("16384x16384 pixels (268435456 in all), more than the limit of 134217728 pixels"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("--max-image-pixels N raises it, up to 1073741824"), std::string::npos) << e;
  // At the limit it passes (here to the data check: the file cannot hold that many pixels).
  e = refusal(make_png(16384, 8192, 8, 0, {0, 1}));
  EXPECT_EQ(e.find("more than the limit"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  set_max_pixels(uint64_t(1) << 28);
  e = refusal(make_png(16384, 16384, 8, 0, {0, 1}));
  EXPECT_EQ(e.find("more than the limit"), std::string::npos) << e;
  EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  set_max_pixels(100);  // a lowered limit refuses a small image too
  e = refusal(make_png(11, 10, 8, 0, std::vector<uint8_t>(110, 7)));
  EXPECT_NE(e.find("11x10 pixels (110 in all), more than the limit of 100 pixels"), std::string::npos) << e;
  set_max_pixels(0);  // clamped to one pixel, never zero
  EXPECT_EQ(max_pixels(), 1u);
  set_max_pixels(uint64_t(1) << 40);  // and never past the hard limit
  EXPECT_EQ(max_pixels(), kMaxPixels);
  set_max_pixels(kDefaultMaxPixels);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

// Found by fuzzing (tests/fuzz/regressions/image_decode/): a TGA of 17 bytes, shorter than its own
// header, claimed 4105x14864 pixels and had no lower bound on its size; stb decoded 180 MB of zeros
// from past its end (seconds of work for a file that is cut). BMP had the same gap below 30 bytes.
TEST(ImageDecode, FilesShorterThanTheirHeadersAreTruncatedWhateverSizeTheyClaim) {
  const auto start = std::chrono::steady_clock::now();
  const Bytes tga{0x00, 0x00, 0x02, 0x00, 0x00, 0x07, 0x67, 0x41, 0x4d,
                  0x41, 0x01, 0x00, 0x09, 0x10, 0x10, 0x3a, 0x10};
  std::string e = refusal(tga);
  EXPECT_NE(e.find("truncated TGA: 4105x14864 pixels need at least 19 bytes, the file has 17"),
            std::string::npos)
      << e;
  Bytes bmp;  // OS/2 header (12 bytes): 1000 x 1000 at 24 bits, no pixels
  append(bmp, "BM");
  put32le(bmp, 26), put32le(bmp, 0), put32le(bmp, 26), put32le(bmp, 12);
  put16le(bmp, 1000), put16le(bmp, 1000), put16le(bmp, 1), put16le(bmp, 24);
  e = refusal(bmp);
  EXPECT_NE(e.find("truncated BMP: 1000x1000 pixels need at least 30 bytes, the file has 26"),
            std::string::npos)
      << e;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500));
}

// Found by fuzzing (tests/fuzz/regressions/image_decode/): stb 2.27 fills a Huffman table's
// 256-entry arrays without checking that the 16 code counts add up to at most 256 (a write past
// them, caught by the asan preset). Such a table is refused before stb reads the file, and so is
// junk between the start-of-image marker and the first segment, which stb would skip to reach one.
TEST(ImageDecode, JpegHuffmanTablesOfMoreThan256CodesAreRefusedBeforeStbReadsThem) {
  Bytes jpg = make_jpeg(16, 16, 3);
  ASSERT_EQ(refusal(jpg), "");
  size_t dht = 2;
  while (dht + 1 < jpg.size() && !(jpg[dht] == 0xFF && jpg[dht + 1] == 0xC4)) ++dht;
  ASSERT_LT(dht + 21, jpg.size());
  jpg[dht + 5 + 14] = 0xC8, jpg[dht + 5 + 15] = 0xC8;  // two of the first table's counts: 400 codes more
  const std::string e = refusal(jpg);
  EXPECT_NE(e.find("corrupt JPEG: a Huffman table (DHT) of "), std::string::npos) << e;
  EXPECT_NE(e.find("codes, more than 256"), std::string::npos) << e;

  Bytes junk = make_jpeg(8, 8, 3);
  junk.insert(junk.begin() + 2, {0x00, 0x12, 0x34});
  EXPECT_REFUSED(junk, "corrupt JPEG: no marker where one should be (byte 2)");
  // stb also takes fill bytes before the start-of-image marker: so does the walk, which then finds
  // the table too.
  jpg.insert(jpg.begin(), 5, 0xFF);
  EXPECT_REFUSED(jpg, "corrupt JPEG: a Huffman table (DHT) of ");
  Bytes filled = make_jpeg(8, 8, 3);
  filled.insert(filled.begin(), 3, 0xFF);
  EXPECT_EQ(refusal(filled), "");
}

// Found by fuzzing (tests/fuzz/regressions/image_decode/): a scan naming a Huffman table that no
// DHT segment defined made stb 2.27 decode with uninitialised tables and read past them.
TEST(ImageDecode, JpegScansUsingAnUndefinedHuffmanTableAreRefused) {
  Bytes jpg = make_jpeg(16, 16, 3);
  size_t sos = 2;
  while (sos + 1 < jpg.size() && !(jpg[sos] == 0xFF && jpg[sos + 1] == 0xDA)) ++sos;
  ASSERT_LT(sos + 10, jpg.size());
  ASSERT_EQ(jpg[sos + 4], 3);  // three components: id, then DC << 4 | AC table
  jpg[sos + 6] = 0x23;         // the first component's tables: DC 2 and AC 3, never defined
  std::string e = refusal(jpg);
  EXPECT_NE(
      e.find("corrupt JPEG: a scan uses the DC Huffman table 2, which no DHT segment before it defines"),
      std::string::npos)
      << e;
  jpg[sos + 6] = 0x03;
  e = refusal(jpg);
  EXPECT_NE(e.find("the AC Huffman table 3"), std::string::npos) << e;
}

// Found by fuzzing (tests/fuzz/regressions/image_decode/): stb reads a PGM/PPM header's numbers
// into an int with no bound, so a longer one was a signed overflow inside stb (undefined behaviour,
// caught by the asan preset). Such numbers are refused before stb reads them; the largest int is
// still read, and refused as oversized like any other size.
TEST(ImageDecode, PgmHeaderNumbersPastAnIntAreRefusedBeforeStbReadsThem) {
  std::string e = refusal(make_pnm("P5888888888888888888888888\n# a comment\n4 3\n255\n", Bytes(12, 1)));
  EXPECT_NE(e.find("corrupt PGM/PPM: the width in its header (888888888888888888888888) is out of range"),
            std::string::npos)
      << e;
  e = refusal(make_pnm("P6 2 2147483648 255\n", Bytes(12, 1)));
  EXPECT_NE(e.find("the height in its header (2147483648) is out of range"), std::string::npos) << e;
  e = refusal(make_pnm("P5 2 2\n#\n99999999999999999999999999999999\n", Bytes(4, 1)));
  EXPECT_NE(e.find("the maximum value in its header (999999999999999999999999...) is out of range"),
            std::string::npos)
      << e;
  e = refusal(make_pnm("P5 2147483647 1 255\n", Bytes(4, 1)));
  EXPECT_NE(e.find("2147483647x1"), std::string::npos) << e;
  EXPECT_NE(e.find(std::to_string(kMaxSide)), std::string::npos) << e;
  EXPECT_REFUSED(make_pnm("P5 2 2 2147483647\n", Bytes(4, 1)), "corrupt PGM/PPM");  // stb: 8 or 16 bits only
}

// ---------------------------------------------------------------------------------------------
// Files.

class ImageLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() /
           ("gpulab-image-load-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  void write(const fs::path& p, const Bytes& b) {
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
  }
  fs::path dir_;
};

TEST_F(ImageLoad, LoadsAFileAndNamesItInErrors) {
  const Image img = pattern(6, 5, 2);
  write(dir_ / "ok.png", encode_png(img));
  LoadResult r = load(dir_ / "ok.png");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.image, img);

  const Bytes png = encode_png(img);
  write(dir_ / "cut.png", cut(png, png.size() - 8));
  r = load(dir_ / "cut.png");
  EXPECT_TRUE(r.image.empty());
  EXPECT_EQ(r.error.rfind("cannot read " + (dir_ / "cut.png").string() + ": truncated PNG", 0), 0u)
      << r.error;

  write(dir_ / "empty.png", {});
  EXPECT_NE(load(dir_ / "empty.png").error.find("empty.png: the file is empty"), std::string::npos);
}

// While a DecodeScope lives, a file read again (the same path, size and modification time) is not
// decoded again: a lesson of many steps on one picture. Shown by changing the file's pixels behind
// the scope's back with its size and time kept: the scope still gives the first picture.
TEST_F(ImageLoad, AScopeDecodesAPictureOnceAndForgetsItAtItsEnd) {
  const Image first = pattern(6, 5, 1);
  Image second = first;
  for (uint8_t& p : second.pixels) p = uint8_t(255 - p);
  const fs::path file = dir_ / "picture.pgm";  // PGM: the same size for any pixels
  auto write_keeping_time = [&](const Image& img, std::optional<fs::file_time_type> time) {
    Bytes b;
    append(b, "P5\n6 5\n255\n");
    b.insert(b.end(), img.pixels.begin(), img.pixels.end());
    write(file, b);
    if (time) fs::last_write_time(file, *time);
  };
  write_keeping_time(first, std::nullopt);
  const fs::file_time_type time = fs::last_write_time(file);
  {
    const DecodeScope scope;
    EXPECT_EQ(load(file).image, first);
    write_keeping_time(second, time);
    EXPECT_EQ(load(file).image, first);  // kept: not read again
    // A caller's size check still applies to the kept picture.
    const LoadResult refused =
        load(file, [](int w, int h) { return w > 4 ? "wider than 4" : std::string(); });
    EXPECT_EQ(refused.error, "cannot read " + file.string() + ": wider than 4");
    EXPECT_TRUE(refused.image.empty());
    write_keeping_time(second, time + std::chrono::seconds(3));  // a new modification time: read again
    EXPECT_EQ(load(file).image, second);
  }
  write_keeping_time(first, time + std::chrono::seconds(3));
  EXPECT_EQ(load(file).image, first);  // no scope: every load reads the file
  {
    const DecodeScope scope;
    EXPECT_EQ(load(file).image, first);  // the last scope's pictures went with it
  }
}

TEST_F(ImageLoad, MissingPathAndDirectorySayWhy) {
  LoadResult r = load(dir_ / "missing.png");
  EXPECT_TRUE(r.image.empty());
  EXPECT_NE(r.error.find("missing.png"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file or directory"), std::string::npos) << r.error;

  fs::create_directories(dir_ / "folder.png");
  r = load(dir_ / "folder.png");
  EXPECT_TRUE(r.image.empty());
  EXPECT_NE(r.error.find("folder.png"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("a folder, not a regular file"), std::string::npos) << r.error;
}

TEST_F(ImageLoad, UnopenableFileSaysWhy) {
  // A path through a regular file cannot be opened by anyone, root included (ENOTDIR).
  write(dir_ / "plain.png", encode_png(pattern(2, 2, 1)));
  const LoadResult r = load(dir_ / "plain.png" / "inner.png");
  EXPECT_TRUE(r.image.empty());
  EXPECT_NE(r.error.find("inner.png: Not a directory"), std::string::npos) << r.error;
}

// ---------------------------------------------------------------------------------------------
TEST(ImageDecode, ACallersSizeLimitIsAskedFromTheHeaderBeforeDecoding) {
  // A grey 20000x3 PNG: a caller's limit (a GL texture's, 16384 a side) refuses it with its own reason.
  Bytes rows;
  for (int y = 0; y < 3; ++y) {
    rows.push_back(0);
    for (int x = 0; x < 20000; ++x) rows.push_back(uint8_t(x * 7 + y));
  }
  const Bytes png = make_png(20000, 3, 8, 0, rows);
  std::vector<std::pair<int, int>> asked;
  auto limit = [&](int w, int h) -> std::string {
    asked.emplace_back(w, h);
    return w > 16384 || h > 16384 ? "over the test's limit" : "";
  };
  LoadResult r = decode(png, "wide.png", limit);
  EXPECT_TRUE(r.image.empty());
  EXPECT_EQ(r.error, "cannot read wide.png: over the test's limit");
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0], std::make_pair(20000, 3));
  // Under the limit it decodes as without one.
  r = decode(png, "wide.png", [](int, int) { return std::string(); });
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image.width, 20000);
  EXPECT_EQ(r.image.pixels[5], uint8_t(35));
  // Before decoding: a file whose compressed data are not zlib's at all is refused for its size, not
  // its data.
  const Bytes broken = png_with_idat(20000, 3, 8, 0, Bytes(64, 0xFF));
  EXPECT_NE(decode(broken, "wide.png").error.find("corrupt"), std::string::npos) << decode(broken, "x").error;
  EXPECT_EQ(decode(broken, "wide.png", limit).error, "cannot read wide.png: over the test's limit");
  // And a header past the readers' own limit is refused by them first.
  EXPECT_NE(decode(make_png(40000, 1, 8, 0, Bytes(40001, 0)), "huge.png", limit).error.find("40000x1"),
            std::string::npos);
}

// Bad input, second round (issue 30): palette indices past the palette, decompression bombs within
// the size limits, JPEGs of endless scans, and images that need more memory than there is.

// A palette PNG (colour type 3) with `entries` palette entries and the given filtered rows.
Bytes make_palette_png(uint32_t w, uint32_t h, int depth, int entries, const Bytes& rows) {
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes ihdr, plte;
  put32be(ihdr, w);
  put32be(ihdr, h);
  ihdr.insert(ihdr.end(), {uint8_t(depth), 3, 0, 0, 0});
  for (int i = 0; i < entries; ++i) plte.insert(plte.end(), {uint8_t(60 * i), uint8_t(255 - 60 * i), 7});
  for (const Bytes& c : {png_chunk("IHDR", ihdr), png_chunk("PLTE", plte),
                         png_chunk("IDAT", zlib_stored(rows)), png_chunk("IEND", {})})
    png.insert(png.end(), c.begin(), c.end());
  return png;
}

TEST(ImageDecode, PaletteIndicesPastThePaletteAreRefused) {
  // stb read them from uninitialised stack memory: a different picture on each run.
  EXPECT_REFUSED(make_palette_png(4, 2, 8, 4, {0, 0, 1, 2, 3, 0, 3, 200, 0, 1}),
                 "corrupt PNG: palette index 200, the palette has 4 entries");
  // Found after unfiltering: Sub turns 1,1,1,1 into the indices 1,2,3,4.
  EXPECT_REFUSED(make_palette_png(4, 1, 8, 4, {1, 1, 1, 1, 1}), "palette index 4, the palette has 4 entries");
  // In packed rows (2 bits a pixel), and in an interlaced file's passes too.
  EXPECT_REFUSED(make_palette_png(4, 1, 2, 3, {0, 0x1B}), "palette index 3, the palette has 3 entries");
  // In the last row of an image whose data fill the inflate buffer many times over, one IDAT
  // compressed by zlib: found after the input is all consumed.
  Bytes rows;
  for (int y = 0; y < 600; ++y) {
    rows.push_back(0);
    for (int x = 0; x < 600; ++x) rows.push_back(uint8_t(y == 599 && x == 599 ? 9 : (x + y) % 4));
  }
  uLongf zn = compressBound(uLong(rows.size()));
  Bytes z(zn);
  ASSERT_EQ(compress2(z.data(), &zn, rows.data(), uLong(rows.size()), 9), Z_OK);
  z.resize(zn);
  Bytes big = make_palette_png(600, 600, 8, 4, {0});
  const size_t idat_at = 8 + 25 + 12 + 12;  // signature, IHDR, PLTE (4 entries), then IDAT
  const Bytes tail(big.end() - 12, big.end());
  big.resize(idat_at);
  const Bytes idat = png_chunk("IDAT", z);
  big.insert(big.end(), idat.begin(), idat.end());
  big.insert(big.end(), tail.begin(), tail.end());
  EXPECT_REFUSED(big, "palette index 9, the palette has 4 entries");
  // Within the palette: loads, the same every time. The unused bits after the last pixel of a packed
  // row are no index (0b11 there, with a palette of 2).
  const Bytes ok = make_palette_png(3, 2, 2, 2, {0, 0x13, 2, 0x00});
  const LoadResult a = decode(ok, "ok.png"), b = decode(ok, "ok.png");
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.image, b.image);
  EXPECT_EQ(a.image.width, 3);
  // Up adds the row above: 0x13 again, so the second row is the first.
  EXPECT_TRUE(std::equal(a.image.pixels.begin(), a.image.pixels.begin() + 9, a.image.pixels.begin() + 9));
}

// `raw` deflated at the best compression (zlib), a PNG's IDAT of it.
Bytes deflated(const Bytes& raw) {
  uLongf n = compressBound(uLong(raw.size()));
  Bytes z(n);
  EXPECT_EQ(compress2(z.data(), &n, raw.data(), uLong(raw.size()), 9), Z_OK);
  z.resize(n);
  return z;
}

TEST(ImageDecode, DataThatInflatePastTheImagesOwnSizeAreRefused) {
  // An 8x8 grey image holds 8 x (1 + 8) = 72 bytes; its data inflate to 16 MiB (stb inflated them all,
  // 2.2 GB from a 2 MB file).
  const Bytes bomb = png_with_idat(8, 8, 8, 0, deflated(Bytes(16 << 20, 0)));
  EXPECT_LT(bomb.size(), 64u << 10);
  EXPECT_REFUSED(bomb, "inflate to more than the 72 bytes a 8x8 image holds");
  // The same image with exactly its own data loads, compressed or not.
  Bytes rows;
  for (int y = 0; y < 8; ++y) {
    rows.push_back(0);
    for (int x = 0; x < 8; ++x) rows.push_back(uint8_t(x * 30 + y));
  }
  const LoadResult r = decode(png_with_idat(8, 8, 8, 0, deflated(rows)), "ok.png");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image.pixels[9], 31);
  EXPECT_EQ(refusal(make_png(8, 8, 8, 0, rows)), "");
}

TEST(ImageDecode, JpegOfMoreThanAThousandScansIsRefused) {
  // A progressive JPEG of 50,000 scans took 19 s in stb. DC refinement scans use no Huffman table.
  Bytes j = {0xFF, 0xD8, 0xFF, 0xC2, 0, 11, 8, 0, 8, 0, 8, 1, 1, 0x11, 0};
  for (int i = 0; i < 1001; ++i) j.insert(j.end(), {0xFF, 0xDA, 0, 8, 1, 1, 0x00, 0, 0, 0x10, 0x00});
  j.insert(j.end(), {0xFF, 0xD9});
  EXPECT_REFUSED(j, "more than 1000 scans");
}

TEST(ImageDecode, ATopDownBmpLoads) {
  // A negative height in the header means rows stored top first: refused as "8x0 pixels" before.
  const Image rgb = pattern(5, 3, 3);
  const Bytes bottom_up = make_bmp(rgb);
  const size_t row = (5 * 3 + 3) / 4 * 4;
  Bytes top_down(bottom_up.begin(), bottom_up.begin() + 54);
  const uint32_t minus_h = uint32_t(-3);
  for (int k = 0; k < 4; ++k) top_down[22 + k] = uint8_t(minus_h >> (8 * k));
  for (int y = 2; y >= 0; --y)
    top_down.insert(top_down.end(), bottom_up.begin() + long(54 + y * row),
                    bottom_up.begin() + long(54 + (y + 1) * row));
  const LoadResult r = decode(top_down, "top-down.bmp");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.image, rgb);
}

TEST(ImageDecode, APgmOfMaximumValueZeroIsRefused) {
  // stb read it as 255: a picture the file does not hold.
  EXPECT_REFUSED(make_pnm("P5\n2 1\n0\n", {0, 0}), "its maximum value is 0 (1 to 65535)");
  EXPECT_REFUSED(make_pnm("P5\n2 1\n70000\n", Bytes(4, 0)), "its maximum value is 70000");
  EXPECT_EQ(refusal(make_pnm("P5\n2 1\n1\n", {0, 1})), "");
}

// Each header refusal names the value the header holds, in the field that holds it: a width of
// "abc" or "-3" blamed "its maximum value is 0" before, a BMP of width -5 "the image is empty (0x10)",
// a PNG of colour type 5 "Corrupt PNG".
TEST(ImageDecode, HeaderRefusalsNameTheHeadersOwnValue) {
  EXPECT_REFUSED(make_pnm("P5\nabc 1\n255\n", {0}), "the width in its header ('abc') is not a whole number");
  EXPECT_REFUSED(make_pnm("P5\n-3 1\n255\n", {0}), "the width in its header ('-3') is not a whole number");
  EXPECT_REFUSED(make_pnm("P5\n2 1x\n255\n", {0, 0}),
                 "the height in its header ('1x') is not a whole number");
  EXPECT_REFUSED(make_pnm("P5\n2 1\n", {}), "the maximum value in its header (nothing: the file ends)");
  EXPECT_EQ(refusal(make_pnm("P5 2 # comment\n 1 255\n", {0, 0})), "");  // comments stay allowed

  Bytes bmp = make_bmp(pattern(5, 3, 3));
  auto set32 = [](Bytes& b, size_t at, int32_t v) {
    for (int k = 0; k < 4; ++k) b[at + size_t(k)] = uint8_t(uint32_t(v) >> (8 * k));
  };
  Bytes negative_width = bmp;
  set32(negative_width, 18, -5);
  EXPECT_REFUSED(negative_width, "corrupt BMP: its header gives a size of -5x3 pixels");
  Bytes lowest_height = bmp;
  set32(lowest_height, 22, std::numeric_limits<int32_t>::min());
  EXPECT_REFUSED(lowest_height, "corrupt BMP: its header gives a size of 5x-2147483648 pixels");

  const Bytes grey_row = {0, 7, 7};  // filter byte, two pixels
  EXPECT_EQ(refusal(make_png(2, 1, 8, 0, grey_row)), "");
  EXPECT_REFUSED(make_png(2, 1, 8, 5, grey_row), "its header gives colour type 5 (PNG has 0, 2, 3, 4 and 6)");
  EXPECT_REFUSED(make_png(2, 1, 8, 7, grey_row), "its header gives colour type 7");
  EXPECT_REFUSED(make_png(2, 1, 3, 0, grey_row), "a bit depth of 3 for colour type 0 (1, 2, 4, 8 or 16)");
  EXPECT_REFUSED(make_png(2, 1, 4, 2, grey_row), "a bit depth of 4 for colour type 2 (8 or 16)");
  EXPECT_REFUSED(make_png(2, 1, 16, 3, grey_row), "a bit depth of 16 for colour type 3 (1, 2, 4 or 8)");
  EXPECT_REFUSED(make_png(2, 1, 32, 6, grey_row), "a bit depth of 32 for colour type 6 (8 or 16)");
}

TEST(ImageDecode, MemoryIsCheckedAgainstAShareOfWhatIsAvailable) {
  constexpr uint64_t GiB = 1ull << 30;
  EXPECT_EQ(memory_problem(GiB, 8 * GiB), "");
  EXPECT_EQ(memory_problem(4 * GiB, 8 * GiB), "");  // half is allowed
  const std::string why = memory_problem(3 * GiB, 2 * GiB);
  EXPECT_NE(why.find("needs about 3.0 GiB"), std::string::npos) << why;
  EXPECT_NE(why.find("half of the 2.0 GiB available"), std::string::npos) << why;
  EXPECT_EQ(memory_problem(100 * GiB, 0), "") << "unknown memory: not refused on a guess";
  // The 32768-a-side RGBA image the README promises (12 GiB to decode) where the memory is there.
  EXPECT_EQ(memory_problem(32768ull * 32768 * 4 * 3, 64 * GiB), "");
  EXPECT_GT(available_memory(), 0u) << "MemAvailable of /proc/meminfo";
}

}  // namespace
}  // namespace gpulab::image

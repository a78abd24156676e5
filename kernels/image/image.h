#pragma once
// 8-bit images for every image demo (histogram equalization, texture rotation): decoding with the
// checks a lecturer's stray file needs (stb_image: PNG, JPEG, BMP, TGA, PGM/PPM, GIF), PNG writing,
// and the images the repo generates itself. No GL, no CUDA here; app/ reaches images through this.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::image {

// Interleaved 8-bit pixels, row 0 at the top, rows packed (stride = width * channels).
// channels: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA (as in the file: grey stays grey).
struct Image {
  int width = 0, height = 0, channels = 0;
  std::vector<uint8_t> pixels;
  size_t pixel_count() const { return size_t(width) * size_t(height); }
  bool empty() const { return pixels.empty(); }
  bool is_colour() const { return channels >= 3; }
  bool has_alpha() const { return channels == 2 || channels == 4; }
  bool operator==(const Image&) const = default;
};

// Largest image the readers accept, before any GPU or GL limit (those are the demo's to check):
// 32768 pixels a side and 2^30 pixels in all.
inline constexpr int kMaxSide = 32768;
inline constexpr uint64_t kMaxPixels = uint64_t(1) << 30;
// The decoded size the readers take unless raised (up to kMaxPixels): a file declaring more is refused
// from its header before anything is decoded, however small the file, so a decompression bomb (a
// 261 KB PNG of 16384x16384 of one grey: 12 s and 3 GB to decode) costs nothing. 2^27 pixels: a
// 16384x8192 image passes.
inline constexpr uint64_t kDefaultMaxPixels = uint64_t(1) << 27;
// The process's limit, kDefaultMaxPixels until set (gpulab --max-image-pixels N); clamped to
// [1, kMaxPixels]. The refusal says how to raise it.
void set_max_pixels(uint64_t pixels);
uint64_t max_pixels();

struct LoadResult {
  Image image;        // empty on failure
  std::string error;  // "cannot read <path>: <reason>" (names the file and says why), "" on success
};
// Reads a file: refuses unreadable, empty, truncated and non-image files, 16-bit images, animated
// (multi-frame) GIF and APNG, zero-sized and oversized images, each with the file name and reason.
// Sizes are checked from the header before anything is decoded, and so is whether the file can
// hold that many pixels at all (a tiny file whose header claims 30000x30000 is refused as
// truncated, without allocating). Notes: GIF always loads as RGBA (stb's choice); stb's PNG decoder
// takes at most 1 GiB of decoded data, below kMaxPixels for RGB(A), and says so.
// refuse_size, when given, is asked once the header's size is known and checked, before anything is
// decoded: "" to go on, else the reason to refuse the file with (a caller's own limit: a GL texture's).
using SizeCheck = std::function<std::string(int width, int height)>;
LoadResult load(const std::filesystem::path& path, const SizeCheck& refuse_size = {});
// While one lives (a lesson being read: every step configured as it would run), load() keeps each
// picture it decoded, by file (its path, size and modification time), and returns copies of it: a
// lesson of many steps on one picture decodes it once and holds it once. The last one to end lets
// them go. Neither copied nor moved.
class DecodeScope {
 public:
  DecodeScope();
  ~DecodeScope();
  DecodeScope(const DecodeScope&) = delete;
  DecodeScope& operator=(const DecodeScope&) = delete;
};
// The same for bytes in memory; `name` is used in messages. Also refused before decoding: an image
// whose decoding needs more than half the memory available now (memory_problem), a PNG whose data
// inflate past the bytes its size needs (a decompression bomb) or that uses a palette index past its
// palette, and a JPEG of more than 1000 scans.
LoadResult decode(std::span<const uint8_t> bytes, std::string_view name, const SizeCheck& refuse_size = {});

// The share of available memory one decode may take: 1 / kMemoryShareDivisor.
inline constexpr uint64_t kMemoryShareDivisor = 2;
// The memory available now (MemAvailable of /proc/meminfo), 0 when unknown.
uint64_t available_memory();
// "" when `need` bytes are at most the share of `available` (or available is 0: unknown), else the
// message saying how much is needed and available.
std::string memory_problem(uint64_t need, uint64_t available);

// Writes a PNG with the image's own channel count (grey stays 8-bit grey). Written next to the
// target and renamed into place, so a failure never leaves a truncated file. "" or the reason.
std::string save_png(const std::filesystem::path& path, const Image& image);
// The same for pixels held elsewhere (a screenshot's read-back), width * height * channels bytes,
// without copying them into an Image first.
std::string save_png(const std::filesystem::path& path, int width, int height, int channels,
                     const uint8_t* pixels);
// PNG bytes in memory (empty on failure).
std::vector<uint8_t> encode_png(const Image& image);

// The same pixels with `channels` channels, as stb converts: grey -> RGB replicates, RGB -> grey is
// (r*77 + g*150 + b*29) >> 8, alpha 255 added or dropped. Throws std::invalid_argument for a channel
// count outside 1..4 or pixels that do not match the size.
Image convert_channels(const Image& image, int channels);

// ---------------------------------------------------------------------------------------------
// Images the repo generates itself (deterministic, no files needed): the demos' defaults and test
// inputs. tools/make_images writes them as PNG files into the build's assets/images/.
// "filter-test" (grey, 512x512), the texture-rotation demo's default, is laid out in pixels, not
// normalised: a zone plate, 1-pixel lines, 5x7 text at several sizes and 1/2/4-pixel checkerboards.
struct Generated {
  std::string_view id;     // file stem: "hazy-landscape"
  std::string_view title;  // "hazy landscape (low contrast)"
  int width, height, channels;
};
std::span<const Generated> generated_images();
const Generated* find_generated(std::string_view id);
Image generate(const Generated& g);  // at its own size
// Any size (0 gives an empty image); throws std::invalid_argument for an unknown id, a negative
// size or one past kMaxSide / kMaxPixels.
Image generate(std::string_view id, int width, int height);

}  // namespace gpulab::image

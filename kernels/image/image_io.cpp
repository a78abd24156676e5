// Image decoding and PNG encoding through stb: the one translation unit with the stb
// implementations (static, so no clash with another copy of stb linked into the same program).
//
// stb does its own file I/O with no reason on failure, so files are read and written here and stb
// only decodes and encodes memory: every failure names the file and says why. Before stb decodes
// anything, the container is walked here (PNG chunks, GIF blocks, JPEG markers): that is where
// truncation, animation and absurd sizes are caught, with a message a lecturer can act on, and
// before a gigantic header can make stb allocate.
#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <tuple>

#include <zlib.h>

#include "common/file_io.h"
#include "common/text.h"
#include "image/image.h"

// stb rejects any side above this itself, even where our header walk does not know the format's
// layout (BMP, TGA, PGM/PPM): the two limits agree.
#define STBI_MAX_DIMENSIONS 32768
static_assert(STBI_MAX_DIMENSIONS == gpulab::image::kMaxSide);
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_TGA
#define STBI_ONLY_PNM
#define STBI_ONLY_GIF
#include <stb_image.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
#include <stb_image_write.h>

namespace gpulab::image {

namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Container checks, before stb sees the bytes.

enum class Format { Unknown, Png, Jpeg, Gif, Bmp, Pnm, PnmAscii, Tga };

// Where a JPEG's first segment begins: after its start-of-image marker (0xFF 0xD8, which stb allows
// more fill bytes 0xFF before), or 0 when the data does not begin with one.
size_t jpeg_start(std::span<const uint8_t> b) {
  size_t pos = 0;
  while (pos < b.size() && b[pos] == 0xFF) ++pos;
  return pos > 0 && pos < b.size() && b[pos] == 0xD8 ? pos + 1 : 0;
}

Format sniff(std::span<const uint8_t> b) {
  static constexpr uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (b.size() >= 8 && std::equal(png_sig, png_sig + 8, b.begin())) return Format::Png;
  // The start-of-image marker, after any fill bytes (0xFF), as stb recognises a JPEG: whatever stb
  // would parse as one is walked by check_jpeg first.
  if (jpeg_start(b) > 0) return Format::Jpeg;
  if (b.size() >= 6 && std::memcmp(b.data(), "GIF8", 4) == 0) return Format::Gif;
  if (b.size() >= 2 && b[0] == 'B' && b[1] == 'M') return Format::Bmp;
  if (b.size() >= 2 && b[0] == 'P' && (b[1] == '5' || b[1] == '6')) return Format::Pnm;
  if (b.size() >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '4') return Format::PnmAscii;
  return Format::Unknown;  // TGA has no signature: stb recognises it by its header fields
}

const char* format_name(Format f) {
  switch (f) {
    case Format::Png:
      return "PNG";
    case Format::Jpeg:
      return "JPEG";
    case Format::Gif:
      return "GIF";
    case Format::Bmp:
      return "BMP";
    case Format::Pnm:
    case Format::PnmAscii:
      return "PGM/PPM";
    case Format::Tga:
      return "TGA";
    case Format::Unknown:
      break;
  }
  return "image";
}

uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
uint32_t be16(const uint8_t* p) { return uint32_t(p[0]) << 8 | p[1]; }
uint32_t le16(const uint8_t* p) { return uint32_t(p[1]) << 8 | p[0]; }
uint32_t le32(const uint8_t* p) { return le16(p + 2) << 16 | le16(p); }

uint32_t crc32(const uint8_t* data, size_t n) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

struct Header {
  std::optional<std::pair<uint64_t, uint64_t>> size;  // width, height, where the walk found them
  uint64_t idat_bytes = 0;                            // PNG: compressed data in all IDAT chunks
  int png_bits_per_pixel = 0;                         // PNG: bit depth x samples, from IHDR
  int png_colour_type = 0, png_bit_depth = 0;         // PNG: from IHDR
  bool png_interlaced = false;                        // PNG: Adam7
  uint32_t png_palette_entries = 0;                   // PNG: PLTE's length / 3
  std::vector<std::span<const uint8_t>> idat;         // PNG: the IDAT chunks' data, in order
  bool jpeg_progressive = false;                      // JPEG: the first frame header's
  int jpeg_scans = 0;                                 // JPEG: start-of-scan segments
};

// The most scans a JPEG may have (libjpeg-turbo's limit too): each progressive scan makes stb walk
// every coefficient again, so tens of thousands of tiny scans take minutes.
constexpr int kMaxJpegScans = 1000;

// Chunks must be whole up to IEND, critical chunks must have a correct CRC (libpng's default;
// stb checks neither: it decodes a PNG cut inside its last chunk), and acTL before IDAT makes the
// file an APNG, whose animation stb would silently drop.
std::string check_png(std::span<const uint8_t> b, Header& h) {
  size_t pos = 8;
  bool seen_idat = false;
  for (;;) {
    if (b.size() - pos < 12)
      return "truncated PNG: the file ends before its IEND chunk (" + std::to_string(b.size()) + " bytes)";
    const uint32_t len = be32(&b[pos]);
    const uint8_t* type = &b[pos + 4];
    const std::string name = text::escape(std::string_view(reinterpret_cast<const char*>(type), 4));
    if (len > 0x7FFFFFFFu || b.size() - pos - 12 < len)
      return "truncated PNG: its " + name + " chunk is cut off at byte " + std::to_string(b.size());
    const uint8_t* data = type + 4;
    const bool critical = (type[0] & 0x20) == 0;
    if (critical && crc32(type, size_t(len) + 4) != be32(data + len))
      return "corrupt PNG: bad checksum (CRC) in its " + name + " chunk";
    if (name == "IHDR" && len >= 13) {
      static constexpr int samples[7] = {1, 0, 3, 1, 2, 0, 4};  // by colour type
      // The colour types and bit depths of the PNG standard (stb says only "Corrupt PNG").
      static constexpr uint32_t kDepths[7] = {0x10116, 0, 0x10100, 0x116, 0x10100, 0, 0x10100};  // bit d: d
      static constexpr const char* kSaid[7] = {"1, 2, 4, 8 or 16", "", "8 or 16", "1, 2, 4 or 8",
                                               "8 or 16",          "", "8 or 16"};
      const int type = data[9], depth = data[8];
      if (type > 6 || kDepths[type] == 0)
        return "corrupt PNG: its header gives colour type " + std::to_string(type) +
               " (PNG has 0, 2, 3, 4 and 6)";
      if (depth > 16 || !(kDepths[type] >> depth & 1))
        return "corrupt PNG: its header gives a bit depth of " + std::to_string(depth) + " for colour type " +
               std::to_string(type) + " (" + kSaid[type] + ")";
      h.size = {{be32(data), be32(data + 4)}};
      h.png_bits_per_pixel = data[9] <= 6 ? data[8] * samples[data[9]] : 0;
      h.png_bit_depth = data[8];
      h.png_colour_type = data[9];
      h.png_interlaced = data[12] == 1;
    }
    if (name == "PLTE") h.png_palette_entries = len / 3;
    if (name == "acTL" && !seen_idat) {
      const uint32_t frames = len >= 4 ? be32(data) : 0;
      return "animated PNG (APNG, " + std::to_string(frames) +
             " frames) is not supported: save one frame as a still PNG";
    }
    if (name == "IDAT") {
      seen_idat = true;
      h.idat_bytes += len;
      h.idat.emplace_back(data, len);
    }
    if (name == "IEND") return {};
    pos += size_t(len) + 12;
  }
}

// Counts the frames (image descriptors). A file cut inside a block is truncated; one that ends
// cleanly between blocks without its trailer is accepted (many writers forget the trailer).
std::string check_gif(std::span<const uint8_t> b, Header& h) {
  const std::string truncated = "truncated GIF: the file ends inside its image data";
  if (b.size() < 13) return truncated;
  h.size = {{le16(&b[6]), le16(&b[8])}};
  size_t pos = 13;
  if (b[10] & 0x80) pos += size_t(3) << ((b[10] & 7) + 1);  // global colour table
  auto skip_sub_blocks = [&] {
    for (;;) {
      if (pos >= b.size()) return false;
      const size_t n = b[pos++];
      if (n == 0) return true;
      if (b.size() - pos < n) return false;
      pos += n;
    }
  };
  int frames = 0;
  while (pos < b.size()) {
    const uint8_t block = b[pos++];
    if (block == 0x3B) break;  // trailer
    if (block == 0x21) {       // extension: label, then sub-blocks
      if (pos++ >= b.size() || !skip_sub_blocks()) return truncated;
    } else if (block == 0x2C) {  // image descriptor
      ++frames;
      if (b.size() - pos < 10) return truncated;
      const uint8_t flags = b[pos + 8];
      pos += 9;
      if (flags & 0x80) pos += size_t(3) << ((flags & 7) + 1);  // local colour table
      if (pos++ >= b.size() || !skip_sub_blocks()) return truncated;
    } else {
      break;  // bytes after the images that are no block: stb ignores them, and so do we
    }
  }
  if (frames > 1)
    return "animated GIF (" + std::to_string(frames) +
           " frames) is not supported: save one frame as a still image";
  if (frames == 0) return pos >= b.size() ? truncated : "corrupt GIF: it holds no image";
  return {};
}

// Huffman tables (DHT): stb 2.27 builds each into arrays of 256 entries without checking that the
// 16 code counts add up to at most 256, so a larger sum writes past them (memory corruption). The
// segment is read as stb reads it (tables back to back while its length lasts, counts past the
// file's end read as 0) and such a table refused. `data` is the segment after its length field.
std::string check_dht(std::span<const uint8_t> b, size_t data, size_t length, bool (&defined)[2][4]) {
  int64_t left = int64_t(length);
  size_t p = data;
  while (left > 0) {
    if (p < b.size() && (b[p] >> 4) <= 1 && (b[p] & 15) <= 3) defined[b[p] >> 4][b[p] & 15] = true;
    uint64_t codes = 0;
    for (size_t i = 1; i <= 16; ++i) codes += p + i < b.size() ? b[p + i] : 0;
    if (codes > 256)
      return "corrupt JPEG: a Huffman table (DHT) of " + std::to_string(codes) + " codes, more than 256";
    p += 17 + codes;
    left -= int64_t(17 + codes);
  }
  return {};
}

// A scan (SOS) whose components name a Huffman table that no DHT before it defined: stb 2.27 decodes
// with that table's uninitialised memory and indexes past its arrays. Which tables stb uses: DC and
// AC in a baseline scan; in a progressive one, DC in a first DC scan (Ss = 0, Ah = 0), none in a DC
// refinement, AC in an AC scan (Ss > 0). Segments stb refuses itself (a wrong length) pass.
std::string check_sos(std::span<const uint8_t> b, size_t data, size_t length, bool progressive,
                      const bool (&defined)[2][4]) {
  if (length < 1) return {};
  const size_t n = b[data];
  if (length != 4 + 2 * n) return {};
  const uint8_t ss = b[data + 1 + 2 * n], ah = b[data + 3 + 2 * n] >> 4;
  const bool dc = !progressive || (ss == 0 && ah == 0), ac = !progressive || ss != 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t q = b[data + 2 + 2 * i];
    for (const auto& [cls, used, id] : {std::tuple{0, dc, q >> 4}, std::tuple{1, ac, q & 15}})
      if (used && id <= 3 && !defined[cls][id])
        return std::string("corrupt JPEG: a scan uses the ") + (cls == 0 ? "DC" : "AC") + " Huffman table " +
               std::to_string(id) + ", which no DHT segment before it defines";
  }
  return {};
}

// Walks the markers to the end-of-image marker: no EOI, no image. (stb 2.27 refuses a cut JPEG too,
// as "expected marker"; this says what happened.)
std::string check_jpeg(std::span<const uint8_t> b, Header& h) {
  const std::string truncated = "truncated JPEG: the file ends before its end-of-image marker";
  size_t pos = jpeg_start(b);
  bool seen_sof = false, progressive = false, huffman[2][4] = {};
  for (;;) {
    if (pos >= b.size()) return truncated;
    if (b[pos] != 0xFF)
      return "corrupt JPEG: no marker where one should be (byte " + std::to_string(pos) + ")";
    while (pos < b.size() && b[pos] == 0xFF) ++pos;  // fill bytes
    if (pos >= b.size()) return truncated;
    const uint8_t m = b[pos++];
    if (m == 0xD9) return {};                             // EOI
    if (m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue;  // no length
    if (b.size() - pos < 2) return truncated;
    const size_t len = be16(&b[pos]);
    if (len < 2) return "corrupt JPEG: a segment of length " + std::to_string(len);
    if (b.size() - pos < len) return truncated;
    const bool sof = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
    if (sof && !seen_sof) progressive = m == 0xC2;  // stb reads the first frame header only
    seen_sof = seen_sof || sof;
    if (sof && len >= 7) h.size = {{be16(&b[pos + 5]), be16(&b[pos + 3])}};
    if (m == 0xC4)
      if (std::string why = check_dht(b, pos + 2, len - 2, huffman); !why.empty()) return why;
    if (m == 0xDA) {
      if (++h.jpeg_scans > kMaxJpegScans)
        return "corrupt JPEG: more than " + std::to_string(kMaxJpegScans) + " scans (a decoding bomb?)";
      if (std::string why = check_sos(b, pos + 2, len - 2, progressive, huffman); !why.empty()) return why;
    }
    h.jpeg_progressive = progressive;
    pos += len;
    if (m == 0xDA) {  // start of scan: entropy-coded data up to the next marker that is not RSTn
      for (;;) {
        if (b.size() - pos < 2) return truncated;
        if (b[pos] == 0xFF && b[pos + 1] != 0 && !(b[pos + 1] >= 0xD0 && b[pos + 1] <= 0xD7)) break;
        ++pos;
      }
    }
  }
}

// Binary PGM/PPM ("P5"/"P6"): stb reads the header's width, height and maximum value into an int
// with no bound, so a longer number overflows (undefined behaviour) before any check of stb's. They
// are read here first, as stb reads them (blanks and '#' comments between them): a number past
// 2^31 - 1 is refused before stb sees it, and the size goes through check_size like every format's.
// (stb stops short of the file's last byte; this reads it too, so its numbers are never smaller.)
std::string check_pnm(std::span<const uint8_t> b, Header& h) {
  static constexpr const char* kFields[3] = {"width", "height", "maximum value"};
  const auto blank = [](uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
  };
  uint64_t fields[3] = {};
  size_t pos = 2;
  for (int f = 0; f < 3; ++f) {
    for (;;) {
      while (pos < b.size() && blank(b[pos])) ++pos;
      if (pos >= b.size() || b[pos] != '#') break;
      while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
    }
    const size_t start = pos;
    for (; pos < b.size() && b[pos] >= '0' && b[pos] <= '9'; ++pos)
      if (fields[f] <= uint64_t(std::numeric_limits<int>::max())) fields[f] = fields[f] * 10 + (b[pos] - '0');
    // No digits ("abc", "-3", the file's end): this field is wrong, not the ones read after it.
    if (pos == start || (pos < b.size() && !blank(b[pos]) && b[pos] != '#')) {
      size_t end = pos;
      while (end < b.size() && end - start < 24 && !blank(b[end])) ++end;
      return "corrupt PGM/PPM: the " + std::string(kFields[f]) + " in its header (" +
             (end == start
                  ? std::string("nothing: the file ends")
                  : text::quote(std::string_view(reinterpret_cast<const char*>(&b[start]), end - start))) +
             ") is not a whole number";
    }
    if (fields[f] > uint64_t(std::numeric_limits<int>::max()))
      return "corrupt PGM/PPM: the " + std::string(kFields[f]) + " in its header (" +
             text::escape(std::string_view(reinterpret_cast<const char*>(&b[start]), pos - start), 24) +
             ") is out of range";
  }
  h.size = {{fields[0], fields[1]}};
  // Netpbm: 1 to 65535. stb reads a maximum value of 0 as 255, a picture the file does not hold.
  if (fields[2] == 0 || fields[2] > 65535)
    return "corrupt PGM/PPM: its maximum value is " + std::to_string(fields[2]) + " (1 to 65535)";
  return {};
}

// The PNG's image data inflated with zlib into a small buffer, before stb inflates it into one that
// grows as long as the stream lasts: a stream that inflates past the bytes the image's own size
// needs is a decompression bomb (a few MiB can inflate to GiB) and refused as soon as it passes them.
// In a palette image, each row is unfiltered on the way and its indices checked against the palette:
// stb reads an index past the palette's end from uninitialised memory (a different picture each run).
std::string check_png_data(const Header& hd, uint64_t w, uint64_t h) {
  struct Pass {
    uint64_t x0, y0, dx, dy;
  };
  static constexpr Pass kAdam7[7] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                     {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
  static constexpr Pass kWhole[1] = {{0, 0, 1, 1}};
  const std::span<const Pass> passes = hd.png_interlaced ? std::span<const Pass>(kAdam7) : kWhole;
  const uint64_t bpp = uint64_t(hd.png_bits_per_pixel);
  // Each pass: rows of a filter byte and ceil(width x bits / 8) bytes.
  struct Rows {
    uint64_t bytes, count, pixels;  // bytes a row without its filter byte, rows, pixels a row
  };
  std::vector<Rows> rows;
  uint64_t need = 0;
  for (const Pass& p : passes) {
    const uint64_t pw = w > p.x0 ? (w - p.x0 + p.dx - 1) / p.dx : 0,
                   ph = h > p.y0 ? (h - p.y0 + p.dy - 1) / p.dy : 0;
    if (pw == 0 || ph == 0) continue;
    rows.push_back({(pw * bpp + 7) / 8, ph, pw});
    need += ph * (1 + rows.back().bytes);
  }
  const bool palette = hd.png_colour_type == 3 && hd.png_bit_depth >= 1 && hd.png_bit_depth <= 8;
  if (palette && hd.png_palette_entries == 0) return {};  // stb refuses it itself ("no PLTE")
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return {};
  std::vector<uint8_t> out(64 << 10), row, prev;
  uint64_t total = 0;
  size_t pass = 0, row_in_pass = 0, at = 0;  // where the next byte goes: at 0, the filter byte
  uint8_t filter = 0;
  std::string why;
  const auto per_byte = [&](uint8_t v) -> bool {  // false: stop (why says so, or the data is all there)
    if (pass >= rows.size()) return false;
    const uint64_t row_bytes = rows[pass].bytes;
    if (at == 0) {
      filter = v;
      row.assign(size_t(row_bytes), 0);
      if (row_in_pass == 0) prev.assign(size_t(row_bytes), 0);
      ++at;
      return true;
    }
    const size_t i = at - 1;
    const int a = i >= 1 ? row[i - 1] : 0, b = prev[i], c = i >= 1 ? prev[i - 1] : 0;
    int x = v;
    switch (filter) {
      case 1:
        x += a;
        break;
      case 2:
        x += b;
        break;
      case 3:
        x += (a + b) / 2;
        break;
      case 4: {
        const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
        x += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        break;
      }
      default:
        break;  // 0, or one stb refuses itself
    }
    row[i] = uint8_t(x);
    if (++at <= row_bytes) return true;
    // A whole row: its indices, packed from the high bits (the last byte's unused bits are no pixel).
    const int bits = hd.png_bit_depth;
    for (uint64_t k = 0; k < rows[pass].pixels; ++k) {
      const uint64_t bit = k * uint64_t(bits);
      const unsigned index = (row[size_t(bit / 8)] >> (8 - bits - int(bit % 8))) & ((1u << bits) - 1);
      if (index >= hd.png_palette_entries) {
        why = "corrupt PNG: palette index " + std::to_string(index) + ", the palette has " +
              std::to_string(hd.png_palette_entries) + " entries";
        return false;
      }
    }
    std::swap(row, prev);
    at = 0;
    if (++row_in_pass == rows[pass].count) {
      ++pass;
      row_in_pass = 0;
    }
    return true;
  };
  bool done = false;
  for (size_t c = 0; c < hd.idat.size() && !done; ++c) {
    z.next_in = const_cast<Bytef*>(hd.idat[c].data());
    z.avail_in = uInt(hd.idat[c].size());
    // On while input is left, or while the output buffer came back full (more may be pending even
    // with no input left: the last rows of the last chunk).
    do {
      z.next_out = out.data();
      z.avail_out = uInt(out.size());
      const int rc = inflate(&z, Z_NO_FLUSH);
      const size_t got = out.size() - z.avail_out;
      total += got;
      if (total > need) {
        why = "corrupt PNG: its compressed data inflate to more than the " + std::to_string(need) +
              " bytes a " + std::to_string(w) + "x" + std::to_string(h) +
              " image holds (a decompression bomb?)";
        done = true;
        break;
      }
      if (palette)
        for (size_t k = 0; k < got && why.empty(); ++k)
          if (!per_byte(out[k])) break;
      if (!why.empty() || rc == Z_STREAM_END || (rc != Z_OK && rc != Z_BUF_ERROR)) done = true;
      if (rc == Z_BUF_ERROR) break;  // no progress without more input
    } while (!done && (z.avail_in > 0 || z.avail_out == 0));
  }
  inflateEnd(&z);
  return why;
}

std::string check_size(uint64_t w, uint64_t h) {
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  if (w == 0 || h == 0) return "the image is empty (" + size + " pixels)";
  if (w > uint64_t(kMaxSide) || h > uint64_t(kMaxSide))
    return "the image is " + size + " pixels, larger than the limit of " + std::to_string(kMaxSide) +
           " pixels a side";
  if (w * h > kMaxPixels)  // no overflow: both sides are at most 2^15 here
    return "the image is " + size + " pixels (" + std::to_string(w * h) +
           " in all), more than the limit of " + std::to_string(kMaxPixels) + " pixels";
  if (w * h > max_pixels())
    return "the image is " + size + " pixels (" + std::to_string(w * h) +
           " in all), more than the limit of " + std::to_string(max_pixels()) +
           " pixels a file may decode to, checked before decoding (gpulab --max-image-pixels N raises it, up "
           "to " +
           std::to_string(kMaxPixels) + ")";
  return {};
}

// The fewest bytes a file of this format can hold w x h pixels in: fewer, and the file is truncated
// (stb would zero-fill or read past its end: it does for BMP, TGA and PGM/PPM) or its header lies
// (stb would allocate, and for GIF clear, the full size first). 0 where there is no such bound.
uint64_t min_file_bytes(Format f, std::span<const uint8_t> b, const Header& hd, uint64_t w, uint64_t h) {
  switch (f) {
    case Format::Png: {  // deflate expands at most 1032 times (258 bytes from a 2-bit code)
      const uint64_t packed = h * ((w * uint64_t(hd.png_bits_per_pixel) + 7) / 8);
      return b.size() - hd.idat_bytes + packed / 1032;
    }
    case Format::Jpeg:  // at least one bit for each 8x8 block of the full-resolution component
      return ((w + 7) / 8) * ((h + 7) / 8) / 8;
    case Format::Gif:  // stb: codes of at least 3 bits, each at most 8192 pixels
      return w * h / 21845;
    case Format::Bmp: {  // uncompressed (stb reads no RLE): rows padded to 4 bytes, the last one maybe not
      if (b.size() < 30) return 30;  // shorter than its headers and one row of pixels (stb reads zeros)
      const uint64_t offset = le32(&b[10]);
      const uint64_t bpp = le32(&b[14]) == 12 ? le16(&b[24]) : le16(&b[28]);  // OS/2 or Windows header
      const uint64_t bits = bpp * w;
      if (bpp == 0) return 0;
      return offset + (bits + 31) / 32 * 4 * (h - 1) + (bits + 7) / 8;
    }
    case Format::Pnm: {  // "P5" or "P6", width, height, maxval, one whitespace byte, the samples
      size_t pos = 2;
      uint64_t fields[3] = {};
      for (uint64_t& field : fields) {
        while (pos < b.size() && (std::isspace(b[pos]) || b[pos] == '#')) {
          if (b[pos] == '#')
            while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
          else
            ++pos;
        }
        while (pos < b.size() && std::isdigit(b[pos]) && field < (uint64_t(1) << 32))
          field = field * 10 + (b[pos++] - '0');
      }
      const uint64_t samples = b[1] == '6' ? 3 : 1, bytes = fields[2] > 255 ? 2 : 1;
      return pos + 1 + w * h * samples * bytes;
    }
    case Format::Tga: {
      if (b.size() < 18) return 19;  // shorter than its header and one byte of pixels (stb reads zeros)
      const uint64_t bytes_pp = (uint64_t(b[16]) + 7) / 8;
      const uint64_t colour_map = b[1] ? uint64_t(le16(&b[5])) * ((uint64_t(b[7]) + 7) / 8) : 0;
      const uint64_t base = 18 + uint64_t(b[0]) + colour_map;
      if (b[2] >= 1 && b[2] <= 3) return base + w * h * bytes_pp;
      if (b[2] >= 9 && b[2] <= 11) return base + (w * h + 127) / 128 * (1 + bytes_pp);  // RLE packets
      return 0;
    }
    case Format::Unknown:
    case Format::PnmAscii:
      break;
  }
  return 0;
}

std::string stb_reason() {
  const char* r = stbi_failure_reason();
  return r && *r ? r : "unknown reason";
}

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  const auto* bytes = static_cast<const uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

// "" when width x height x channels with `bytes` bytes of pixels can be encoded, else why not.
std::string check_encodable(int width, int height, int channels, const uint8_t* pixels) {
  if (channels < 1 || channels > 4)
    return "unsupported channel count " + std::to_string(channels) + " (1 to 4)";
  if (width <= 0 || height <= 0)
    return "image size " + std::to_string(width) + "x" + std::to_string(height) + " is empty";
  if (pixels == nullptr) return "no pixels";
  if (int64_t(width) * channels > std::numeric_limits<int>::max()) return "image too wide for PNG encoder";
  return {};
}

std::vector<uint8_t> encode(int width, int height, int channels, const uint8_t* pixels) {
  std::vector<uint8_t> png;
  if (!stbi_write_png_to_func(append_bytes, &png, width, height, channels, pixels, width * channels))
    png.clear();
  return png;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

LoadResult decode(std::span<const uint8_t> bytes, std::string_view name, const SizeCheck& refuse_size) {
  auto fail = [&](const std::string& why) {
    return LoadResult{Image{}, "cannot read " + text::escape(name) + ": " + why};
  };
  if (bytes.empty()) return fail("the file is empty");
  if (bytes.size() > size_t(std::numeric_limits<int>::max()))
    return fail("the file is too large (" + std::to_string(bytes.size()) + " bytes; at most 2 GiB)");

  Format format = sniff(bytes);
  Header header;
  std::string why;
  switch (format) {
    case Format::Png:
      why = check_png(bytes, header);
      break;
    case Format::Gif:
      why = check_gif(bytes, header);
      break;
    case Format::Jpeg:
      why = check_jpeg(bytes, header);
      break;
    case Format::Pnm:
      why = check_pnm(bytes, header);
      break;
    case Format::PnmAscii:
      why = std::string("PNM type P") + char(bytes[1]) +
            " (plain text or 1-bit) is not supported: save as binary PGM (P5) or PPM (P6)";
      break;
    default:
      break;
  }
  if (why.empty() && header.size) why = check_size(header.size->first, header.size->second);
  if (!why.empty()) return fail(why);

  const int len = int(bytes.size());
  int w = 0, h = 0, channels = 0;
  if (!stbi_info_from_memory(bytes.data(), len, &w, &h, &channels)) {
    if (format == Format::Unknown)
      return fail("not a readable image: unknown format (gpulab reads PNG, JPEG, BMP, TGA, PGM/PPM and GIF)");
    // stbi_info tries every format in turn and keeps the last one's reason ("unknown type"); the
    // loader picks the format by its signature and stops at the same header check with the real
    // reason, before allocating any pixels.
    stbi_image_free(stbi_load_from_memory(bytes.data(), len, &w, &h, &channels, 0));
    const std::string reason = stb_reason();
    if (header.size &&
        (reason.find("too large") != std::string::npos || reason.find("large image") != std::string::npos))
      return fail("the image is " + std::to_string(header.size->first) + "x" +
                  std::to_string(header.size->second) + " pixels, too large to decode (stb: " + reason + ")");
    return fail("corrupt " + std::string(format_name(format)) + " (" + reason + ")");
  }
  if (format == Format::Unknown) format = Format::Tga;  // the one format stb knows without a signature
  // A top-down BMP stores a negative height; stb's loader takes its magnitude, its info call does not.
  if (format == Format::Bmp && h < 0 && h > std::numeric_limits<int>::min()) h = -h;
  const std::string fmt = format_name(format);
  if (w < 0 || h < 0)  // the header's own numbers, not the empty image they would make
    return fail("corrupt " + fmt + ": its header gives a size of " + std::to_string(w) + "x" +
                std::to_string(h) + " pixels");
  // All before decoding: stb allocates width x height x channels at once.
  why = check_size(uint64_t(std::max(w, 0)), uint64_t(std::max(h, 0)));
  if (why.empty() && refuse_size) why = refuse_size(w, h);
  if (!why.empty()) return fail(why);
  if (channels < 1 || channels > 4) return fail("unsupported channel count " + std::to_string(channels));
  if (const uint64_t need = min_file_bytes(format, bytes, header, uint64_t(w), uint64_t(h));
      need > bytes.size())
    return fail("truncated " + fmt + ": " + std::to_string(w) + "x" + std::to_string(h) +
                " pixels need at least " + std::to_string(need) + " bytes, the file has " +
                std::to_string(bytes.size()));
  if (stbi_is_16_bit_from_memory(bytes.data(), len))
    return fail("16-bit images are not supported: convert to 8-bit");
  // What decoding takes: stb's pixels, its inflated PNG data or JPEG component planes (and a
  // progressive JPEG's coefficients, 2 bytes each), and the copy returned.
  const uint64_t count = uint64_t(w) * uint64_t(h);
  const uint64_t need = count * uint64_t(channels) * 3 + (header.jpeg_progressive ? count * 3 * 2 : 0);
  if (std::string short_of = memory_problem(need, available_memory()); !short_of.empty())
    return fail("the image is " + std::to_string(w) + "x" + std::to_string(h) + " pixels: " + short_of);
  if (format == Format::Png)
    if (std::string bad = check_png_data(header, uint64_t(w), uint64_t(h)); !bad.empty()) return fail(bad);

  int dw = 0, dh = 0, dc = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> pixels(
      stbi_load_from_memory(bytes.data(), len, &dw, &dh, &dc, channels), stbi_image_free);
  if (!pixels) return fail("truncated or corrupt " + fmt + " data (" + stb_reason() + ")");
  if (dw != w || dh != h)
    return fail("corrupt " + fmt + ": the header says " + std::to_string(w) + "x" + std::to_string(h) +
                ", the data " + std::to_string(dw) + "x" + std::to_string(dh));

  LoadResult result;
  result.image.width = w;
  result.image.height = h;
  result.image.channels = channels;
  result.image.pixels.assign(pixels.get(), pixels.get() + size_t(w) * size_t(h) * size_t(channels));
  return result;
}

namespace {
std::atomic<uint64_t> g_max_pixels{kDefaultMaxPixels};
}  // namespace

void set_max_pixels(uint64_t pixels) { g_max_pixels = std::clamp<uint64_t>(pixels, 1, kMaxPixels); }
uint64_t max_pixels() { return g_max_pixels; }

uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::string memory_problem(uint64_t need, uint64_t available) {
  if (available == 0 || need <= available / kMemoryShareDivisor) return {};
  auto gib = [](uint64_t b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / double(1ull << 30));
    return std::string(buf);
  };
  return "decoding it needs about " + gib(need) + " of memory, more than half of the " + gib(available) +
         " available now (close other programs, or scale the image down)";
}

namespace {
// DecodeScope's state: how many scopes live, and the pictures decoded while they do, by file.
struct Decoded {
  std::mutex mutex;
  int scopes = 0;
  std::map<std::string, std::shared_ptr<const Image>> images;  // key: path, size, modification time
};
Decoded& decoded() {
  static Decoded d;
  return d;
}
// The file's key: its path, size and modification time ("" when it cannot be stat'ed: not kept).
std::string decode_key(const fs::path& path) {
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return {};
  const auto time = fs::last_write_time(path, ec);
  if (ec) return {};
  return path.string() + '\n' + std::to_string(size) + '\n' + std::to_string(time.time_since_epoch().count());
}
}  // namespace

DecodeScope::DecodeScope() {
  std::lock_guard lock(decoded().mutex);
  ++decoded().scopes;
}

DecodeScope::~DecodeScope() {
  std::lock_guard lock(decoded().mutex);
  if (--decoded().scopes == 0) decoded().images.clear();
}

LoadResult load(const fs::path& path, const SizeCheck& refuse_size) {
  Decoded& d = decoded();
  std::string key;
  {
    std::lock_guard lock(d.mutex);
    if (d.scopes > 0) key = decode_key(path);
    if (const auto it = d.images.find(key); !key.empty() && it != d.images.end()) {
      const Image& kept = *it->second;
      if (std::string why = refuse_size ? refuse_size(kept.width, kept.height) : ""; !why.empty())
        return LoadResult{Image{}, "cannot read " + text::escape(path.string()) + ": " + why};
      return LoadResult{kept, ""};
    }
  }
  // At most 2 GiB: stb reads from an int-sized buffer.
  files::ReadResult file = files::read_regular_file(path, uint64_t(std::numeric_limits<int>::max()));
  if (!file.error.empty())
    return LoadResult{Image{}, "cannot read " + text::escape(path.string()) + ": " + file.error};
  LoadResult r = decode(file.bytes, path.string(), refuse_size);
  if (!key.empty() && r.error.empty()) {
    std::lock_guard lock(d.mutex);
    if (d.scopes > 0) d.images.emplace(key, std::make_shared<const Image>(r.image));
  }
  return r;
}

// ---------------------------------------------------------------------------------------------

std::vector<uint8_t> encode_png(const Image& image) {
  if (!check_encodable(image.width, image.height, image.channels, image.pixels.data()).empty() ||
      image.pixels.size() != image.pixel_count() * size_t(image.channels))
    return {};
  return encode(image.width, image.height, image.channels, image.pixels.data());
}

std::string save_png(const fs::path& path, const Image& image) {
  if (image.channels >= 1 && image.channels <= 4 && image.width > 0 && image.height > 0 &&
      image.pixels.size() != image.pixel_count() * size_t(image.channels))
    return "cannot write " + text::escape(path.string()) + ": " + std::to_string(image.pixels.size()) +
           " bytes of pixels for a " + std::to_string(image.width) + "x" + std::to_string(image.height) +
           "x" + std::to_string(image.channels) + " image";
  return save_png(path, image.width, image.height, image.channels, image.pixels.data());
}

std::string save_png(const fs::path& path, int width, int height, int channels, const uint8_t* pixels) {
  if (std::string why = check_encodable(width, height, channels, pixels); !why.empty())
    return "cannot write " + text::escape(path.string()) + ": " + why;
  const std::vector<uint8_t> png = encode(width, height, channels, pixels);
  if (png.empty())
    return "cannot write " + text::escape(path.string()) + ": PNG encoding failed (out of memory?)";

  // Regular files only, written beside the target and renamed into place (common/file_io.h).
  return files::write_regular_file(path, png);
}

// ---------------------------------------------------------------------------------------------

Image convert_channels(const Image& image, int channels) {
  if (channels < 1 || channels > 4 || image.channels < 1 || image.channels > 4)
    throw std::invalid_argument("convert_channels: channels " + std::to_string(image.channels) + " -> " +
                                std::to_string(channels) + " (1 to 4)");
  const size_t n = image.pixel_count();
  if (image.width < 0 || image.height < 0 || image.pixels.size() != n * size_t(image.channels))
    throw std::invalid_argument("convert_channels: " + std::to_string(image.pixels.size()) +
                                " bytes of pixels for a " + std::to_string(image.width) + "x" +
                                std::to_string(image.height) + "x" + std::to_string(image.channels) +
                                " image");
  if (channels == image.channels) return image;

  Image out;
  out.width = image.width;
  out.height = image.height;
  out.channels = channels;
  out.pixels.resize(n * size_t(channels));
  const int from = image.channels;
  const uint8_t* s = image.pixels.data();
  uint8_t* d = out.pixels.data();
  for (size_t i = 0; i < n; ++i, s += from, d += channels) {
    // grey and alpha of the source pixel; grey from colour as stb's stbi__compute_y
    const uint8_t grey = from >= 3 ? uint8_t((s[0] * 77 + s[1] * 150 + s[2] * 29) >> 8) : s[0];
    const uint8_t alpha = from == 2 ? s[1] : from == 4 ? s[3] : 255;
    switch (channels) {
      case 1:
        d[0] = grey;
        break;
      case 2:
        d[0] = grey;
        d[1] = alpha;
        break;
      case 3:
      case 4:
        if (from >= 3) {
          d[0] = s[0];
          d[1] = s[1];
          d[2] = s[2];
        } else {
          d[0] = d[1] = d[2] = grey;
        }
        if (channels == 4) d[3] = alpha;
        break;
    }
  }
  return out;
}

}  // namespace gpulab::image

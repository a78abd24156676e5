#pragma once
// Small text helpers shared by the file parsers of every demo (rules, patterns, body files).
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::text {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Lines ending in \n or \r\n (and a last one without either), without a UTF-8 byte-order mark
// (some editors write one; it is not part of the first line).
inline std::vector<std::string_view> split_lines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// `s` as one word for a POSIX shell (single-quoted, a ' inside written '\'').
inline std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The code point of the valid UTF-8 sequence that starts at s[i], and its length (1 to 4); 0 where
// none starts there (a continuation byte, an overlong form, a surrogate, beyond U+10FFFF, a sequence
// cut by the end). Every code point, those above U+FFFF too (an emoji is U+1F642, not U+FFFD).
inline size_t utf8_decode(std::string_view s, size_t i, uint32_t* cp) {
  if (i >= s.size()) return 0;
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  const size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
  if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogates
  if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
  if (c == 0xF4 && b(1) >= 0x90) return 0;  // beyond U+10FFFF
  uint32_t v = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < n; ++k) v = (v << 6) | (b(k) & 0x3F);
  *cp = v;
  return n;
}

// Input made safe to print inside a message: control bytes (C0, DEL, and the C1 controls U+0080..
// U+009F, which terminals obey too), and bytes that are not valid UTF-8, become \xNN (\n, \r, \t
// and \\ as such), so a file's bytes can neither move the terminal's cursor nor cut the message
// at a NUL. Printable ASCII and valid UTF-8 text pass unchanged. At most `max_bytes` of the input
// are shown, then "...".
inline std::string escape(std::string_view s, size_t max_bytes = 200) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size() < max_bytes ? s.size() : max_bytes);
  auto hex = [&](unsigned char c) {
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  // Length of the valid UTF-8 sequence starting at s[i] (2..4), or 0; the C1 controls (U+0080..
  // U+009F) count as none: escaped byte by byte.
  auto utf8_length = [&](size_t i) -> size_t {
    uint32_t cp = 0;
    const size_t n = utf8_decode(s, i, &cp);
    return n >= 2 && !(cp >= 0x80 && cp <= 0x9F) ? n : 0;
  };
  size_t i = 0;
  for (; i < s.size() && i < max_bytes; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      hex(c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (const size_t n = utf8_length(i); n > 0) {
      out.append(s.substr(i, n));
      i += n - 1;
    } else {
      hex(c);
    }
  }
  if (i < s.size()) out += "...";
  return out;
}

// One character of input for a message: 'x' when printable, "a space", "a tab", else "byte 0xNN".
inline std::string show_char(char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7F) return std::string("'") + c + "'";
  if (c == ' ') return "a space";
  if (c == '\t') return "a tab";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
}

// escape(s) in single quotes: how every message quotes a value or a line it was given.
inline std::string quote(std::string_view s, size_t max_bytes = 200) {
  std::string q(1, '\'');  // appended: GCC 12 warns falsely (-Wrestrict) on "'" + ... + "'"
  q += escape(s, max_bytes);
  q += '\'';
  return q;
}

}  // namespace gpulab::text

// cpu label: text::escape / quote, which every message that quotes input goes through.
#include "common/text.h"

#include <gtest/gtest.h>

#include <string>

namespace gpulab::text {
namespace {

bool has_raw_control(const std::string& s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7F) return true;
  return false;
}

TEST(TextEscape, PrintableTextAndUtf8PassUnchanged) {
  EXPECT_EQ(escape("B3/S23 glider.rle"), "B3/S23 glider.rle");
  EXPECT_EQ(escape("Gr\xC3\xBC\xC3\x9F\x65 \xE2\x9C\x93 \xF0\x9F\x98\x80"),
            "Gr\xC3\xBC\xC3\x9F\x65 \xE2\x9C\x93 \xF0\x9F\x98\x80");
}

TEST(TextEscape, ControlBytesBecomeHexAndCannotReachTheTerminal) {
  // ESC [2J clears a terminal; a NUL would cut a C string; DEL; a lone CR rewrites the line.
  const std::string hostile = std::string("a\x1B[2Jb") + '\0' + "c\x7F\r\n\t\\";
  const std::string e = escape(hostile);
  EXPECT_EQ(e, "a\\x1B[2Jb\\x00c\\x7F\\r\\n\\t\\\\");
  EXPECT_FALSE(has_raw_control(e));
  EXPECT_EQ(e.find('\0'), std::string::npos);
}

TEST(TextEscape, C1ControlsAndInvalidUtf8AreEscapedByteByByte) {
  EXPECT_EQ(escape("\xC2\x9B"
                   "31m"),
            "\\xC2\\x9B31m");                            // U+009B, the one-byte CSI of 8-bit terminals
  EXPECT_EQ(escape("\x9B"), "\\x9B");                    // a lone continuation byte
  EXPECT_EQ(escape("\xC3"), "\\xC3");                    // a sequence cut at the end
  EXPECT_EQ(escape("\xE0\x80\xAF"), "\\xE0\\x80\\xAF");  // overlong
  EXPECT_EQ(escape("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a UTF-16 surrogate
  EXPECT_EQ(escape("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // beyond U+10FFFF
  EXPECT_EQ(escape("\xFF\xFE"), "\\xFF\\xFE");
}

TEST(TextEscape, LongInputIsCutWithAnEllipsis) {
  const std::string s(500, 'x');
  EXPECT_EQ(escape(s, 10), "xxxxxxxxxx...");
  EXPECT_EQ(escape("short", 10), "short");
  EXPECT_EQ(escape("", 10), "");
  // A multi-byte character is never split by the cut.
  EXPECT_EQ(escape("ab\xE2\x9C\x93", 3), "ab\xE2\x9C\x93");
}

TEST(TextEscape, QuoteWrapsInSingleQuotes) {
  EXPECT_EQ(quote("4ule"), "'4ule'");
  EXPECT_EQ(quote(std::string("\x1B") + "x"), "'\\x1Bx'");
  EXPECT_EQ(quote(""), "''");
}

TEST(TextEscape, ShowCharNamesOneCharacter) {
  EXPECT_EQ(show_char('q'), "'q'");
  EXPECT_EQ(show_char(' '), "a space");
  EXPECT_EQ(show_char('\t'), "a tab");
  EXPECT_EQ(show_char('\x1B'), "byte 0x1B");
  EXPECT_EQ(show_char('\0'), "byte 0x00");
}

}  // namespace
}  // namespace gpulab::text

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

TEST(TextUtf8, DecodesEveryCodePointAndRefusesWhatIsNotUtf8) {
  uint32_t cp = 0;
  const std::string s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x99\x82";  // a é € 🙂
  EXPECT_EQ(utf8_decode(s, 0, &cp), 1u);
  EXPECT_EQ(cp, 0x61u);
  EXPECT_EQ(utf8_decode(s, 1, &cp), 2u);
  EXPECT_EQ(cp, 0xE9u);
  EXPECT_EQ(utf8_decode(s, 3, &cp), 3u);
  EXPECT_EQ(cp, 0x20ACu);
  EXPECT_EQ(utf8_decode(s, 6, &cp), 4u);
  EXPECT_EQ(cp, 0x1F642u);
  EXPECT_EQ(utf8_decode(s, 2, &cp), 0u) << "a continuation byte starts nothing";
  EXPECT_EQ(utf8_decode(s, s.size(), &cp), 0u);
  for (const char* bad : {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF5\x80\x80\x80",
                          "\xF0\x9F\x99", "\xC3"})
    EXPECT_EQ(utf8_decode(bad, 0, &cp), 0u) << escape(bad);
  EXPECT_EQ(utf8_decode("\xF4\x8F\xBF\xBF", 0, &cp), 4u);
  EXPECT_EQ(cp, 0x10FFFFu);
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

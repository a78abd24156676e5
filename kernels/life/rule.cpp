// Rule parsing and printing: B/S notation ("B3/S23", "b3s23", "B2/S") and the older S/B form
// ("23/3") that RLE files still carry in `rule = 23/3` and `#r` lines.
#include <cctype>
#include <string>
#include <string_view>

#include "common/text.h"
#include "life/life.h"

namespace gpulab::life {
namespace {

using text::trim;

using text::show_char;

struct Parser {
  std::string_view text;
  std::string error;

  bool fail(std::string message) {
    error = "rule " + text::quote(text) + ": " + std::move(message);
    return false;
  }

  // Reads neighbour-count digits from text[pos] on into `mask`; stops at the first non-digit.
  bool digits(size_t& pos, uint16_t& mask, const char* part) {
    for (; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
      const int n = text[pos] - '0';
      if (n > 8)
        return fail(std::string("digit ") + text[pos] + " in the " + part +
                    " part is not a neighbour count (a cell has 0 to 8 neighbours)");
      if (mask & (1u << n))
        return fail(std::string("digit ") + text[pos] + " appears twice in the " + part + " part");
      mask = static_cast<uint16_t>(mask | (1u << n));
    }
    return true;
  }

  // "B3/S23", "S23/B3", "B3S23", any case.
  bool letters(Rule& out) {
    uint16_t birth = 0, survive = 0;
    bool seen_b = false, seen_s = false;
    size_t pos = 0;
    int parts = 0;
    while (pos < text.size()) {
      const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos])));
      if (c != 'B' && c != 'S')
        return fail("unexpected " + show_char(text[pos]) + " at position " + std::to_string(pos + 1) +
                    " (expected B or S followed by neighbour counts 0-8)");
      bool& seen = c == 'B' ? seen_b : seen_s;
      if (seen) return fail(std::string("the letter ") + c + " appears twice");
      seen = true;
      ++pos;
      if (!digits(pos, c == 'B' ? birth : survive, c == 'B' ? "birth (B)" : "survive (S)")) return false;
      ++parts;
      if (pos < text.size() && text[pos] == '/') {
        if (parts == 2) return fail("unexpected '/' after the second part");
        ++pos;
        if (pos == text.size()) return fail("nothing after '/'");
      }
    }
    if (!seen_b) return fail("the birth part (B...) is missing");
    if (!seen_s) return fail("the survive part (S...) is missing");
    out.birth = birth;
    out.survive = survive;
    return true;
  }

  // The older "survive/birth" form: "23/3", "/2" (Seeds), "012345678/3".
  bool legacy(Rule& out) {
    uint16_t birth = 0, survive = 0;
    size_t pos = 0;
    if (!digits(pos, survive, "survive (first)")) return false;
    if (pos == text.size())
      return fail("a rule needs both parts: write B3/S23 (or the older survive/birth form 23/3)");
    if (text[pos] != '/')
      return fail("unexpected " + show_char(text[pos]) + " at position " + std::to_string(pos + 1) +
                  " (the older form is survive/birth digits, e.g. 23/3)");
    ++pos;
    if (!digits(pos, birth, "birth (second)")) return false;
    if (pos != text.size())
      return fail("unexpected " + show_char(text[pos]) + " at position " + std::to_string(pos + 1) +
                  " (the older form is survive/birth digits, e.g. 23/3)");
    out.birth = birth;
    out.survive = survive;
    return true;
  }
};

}  // namespace

std::optional<Rule> Rule::parse(std::string_view text, std::string* error) {
  Parser p{trim(text), {}};
  Rule rule;
  bool ok;
  if (p.text.empty()) {
    ok = p.fail("empty rule (expected something like B3/S23)");
  } else if (std::isdigit(static_cast<unsigned char>(p.text.front())) || p.text.front() == '/') {
    ok = p.legacy(rule);
  } else {
    ok = p.letters(rule);
  }
  if (!ok) {
    if (error) *error = std::move(p.error);
    return std::nullopt;
  }
  return rule;
}

std::string Rule::to_string() const {
  std::string s = "B";
  for (int n = 0; n <= 8; ++n)
    if (birth & (1u << n)) s += static_cast<char>('0' + n);
  s += "/S";
  for (int n = 0; n <= 8; ++n)
    if (survive & (1u << n)) s += static_cast<char>('0' + n);
  return s;
}

std::array<std::array<uint8_t, 9>, 2> Rule::table() const {
  std::array<std::array<uint8_t, 9>, 2> states{};
  for (uint32_t n = 0; n <= 8; ++n) {
    states[0][n] = next_state(birth, survive, 0, n);
    states[1][n] = next_state(birth, survive, 1, n);
  }
  return states;
}

}  // namespace gpulab::life

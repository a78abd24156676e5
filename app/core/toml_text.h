#pragma once
// For every reader of TOML files (settings, lessons): how a TOML value's type reads in a message ("must
// be a number, not a string"), and the nesting check made before toml++ parses a file.
#include <toml++/toml.h>

#include <string>
#include <string_view>
#include <vector>

namespace gpulab {

inline const char* toml_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    default:
      return "nothing";
  }
}

// The deepest nesting a TOML file read by gpulab may have: table-header parts, dotted-key parts,
// arrays and inline tables together. gpulab's own files need 3; toml++ recurses once per level when it
// builds and frees the tables, so a key of tens of thousands of dotted parts overflows the stack.
inline constexpr int kMaxTomlDepth = 64;

struct TomlDepth {
  int line = 0;   // 1-based line where the nesting first passes the limit; 0: within it
  int depth = 0;  // the nesting reached there
};

// Walks the text once, without recursion and without building anything, and finds where the
// nesting first passes `limit` (the walk stops there). Strings and comments are skipped; malformed
// text is walked as well as it goes and left to the parser's own message.
inline TomlDepth toml_too_deep(std::string_view s, int limit = kMaxTomlDepth) {
  enum class Mode { Key, Value, Rest };  // Rest: the end of a header line (a comment at most)
  struct Open {
    int depth;
    bool table;  // '{' (inline table: keys follow) or '[' (array: values follow)
  };
  std::vector<Open> open;
  int line = 1, base = 0, value_depth = 0;
  Mode mode = Mode::Key;
  size_t i = 0;
  const size_t n = s.size();
  auto too_deep = [&](int depth) { return depth > limit ? TomlDepth{line, depth} : TomlDepth{}; };
  // Skips the string starting at s[i] (a quote), multi-line ones included, counting lines.
  auto skip_string = [&]() {
    const char q = s[i];
    const bool multi = i + 2 < n && s[i + 1] == q && s[i + 2] == q;
    i += multi ? 3 : 1;
    while (i < n) {
      const char c = s[i];
      if (c == '\\' && q == '"') {
        i += 2;
        continue;
      }
      if (c == '\n') {
        ++line;
        if (!multi) return;  // unterminated: the parser says so
      }
      if (c == q && (!multi || (i + 2 < n && s[i + 1] == q && s[i + 2] == q))) {
        i += multi ? 3 : 1;
        while (multi && i < n && s[i] == q) ++i;  // up to two quotes may end the content
        return;
      }
      ++i;
    }
  };
  // The parts of a dotted key or header name up to `end` (or the line's end): dots outside quotes.
  auto count_parts = [&](char end) {
    int parts = 1;
    while (i < n && s[i] != end && s[i] != '\n') {
      if (s[i] == '"' || s[i] == '\'') {
        skip_string();
        continue;
      }
      if (s[i] == '.') ++parts;
      ++i;
    }
    return parts;
  };
  auto skip_comment = [&]() {
    while (i < n && s[i] != '\n') ++i;
  };
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      if (open.empty()) mode = Mode::Key;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#') {
      skip_comment();
      continue;
    }
    if (mode == Mode::Rest) {
      ++i;
      continue;
    }
    if (mode == Mode::Key) {
      if (c == '}' && !open.empty()) {  // an empty inline table
        open.pop_back();
        mode = open.empty() || open.back().table ? Mode::Key : Mode::Value;
        ++i;
        continue;
      }
      if (c == '[' && open.empty()) {  // a table header: its parts are the base of the keys under it
        ++i;
        base = count_parts(']');
        if (TomlDepth d = too_deep(base); d.line) return d;
        mode = Mode::Rest;
        continue;
      }
      // A key, dotted or not, up to its '='.
      value_depth = (open.empty() ? base : open.back().depth) + count_parts('=');
      if (TomlDepth d = too_deep(value_depth); d.line) return d;
      if (i < n && s[i] == '=') ++i;
      mode = Mode::Value;
      continue;
    }
    // A value, or what follows one.
    if (c == '"' || c == '\'') {
      skip_string();
    } else if (c == '{' || c == '[') {
      const int depth = (open.empty() || open.back().table ? value_depth : open.back().depth) + 1;
      if (TomlDepth d = too_deep(depth); d.line) return d;
      open.push_back({depth, c == '{'});
      mode = c == '{' ? Mode::Key : Mode::Value;
      ++i;
    } else if (c == '}' || c == ']') {
      if (!open.empty()) open.pop_back();
      ++i;
    } else if (c == ',') {
      mode = !open.empty() && open.back().table ? Mode::Key : Mode::Value;
      ++i;
    } else {
      ++i;
    }
  }
  return {};
}

// The line where a multi-line basic string ("""...""") has a line-ending backslash whose skipped
// whitespace is followed by a non-ASCII character; 0 where there is none. toml++ 3 (Debian 12's)
// classifies that character with a table that does not cover every code point and reaches
// __builtin_unreachable (undefined behaviour: found by fuzzing the settings reader), so the readers
// refuse such a file before parsing it.
inline constexpr const char* kTomlBackslashProblem =
    "a line-ending backslash in a \"\"\" string is followed by a non-ASCII character, which the TOML "
    "library cannot read: put the character on the backslash's line, or drop the backslash";
inline int toml_backslash_before_non_ascii(std::string_view s) {
  int line = 1;
  size_t i = 0;
  const size_t n = s.size();
  auto starts = [&](size_t at, std::string_view w) { return s.substr(at, w.size()) == w; };
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '#') {
      while (i < n && s[i] != '\n') ++i;
    } else if (starts(i, "\"\"\"")) {  // a multi-line basic string
      i += 3;
      while (i < n && !starts(i, "\"\"\"")) {
        if (s[i] == '\\') {
          size_t j = i + 1;
          while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r')) ++j;
          if (j < n && s[j] == '\n') {  // a line-ending backslash: whitespace up to the next text
            const int at = line;
            while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n')) {
              if (s[j] == '\n') ++line;
              ++j;
            }
            if (j < n && static_cast<unsigned char>(s[j]) >= 0x80) return at;
            i = j;
            continue;
          }
          i += 2;  // an escape (\\, \", \n...): its second character is not a quote or a backslash
          continue;
        }
        if (s[i] == '\n') ++line;
        ++i;
      }
      i += 3;
    } else if (c == '"' || c == '\'') {  // a one-line string, or a multi-line literal one
      const bool multi = c == '\'' && starts(i, "\'\'\'");
      i += multi ? 3 : 1;
      while (i < n && !(multi ? starts(i, "\'\'\'") : s[i] == c)) {
        if (s[i] == '\n') {
          if (!multi) break;
          ++line;
        }
        if (c == '"' && s[i] == '\\') ++i;
        ++i;
      }
      if (i < n && s[i] != '\n') i += multi ? 3 : 1;  // (an unterminated one ends at its line)
    } else {
      ++i;
    }
  }
  return 0;
}

}  // namespace gpulab

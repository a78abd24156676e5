// Reading and writing Life pattern files. RLE follows the LifeWiki/Golly conventions (header
// "x = m, y = n, rule = ...", #N/#C/#O/#R/#P/#r lines, b/o/$ runs ended by '!'); plaintext .cells
// files use '.' and 'O' with '!' comment lines. Both parsers report the 1-based line of the first
// problem and never throw on bad input.
#include "life/pattern.h"

#include "common/file_io.h"
#include "common/text.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

namespace gpulab::life {
namespace {

using text::split_lines;
using text::trim;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

using text::escape;
using text::quote;
using text::show_char;

PatternResult fail(int line, std::string message) {
  PatternResult r;
  r.error = {line, std::move(message)};
  return r;
}

// Whole non-negative number of cells, at most kMaxPatternEdge. Empty string on success.
std::string parse_edge(std::string_view key, std::string_view value, int& out) {
  if (value.empty()) return std::string(key) + " has no value (expected a number of cells)";
  long long v = 0;
  for (char c : value) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::string(key) + " must be a whole number of cells, got " + quote(value, 40);
    v = v * 10 + (c - '0');
    if (v > kMaxPatternEdge)
      return std::string(key) + " = " + escape(value, 40) + " is larger than the largest grid edge (" +
             std::to_string(kMaxPatternEdge) + ")";
  }
  out = static_cast<int>(v);
  return {};
}

// A signed integer for #R/#P offsets.
bool parse_int(std::string_view s, long long& out) {
  s = trim(s);
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 12) return false;
  long long v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  out = negative ? -v : v;
  return true;
}

// Golly appends a bounded-grid spec to the rule ("B3/S23:T100,100"); gpulab runs every pattern on a
// torus of --grid's size, so the suffix is not used, and a warning says so (it used to run on the
// default torus without a word).
std::optional<Rule> parse_rle_rule(std::string_view text, std::string* error, int line_no,
                                   std::vector<PatternError>& warnings) {
  const size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    warnings.push_back({line_no, "the rule's bounded grid " + quote(trim(text.substr(colon)), 40) +
                                     " is not used: gpulab runs patterns on a torus of --grid's size"});
    text = text.substr(0, colon);
  }
  return Rule::parse(text, error);
}

// Header: "x = m, y = n[, rule = B3/S23]", spaces optional, fields in any order.
std::optional<PatternError> parse_header(std::string_view line, int line_no, Pattern& p,
                                         std::optional<Rule>& header_rule,
                                         std::vector<PatternError>& warnings) {
  bool seen_x = false, seen_y = false, seen_rule = false;
  size_t start = 0;
  for (;;) {
    size_t end = line.find(',', start);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view raw = line.substr(start, end - start);
    const std::string_view item = trim(raw);
    if (item.empty()) {
      if (end == line.size()) break;  // a trailing comma
      return PatternError{line_no, "empty field in the header (two commas in a row?)"};
    }
    const size_t eq = raw.find('=');
    if (eq == std::string_view::npos)
      return PatternError{
          line_no, "header field " + quote(item, 40) + " has no '=' (expected x = <width>, y = <height>)"};
    const std::string key = lower(trim(raw.substr(0, eq)));
    std::string_view value = trim(raw.substr(eq + 1));
    if (key == "rule") {
      // Golly's bounded-grid suffix holds a comma of its own ("B3/S23:T64,64"): with a ':' the
      // rule runs to the end of the line.
      if (value.find(':') != std::string_view::npos) {
        value = trim(line.substr(start + eq + 1));
        end = line.size();
      }
      if (seen_rule) return PatternError{line_no, "rule appears twice in the header"};
      seen_rule = true;
      std::string why;
      header_rule = parse_rle_rule(value, &why, line_no, warnings);
      if (!header_rule) return PatternError{line_no, why};
    } else if (key == "x" || key == "y") {
      bool& seen = key == "x" ? seen_x : seen_y;
      if (seen) return PatternError{line_no, key + " appears twice in the header"};
      seen = true;
      const std::string problem = parse_edge(key, value, key == "x" ? p.width : p.height);
      if (!problem.empty()) return PatternError{line_no, problem};
    } else {
      // Golly reads x, y and rule only. A misspelt rule ("rul", "4ule") would otherwise run the
      // pattern under B3/S23 without a word, so every other field is named.
      warnings.push_back({line_no, "unknown header field " + quote(trim(raw.substr(0, eq)), 40) +
                                       " ignored (an RLE header has x, y and rule)"});
    }
    if (end >= line.size()) break;
    start = end + 1;
  }
  if (!seen_x) return PatternError{line_no, "the header has no x = <width>"};
  if (!seen_y) return PatternError{line_no, "the header has no y = <height>"};
  return std::nullopt;
}

// "#R x y" / "#P x y".
bool parse_offset(std::string_view rest, Cell& out) {
  rest = trim(rest);
  size_t split = rest.find_first_of(" \t");
  if (split == std::string_view::npos) return false;
  long long x, y;
  if (!parse_int(rest.substr(0, split), x) || !parse_int(rest.substr(split), y)) return false;
  if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX) return false;
  out = {static_cast<int>(x), static_cast<int>(y)};
  return true;
}

// Appends [x, x + n) on row y, after every run so far (the readers go row by row, left to right),
// joined to the last run where they touch ("2o3o" is one run of 5).
void add_run(Pattern& p, int y, int x, int n) {
  if (!p.runs.empty()) {
    CellRun& last = p.runs.back();
    if (last.y == y && last.x + last.length == x) {
      last.length += n;
      return;
    }
  }
  p.runs.push_back({y, x, n});
}

}  // namespace

uint8_t Pattern::at(int x, int y) const {
  // The first run that starts after (x, y); the one before it is the only one that can hold it.
  auto after = std::upper_bound(runs.begin(), runs.end(), std::pair{y, x},
                                [](std::pair<int, int> c, const CellRun& r) {
                                  return c.first < r.y || (c.first == r.y && c.second < r.x);
                                });
  if (after == runs.begin()) return 0;
  const CellRun& r = *std::prev(after);
  return r.y == y && x < r.x + r.length ? 1 : 0;
}

uint64_t Pattern::population() const {
  uint64_t n = 0;
  for (const CellRun& r : runs) n += static_cast<uint64_t>(r.length);
  return n;
}

std::vector<uint8_t> Pattern::dense() const {
  std::vector<uint8_t> cells(static_cast<size_t>(width) * static_cast<size_t>(height), 0);
  for (const CellRun& r : runs)
    std::fill_n(cells.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(r.y) * width + r.x), r.length,
                uint8_t{1});
  return cells;
}

std::string Pattern::check() const {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width < 0 || height < 0) return "the pattern's size " + size + " is negative";
  for (size_t i = 0; i < runs.size(); ++i) {
    const CellRun& r = runs[i];
    const std::string which = "run " + std::to_string(i + 1) + " (row " + std::to_string(r.y) + ", cells " +
                              std::to_string(r.x) + " to " + std::to_string(int64_t{r.x} + r.length - 1) +
                              ")";
    if (r.length < 1) return which + " is empty";
    if (r.y < 0 || r.y >= height || r.x < 0 || int64_t{r.x} + r.length > width)
      return which + " lies outside the " + size + " pattern";
    if (i > 0) {
      const CellRun& p = runs[i - 1];
      if (r.y < p.y || (r.y == p.y && r.x <= p.x + p.length))
        return which + " is not after the run before it, or touches it";
    }
  }
  return {};
}

std::string describe(const PatternError& error, std::string_view source) {
  std::string out = text::escape(source);
  if (error.line > 0) {
    out += ':';
    out += std::to_string(error.line);
  }
  if (!out.empty()) out += ": ";
  out += error.message;
  return out;
}

PatternResult parse_rle(std::string_view text, int max_width, int max_height) {
  const std::vector<std::string_view> lines = split_lines(text);
  Pattern p;
  std::vector<PatternError> warnings;
  std::optional<Rule> header_rule, hash_rule;
  size_t li = 0;

  // Comment lines and the header.
  int header_line = 0;
  for (; li < lines.size(); ++li) {
    const int line_no = static_cast<int>(li) + 1;
    const std::string_view line = trim(lines[li]);
    if (line.empty()) continue;
    if (line.front() == '#') {
      const char kind = line.size() > 1 ? line[1] : ' ';
      const std::string_view rest = trim(line.substr(std::min<size_t>(2, line.size())));
      switch (kind) {
        case 'N':
          if (p.name.empty())
            p.name = std::string(rest);
          else
            p.comments.emplace_back(rest);
          break;
        case 'C':
        case 'c':
          p.comments.emplace_back(rest);
          break;
        case 'O':
          p.author = std::string(rest);
          break;
        case 'R':
        case 'P': {
          Cell offset;
          if (!parse_offset(rest, offset))
            return fail(line_no, std::string("expected '#") + kind + " <x> <y>' with whole numbers, got " +
                                     quote(line, 60));
          p.offset = offset;
          break;
        }
        case 'r': {
          std::string why;
          hash_rule = parse_rle_rule(rest, &why, line_no, warnings);
          if (!hash_rule) return fail(line_no, why);
          break;
        }
        default:
          break;  // other '#' lines (Golly's #CXRLE, XLife's #L ...) carry nothing gpulab uses
      }
      continue;
    }
    // The header is the first other line; its first field is x (or, in a few writers, y).
    const char first = static_cast<char>(std::tolower(static_cast<unsigned char>(line.front())));
    if (first != 'x' && first != 'y')
      return fail(line_no,
                  "missing RLE header: expected 'x = <width>, y = <height>' before the pattern, found " +
                      quote(line, 40));
    if (auto problem = parse_header(line, line_no, p, header_rule, warnings))
      return fail(problem->line, problem->message);
    header_line = line_no;
    ++li;
    break;
  }
  if (header_line == 0)
    return fail(0, lines.empty() || std::all_of(lines.begin(), lines.end(),
                                                [](std::string_view l) { return trim(l).empty(); })
                       ? "empty file: no RLE header 'x = <width>, y = <height>'"
                       : "no RLE header 'x = <width>, y = <height>' (only comment lines)");
  p.rule = header_rule ? header_rule : hash_rule;
  if ((max_width > 0 && p.width > max_width) || (max_height > 0 && p.height > max_height))
    return fail(header_line, "the pattern is " + std::to_string(p.width) + "x" + std::to_string(p.height) +
                                 ", larger than the " + std::to_string(max_width) + "x" +
                                 std::to_string(max_height) + " grid (use --grid)");

  // The run-length body: [count] tag, tags b (dead), o (alive), $ (end of row), ! (end).
  long long x = 0, y = 0;
  long long count = 0;
  bool have_count = false;
  int count_line = 0;
  bool ended = false, rows_past_warned = false;
  for (; li < lines.size() && !ended; ++li) {
    const int line_no = static_cast<int>(li) + 1;
    const std::string_view line = lines[li];
    if (!trim(line).empty() && trim(line).front() == '#') continue;  // a stray comment line
    for (const char c : line) {
      if (c >= '0' && c <= '9') {
        count = count * 10 + (c - '0');
        have_count = true;
        count_line = line_no;
        if (count > (1ll << 32))
          return fail(line_no, "run count " + std::to_string(count) + "... is far larger than any pattern");
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) continue;
      if (have_count && count == 0) return fail(line_no, "a run count of 0 before " + show_char(c));
      const long long n = have_count ? count : 1;
      const bool have_bang_count = have_count;
      count = 0;
      have_count = false;
      switch (c) {
        case 'b':
        case 'o':
          if (x + n > p.width)
            return fail(line_no, "row " + std::to_string(y + 1) + " is at least " + std::to_string(x + n) +
                                     " cells wide, wider than the header's x = " + std::to_string(p.width));
          if (y >= p.height)
            return fail(line_no,
                        "the pattern has more rows than the header's y = " + std::to_string(p.height));
          if (c == 'o') add_run(p, static_cast<int>(y), static_cast<int>(x), static_cast<int>(n));
          x += n;
          break;
        case '$':
          y += n;
          x = 0;
          // Rows past y with no cell in them change nothing, but say the file disagrees with itself
          // (Golly reads such files too). A cell there is an error, above.
          if (y > p.height && !rows_past_warned) {
            rows_past_warned = true;
            warnings.push_back({line_no, "the pattern's row ends run past the header's y = " +
                                             std::to_string(p.height) + " (no cell there; ignored)"});
          }
          break;
        case '!':
          if (n > 1 || have_bang_count)
            warnings.push_back({line_no, "run count " + std::to_string(n) + " before '!' ignored"});
          ended = true;
          break;
        default:
          if (std::isalpha(static_cast<unsigned char>(c)) || c == '.')
            return fail(line_no, "cell state " + show_char(c) +
                                     " is not b (dead) or o (alive): multi-state patterns are not supported, "
                                     "gpulab runs two-state rules");
          return fail(line_no,
                      "unexpected " + show_char(c) + " in the pattern (expected a run count, b, o, $ or !)");
      }
      if (ended) break;
    }
  }
  // Golly accepts a file whose last row is not followed by '!'; so do we. A dangling count is an error.
  if (have_count)
    return fail(count_line, "run count " + std::to_string(count) + " is not followed by b, o or $");
  PatternResult r;
  r.pattern = std::move(p);
  r.warnings = std::move(warnings);
  return r;
}

PatternResult parse_cells(std::string_view text) {
  const std::vector<std::string_view> lines = split_lines(text);
  Pattern p;
  std::vector<std::string_view> rows;
  std::vector<int> row_lines;
  bool have_name = false;
  for (size_t li = 0; li < lines.size(); ++li) {
    const int line_no = static_cast<int>(li) + 1;
    std::string_view line = lines[li];
    if (!line.empty() && line.front() == '!') {
      const std::string_view body = line.substr(1);
      if (!have_name && body.substr(0, 5) == "Name:") {
        p.name = std::string(trim(body.substr(5)));
        have_name = true;
      } else {
        p.comments.emplace_back(trim(body));
      }
      continue;
    }
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c != '.' && c != 'O' && c != '*')
        return fail(
            line_no,
            "unexpected " + show_char(c) + " at column " + std::to_string(i + 1) +
                " (.cells rows use '.' for dead and 'O' or '*' for live cells; comments start with '!')");
    }
    if (line.size() > static_cast<size_t>(kMaxPatternEdge))
      return fail(line_no, "row is " + std::to_string(line.size()) +
                               " cells wide, more than the largest grid edge (" +
                               std::to_string(kMaxPatternEdge) + ")");
    rows.push_back(line);
    row_lines.push_back(line_no);
  }
  // Blank lines at the end are the file's ending, not rows of dead cells.
  while (!rows.empty() && rows.back().empty()) rows.pop_back();
  // As for RLE, where a file without a header is refused: no row, no pattern.
  if (rows.empty())
    return fail(0, lines.empty() || std::all_of(lines.begin(), lines.end(),
                                                [](std::string_view l) { return trim(l).empty(); })
                       ? "empty file: no pattern rows ('.' dead, 'O' alive)"
                       : "no pattern rows ('.' dead, 'O' alive), only comment lines");
  if (rows.size() > static_cast<size_t>(kMaxPatternEdge))
    return fail(row_lines[kMaxPatternEdge], "the pattern has more than " + std::to_string(kMaxPatternEdge) +
                                                " rows, the largest grid edge");
  p.height = static_cast<int>(rows.size());
  for (std::string_view r : rows) p.width = std::max(p.width, static_cast<int>(r.size()));
  // Rows shorter than the widest are padded with dead cells, as every .cells reader does.
  for (int y = 0; y < p.height; ++y)
    for (size_t x = 0; x < rows[y].size(); ++x)
      if (rows[y][x] != '.') add_run(p, y, static_cast<int>(x), 1);
  PatternResult r;
  r.pattern = std::move(p);
  return r;
}

PatternResult parse_pattern(std::string_view text, std::string_view filename_hint, int max_width,
                            int max_height) {
  const size_t dot = filename_hint.rfind('.');
  const size_t slash = filename_hint.find_last_of("/\\");
  if (dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash)) {
    const std::string ext = lower(filename_hint.substr(dot));
    if (ext == ".rle") return parse_rle(text, max_width, max_height);
    if (ext == ".cells") return parse_cells(text);
  }
  // No telling extension: look at the first non-blank line.
  for (std::string_view line : split_lines(text)) {
    line = trim(line);
    if (line.empty()) continue;
    if (line.substr(0, 5) == "#Life")
      return fail(
          1, "Life 1.05/1.06 files are not supported; save the pattern as RLE (.rle) or plaintext (.cells)");
    if (line.front() == '!' || line.front() == '.' || line.front() == 'O' || line.front() == '*')
      return parse_cells(text);
    return parse_rle(text, max_width, max_height);
  }
  return fail(0, "empty file: no pattern in it");
}

PatternResult load_pattern_file(const std::string& path, int max_width, int max_height) {
  const files::ReadResult file = files::read_regular_file(path, kMaxPatternFileBytes);
  if (!file.error.empty()) return fail(0, file.error);  // describe() names the file
  return parse_pattern(std::string_view(reinterpret_cast<const char*>(file.bytes.data()), file.bytes.size()),
                       path, max_width, max_height);
}

std::string write_rle(const Grid& grid, const Rule& rule, std::string_view name) {
  int min_x = grid.width, min_y = grid.height, max_x = -1, max_y = -1;
  for (int y = 0; y < grid.height; ++y)
    for (int x = 0; x < grid.width; ++x)
      if (grid.at(x, y)) {
        min_x = std::min(min_x, x);
        max_x = std::max(max_x, x);
        min_y = std::min(min_y, y);
        max_y = std::max(max_y, y);
      }
  const bool empty = max_x < 0;

  std::string out;
  if (!name.empty()) {
    std::string clean(name);
    std::replace_if(
        clean.begin(), clean.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    out += "#N " + clean + "\n";
  }
  out += "#C generated by gpulab\n";
  if (!empty) out += "#R " + std::to_string(min_x) + " " + std::to_string(min_y) + "\n";
  const int w = empty ? 0 : max_x - min_x + 1, h = empty ? 0 : max_y - min_y + 1;
  out += "x = " + std::to_string(w) + ", y = " + std::to_string(h) + ", rule = " + rule.to_string() + "\n";

  // Tokens ("12o", "3$", "!") are never split across lines; a line holds at most 70 characters.
  constexpr size_t kLineLimit = 70;
  size_t line_len = 0;
  auto emit = [&](long long n, char tag) {
    std::string token = n > 1 ? std::to_string(n) + tag : std::string(1, tag);
    if (line_len > 0 && line_len + token.size() > kLineLimit) {
      out += '\n';
      line_len = 0;
    }
    out += token;
    line_len += token.size();
  };
  long long pending_rows = 0;  // row ends not yet written: empty rows merge into one "n$"
  for (int y = min_y; y <= max_y && !empty; ++y) {
    const uint8_t* row = grid.cells.data() + static_cast<size_t>(y) * grid.width;
    int end = max_x;
    while (end >= min_x && !row[end]) --end;  // trailing dead cells are implied
    if (end >= min_x) {
      if (pending_rows > 0) emit(pending_rows, '$');
      pending_rows = 0;
      for (int x = min_x; x <= end;) {
        const uint8_t state = row[x] ? 1 : 0;
        int run = 1;
        while (x + run <= end && (row[x + run] ? 1 : 0) == state) ++run;
        emit(run, state ? 'o' : 'b');
        x += run;
      }
    }
    if (y < max_y) ++pending_rows;
  }
  emit(1, '!');
  out += '\n';
  return out;
}

bool place(Grid& grid, const Pattern& pattern, int x0, int y0, std::string* error) {
  auto refuse = [&](std::string why) {
    if (error) *error = std::move(why);
    return false;
  };
  if (std::string broken = pattern.check(); !broken.empty()) return refuse("pattern data: " + broken);
  if (pattern.width > grid.width || pattern.height > grid.height)
    return refuse("the pattern is " + std::to_string(pattern.width) + "x" + std::to_string(pattern.height) +
                  " cells, larger than the " + std::to_string(grid.width) + "x" +
                  std::to_string(grid.height) + " grid");
  std::fill(grid.cells.begin(), grid.cells.end(), uint8_t{0});
  auto wrap = [](long long v, int n) { return static_cast<int>(((v % n) + n) % n); };
  for (const CellRun& r : pattern.runs) {
    const int gy = wrap(static_cast<long long>(y0) + r.y, grid.height);
    for (int i = 0; i < r.length; ++i)
      grid.at(wrap(static_cast<long long>(x0) + r.x + i, grid.width), gy) = 1;
  }
  return true;
}

bool place_centered(Grid& grid, const Pattern& pattern, std::string* error) {
  return place(grid, pattern, (grid.width - pattern.width) / 2, (grid.height - pattern.height) / 2, error);
}

}  // namespace gpulab::life

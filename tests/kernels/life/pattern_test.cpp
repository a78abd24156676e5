// Pattern files: RLE and .cells parsing (good input, and each malformed fixture in tests/data
// reported on the right line), loading from disk, writing RLE and reading it back, placing.
#include "life/pattern.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "life/life.h"
#include "support/test_paths.h"

namespace gpulab::life {
namespace {

const std::string kData = GPULAB_TEST_DATA;

// Rows of '.' and 'O' for readable expectations.
std::vector<std::string> rows_of(const Pattern& p) {
  std::vector<std::string> rows;
  for (int y = 0; y < p.height; ++y) {
    std::string r;
    for (int x = 0; x < p.width; ++x) r += p.at(x, y) ? 'O' : '.';
    rows.push_back(r);
  }
  return rows;
}

const std::vector<std::string> kGliderRows = {".O.", "..O", "OOO"};

Pattern must_parse(const PatternResult& r) {
  EXPECT_TRUE(r.pattern.has_value()) << "line " << r.error.line << ": " << r.error.message;
  return r.pattern.value_or(Pattern{});
}

Grid random_grid(int w, int h, double density, unsigned seed) {
  Grid g(w, h);
  uint64_t s = seed * 2654435761u + 7;
  for (auto& c : g.cells) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    c = ((s >> 33) % 1000) < density * 1000 ? 1 : 0;
  }
  return g;
}

// ------------------------------------------------------------------------------------------------
// RLE

TEST(PatternRle, ReadsAGlider) {
  const Pattern p =
      must_parse(parse_rle("#N Glider\n#O Richard K. Guy\n#C first line\n#c second line\nx = 3, y = 3, rule "
                           "= B3/S23\nbo$2bo$3o!\n"));
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  EXPECT_EQ(rows_of(p), kGliderRows);
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.author, "Richard K. Guy");
  EXPECT_EQ(p.comments, (std::vector<std::string>{"first line", "second line"}));
  ASSERT_TRUE(p.rule.has_value());
  EXPECT_EQ(*p.rule, Rule::conway());
  EXPECT_FALSE(p.offset.has_value());
  EXPECT_EQ(p.population(), 5u);
}

TEST(PatternRle, HeaderSpellings) {
  // No spaces, no rule, upper-case X, fields in another order.
  Pattern p = must_parse(parse_rle("x=3,y=3\nbo$2bo$3o!"));
  EXPECT_EQ(rows_of(p), kGliderRows);
  EXPECT_FALSE(p.rule.has_value());
  p = must_parse(parse_rle("X = 3 , Y = 3 , rule = b36/s23\nbo$2bo$3o!"));
  EXPECT_EQ(*p.rule, *Rule::parse("B36/S23"));
  p = must_parse(parse_rle("y = 3, x = 3\nbo$2bo$3o!"));
  EXPECT_EQ(rows_of(p), kGliderRows);
  // The older S/B rule form some files still carry.
  p = must_parse(parse_rle("x = 3, y = 3, rule = 23/3\nbo$2bo$3o!"));
  EXPECT_EQ(*p.rule, Rule::conway());
  // Golly's bounded-grid suffix is not used, and a warning says so (issue 30: it ran on the default
  // torus without a word).
  const PatternResult bounded = parse_rle("x = 3, y = 3, rule = B3/S23:T10,10\nbo$2bo$3o!");
  p = must_parse(bounded);
  EXPECT_EQ(*p.rule, Rule::conway());
  ASSERT_EQ(bounded.warnings.size(), 1u);
  EXPECT_EQ(bounded.warnings[0].line, 1);
  EXPECT_NE(bounded.warnings[0].message.find("bounded grid ':T10,10' is not used"), std::string::npos)
      << bounded.warnings[0].message;
  EXPECT_EQ(parse_rle("#r B3/S23:T10,10\nx = 3, y = 3\nbo$2bo$3o!").warnings.size(), 1u);
  p = must_parse(parse_rle("x = 3, y = 3, rule = B36/S23:P20,30,\nbo$2bo$3o!"));
  EXPECT_EQ(*p.rule, *Rule::parse("B36/S23"));
  // Trailing comma.
  p = must_parse(parse_rle("x = 3, y = 3,\nbo$2bo$3o!"));
  EXPECT_EQ(rows_of(p), kGliderRows);
  // Fields gpulab does not know are read past, with a warning (below).
  p = must_parse(parse_rle("x = 3, y = 3, rule = B3/S23, generation = 12\nbo$2bo$3o!"));
  EXPECT_EQ(rows_of(p), kGliderRows);
}

TEST(PatternRle, UnknownHeaderFieldsAreNamedSoAMisspeltRuleIsNotSilentlyDropped) {
  for (const char* key : {"4ule", "rul", "Rules", "generation"}) {
    const std::string text = std::string("x = 3, y = 3, ") + key + " = B36/S23\nbo$2bo$3o!";
    const PatternResult r = parse_rle(text);
    const Pattern p = must_parse(r);
    EXPECT_FALSE(p.rule.has_value()) << key;
    ASSERT_EQ(r.warnings.size(), 1u) << key;
    EXPECT_EQ(r.warnings[0].line, 1);
    EXPECT_NE(r.warnings[0].message.find(std::string("'") + key + "'"), std::string::npos)
        << r.warnings[0].message;
    EXPECT_NE(r.warnings[0].message.find("x, y and rule"), std::string::npos) << r.warnings[0].message;
  }
  // The known ones, in any case, warn about nothing.
  EXPECT_TRUE(parse_rle("X = 3, Y = 3, RULE = B36/S23\nbo$2bo$3o!").warnings.empty());
}

TEST(PatternRle, RowsPastTheHeaderAndACountBeforeTheEndWarn) {
  // Decided (README): Golly reads both; gpulab reads them too and says so.
  PatternResult r = parse_rle("x = 3, y = 2\n3o$3o$$$$!");
  Pattern p = must_parse(r);
  EXPECT_EQ(p.population(), 6u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].line, 2);
  EXPECT_NE(r.warnings[0].message.find("y = 2"), std::string::npos) << r.warnings[0].message;
  r = parse_rle("x = 3, y = 2\n3o$\n3o5$!");
  must_parse(r);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].line, 3);
  // One '$' that only ends the last row is how many writers end a file: no warning.
  EXPECT_TRUE(parse_rle("x = 2, y = 1\n2o$!").warnings.empty());

  r = parse_rle("x = 3, y = 1\n3o7!");
  p = must_parse(r);
  EXPECT_EQ(p.population(), 3u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].message.find("run count 7 before '!'"), std::string::npos) << r.warnings[0].message;
  // A cell past y is still an error.
  EXPECT_FALSE(parse_rle("x = 3, y = 2\n3o$3o$o!"));
}

TEST(PatternRle, ControlBytesFromTheFileNeverReachAMessageRaw) {
  auto clean = [](const std::string& m) {
    for (unsigned char c : m)
      if (c < 0x20 || c == 0x7F) return false;
    return true;
  };
  const std::string esc = "\x1B[2J\x1B[H";
  const std::string nul(1, '\0');
  const std::string texts[] = {
      "x = 3" + esc + ", y = 3\n!",                 // a bad number
      "x = 3, y = 3, " + esc + "rule\n!",           // a field without '='
      "x = 3, y = 3, " + nul + "4ule = B3/S23\n!",  // an unknown field (a warning)
      esc + "x = 3\n!",                             // no header
      "#R 1 " + esc + "\nx = 1, y = 1\n!",          // a bad offset
      "x = 3, y = 3, rule = B3" + esc + "/S23\n!",  // a bad rule
      "x = 3, y = 3\nbo" + nul + "$!",              // a bad byte in the body
  };
  for (const std::string& t : texts) {
    const PatternResult r = parse_rle(t);
    if (!r) {
      EXPECT_TRUE(clean(r.error.message)) << r.error.message;
    }
    for (const PatternError& w : r.warnings) EXPECT_TRUE(clean(w.message)) << w.message;
    EXPECT_TRUE(!r || !r.warnings.empty()) << "every text above is wrong somewhere";
  }
  // The escaped text is still there to read.
  EXPECT_NE(parse_rle("x = 3" + esc + ", y = 3\n!").error.message.find("\\x1B[2J"), std::string::npos);
  // And the file's name too (describe() escapes the source).
  EXPECT_EQ(describe({2, "bad"}, "a" + esc + ".rle"), "a\\x1B[2J\\x1B[H.rle:2: bad");
}

TEST(PatternRle, HashLines) {
  // #r (S/B order) gives the rule when the header has none; the header wins when both do.
  Pattern p = must_parse(parse_rle("#r 23/36\nx = 3, y = 3\nbo$2bo$3o!"));
  EXPECT_EQ(*p.rule, *Rule::parse("B36/S23"));
  p = must_parse(parse_rle("#r 23/36\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!"));
  EXPECT_EQ(*p.rule, Rule::conway());
  p = must_parse(parse_rle("#R -12 7\nx = 3, y = 3\nbo$2bo$3o!"));
  ASSERT_TRUE(p.offset.has_value());
  EXPECT_EQ(p.offset->x, -12);
  EXPECT_EQ(p.offset->y, 7);
  p = must_parse(parse_rle("#P 3 -4\n#CXRLE Pos=0,0\n#L unknown\nx = 3, y = 3\nbo$2bo$3o!"));
  EXPECT_EQ(p.offset->x, 3);
  EXPECT_EQ(p.offset->y, -4);
  auto bad = parse_rle("#N x\n#R 1\nx = 3, y = 3\nbo$2bo$3o!");
  EXPECT_FALSE(bad);
  EXPECT_EQ(bad.error.line, 2);
  bad = parse_rle("#r 29/3\nx = 3, y = 3\nbo$2bo$3o!");
  EXPECT_FALSE(bad);
  EXPECT_EQ(bad.error.line, 1);
}

TEST(PatternRle, BodyDetails) {
  // Runs across lines, spaces, empty rows as "n$", trailing dead cells left out, text after '!'.
  Pattern p = must_parse(parse_rle("x = 6, y = 5\n2o2b\n2o$\n3$ 6o!this is ignored\nnot a pattern $$$ 9z\n"));
  EXPECT_EQ(rows_of(p), (std::vector<std::string>{"OO..OO", "......", "......", "......", "OOOOOO"}));
  // An empty pattern.
  p = must_parse(parse_rle("x = 0, y = 0\n!"));
  EXPECT_EQ(p.width, 0);
  EXPECT_EQ(p.height, 0);
  EXPECT_TRUE(p.runs.empty());
  // Declared larger than the cells: the rest is dead.
  p = must_parse(parse_rle("x = 4, y = 3\no!"));
  EXPECT_EQ(rows_of(p), (std::vector<std::string>{"O...", "....", "...."}));
  // A final '$' (or several) that only ends the last row is fine.
  p = must_parse(parse_rle("x = 2, y = 1\n2o$!"));
  EXPECT_EQ(p.population(), 2u);
}

TEST(PatternRle, BodyErrorsNameTheLine) {
  struct Case {
    const char* text;
    int line;
    const char* says;
  };
  const Case cases[] = {
      {"x = 3, y = 3\nbo$\n2b0o!", 3, "0"},
      {"x = 3, y = 3\nbo$2bo$3o\n\n%!", 4, "'%'"},
      {"x = 3, y = 3\nbo$2bo$3q!", 2, "'q'"},
      {"x = 70000, y = 3\n!", 1, "70000"},
      {"x = -3, y = 3\n!", 1, "-3"},
      {"x = 3, y = 3, x = 4\n!", 1, "twice"},
      {"x = 3\n!", 1, "y ="},
      {"x = 3,, y = 3\n!", 1, "empty field"},
      {"x = 3, y\n!", 1, "'y'"},
      {"x = 3, y = 3\n99999999999o!", 2, "run count"},
      {"#C only comments\n\n#C here\n", 0, "no RLE header"},
      {"\n\n", 0, "empty"},
  };
  for (const Case& c : cases) {
    const PatternResult r = parse_rle(c.text);
    EXPECT_FALSE(r) << c.text;
    EXPECT_EQ(r.error.line, c.line) << c.text << " -> " << r.error.message;
    EXPECT_NE(r.error.message.find(c.says), std::string::npos) << c.text << " -> " << r.error.message;
  }
}

struct Fixture {
  const char* file;
  int line;
  const char* says;
};

TEST(PatternRle, MalformedFixtures) {
  const Fixture fixtures[] = {
      {"rle_missing_header.rle", 4, "header"},
      {"rle_bad_number.rle", 2, "3a"},
      {"rle_too_wide.rle", 6, "x = 3"},
      {"rle_too_tall.rle", 4, "y = 2"},
      {"rle_multistate.rle", 3, "multi-state"},
      {"rle_bad_rule.rle", 3, "B39/S23"},
      {"rle_junk.rle", 4, "'%'"},
      {"rle_dangling_count.rle", 4, "run count 3"},
      {"cells_bad_char.cells", 5, "'X' at column 2"},
      {"empty.rle", 0, "empty"},
      {"life106.lif", 1, "Life 1.05/1.06"},
  };
  for (const Fixture& f : fixtures) {
    const std::string path = kData + "/" + f.file;
    const PatternResult r = load_pattern_file(path);
    EXPECT_FALSE(r) << f.file;
    EXPECT_EQ(r.error.line, f.line) << f.file << ": " << r.error.message;
    EXPECT_NE(r.error.message.find(f.says), std::string::npos) << f.file << ": " << r.error.message;
  }
}

TEST(PatternRle, AcceptedFixtures) {
  // CRLF line endings, and a body without the final '!' (Golly reads both).
  for (const char* file : {"rle_crlf.rle", "rle_no_bang.rle"}) {
    const Pattern p = must_parse(load_pattern_file(kData + "/" + file));
    EXPECT_EQ(rows_of(p), kGliderRows) << file;
    EXPECT_EQ(p.name.find('\r'), std::string::npos) << file;
    EXPECT_EQ(*p.rule, Rule::conway());
  }
  const Pattern crlf = must_parse(load_pattern_file(kData + "/rle_crlf.rle"));
  EXPECT_EQ(crlf.name, "Glider, CRLF");
  EXPECT_EQ(crlf.comments, (std::vector<std::string>{"written with Windows line endings"}));
}

// ------------------------------------------------------------------------------------------------
// .cells

TEST(PatternCells, ReadsNameCommentsAndRaggedRows) {
  const Pattern p = must_parse(parse_cells("!Name: Thing\n!made by hand\n.O\n..O*  \r\nOOO\n\n.O\n\n\n"));
  EXPECT_EQ(p.name, "Thing");
  EXPECT_EQ(p.comments, (std::vector<std::string>{"made by hand"}));
  EXPECT_EQ(rows_of(p), (std::vector<std::string>{".O..", "..OO", "OOO.", "....", ".O.."}));
  EXPECT_FALSE(p.rule.has_value());
}

TEST(PatternCells, ErrorsNameTheLine) {
  auto r = parse_cells("!Name: x\n.O.\n.o.\n");
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error.line, 3);
  EXPECT_NE(r.error.message.find("'o'"), std::string::npos) << r.error.message;
  r = parse_cells(".O.\nO O\n");
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error.line, 2);
  // A short file can still describe a huge area, one wide row and many short ones: it is read, and
  // it costs its live cells (40001 runs), not its area.
  std::string wide(40000, '.');
  wide += "O\n";
  for (int i = 0; i < 40000; ++i) wide += "O\n";
  r = parse_cells(wide);
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.pattern->width, 40001);
  EXPECT_EQ(r.pattern->height, 40001);
  EXPECT_EQ(r.pattern->runs.size(), 40001u);
  EXPECT_EQ(r.pattern->at(40000, 0) + r.pattern->at(0, 40000) + r.pattern->at(1, 1), 2);
}

TEST(PatternCells, AnEmptyOrCommentOnlyFileIsRefusedAsAnEmptyRleIs) {
  for (const char* text : {"", "\n\n", "!Name: nothing\n!just a comment\n", "!Name: x\n\n\n"}) {
    const PatternResult r = parse_cells(text);
    EXPECT_FALSE(r) << text;
    EXPECT_EQ(r.error.line, 0);
    EXPECT_NE(r.error.message.find("no pattern rows"), std::string::npos) << r.error.message;
    EXPECT_FALSE(parse_pattern(text, "x.cells")) << text;
  }
  EXPECT_FALSE(parse_rle(""));
  // One row of dead cells is a pattern, as "x = 1, y = 1" with no cell is.
  const Pattern p = must_parse(parse_cells("!Name: empty row\n..\n"));
  EXPECT_EQ(p.width, 2);
  EXPECT_EQ(p.height, 1);
}

// ------------------------------------------------------------------------------------------------
// Choosing the reader, loading files

TEST(PatternFiles, ChoosesTheReader) {
  const std::string rle = "x = 3, y = 3\nbo$2bo$3o!";
  const std::string cells = "!Name: g\n.O.\n..O\nOOO\n";
  EXPECT_EQ(rows_of(must_parse(parse_pattern(rle, "a/b.RLE"))), kGliderRows);
  EXPECT_EQ(rows_of(must_parse(parse_pattern(cells, "x.cells"))), kGliderRows);
  EXPECT_EQ(rows_of(must_parse(parse_pattern(rle, ""))), kGliderRows);
  EXPECT_EQ(rows_of(must_parse(parse_pattern(cells, "pattern.txt"))), kGliderRows);
  EXPECT_EQ(rows_of(must_parse(parse_pattern(".O.\n..O\nOOO\n", "dir.v2/noext"))), kGliderRows);
  EXPECT_EQ(rows_of(must_parse(parse_pattern("#N g\n" + rle, "noext"))), kGliderRows);
  // The extension wins: a .cells reader reports the RLE header as a bad row.
  EXPECT_FALSE(parse_pattern(rle, "wrong.cells"));
  EXPECT_FALSE(parse_pattern("", "x.txt"));
}

TEST(PatternFiles, MissingFileNamesPathAndReason) {
  const std::string path = kData + "/no_such_pattern.rle";
  const PatternResult r = load_pattern_file(path);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error.line, 0);
  const std::string shown = describe(r.error, path);
  EXPECT_EQ(shown.rfind(path + ": ", 0), 0u) << shown;
  EXPECT_NE(shown.find(std::strerror(ENOENT)), std::string::npos) << shown;

  const PatternResult dir = load_pattern_file(kData);
  EXPECT_FALSE(dir);
  EXPECT_NE(dir.error.message.find("a folder, not a regular file"), std::string::npos) << dir.error.message;
}

TEST(PatternFiles, AFifoIsRefusedAtOnceInsteadOfWaitingForAWriter) {
  const auto path =
      std::filesystem::temp_directory_path() / ("gpulab_fifo_" + std::to_string(::getpid()) + ".rle");
  std::filesystem::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  const PatternResult r = load_pattern_file(path.string());
  std::filesystem::remove(path);
  EXPECT_FALSE(r);
  EXPECT_NE(r.error.message.find("FIFO"), std::string::npos) << r.error.message;
  EXPECT_FALSE(load_pattern_file("/dev/zero")) << "a device that never ends";
}

TEST(PatternFiles, HugeFilesAreRefused) {
  const auto path =
      std::filesystem::temp_directory_path() / ("gpulab_huge_" + std::to_string(::getpid()) + ".rle");
  { std::ofstream(path) << "x = 1, y = 1\no!\n"; }
  std::filesystem::resize_file(path, kMaxPatternFileBytes + 1);  // sparse: nothing is written
  const PatternResult r = load_pattern_file(path.string());
  std::filesystem::remove(path);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.error.line, 0);
  EXPECT_NE(r.error.message.find("64 MiB"), std::string::npos) << r.error.message;
}

TEST(PatternFiles, DescribeFormatsErrors) {
  EXPECT_EQ(describe({4, "bad"}, "glider.rle"), "glider.rle:4: bad");
  EXPECT_EQ(describe({0, "bad"}, "glider.rle"), "glider.rle: bad");
  EXPECT_EQ(describe({2, "bad"}, ""), ":2: bad");
}

// ------------------------------------------------------------------------------------------------
// Writing RLE

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(PatternWrite, GliderGivesTheUsualRle) {
  Grid g(10, 10);
  for (auto [x, y] : {std::pair{5, 2}, {6, 3}, {4, 4}, {5, 4}, {6, 4}}) g.at(x, y) = 1;
  const std::string text = write_rle(g, Rule::conway(), "Glider");
  EXPECT_EQ(text, "#N Glider\n#C generated by gpulab\n#R 4 2\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
}

TEST(PatternWrite, MergesRunsAndEmptyRows) {
  Grid g(120, 9);
  for (int x = 0; x < 100; ++x) g.at(x + 3, 1) = 1;
  g.at(3, 5) = 1;
  g.at(5, 5) = 1;
  const std::string text = write_rle(g, *Rule::parse("B36/S23"), "");
  EXPECT_EQ(text, "#C generated by gpulab\n#R 3 1\nx = 100, y = 5, rule = B36/S23\n100o4$obo!\n");
}

TEST(PatternWrite, EmptyGrid) {
  const std::string text = write_rle(Grid(16, 16), Rule::conway(), "nothing");
  EXPECT_EQ(text, "#N nothing\n#C generated by gpulab\nx = 0, y = 0, rule = B3/S23\n!\n");
  const Pattern p = must_parse(parse_rle(text));
  EXPECT_EQ(p.width, 0);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.name, "nothing");
}

TEST(PatternWrite, RoundTripsExactly) {
  const std::pair<int, int> sizes[] = {{1, 1}, {2, 3}, {7, 5}, {33, 17}, {64, 64}, {130, 67}, {300, 4}};
  const Rule rules[] = {Rule::conway(), *Rule::parse("B36/S23"), *Rule::parse("B2/S")};
  int n = 0;
  for (auto [w, h] : sizes)
    for (double density : {0.02, 0.3, 0.5, 0.97}) {
      const Grid g = random_grid(w, h, density, static_cast<unsigned>(++n));
      const Rule& rule = rules[n % 3];
      const std::string name = "random " + std::to_string(n);
      const std::string text = write_rle(g, rule, name);
      for (const std::string& line : lines_of(text)) EXPECT_LE(line.size(), 70u) << line;
      const Pattern p = must_parse(parse_rle(text));
      EXPECT_EQ(p.name, name);
      ASSERT_TRUE(p.rule.has_value());
      EXPECT_EQ(*p.rule, rule);
      EXPECT_EQ(p.population(), g.population());
      Grid back(w, h);
      if (g.population() > 0) {
        ASSERT_TRUE(p.offset.has_value());
        ASSERT_TRUE(place(back, p, p.offset->x, p.offset->y));
      }
      EXPECT_EQ(back, g) << w << "x" << h << " density " << density << "\n" << text;
    }
}

TEST(PatternWrite, NameCannotBreakTheFile) {
  Grid g(3, 3);
  g.at(1, 1) = 1;
  const std::string text = write_rle(g, Rule::conway(), "two\nlines\r");
  const Pattern p = must_parse(parse_rle(text));
  EXPECT_EQ(p.name.find('\n'), std::string::npos);
  EXPECT_EQ(p.population(), 1u);
}

// ------------------------------------------------------------------------------------------------
// Placing

TEST(PatternPlace, CentresAndClears) {
  const Pattern glider = must_parse(parse_rle("x = 3, y = 3\nbo$2bo$3o!"));
  Grid g(10, 8);
  g.at(0, 0) = 1;  // cleared by placing
  std::string error;
  ASSERT_TRUE(place_centered(g, glider, &error)) << error;
  // ((10 - 3) / 2, (8 - 3) / 2) = (3, 2)
  Grid expected(10, 8);
  for (auto [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) expected.at(3 + x, 2 + y) = 1;
  EXPECT_EQ(g, expected);

  Grid exact(3, 3);
  ASSERT_TRUE(place_centered(exact, glider));
  EXPECT_EQ(exact.population(), 5u);
}

TEST(PatternPlace, WrapsAroundTheTorus) {
  const Pattern glider = must_parse(parse_rle("x = 3, y = 3\nbo$2bo$3o!"));
  Grid g(5, 4);
  ASSERT_TRUE(place(g, glider, -1, 3));
  Grid expected(5, 4);
  for (auto [x, y] : {std::pair{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}})
    expected.at((x + 4) % 5, (y + 3) % 4) = 1;
  EXPECT_EQ(g, expected);
}

TEST(PatternPlace, TooLargeLeavesTheGridAlone) {
  const Pattern wide = must_parse(parse_rle("x = 12, y = 2\n12o!"));
  Grid g = random_grid(10, 10, 0.5, 99);
  const Grid before = g;
  std::string error;
  EXPECT_FALSE(place_centered(g, wide, &error));
  EXPECT_EQ(g, before);
  EXPECT_NE(error.find("12x2"), std::string::npos) << error;
  EXPECT_NE(error.find("10x10"), std::string::npos) << error;
  EXPECT_FALSE(place(g, wide, 0, 0));
  EXPECT_EQ(g, before);
}

}  // namespace
// Bad input, second round (issue 30): an RLE header is compared with the grid before the cells are
// allocated.
// A header may declare the largest pattern a grid can take; what it costs is its live cells, as
// runs. (The fuzzer's find: 23 bytes declaring 15536x65536 cells once cost a gigabyte and seconds.)
TEST(PatternRle, AHugeHeaderCostsItsRunsNotItsArea) {
  const Pattern p = must_parse(parse_rle("x = 65536, y = 65536\n3o$bo2bo4o!"));
  EXPECT_EQ(p.width, 65536);
  EXPECT_EQ(p.height, 65536);
  EXPECT_EQ(p.runs, (std::vector<CellRun>{{0, 0, 3}, {1, 1, 1}, {1, 4, 5}}));
  EXPECT_EQ(p.population(), 9u);
  EXPECT_EQ(p.at(0, 0), 1);
  EXPECT_EQ(p.at(3, 0), 0);
  EXPECT_EQ(p.at(1, 1), 1);
  EXPECT_EQ(p.at(2, 1), 0);
  EXPECT_EQ(p.at(8, 1), 1);
  EXPECT_EQ(p.at(9, 1), 0);
  EXPECT_EQ(p.at(65535, 65535), 0);
  EXPECT_EQ(p.check(), "");
  // Runs that touch are one run; a .cells file's cells are runs too.
  EXPECT_EQ(must_parse(parse_rle("x = 9, y = 1\n2o3o2bo!")).runs,
            (std::vector<CellRun>{{0, 0, 5}, {0, 7, 1}}));
  EXPECT_EQ(must_parse(parse_cells(".OO.O\n\nO")).runs,
            (std::vector<CellRun>{{0, 1, 2}, {0, 4, 1}, {2, 0, 1}}));
}

TEST(PatternPlace, RunsThatBreakTheRulesAreRefusedByName) {
  Grid g(8, 8);
  const Grid before = g;
  Pattern p;
  p.width = 4;
  p.height = 2;
  auto refused = [&](std::vector<CellRun> runs) {
    p.runs = std::move(runs);
    std::string error;
    const bool placed = place(g, p, 0, 0, &error);
    EXPECT_EQ(g, before);
    return placed ? std::string("placed") : error;
  };
  EXPECT_EQ(refused({{0, 2, 3}}), "pattern data: run 1 (row 0, cells 2 to 4) lies outside the 4x2 pattern");
  EXPECT_EQ(refused({{2, 0, 1}}), "pattern data: run 1 (row 2, cells 0 to 0) lies outside the 4x2 pattern");
  EXPECT_EQ(refused({{0, 0, 0}}), "pattern data: run 1 (row 0, cells 0 to -1) is empty");
  EXPECT_EQ(refused({{1, 0, 1}, {0, 0, 1}}),
            "pattern data: run 2 (row 0, cells 0 to 0) is not after the run before it, or touches it");
  EXPECT_EQ(refused({{0, 0, 2}, {0, 2, 1}}),
            "pattern data: run 2 (row 0, cells 2 to 2) is not after the run before it, or touches it");
  p.runs = {{0, 0, 2}, {1, 3, 1}};
  EXPECT_TRUE(place(g, p, 0, 0));
  EXPECT_EQ(g.at(0, 0) + g.at(1, 0) + g.at(3, 1), 3);
  EXPECT_EQ(std::count(g.cells.begin(), g.cells.end(), uint8_t{1}), 3);
}

TEST(PatternRle, AHeaderLargerThanTheGridIsRefusedBeforeAllocating) {
  const PatternResult r = parse_rle("#C big\nx = 30000, y = 30000\no!", 1024, 512);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.line, 2);
  EXPECT_EQ(r.error.message, "the pattern is 30000x30000, larger than the 1024x512 grid (use --grid)");
  EXPECT_FALSE(parse_rle("x = 3, y = 600\no!", 1024, 512));
  EXPECT_TRUE(parse_rle("x = 3, y = 3\nbo$2bo$3o!", 3, 3));  // exactly the grid
  EXPECT_TRUE(parse_pattern("x = 3, y = 3\nbo$2bo$3o!", "g.rle", 3, 3));
  EXPECT_FALSE(parse_pattern("x = 4, y = 3\nbo$2bo$3o!", "", 3, 3));
}

}  // namespace gpulab::life

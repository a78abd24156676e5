// Fuzz target: the Life pattern readers (kernels/life/pattern.h). The first input byte picks the
// entry point, the rest is the file's text:
//   byte % 5 == 0: parse_pattern(text, "fuzz.rle")     3: parse_rle(text)
//               1: parse_pattern(text, "fuzz.cells")   4: parse_cells(text)
//               2: parse_pattern(text) (no hint: chosen by looking at the text)
// Oracles: error and warning messages hold no raw control byte (describe() too); a pattern read is
// consistent (size within the limits, runs sorted, apart and inside it); a small one written back
// with write_rle reads back to the same cells at the same place, with the same rule, and at() agrees
// with its runs cell by cell.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "life/life.h"
#include "life/pattern.h"

using namespace gpulab;

namespace {

void check_round_trip(const life::Pattern& p) {
  // Small patterns only: the grid holds a byte a cell, and a pattern may be 65536x65536.
  if (p.width < 1 || p.height < 1 || uint64_t(p.width) * uint64_t(p.height) > (1u << 16)) return;
  life::Grid grid(p.width, p.height);
  std::string why;
  fuzz::require(life::place(grid, p, 0, 0, &why), "life: place() refused a pattern the size of the grid");
  fuzz::require(grid.cells == p.dense(), "life: place() and dense() disagree");
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x)
      fuzz::require(p.at(x, y) == grid.at(x, y), "life: at() disagrees with the runs");
  const life::Rule rule = p.rule.value_or(life::Rule::conway());
  const std::string rle = life::write_rle(grid, rule, p.name);
  const life::PatternResult back = life::parse_rle(rle);
  if (!back)
    fuzz::fail("life: parse_rle refused what write_rle wrote: " + back.error.message +
               "; the RLE: " + text::escape(rle, 4000));
  fuzz::require(back.pattern->rule && *back.pattern->rule == rule,
                "life: the rule did not survive write_rle");
  fuzz::require(back.pattern->population() == p.population(),
                "life: the population did not survive write_rle");
  life::Grid again(p.width, p.height);
  const life::Cell at = back.pattern->offset.value_or(life::Cell{0, 0});
  if (back.pattern->width > 0)
    fuzz::require(life::place(again, *back.pattern, at.x, at.y, &why),
                  "life: the RLE written back does not fit");
  fuzz::require(again == grid, "life: the cells did not survive write_rle and parse_rle");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  life::PatternResult r;
  switch (data[0] % 5) {
    case 0:
      r = life::parse_pattern(text, "fuzz.rle");
      break;
    case 1:
      r = life::parse_pattern(text, "fuzz.cells");
      break;
    case 2:
      r = life::parse_pattern(text);
      break;
    case 3:
      r = life::parse_rle(text);
      break;
    default:
      r = life::parse_cells(text);
      break;
  }
  for (const life::PatternError& w : r.warnings) fuzz::check_message("life pattern (warning)", w.message);
  if (!r) {
    fuzz::check_message("life pattern", r.error.message);
    fuzz::check_message("life pattern (describe)", life::describe(r.error, "fuzz.rle"));
    return 0;
  }
  const life::Pattern& p = *r.pattern;
  fuzz::require(
      p.width >= 0 && p.height >= 0 && p.width <= life::kMaxPatternEdge && p.height <= life::kMaxPatternEdge,
      "life: pattern size out of range");
  if (std::string broken = p.check(); !broken.empty())
    fuzz::fail("life: the runs read are not consistent: " + broken);
  check_round_trip(p);
  return 0;
}

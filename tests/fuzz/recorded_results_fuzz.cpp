// Fuzz target: the recorded-results reader (app/core/recorded.h): parse_recorded_results on the input
// as a bench or ladder JSON file (--results, a lesson's results =, ladder --results).
// Oracles: no abort or exception (a value of any type is refused with a message); no message holds a
// raw control byte; a file that reads has a row, and every row a positive, finite, sane time, a rate
// that is not negative and a speed-up (where there is one) that is positive and finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/recorded.h"
#include "fuzz_check.h"

using namespace gpulab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  const std::optional<RecordedResults> r = parse_recorded_results(text, "fuzz/\x01results.json", &why);
  if (!r) {
    fuzz::require(!why.empty(), "recorded: refused without a reason");
    fuzz::check_message("recorded", why);
    return 0;
  }
  fuzz::require(!r->rows.empty(), "recorded: a file with no row read");
  for (const RecordedRow& row : r->rows) {
    fuzz::require(std::isfinite(row.ms_per_step) && row.ms_per_step > 0 && row.ms_per_step <= 1e18,
                  "recorded: a row's time");
    fuzz::require(std::isfinite(row.items_per_step) && row.items_per_step >= 0, "recorded: a row's items");
    fuzz::require(row.block >= 0, "recorded: a row's block");
    if (row.speedup) fuzz::require(std::isfinite(*row.speedup) && *row.speedup > 0, "recorded: a speed-up");
    fuzz::require(!row.variant.empty(), "recorded: a row without its variant");
  }
  (void)r->label();
  return 0;
}

#pragma once
// The CLI11 check of every whole-number option (the shell's and the demos'): the value is parsed by
// text::parse_whole_number before CLI11 converts it, so "1e3" is "needs a whole number, got '1e3'"
// (not a range error), and a number past the type's range is refused as typed instead of being
// wrapped or clamped and quoted back as a value the user never gave.
#include <CLI/CLI.hpp>

#include <string>

#include "common/number.h"

namespace gpulab {

inline CLI::Validator whole_number(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) {
        long long v = 0;
        return text::parse_whole_number(s, lo, hi, &v);
      },
      "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

}  // namespace gpulab

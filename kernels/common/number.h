#pragma once
// Whole numbers typed by a user (command-line options, lesson parameters, sizes "WxH"): parsed
// without wrap-around, and a value the user did not type is never quoted back. One parser for every
// integer option, so that "1e3", "12.5" and "18446744073709551617" get the same two messages
// everywhere: "needs a whole number, got '1e3'" and "must be from 1 to 1000000, got '...'".
#include <charconv>
#include <string>
#include <string_view>
#include <system_error>

#include "common/text.h"

namespace gpulab::text {

// "" and *out set when `s` is a whole number (an optional sign, then decimal digits only) in
// [lo, hi]; else the message, without the option's name: the caller puts it in front.
inline std::string parse_whole_number(std::string_view s, long long lo, long long hi, long long* out) {
  // An optional sign, then decimal digits only (from_chars takes no '+').
  std::string_view digits = s;
  const bool negative = !digits.empty() && digits.front() == '-';
  if (!digits.empty() && (digits.front() == '+' || negative)) digits.remove_prefix(1);
  bool all_digits = !digits.empty();
  for (const char c : digits) all_digits = all_digits && c >= '0' && c <= '9';
  if (!all_digits) return "needs a whole number, got " + quote(s);
  if (negative) digits = std::string_view(digits.data() - 1, digits.size() + 1);
  long long v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && (v < lo || v > hi)))
    return "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + quote(s);
  if (ec != std::errc() || end != digits.data() + digits.size())
    return "needs a whole number, got " + quote(s);
  *out = v;
  return {};
}

// "WxH" (or "WXH") with each edge a whole number in [lo, hi]; "" or the message, as above.
inline std::string parse_whole_size(std::string_view s, long long lo, long long hi, long long* w,
                                    long long* h) {
  const size_t x = s.find_first_of("xX");
  if (x == std::string_view::npos) return "needs WxH (two whole numbers), got " + quote(s);
  long long a = 0, b = 0;
  std::string err = parse_whole_number(s.substr(0, x), lo, hi, &a);
  if (err.empty()) err = parse_whole_number(s.substr(x + 1), lo, hi, &b);
  if (!err.empty())
    return "needs WxH with each edge a whole number from " + std::to_string(lo) + " to " +
           std::to_string(hi) + ", got " + quote(s);
  *w = a;
  *h = b;
  return {};
}

}  // namespace gpulab::text

#pragma once
// The oracles every fuzz target shares. A finding aborts, so that libFuzzer (or the replay runner
// in ctest) stops with the input that caused it; the message says which check failed.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "common/text.h"

namespace gpulab::fuzz {

[[noreturn]] inline void fail(std::string_view what) {
  std::fprintf(stderr, "fuzz oracle failed: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

inline void require(bool ok, std::string_view what) {
  if (!ok) fail(what);
}

// Every message that quotes input must escape it (text::escape / text::quote): a raw control byte
// (C0 or DEL) in an error message is a finding. `where` names the reader.
inline void check_message(std::string_view where, std::string_view message) {
  for (size_t i = 0; i < message.size(); ++i) {
    const auto c = static_cast<unsigned char>(message[i]);
    if (c < 0x20 || c == 0x7F) {
      std::fprintf(stderr,
                   "fuzz oracle failed: %.*s: the error message holds the raw control byte 0x%02X at offset "
                   "%zu; the message, escaped: %s\n",
                   static_cast<int>(where.size()), where.data(), c, i, text::escape(message, 4000).c_str());
      std::abort();
    }
  }
}

}  // namespace gpulab::fuzz

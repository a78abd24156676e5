#include "core/batch.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace gpulab {

std::string duration_text(double s) {
  char buf[32];
  if (s < 90)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 90 * 60)
    std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 48 * 3600)
    std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  else
    std::snprintf(buf, sizeof buf, "%.1f days", s / 86400);
  return buf;
}

void run_batch_steps(long long steps, const std::function<void(int)>& advance, std::string_view unit) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  long long done = 0, chunk = 1;
  bool told = false;
  while (done < steps) {
    const int n = static_cast<int>(std::min<long long>({steps - done, chunk, 1LL << 20}));
    advance(n);
    done += n;
    chunk *= 2;
    const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
    if (!told && elapsed >= 1.0 && done < steps) {
      told = true;
      const double rest = elapsed / double(done) * double(steps - done);
      if (rest > 30)
        std::fprintf(stderr, "gpulab: %lld %.*s at about %.3g a second: about %s more (Ctrl+C stops)\n",
                     steps, static_cast<int>(unit.size()), unit.data(), double(done) / elapsed,
                     duration_text(rest).c_str());
    }
  }
}

}  // namespace gpulab

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

std::string batch_estimate(long long steps, long long done, double elapsed, std::string_view unit) {
  if (done <= 0 || elapsed <= 0 || done >= steps) return {};
  const double total = elapsed / double(done) * double(steps);
  if (total <= 10) return {};
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "gpulab: %lld %.*s at about %.3g a second: about %s in all, %s more (Ctrl+C stops)", steps,
                static_cast<int>(unit.size()), unit.data(), double(done) / elapsed,
                duration_text(total).c_str(), duration_text(total - elapsed).c_str());
  return buf;
}

void run_batch_steps(long long steps, const std::function<void(int)>& advance, std::string_view unit,
                     const std::function<double()>& now, const std::function<void(const std::string&)>& say) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto seconds = [&] { return now ? now() : std::chrono::duration<double>(clock::now() - t0).count(); };
  const double start = seconds();
  long long done = 0, chunk = 1;
  bool told = false;
  while (done < steps) {
    const int n = static_cast<int>(std::min<long long>({steps - done, chunk, 1LL << 20}));
    advance(n);
    done += n;
    chunk *= 2;
    const double elapsed = seconds() - start;
    // Timed once the steps done took long enough for their rate to mean something.
    if (!told && elapsed >= 0.2) {
      told = true;
      if (const std::string line = batch_estimate(steps, done, elapsed, unit); !line.empty()) {
        if (say)
          say(line);
        else
          std::fprintf(stderr, "%s\n", line.c_str());
      }
    }
  }
}

}  // namespace gpulab

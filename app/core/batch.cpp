#include "core/batch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

std::string long_run_line(std::string_view what, double seconds, double done_seconds, std::string_view how) {
  if (!(seconds > 10) || !std::isfinite(seconds)) return {};
  std::string line = "gpulab: " + std::string(what) + ": about " + duration_text(seconds);
  if (done_seconds >= 0) line += " in all, " + duration_text(seconds - done_seconds) + " more";
  return line + " (" + (how.empty() ? std::string() : std::string(how) + "; ") + "Ctrl+C stops)";
}

bool say_long_run(std::string_view what, double seconds, std::string_view how,
                  const std::function<void(const std::string&)>& say) {
  const std::string line = long_run_line(what, seconds, -1, how);
  if (line.empty()) return false;
  if (say)
    say(line);
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  return true;
}

double sample_seconds(const std::function<void()>& sample) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  int runs = 0;
  double elapsed = 0;
  do {
    sample();
    ++runs;
    elapsed = std::chrono::duration<double>(clock::now() - t0).count();
  } while (elapsed < 0.02 && runs < 64);
  return elapsed / runs;
}

std::string batch_estimate(long long steps, long long done, double elapsed, std::string_view unit) {
  if (done <= 0 || elapsed <= 0 || done >= steps) return {};
  const double total = elapsed / double(done) * double(steps);
  char what[128];
  std::snprintf(what, sizeof what, "%lld %.*s at about %.3g a second", steps, static_cast<int>(unit.size()),
                unit.data(), double(done) / elapsed);
  return long_run_line(what, total, elapsed);
}

void run_batch_steps(long long steps, const std::function<void(int)>& advance, std::string_view unit,
                     const std::function<double()>& now, const std::function<void(const std::string&)>& say) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto seconds = [&] { return now ? now() : std::chrono::duration<double>(clock::now() - t0).count(); };
  const double start = seconds();
  // Chunks double up to a cap (never past it, so a billion steps do not overflow the count).
  constexpr long long kMaxChunk = 1LL << 20;
  long long done = 0, chunk = 1;
  bool told = false;
  while (done < steps) {
    const int n = static_cast<int>(std::min(steps - done, chunk));
    advance(n);
    done += n;
    chunk = std::min(chunk * 2, kMaxChunk);
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

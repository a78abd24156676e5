#pragma once
// The batch runs' step loop (--steps K with --save-pattern, --save-bodies...), shared by the demos.
#include <functional>
#include <string>
#include <string_view>

namespace gpulab {

// Runs `steps` steps as advance(n) calls of growing n (at most 2^20). As soon as the steps done took
// long enough to time (0.2 s, the first chunk included, or a second in all), if the whole run looks
// like taking over 10 s, says once on stderr about how long in all and how much more ("Ctrl+C
// stops"): a billion steps of a large grid is days of work, and the user should know before waiting.
// `now` (seconds) and `say` replace the clock and stderr in tests.
void run_batch_steps(long long steps, const std::function<void(int)>& advance, std::string_view unit,
                     const std::function<double()>& now = {},
                     const std::function<void(const std::string&)>& say = {});

// The estimate's line, "gpulab: 1000 steps at about 2.5 a second: about 6.7 min in all, 6.5 min more
// (Ctrl+C stops)", or "" when the run looks like taking at most 10 s.
std::string batch_estimate(long long steps, long long done, double elapsed, std::string_view unit);

// "45 s", "12 min", "3.5 h", "2.1 days".
std::string duration_text(double seconds);

}  // namespace gpulab

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

// The one wording of every estimate gpulab gives up front: "gpulab: <what>: about <total>[ in all,
// <rest> more] (<how>; Ctrl+C stops)", or "" when `seconds` is at most 10 s (or not a number).
// done_seconds >= 0: that much has run already (the rest is said too); how: where the figure comes from.
std::string long_run_line(std::string_view what, double seconds, double done_seconds = -1,
                          std::string_view how = {});
// Says long_run_line on stderr when it is not empty (say: instead, for tests); true when it said it.
bool say_long_run(std::string_view what, double seconds, std::string_view how = {},
                  const std::function<void(const std::string&)>& say = {});
// Seconds one run of `sample` takes: it runs once, then again until 20 ms have passed (at most 64
// runs in all); the mean of the runs.
double sample_seconds(const std::function<void()>& sample);

// "45 s", "12 min", "3.5 h", "2.1 days".
std::string duration_text(double seconds);

}  // namespace gpulab

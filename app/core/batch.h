#pragma once
// The batch runs' step loop (--steps K with --save-pattern, --save-bodies...), shared by the demos.
#include <functional>
#include <string>
#include <string_view>

namespace gpulab {

// Runs `steps` steps as advance(n) calls of growing n (at most 2^20). Once a second has passed, if the
// rest looks like taking over half a minute, says once on stderr about how long ("Ctrl+C stops"):
// a billion steps of a large grid is days of work, and the user should know before waiting.
void run_batch_steps(long long steps, const std::function<void(int)>& advance, std::string_view unit);

// "45 s", "12 min", "3.5 h", "2.1 days".
std::string duration_text(double seconds);

}  // namespace gpulab

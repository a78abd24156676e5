#pragma once
// What several of the histogram demo's files share: the timing sections' names (the pipeline's runs,
// the throughput rows, the caption). Internal to app/demos/histeq.
#include <string>
#include <string_view>

namespace gpulab::histeq_internal {

inline std::string section_name(std::string_view key, bool gpu) {
  // CPU sections get names of their own: Timings::find prefers a GPU series of the same name,
  // which would hide the CPU one after a backend switch.
  return gpu ? std::string(key) : std::string(key) + " (CPU)";
}

}  // namespace gpulab::histeq_internal

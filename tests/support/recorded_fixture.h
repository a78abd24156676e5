#pragma once
// The recorded-results fixture (tests/data/results/life-h100.json: a bench JSON of four Life rows,
// made for the tests) and the label every figure from it carries.
#include <filesystem>
#include <string>

#include "support/test_paths.h"

namespace gpulab::testing {

inline std::filesystem::path recorded_fixture() {
  return std::filesystem::path(GPULAB_TEST_DATA) / "results" / "life-h100.json";
}
inline const std::string kRecordedFixtureLabel = "recorded on NVIDIA H100 80GB HBM3, 2026-11-27";

}  // namespace gpulab::testing

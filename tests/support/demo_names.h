#pragma once
// The registered demos' names in make_demos() order, for the tests that run once per demo: a new
// demo is covered by them without an edit.
#include <memory>
#include <string>
#include <vector>

#include "core/demo.h"

namespace gpulab::testing {
inline std::vector<std::string> demo_names() {
  std::vector<std::string> names;
  for (const auto& d : make_demos()) names.emplace_back(d->name());
  return names;
}
}  // namespace gpulab::testing

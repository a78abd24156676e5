#include "common/cuda_check.h"

#include <cstdlib>
#include <cstring>

namespace gpulab::detail {
bool sync_after_launch() {
  static const bool on = [] {
    const char* v = std::getenv("GPULAB_SYNC_CHECKS");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return on;
}
}  // namespace gpulab::detail

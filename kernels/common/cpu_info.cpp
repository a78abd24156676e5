#include "common/cpu_info.h"

#include <fstream>

namespace gpulab {

namespace {
// The model name alone, "" when none is found.
std::string model_only() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  for (const char* key : {"model name", "Model", "Hardware"}) {
    in.clear();
    in.seekg(0);
    while (std::getline(in, line)) {
      if (line.rfind(key, 0) != 0) continue;
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      const size_t b = line.find_first_not_of(" \t", colon + 1);
      const size_t e = line.find_last_not_of(" \t\r");
      if (b == std::string::npos || e < b) continue;
      return line.substr(b, e - b + 1);
    }
  }
  return {};
}
}  // namespace

std::string cpu_label(unsigned threads) {
  const std::string m = model_only();
  const std::string t = std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  return "CPU (" + (m.empty() ? t : m + ", " + t) + ")";
}

}  // namespace gpulab

#include "common/cpu_info.h"

#include <fstream>

namespace gpulab {

std::string cpu_model_name() {
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
      return "CPU (" + line.substr(b, e - b + 1) + ")";
    }
  }
  return "CPU";
}

}  // namespace gpulab

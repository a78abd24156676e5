// The explicit list of demos. The roadmap's N-body, histogram and texture demos are added here.
#include "core/demo.h"
#include "demos/life/life_demo.h"

namespace gpulab {

std::vector<std::unique_ptr<Demo>> make_demos() {
  std::vector<std::unique_ptr<Demo>> demos;
  demos.push_back(std::make_unique<LifeDemo>());
  return demos;
}

}  // namespace gpulab

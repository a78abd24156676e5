// The explicit list of demos (no static self-registration, which a static library can drop): the
// one place above the demos that names them. A demo's number key (1-9) is its place here.
#include "core/demo.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/life/life_demo.h"
#include "demos/matrix/matrix_demo.h"
#include "demos/nbody/nbody_demo.h"
#include "demos/rotate/rotate_demo.h"
#include "demos/transfers/transfers_demo.h"

namespace gpulab {

std::vector<std::unique_ptr<Demo>> make_demos() {
  std::vector<std::unique_ptr<Demo>> demos;
  demos.push_back(std::make_unique<LifeDemo>());
  demos.push_back(std::make_unique<NbodyDemo>());
  demos.push_back(std::make_unique<HisteqDemo>());
  demos.push_back(std::make_unique<RotateDemo>());
  demos.push_back(std::make_unique<MatrixDemo>());
  demos.push_back(std::make_unique<TransfersDemo>());
  return demos;
}

std::unique_ptr<Demo> make_demo(std::string_view name) {
  for (auto& d : make_demos())
    if (d->name() == name) return std::move(d);
  return nullptr;
}

}  // namespace gpulab

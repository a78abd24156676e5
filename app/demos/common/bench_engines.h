#pragma once
// The engines a demo's bench probes share (Demo::bench): the CPU's, and the GPU's on the bench's one
// stream where CUDA is in use (BenchStream, which also fills the suite's device line and peaks).
// Made once a bench and held by the spec's probe factory, so that every job reuses them instead of
// starting an engine (and its device memory) of its own. No CUDA headers here: the demo sets the GPU
// engine.
#include <cstddef>
#include <exception>
#include <memory>
#include <string>

#include "core/bench.h"

namespace gpulab {

template <class Engine>
class BenchEngines {
 public:
  BenchEngines(BenchSuite& suite, const Options& o, std::unique_ptr<Engine> cpu)
      : stream_(suite, o, std::string(cpu->device_name())) {
    slots_[0].engine = std::move(cpu);
  }
  bool cuda() const { return stream_.cuda(); }
  Stream stream() const { return stream_.get(); }
  void set_gpu(std::unique_ptr<Engine> gpu) { slots_[1].engine = std::move(gpu); }
  Engine* gpu() const { return slots_[1].engine.get(); }

  // The engine of a variant's backend; null with *why where it has no GPU engine.
  std::shared_ptr<Engine> get(bool gpu, std::string* why) const {
    if (!slots_[gpu].engine) *why = "no CUDA device";
    return slots_[gpu].engine;
  }
  // The same, holding input `key`: load(engine) runs first where it holds another. What loading
  // throws is the reason for every job of that key (it is not tried again).
  template <class Load>
  std::shared_ptr<Engine> get(bool gpu, size_t key, Load&& load, std::string* why) {
    Slot& s = slots_[gpu];
    if (!s.engine) return get(gpu, why);
    if (s.key != key) {
      s.key = key;
      s.error.clear();
      try {
        load(*s.engine);
      } catch (const std::exception& e) {
        s.error = e.what();
      }
    }
    if (!s.error.empty()) {
      *why = s.error;
      return nullptr;
    }
    return s.engine;
  }

 private:
  struct Slot {
    std::shared_ptr<Engine> engine;
    size_t key = static_cast<size_t>(-1);  // the input it holds
    std::string error;                     // loading it failed
  };
  BenchStream stream_;  // declared first: it outlives the engines that use it
  Slot slots_[2];       // CPU, GPU
};

}  // namespace gpulab

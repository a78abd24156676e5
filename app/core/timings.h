#pragma once
// Named timing sections for the timings panel: GPU sections measured with CUDA events (read a few
// frames late so the frame never waits) and CPU sections measured with the host clock.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/stats.h"
#include "common/hd.h"

namespace gpulab {

class Timings {
 public:
  Timings();
  ~Timings();
  Timings(const Timings&) = delete;
  Timings& operator=(const Timings&) = delete;

  // GPU section on `stream`: events recorded around the work; no-ops without CUDA.
  void gpu_begin(const std::string& name, Stream stream);
  void gpu_end(const std::string& name, Stream stream);
  // A CPU section measured by the caller.
  void cpu(const std::string& name, double ms);
  // Once a frame: folds finished GPU timings into their series (never blocks).
  void collect();
  void clear();
  // Forgets every section, not only its samples: after a demo switch the previous demo's rows go.
  void forget();

  // All series, GPU sections first, in first-seen order.
  std::vector<const RollingSeries*> series() const;
  const RollingSeries* find(const std::string& name) const;
  // The median of section `name` divided by the `steps` one timing covers (the captions' figure);
  // nothing when the section has no samples yet or steps < 1.
  std::optional<double> median_per_step(const std::string& name, int steps) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Measures a CPU section into a Timings on destruction; a null Timings measures nothing.
class CpuSection {
 public:
  CpuSection(Timings* t, std::string name)
      : t_(t), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
  CpuSection(const CpuSection&) = delete;
  CpuSection& operator=(const CpuSection&) = delete;
  ~CpuSection() { stop(); }
  void stop() {  // ends the section early (once)
    if (!t_) return;
    const auto d = std::chrono::steady_clock::now() - start_;
    t_->cpu(name_, std::chrono::duration<double, std::milli>(d).count());
    t_ = nullptr;
  }

 private:
  Timings* t_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gpulab

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
#include "core/setup.h"

namespace gpulab {

// What a timed section ran: the picks of the stages inside it, one for a stage's step, every stage's
// for a whole pipeline. Whoever reads a section (the HUD, the captions, the timings panel's
// throughput rows, the window's summary) finds it by this key, never by spelling its name again; the
// name is only the timings panel's row label. A key is bound to its name when the section runs: a new
// key on the same name (another variant or block, the CPU after the GPU) starts the window afresh.
using TimingKey = Picks;

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
  // The same, for a section that runs `key`'s picks (its row reads `name`).
  void gpu_begin(const TimingKey& key, const std::string& name, Stream stream);
  void gpu_end(const TimingKey& key, const std::string& name, Stream stream);
  void cpu(const TimingKey& key, const std::string& name, double ms);
  // Once a frame: folds finished GPU timings into their series (never blocks).
  void collect();
  void clear();
  // Forgets every section, not only its samples: after a demo switch the previous demo's rows go.
  void forget();

  // All series, GPU sections first, in first-seen order.
  std::vector<const RollingSeries*> series() const;
  const RollingSeries* find(const std::string& name) const;
  // The section that ran `key` last (null when none has).
  const RollingSeries* find(const TimingKey& key) const;
  // The median of the section of `key` divided by the `steps` one timing covers (the captions'
  // figure); nothing when the section has no samples yet or steps < 1.
  std::optional<double> median_per_step(const TimingKey& key, int steps) const;

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

// The same for a section of a key (Timings::cpu(key, ...)).
class KeyedCpuSection {
 public:
  KeyedCpuSection(Timings* t, TimingKey key, std::string name)
      : t_(t), key_(std::move(key)), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
  KeyedCpuSection(const KeyedCpuSection&) = delete;
  KeyedCpuSection& operator=(const KeyedCpuSection&) = delete;
  ~KeyedCpuSection() {
    if (!t_) return;
    const auto d = std::chrono::steady_clock::now() - start_;
    t_->cpu(key_, name_, std::chrono::duration<double, std::milli>(d).count());
  }

 private:
  Timings* t_;
  TimingKey key_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gpulab

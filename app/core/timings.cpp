// Timings: GPU sections through the CUDA profiler (read frames late, never blocking), CPU sections
// summed per frame and pushed at collect().
#include "core/timings.h"

#include <deque>
#include <map>

#if defined(GPULAB_HAVE_CUDA)
#include "cuda/gpu_timer.h"
#endif

namespace gpulab {

struct Timings::Impl {
#if defined(GPULAB_HAVE_CUDA)
  cuda::GpuProfiler gpu;
#endif
  bool gpu_used = false;
  std::deque<RollingSeries> cpu;          // stable addresses
  std::map<std::string, size_t> index;    // name -> position in cpu
  std::map<std::string, double> frame;    // this frame's sums
  std::map<std::string, TimingKey> keys;  // name -> the key its section ran last
  // Binds `name` to `key`; a name that ran another key before starts its window afresh.
  void bind(const TimingKey& key, const std::string& name) {
    auto it = keys.find(name);
    if (it != keys.end() && it->second == key) return;
    if (it != keys.end()) {
      if (auto c = index.find(name); c != index.end()) cpu[c->second].clear();
      frame.erase(name);
#if defined(GPULAB_HAVE_CUDA)
      gpu.reset(name);
#endif
    }
    for (auto k = keys.begin(); k != keys.end();)  // a key has one section: the one it ran last
      k = k->second == key && k->first != name ? keys.erase(k) : std::next(k);
    keys[name] = key;
  }
};

Timings::Timings() : impl_(std::make_unique<Impl>()) {}
Timings::~Timings() = default;

void Timings::gpu_begin(const std::string& name, Stream stream) {
#if defined(GPULAB_HAVE_CUDA)
  impl_->gpu.begin(name, stream);
  impl_->gpu_used = true;
#else
  (void)name;
  (void)stream;
#endif
}

void Timings::gpu_end(const std::string& name, Stream stream) {
#if defined(GPULAB_HAVE_CUDA)
  impl_->gpu.end(name, stream);
#else
  (void)name;
  (void)stream;
#endif
}

void Timings::cpu(const std::string& name, double ms) { impl_->frame[name] += ms; }

void Timings::gpu_begin(const TimingKey& key, const std::string& name, Stream stream) {
  impl_->bind(key, name);
  gpu_begin(name, stream);
}

void Timings::gpu_end(const TimingKey& key, const std::string& name, Stream stream) {
  impl_->bind(key, name);
  gpu_end(name, stream);
}

void Timings::cpu(const TimingKey& key, const std::string& name, double ms) {
  impl_->bind(key, name);
  cpu(name, ms);
}

void Timings::collect() {
  for (const auto& [name, ms] : impl_->frame) {
    auto it = impl_->index.find(name);
    if (it == impl_->index.end()) {
      impl_->cpu.emplace_back(name, "ms");
      it = impl_->index.emplace(name, impl_->cpu.size() - 1).first;
    }
    impl_->cpu[it->second].push(ms);
  }
  impl_->frame.clear();
#if defined(GPULAB_HAVE_CUDA)
  if (impl_->gpu_used) impl_->gpu.collect();
#endif
}

void Timings::clear() {
  for (auto& s : impl_->cpu) s.clear();
  impl_->frame.clear();
#if defined(GPULAB_HAVE_CUDA)
  impl_->gpu.reset();
#endif
}

void Timings::forget() { impl_ = std::make_unique<Impl>(); }

std::vector<const RollingSeries*> Timings::series() const {
  std::vector<const RollingSeries*> out;
#if defined(GPULAB_HAVE_CUDA)
  out = impl_->gpu.series();
#endif
  for (const auto& s : impl_->cpu) out.push_back(&s);
  return out;
}

const RollingSeries* Timings::find(const std::string& name) const {
#if defined(GPULAB_HAVE_CUDA)
  if (const RollingSeries* s = impl_->gpu.find(name)) return s;
#endif
  auto it = impl_->index.find(name);
  return it == impl_->index.end() ? nullptr : &impl_->cpu[it->second];
}

const RollingSeries* Timings::find(const TimingKey& key) const {
  for (const auto& [name, k] : impl_->keys)
    if (k == key) return find(name);
  return nullptr;
}

std::optional<double> Timings::median_per_step(const TimingKey& key, int steps) const {
  const RollingSeries* r = find(key);
  if (!r || r->empty() || steps < 1) return std::nullopt;
  return r->median() / steps;
}

}  // namespace gpulab

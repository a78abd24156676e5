#pragma once
// A demo's engines, the plumbing every demo had written for itself: the CPU engine always, the CUDA
// engine where it started at attach (else the CPU variants run, and ctx.notify says why:
// start_cuda_engine), the engine of a variant's backend, and whether a variant can run here and why
// not. The demo keeps which engine is active (what switching means, moving the state or not, is
// its own). No CUDA headers here.
#include <array>
#include <memory>
#include <string>
#include <utility>

#include "core/demo.h"
#include "demos/common/cuda_start.h"
#include "demos/common/stage_table.h"

namespace gpulab {

template <class E>
class DemoEngines {
 public:
  explicit DemoEngines(std::unique_ptr<E> cpu) : cpu_(std::move(cpu)) {}
  DemoEngines(const DemoEngines&) = delete;
  DemoEngines& operator=(const DemoEngines&) = delete;

  // At attach: the CUDA engine from `create(ctx.stream)` where the context has a CUDA device; where it
  // does not start, there is none and failure() says why.
  template <class Create>
  void start(const Context& ctx, Create&& create) {
    ctx_ = &ctx;
    failure_.clear();
    gpu_ = start_cuda_engine(ctx, std::forward<Create>(create), &failure_);
  }
  // At detach: the CUDA engine goes, with its device memory.
  void stop() {
    gpu_.reset();
    ctx_ = nullptr;
  }

  E* cpu() const { return cpu_.get(); }
  E* gpu() const { return gpu_.get(); }  // null: no CUDA engine (before attach, no device, not built)
  // The CUDA engine as the demo's CUDA type (for its display and kernel-list calls); null as gpu().
  template <class C>
  C* gpu_as() const {
    return static_cast<C*>(gpu_.get());
  }
  // The engine that runs a variant of this backend: null for a CUDA one where no CUDA engine runs.
  E* of(bool cuda) const { return cuda ? gpu() : cpu(); }
  // Both engines, the CUDA one null where it did not start (to set a parameter on each).
  std::array<E*, 2> both() const { return {cpu(), gpu()}; }

  // Whether a variant of this backend can run here; if not, *why (when given) says why.
  bool can_run(bool cuda, std::string* why) const {
    if (!cuda || gpu_) return true;
    if (why) *why = cuda_unavailable_reason(ctx_);
    return false;
  }
  // "" where a variant of this backend can run; before attach a CUDA build cannot tell yet ("").
  std::string why_unavailable(bool cuda) const {
    return gpu_variant_unavailable(cuda, gpu_ != nullptr, ctx_);
  }
  const std::string& failure() const { return failure_; }

  void set_cpu_for_tests(std::unique_ptr<E> e) { cpu_ = std::move(e); }

 private:
  std::unique_ptr<E> cpu_;
  std::unique_ptr<E> gpu_;
  const Context* ctx_ = nullptr;
  std::string failure_;
};

}  // namespace gpulab

#pragma once
// A demo's CUDA engine, started where the context has a CUDA device. Where it does not start (the
// device out of memory, a driver error), the result is null, *failure says why, and the user is told
// through ctx.notify that the CPU variants run instead (the demo falls back rather than failing to
// attach). cuda_unavailable_reason: why the CUDA variants cannot run, said the same way by every
// demo. No CUDA headers here.
#include <exception>
#include <string>

#include "common/cuda_probe.h"
#include "core/demo.h"

namespace gpulab {

template <class Create>
auto start_cuda_engine(const Context& ctx, Create&& create, std::string* failure)
    -> decltype(create(ctx.stream)) {
  if (!ctx.cuda) return nullptr;
  try {
    return create(ctx.stream);
  } catch (const std::exception& e) {
    *failure = std::string("the CUDA engine did not start: ") + e.what();
    if (ctx.notify) ctx.notify(*failure + ": the CPU variants run");
    return nullptr;
  }
}

// Why a demo's CUDA variants cannot run (it has no CUDA engine): the context's reason once attached,
// else what the build says.
inline std::string cuda_unavailable_reason(const Context* ctx) {
  if (ctx && !ctx->cuda_reason.empty()) return ctx->cuda_reason;
  return cuda_built() ? "no CUDA device" : "built without CUDA";
}

}  // namespace gpulab

#pragma once
// A demo's CUDA engine, started where the context has a CUDA device. Where it does not start (the
// device out of memory, a driver error), the result is null, *failure says why, and the user is told
// through ctx.notify that the CPU variants run instead (the demo falls back rather than failing to
// attach). No CUDA headers here.
#include <exception>
#include <string>

#include "core/demo.h"

namespace gpulab {

template <class Create>
auto start_cuda_engine(const Context& ctx, Create&& create, std::string* failure) -> decltype(create(ctx.stream)) {
  if (!ctx.cuda) return nullptr;
  try {
    return create(ctx.stream);
  } catch (const std::exception& e) {
    *failure = std::string("the CUDA engine did not start: ") + e.what();
    if (ctx.notify) ctx.notify(*failure + ": the CPU variants run");
    return nullptr;
  }
}

}  // namespace gpulab

#pragma once
// A demo's stage table (Demo::stage_tables) made from its variant rows, and why a variant cannot run
// with the engines a demo has (Demo::why_unavailable), said the same way by every demo.
#include <string>
#include <string_view>
#include <type_traits>

#include "core/demo.h"
#include "demos/common/cuda_start.h"

namespace gpulab {

// A stage from a demo's variant rows (values or pointers to them, in table order): each row's choice,
// a GPU one where `gpu(row)`; a pick starts on the rows named `gpu_default` (a CUDA device is present)
// and `cpu_default` (none).
template <class Rows, class Gpu>
StageTable make_stage_table(std::string_view id, std::string_view title, const Rows& rows, Gpu&& gpu,
                            std::string_view gpu_default, std::string_view cpu_default) {
  StageTable t;
  t.id = id;
  t.title = title;
  for (const auto& row : rows) {
    const auto& v = [&]() -> const auto& {
      if constexpr (std::is_pointer_v<std::decay_t<decltype(row)>>)
        return *row;
      else
        return row;
    }
    ();
    const int i = static_cast<int>(t.variants.size());
    if (v.id == gpu_default) t.gpu_default = i;
    if (v.id == cpu_default) t.cpu_default = i;
    t.variants.push_back(variant_choice(v, gpu(v)));
  }
  return t;
}

// "" when a variant can run: a CPU one, or a GPU one where the demo's GPU engine runs; before attach
// (no context) a CUDA build cannot tell yet ("", checked at attach), a build without CUDA says so.
inline std::string gpu_variant_unavailable(bool needs_cuda, bool gpu_engine, const Context* ctx) {
  if (!needs_cuda || gpu_engine) return {};
  if (!ctx && cuda_built()) return {};
  return cuda_unavailable_reason(ctx);
}

}  // namespace gpulab

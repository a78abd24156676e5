#pragma once
// What every demo's Demo::probe checks of the block it is asked for, said the same way.
#include <string>

#include "core/demo.h"

namespace gpulab {

// Sets *block to the variant's default when it is 0; "" when *block is one of v.blocks (or the
// variant has none: it fixes its own launch or runs on the CPU), else why not (check_block).
inline std::string check_probe_block(const VariantRecord& v, int* block) {
  if (*block == 0) *block = v.default_block;
  std::string why;
  if (!v.blocks.empty() && !check_block(variant_choice(v, true), *block, &why)) return why;
  return {};
}

}  // namespace gpulab

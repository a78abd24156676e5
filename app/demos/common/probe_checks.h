#pragma once
// What every demo's Demo::probe checks of the block it is asked for, said the same way.
#include <algorithm>
#include <string>

namespace gpulab {

// Sets *block to the variant's default when it is 0; "" when *block is one of v.blocks (or the
// variant has none), else why not.
template <class V>
std::string check_probe_block(const V& v, int* block) {
  if (*block == 0) *block = v.default_block;
  if (!v.blocks.empty() && std::find(v.blocks.begin(), v.blocks.end(), *block) == v.blocks.end())
    return "block " + std::to_string(*block) + " is not one of " + std::string(v.id) + "'s";
  return {};
}

}  // namespace gpulab

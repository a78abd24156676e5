#pragma once
// SplitMix64 (Steele, Lea, Flood 2014), the one small generator behind every deterministic fill: the
// same numbers from one seed on every compiler and standard library, host or device.
#include <cstdint>

#include "common/hd.h"

namespace gpulab {

inline constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

// The generator's output function for state z + gamma: a stateless hash of z.
GPULAB_HD uint64_t mix64(uint64_t z) {
  z += kGoldenGamma;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The next number of the sequence whose state is `state` (advanced).
GPULAB_HD uint64_t splitmix64(uint64_t& state) {
  const uint64_t z = mix64(state);
  state += kGoldenGamma;
  return z;
}

}  // namespace gpulab

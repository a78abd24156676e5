#pragma once
// The Life gpu tests' reference: variants and rules by name, random grids and runs of the CPU
// reference (cpu-lut), and how two grids differ.
#include <stdexcept>
#include <string>
#include <string_view>

#include "life/life.h"

namespace gpulab::testing::life_reference {

using life::Grid;
using life::Rule;
using life::Variant;

inline const Variant& variant(std::string_view id) {
  const life::Variant* v = life::find_variant(id);
  if (v == nullptr) throw std::runtime_error("no variant " + std::string(id));
  return *v;
}

inline Rule rule(std::string_view text) {
  std::string error;
  const auto r = life::Rule::parse(text, &error);
  if (!r) throw std::runtime_error("bad rule " + std::string(text) + ": " + error);
  return *r;
}

// The CPU engine's random fill (the same cells the CUDA engine's randomize makes).
inline Grid random_grid(int w, int h, double density, uint64_t seed) {
  auto cpu = life::make_cpu_engine();
  cpu->resize(w, h);
  cpu->randomize(density, seed);
  return cpu->download();
}

// `generations` of cpu-lut from `start` under `rule`.
inline Grid cpu_run(const Grid& start, const Rule& rule, int generations) {
  auto cpu = life::make_cpu_engine();
  cpu->resize(start.width, start.height);
  cpu->set_rule(rule);
  cpu->upload(start);
  cpu->step(variant("cpu-lut"), 0, generations);
  return cpu->download();
}

// Empty when equal, else where and how they differ.
inline std::string difference(const Grid& expected, const Grid& actual) {
  if (expected.width != actual.width || expected.height != actual.height)
    return "size " + std::to_string(actual.width) + "x" + std::to_string(actual.height) + " instead of " +
           std::to_string(expected.width) + "x" + std::to_string(expected.height);
  const auto d = life::first_difference(expected, actual);
  if (!d) return {};
  size_t count = 0;
  for (size_t i = 0; i < expected.cells.size(); ++i) count += expected.cells[i] != actual.cells[i];
  return "first difference at (" + std::to_string(d->x) + ", " + std::to_string(d->y) + "): expected " +
         std::to_string(expected.at(d->x, d->y)) + ", got " + std::to_string(actual.at(d->x, d->y)) + "; " +
         std::to_string(count) + " cells differ";
}

}  // namespace gpulab::testing::life_reference

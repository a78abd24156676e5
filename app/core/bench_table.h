#pragma once
// A demo's bench table: the baselines of its speed-up columns and its speed targets, as data
// (assets/bench/<demo>.toml, built into the binary; assets/bench/README.md says each key).
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab {

struct BenchSpec;

// Lists of ids a table names as "@name", drawn by the demo from its variant table ("@gpu": every
// CUDA rung). An input given as "@name" is the one string of that list.
using BenchGroups = std::map<std::string, std::vector<std::string>>;

// Fills spec.suite's demo, baselines and targets, and spec.plan_baselines where the table gives them,
// from `text` (default: the built-in table of `demo`). A malformed table (a key unknown or of the
// wrong type, a target without its one threshold, an unknown "@name") throws std::logic_error
// naming the file and the entry.
void bench_declare(BenchSpec& spec, const std::string& demo, const BenchGroups& groups = {},
                   std::string_view text = {});

}  // namespace gpulab

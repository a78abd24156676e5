// `gpulab bench`: finds the demo, runs its benchmark rows, prints the table and writes the JSON.
#include "shell/bench_driver.h"

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "common/cuda_probe.h"
#include "common/file_io.h"
#include "common/text.h"
#include "core/bench.h"
#include "core/bench_stepper.h"
#include "core/demo.h"

namespace gpulab {

int run_bench(const Options& options, Params params) {
  BenchSuite suite;
  BenchSpec spec;
  std::string names;
  bool found = false;
  for (const auto& demo : make_demos()) {
    names += (names.empty() ? "" : ", ") + std::string(demo->name());
    if (demo->name() != options.demo) continue;
    found = true;
    // The Setup to measure: the command line's parameters and inputs.
    const Setup setup =
        bench_setup(*demo, options, std::move(params), cuda_status().available && !options.cpu);
    try {
      if (!demo->bench(setup, options, &spec)) {
        std::fprintf(stderr, "gpulab bench: demo %s has no benchmark yet\n",
                     text::quote(options.demo).c_str());
        return 2;
      }
      suite = bench_run(std::move(spec), options);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpulab bench: %s\n", e.what());
      return 1;
    }
  }
  if (!found) {
    std::fprintf(stderr, "gpulab bench: no demo %s (demos: %s)\n", text::quote(options.demo).c_str(),
                 names.c_str());
    return 2;
  }
  std::fputs(format_bench(suite).c_str(), stdout);
  if (!options.bench_json.empty()) {
    if (std::string why = files::write_regular_file(options.bench_json, bench_json(suite)); !why.empty()) {
      std::fprintf(stderr, "gpulab bench: %s\n", why.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace gpulab

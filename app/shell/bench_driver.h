#pragma once
// `gpulab bench [options]`: the demo named by --demo times its variants (Demo::bench) on the Setup the
// command line gives (`params`: the demo's parameters as parsed), then the table goes to stdout and,
// with --json, the results to a file. Returns the exit status.
#include "core/cli.h"
#include "core/setup.h"

namespace gpulab {

int run_bench(const Options& options, Params params = {});

}  // namespace gpulab

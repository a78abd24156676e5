#pragma once
// `gpulab bench [options]`: the demo named by --demo times its variants (Demo::bench), then the
// table goes to stdout and, with --json, the results to a file. Returns the exit status.
#include "core/cli.h"

namespace gpulab {

int run_bench(const Options& options);

}  // namespace gpulab

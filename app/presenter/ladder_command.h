#pragma once
// The `gpulab ladder` command: the ladder (presenter/ladder.h) and, with --counters, the counters'
// columns and files (presenter/counters_command.h). Apart from ladder.cpp, so the ladder does not
// depend on the counters.
#include "core/cli.h"
#include "core/demo.h"
#include "presenter/ladder_chart.h"

namespace gpulab::presenter {

// `gpulab ladder`: measures every variant of the attached demo on its current input (the command
// line's demo options, as in batch mode), prints the table, writes --csv, --json and --png. Returns
// the exit status (0 also when GPU variants are listed as unavailable on the CPU backend).
int run_ladder_command(Demo& demo, const Context& ctx, const Options& options);

}  // namespace gpulab::presenter

#include "presenter/ladder_command.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/stats.h"
#include "common/text.h"
#include "core/bench.h"
#include "core/files.h"
#include "core/recorded.h"
#include "presenter/counters_command.h"
#include "presenter/ladder.h"
#include "presenter/ladder_png.h"

namespace gpulab::presenter {

int run_ladder_command(Demo& demo, const Context& ctx, const Options& o) {
  // Figures recorded on a GPU for the PNG's rungs that cannot run here: read before measuring, so that
  // a file that cannot be read costs no wait.
  std::optional<RecordedResults> recorded;
  if (!o.results.empty()) {
    std::string why;
    recorded = load_recorded_results(o.results, &why);
    if (!recorded) {
      std::fprintf(stderr, "gpulab: ladder: %s\n", why.c_str());
      return 1;
    }
  }
  LadderOptions lo;
  lo.best_block = o.blocks.empty();
  SameReason said;  // lives while the rungs are measured, below
  lo.on_rung = [&said](const Rung& r) {
    if (r.state == RungState::Measured)
      std::fprintf(stderr, "ladder: %-10s %-22s %-7s %s %s\n", r.stage_id.c_str(), r.variant.c_str(),
                   r.block_label.c_str(), format_time(r.row.ms_median).c_str(),
                   (r.row.per.empty() ? "per step" : r.row.per).c_str());
    else
      std::fprintf(stderr, "ladder: %-10s %-22s %s: %s\n", r.stage_id.c_str(), r.variant.c_str(),
                   state_name(r.state), said.say(r.reason, r.variant).c_str());
  };
  std::vector<Rung> rungs;
  try {
    LadderRun run(demo, ctx, lo);
    run.run_here();
    if (std::string e = run.error(); !e.empty()) {
      std::fprintf(stderr, "gpulab: ladder: %s\n", e.c_str());
      return 1;
    }
    rungs = run.rungs();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab: ladder: %s\n", e.what());
    return 1;
  }
  const BenchSuite suite = ladder_suite(rungs, demo.name(), ctx);
  std::fputs(format_bench(suite).c_str(), stdout);
  int status = 0;
  auto write = [&](const std::string& path, const std::string& text, const char* what) {
    if (!write_command_output("ladder", path, text, what)) status = 1;
  };
  write(o.ladder_csv, ladder_csv(rungs), "--csv");
  write(o.ladder_json, bench_json(suite), "--json");
  if (!o.ladder_png.empty()) {
    ChartData chart = ladder_chart(rungs, demo.title(), suite.device);
    if (recorded) {
      const size_t n = add_recorded(chart, rungs, demo.name(), *recorded);
      const std::string from = text::quote(recorded->path, 4096);
      if (n > 0)
        std::fprintf(stderr, "ladder: --png shows %zu rung%s %s (from %s), hatched\n", n, n == 1 ? "" : "s",
                     text::escape(recorded->label()).c_str(), from.c_str());
      else
        std::fprintf(stderr,
                     "ladder: %s has no figures for a rung that cannot run here (demo %s, this size)\n",
                     from.c_str(), text::quote(recorded->demo).c_str());
    }
    if (!write_ladder_pngs(chart, ladder_png_request(o))) status = 1;
  }
  if (o.ladder_counters)
    status = std::max(status, ladder_counters_outputs(demo, ctx, o, rungs, suite.device));
  return status;
}

}  // namespace gpulab::presenter

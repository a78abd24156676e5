#include "presenter/ladder_command.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "common/text.h"
#include "core/bench.h"
#include "core/files.h"
#include "presenter/counters_command.h"
#include "presenter/ladder.h"
#include "presenter/ladder_png.h"

namespace gpulab::presenter {

int run_ladder_command(Demo& demo, const Context& ctx, const Options& o) {
  LadderOptions lo;
  lo.best_block = o.blocks.empty();
  lo.on_rung = [](const Rung& r) {
    if (r.state == RungState::Measured)
      std::fprintf(stderr, "ladder: %-10s %-22s %-7s %.4g ms/step\n", r.stage_id.c_str(), r.variant.c_str(),
                   r.block_label.c_str(), r.row.ms_median);
    else
      std::fprintf(stderr, "ladder: %-10s %-22s %s: %s\n", r.stage_id.c_str(), r.variant.c_str(),
                   state_name(r.state), r.reason.c_str());
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
    const ChartData chart = ladder_chart(rungs, demo.title(), suite.device);
    ChartPngInfo info;
    if (std::string why = save_chart_png(chart, o.ladder_png_width, o.ladder_png_height, o.ladder_png,
                                         ChartTheme::dark(), &info);
        !why.empty()) {
      std::fprintf(stderr, "gpulab: ladder --png: %s\n", why.c_str());
      status = 1;
    } else {
      if (!info.font_warning.empty()) std::fprintf(stderr, "ladder: %s\n", info.font_warning.c_str());
      std::fprintf(stderr, "ladder: wrote %s (%dx%d)\n", text::escape(o.ladder_png, 4096).c_str(),
                   o.ladder_png_width, o.ladder_png_height);
    }
  }
  if (o.ladder_counters)
    status = std::max(status, ladder_counters_outputs(demo, ctx, o, rungs, suite.device));
  return status;
}

}  // namespace gpulab::presenter

#pragma once
// A headless gpulab run with its settings in a scratch folder (never the user's) and its layout
// report (--layout-report) parsed: what the window showed on its last frame.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_binary.h"

namespace gpulab::testing {

struct ReportedRun {
  ProcessResult process;
  nlohmann::json report;  // discarded (is_discarded()) when there was none to read
};

// `gpulab ARGS --layout-report DIR/layout.json` with XDG_CONFIG_HOME=DIR/config (killed after
// `limit_s` seconds where that is > 0).
inline ReportedRun run_with_layout_report(const std::string& args, const std::filesystem::path& dir,
                                          const std::string& log_prefix, int limit_s = 0) {
  const std::filesystem::path report = dir / "layout.json";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(report);
  ReportedRun r;
  r.process = run_gpulab_in(args + " --layout-report " + report.string(), dir, log_prefix, limit_s);
  std::ifstream in(report);
  EXPECT_TRUE(in) << "no layout report " << report << "\n" << r.process.output;
  r.report =
      in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json(nlohmann::json::value_t::discarded);
  return r;
}

}  // namespace gpulab::testing

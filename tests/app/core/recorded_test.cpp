// Recorded results (--results): a bench or ladder JSON read back, its rows found by variant and size,
// and every malformed file refused with a message naming it.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/bench.h"
#include "core/recorded.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using namespace gpulab;

namespace {

fs::path scratch(const std::string& name, const std::string& text) {
  const fs::path p =
      fs::temp_directory_path() / ("gpulab-recorded-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST(RecordedResults, AreReadWithTheirDeviceDateAndRows) {
  std::string why;
  const auto r = load_recorded_results(fs::path(GPULAB_TEST_DATA) / "results" / "life-h100.json", &why);
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(r->demo, "life");
  EXPECT_EQ(r->label(), "recorded on NVIDIA H100 80GB HBM3, 2026-11-27");
  ASSERT_EQ(r->rows.size(), 4u);
  // The same case: 512x512 cells a generation.
  bool other = true;
  const RecordedRow* g = r->find("", "gpu-global", 512.0 * 512.0, &other);
  ASSERT_NE(g, nullptr);
  EXPECT_FALSE(other);
  EXPECT_DOUBLE_EQ(g->ms_per_step, 0.004);
  ASSERT_TRUE(g->speedup.has_value());
  EXPECT_DOUBLE_EQ(*g->speedup, 200.0);
  EXPECT_EQ(g->speedup_baseline, "cpu-naive");
  // Another size: the largest recorded one, said to be another size.
  const RecordedRow* s = r->find("step", "gpu-shared", 512.0 * 512.0, &other);
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(other);
  EXPECT_EQ(s->size, "4096x4096");
  EXPECT_EQ(r->find("", "gpu-bitpacked", 512.0 * 512.0), nullptr) << "not recorded";
  EXPECT_EQ(r->find("ghost", "gpu-global", 512.0 * 512.0), nullptr) << "another stage";
}

TEST(RecordedResults, TheBenchRecordsItsDate) {
  BenchSuite suite;
  suite.demo = "life";
  suite.device = "NVIDIA H100 80GB HBM3";
  const nlohmann::json j = nlohmann::json::parse(bench_json(suite));
  ASSERT_TRUE(j.contains("recorded"));
  EXPECT_EQ(j["recorded"].get<std::string>(), today_utc());
  EXPECT_EQ(today_utc().size(), 10u);
}

TEST(RecordedResults, MalformedFilesAreRefusedNamingTheFile) {
  std::string why;
  EXPECT_FALSE(load_recorded_results("/nonexistent/r.json", &why));
  EXPECT_NE(why.find("'/nonexistent/r.json'"), std::string::npos) << why;
  EXPECT_FALSE(load_recorded_results(fs::temp_directory_path(), &why)) << "a folder";
  EXPECT_NE(why.find("results file"), std::string::npos) << why;
  const fs::path fifo = fs::temp_directory_path() / ("gpulab-recorded-fifo-" + std::to_string(::getpid()));
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(load_recorded_results(fifo, &why)) << "a FIFO is refused without blocking";
  fs::remove(fifo);
  const fs::path bad = scratch("bad.json", "{ not json");
  EXPECT_FALSE(load_recorded_results(bad, &why));
  EXPECT_NE(why.find("is not JSON: line 1, column 4"), std::string::npos) << why;
  const fs::path cut = scratch("cut.json", "{\"demo\": \"life\", \"rows\": [\n {\"variant\": }");
  EXPECT_FALSE(load_recorded_results(cut, &why));
  EXPECT_NE(why.find("is not JSON: line 2, column 14"), std::string::npos) << why;
  fs::remove(cut);
  // A number past a double (found by fuzzing: nlohmann's out_of_range, not a parse error, aborted).
  const fs::path huge =
      scratch("huge.json", R"({"demo": "life", "rows": [{"variant": "x", "ms_per_step_median": 1e705}]})");
  EXPECT_FALSE(load_recorded_results(huge, &why));
  EXPECT_NE(why.find("is not JSON gpulab can read: number overflow parsing '1e705'"), std::string::npos)
      << why;
  fs::remove(huge);
  const fs::path other = scratch("other.json", R"({"name": "x"})");
  EXPECT_FALSE(load_recorded_results(other, &why));
  EXPECT_NE(why.find("not a gpulab bench or ladder JSON"), std::string::npos) << why;
  const fs::path empty = scratch("empty.json", R"({"demo": "life", "rows": []})");
  EXPECT_FALSE(load_recorded_results(empty, &why));
  EXPECT_NE(why.find("no measured row"), std::string::npos) << why;
  const fs::path nan = scratch("nan.json", R"({"demo": "life", "rows": [{"variant": "gpu-\u0007x"}]})");
  EXPECT_FALSE(load_recorded_results(nan, &why));
  EXPECT_NE(why.find("has no time a step"), std::string::npos) << why;
  EXPECT_NE(why.find("\\x07"), std::string::npos) << "control bytes escaped: " << why;
  for (const fs::path& p : {bad, other, empty, nan}) fs::remove(p);
}

TEST(RecordedResults, AValueOfAnotherTypeIsRefusedWithItsRowAndKeyNotAnAbort) {
  // Each of these aborted gpulab (nlohmann::json::type_error) in --results, a lesson's results, ladder
  // --results and --lesson --check alike.
  struct Case {
    const char* json;
    const char* said;
  };
  const Case cases[] = {
      {R"({"demo":"life","rows":[{"variant":"gpu-shared","ms_per_step_median":0.001,"baseline_only":"yes"}]})",
       R"(row 1 ('gpu-shared'): "baseline_only" is a string, not true or false)"},
      {R"({"demo":"life","rows":[{"variant":"gpu-shared","ms_per_step_median":0.001,"baseline_only":null}]})",
       R"(row 1 ('gpu-shared'): "baseline_only" is null, not true or false)"},
      {R"({"demo":"life","baselines":["cpu"],"baseline_groups":[{"label":7,"variants":["cpu"]}],)"
       R"("rows":[{"variant":"cpu","ms_per_step_median":1}]})",
       R"(baseline group 1: "label" is a number, not a string)"},
      {R"({"demo":"life","rows":[{"variant":"gpu-shared","ms_per_step_median":"0.001"}]})",
       R"(row 1 ('gpu-shared'): "ms_per_step_median" is a string, not a number)"},
      {R"({"demo":"life","rows":[{"variant":"a","ms_per_step_median":1},{"variant":"b","ms_per_step_median":1,)"
       R"("error":false}]})",
       R"(row 2 ('b'): "error" is true or false, not a string)"},
      {R"({"demo":"life","device":3,"rows":[{"variant":"a","ms_per_step_median":1}]})",
       R"("device" is a number, not a string)"},
      {R"({"demo":"life","baselines":"cpu","rows":[{"variant":"a","ms_per_step_median":1}]})",
       R"("baselines" is a string, not an array)"},
      {R"({"demo":"life","rows":[7]})", "row 1 is a number, not an object"},
      // Absurd figures: a time of 1e305 ms, a negative rate (UBSan flagged the block's conversion).
      {R"({"demo":"life","rows":[{"variant":"a","ms_per_step_median":1e305}]})",
       R"(row 1 ('a'): "ms_per_step_median" is 1e+305, not a figure from 0 to 1e18)"},
      {R"({"demo":"life","rows":[{"variant":"a","ms_per_step_median":1,"items_per_s":-5}]})",
       R"(row 1 ('a'): "items_per_s" is -5, not a figure from 0 to 1e18)"},
      {R"({"demo":"life","rows":[{"variant":"a","ms_per_step_median":1,"block":1e300}]})",
       R"(row 1 ('a'): "block" is 1e+300, not a figure from 0 to 1e18)"},
      {R"({"demo":"life","baselines":["cpu"],"rows":[{"variant":"a","ms_per_step_median":1,"speedup_vs_cpu":"x"}]})",
       R"(row 1 ('a'): "speedup_vs_cpu" is a string, not a number)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.json);
    std::string why;
    EXPECT_FALSE(parse_recorded_results(c.json, "r.json", &why));
    EXPECT_EQ(why, std::string("results file 'r.json': ") + c.said);
  }
  // The bench's own block label is read, not refused.
  std::string why;
  const auto ok = parse_recorded_results(
      R"({"demo":"life","rows":[{"variant":"a","ms_per_step_median":1,"block":"16x16"},)"
      R"({"variant":"b","ms_per_step_median":1,"block":"-"},{"variant":"c","ms_per_step_median":1,"block":256}]})",
      "r.json", &why);
  ASSERT_TRUE(ok) << why;
  ASSERT_EQ(ok->rows.size(), 3u);
  EXPECT_EQ(ok->rows[0].block, 16);
  EXPECT_EQ(ok->rows[1].block, 0);
  EXPECT_EQ(ok->rows[2].block, 256);
}

TEST(RecordedResults, ALargeFileNamesEachSpeedUpsBaselineVariant) {
  // 80,000 rows with speed-ups over a baseline group took 22 s to read (each row searched every row
  // for its case's baseline): the cases are now a set. 20,000 rows over 200 cases, each case with its
  // hist-cpu row (the first 200) but for the last, whose speed-up keeps the group's label.
  std::string j = R"({"demo":"histeq","baselines":["cpu"],"baseline_groups":[{"label":"cpu","variants":)"
                  R"(["hist-cpu","scan-cpu"]}],"rows":[)";
  for (int i = 0; i < 20000; ++i) {
    const std::string size = std::to_string(i % 200) + "x1";
    const bool base = i < 199;
    j += std::string(i ? "," : "") + R"({"variant":")" + (base ? "hist-cpu" : "hist-" + std::to_string(i)) +
         R"(","stage":"histogram","size":")" + size + R"(","ms_per_step_median":1,"speedup_vs_cpu":2})";
  }
  j += "]}";
  std::string why;
  const auto r = parse_recorded_results(j, "big.json", &why);
  ASSERT_TRUE(r) << why;
  ASSERT_EQ(r->rows.size(), 20000u);
  for (const RecordedRow& row : r->rows)
    ASSERT_EQ(row.speedup_baseline, row.size == "199x1" ? "cpu" : "hist-cpu")
        << row.variant << " " << row.size;
}

TEST(RecordedResults, ALaddersSpeedupsNameEachStagesBaselineVariant) {
  // gpulab ladder --json: one "baseline" column over each stage's CPU rung. The recorded speed-up says
  // which variant it is over ("vs hist-cpu"), not "vs baseline".
  BenchSuite suite;
  suite.command = "ladder";
  suite.demo = "histeq";
  suite.device = "NVIDIA H100 80GB HBM3";
  auto row = [](const char* stage, const char* variant, double ms) {
    BenchRow r;
    r.demo = "histeq";
    r.stage = stage;
    r.variant = variant;
    r.block = "256";
    r.size = "4096x4096";
    r.width = r.height = 4096;
    r.ms_median = ms;
    r.items_per_s = 4096.0 * 4096.0 / (ms * 1e-3);
    r.item_unit = "pixels";
    return r;
  };
  suite.rows = {row("histogram", "hist-cpu", 20.0), row("histogram", "hist-shared", 0.05),
                row("apply", "apply-cpu", 8.0), row("apply", "apply-shared", 0.04)};
  BenchBaseline base;
  base.label = "baseline";
  base.variants = {"hist-cpu", "apply-cpu"};
  suite.baselines.push_back(base);
  compute_speedups(suite);
  const fs::path p = scratch("ladder.json", bench_json(suite));
  std::string why;
  const auto r = load_recorded_results(p, &why);
  fs::remove(p);
  ASSERT_TRUE(r) << why;
  const RecordedRow* h = r->find("histogram", "hist-shared", 4096.0 * 4096.0);
  ASSERT_NE(h, nullptr);
  ASSERT_TRUE(h->speedup.has_value());
  EXPECT_NEAR(*h->speedup, 400.0, 1e-6);
  EXPECT_EQ(h->speedup_baseline, "hist-cpu");
  const RecordedRow* a = r->find("apply", "apply-shared", 4096.0 * 4096.0);
  ASSERT_NE(a, nullptr);
  ASSERT_TRUE(a->speedup.has_value());
  EXPECT_NEAR(*a->speedup, 200.0, 1e-6);
  EXPECT_EQ(a->speedup_baseline, "apply-cpu");
}

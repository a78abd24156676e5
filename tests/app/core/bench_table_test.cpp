// cpu label: the bench tables (assets/bench/<demo>.toml) are read key by key; a malformed one says the
// file, the entry and what is wrong; every demo's built-in table names rows its bench has.
#include "core/bench_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "core/bench.h"
#include "core/bench_stepper.h"
#include "core/demo.h"
#include "support/configure_demo.h"
#include "support/demo_names.h"

namespace gpulab {
namespace {

// The error bench_declare gives for `text` ("" when it reads).
std::string error_of(const std::string& text, const BenchGroups& groups = {}) {
  BenchSpec spec;
  try {
    bench_declare(spec, "test", groups, text);
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "";
}

TEST(BenchTable, ReadsBaselinesTargetsAndGroups) {
  BenchSpec spec;
  bench_declare(spec, "test", {{"gpu", {"a", "b"}}, {"pipe", {"pipeline x8"}}}, R"toml(
baselines = ["cpu", { label = "naive", variants = ["n1", "n2"] }]
[[target]]
what = "fast (H100)"
variants = ["@gpu", "c"]
width = 64
min_rate = 2e9
card = "H100"
same_on = [{ card = "H200", why = "a ratio within one run" }]
[[target]]
what = "within"
variants = ["a"]
versus = ["floor"]
within = 1.25
input = "@pipe"
on_card = [{ card = "B200", what = "within on B200", threshold = 0.5 }]
)toml");
  EXPECT_EQ(spec.suite.demo, "test");
  ASSERT_EQ(spec.suite.baselines.size(), 2u);
  EXPECT_EQ(spec.suite.baselines[0].label, "cpu");
  EXPECT_EQ(spec.suite.baselines[0].variants, std::vector<std::string>{"cpu"});
  EXPECT_EQ(spec.suite.baselines[1].label, "naive");
  EXPECT_EQ(spec.suite.baselines[1].variants, (std::vector<std::string>{"n1", "n2"}));
  EXPECT_FALSE(spec.plan_baselines.has_value());  // absent: the plan adds the suite's
  ASSERT_EQ(spec.suite.targets.size(), 2u);
  const BenchTarget& fast = spec.suite.targets[0];
  EXPECT_EQ(fast.variants, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(fast.width, 64);
  EXPECT_EQ(fast.min_items_per_s, 2e9);
  ASSERT_EQ(fast.on_cards.size(), 1u);
  EXPECT_EQ(fast.on_cards[0].what, "fast (H200, a ratio within one run)");
  EXPECT_EQ(fast.on_cards[0].threshold, 2e9);
  const BenchTarget& within = spec.suite.targets[1];
  EXPECT_EQ(within.kind(), BenchTarget::Kind::Ratio);
  EXPECT_DOUBLE_EQ(within.min_ratio, 0.8);
  EXPECT_EQ(within.input, "pipeline x8");
  ASSERT_EQ(within.on_cards.size(), 1u);
  EXPECT_EQ(within.on_cards[0].threshold, 0.5);
  EXPECT_EQ(target_on_device(within, "NVIDIA B200").what, "within on B200");
}

TEST(BenchTable, AnEmptyPlanBaselineListAddsNone) {
  BenchSpec spec;
  bench_declare(spec, "test", {}, "baselines = [\"cpu\"]\nplan_baselines = []\n");
  ASSERT_TRUE(spec.plan_baselines.has_value());
  EXPECT_TRUE(spec.plan_baselines->empty());
  EXPECT_TRUE(spec.suite.targets.empty());
}

TEST(BenchTable, AMalformedTableSaysTheFileTheEntryAndWhat) {
  const std::string head = "baselines = [\"cpu\"]\n[[target]]\nwhat = \"t\"\nvariants = [\"a\"]\n";
  EXPECT_EQ(error_of(head + "min_rate = 1e9\n"), "");
  struct Case {
    std::string text, says;
  };
  for (const Case& c : std::vector<Case>{
           {head + "min_rate = 1e9\nmin_ratio = 1.5\nversus = [\"b\"]\n", "one of min_rate"},
           {head, "one of min_rate"},
           {head + "min_ratio = 1.5\n", "with versus"},
           {head + "min_rate = 1e9\nwidht = 64\n", "unknown key 'widht'"},
           {head + "min_rate = \"fast\"\n", "min_rate: not a number > 0"},
           {head + "min_ratio = 2\nversus = [\"b\"]\n", "min_ratio: not a number > 0, like 1.0"},
           {head + "min_rate = -1e9\n", "min_rate: not a number > 0"},
           {head + "min_rate = 1e9\nwidth = -4\n", "width: not a whole number >= 0"},
           {head + "min_rate = 1e9\nvariants = [\"@gpu\"]\n", "line"},  // a key given twice: TOML's error
           {"baselines = [\"cpu\"]\n[[target]]\nwhat = \"t\"\nvariants = [\"@gpu\"]\nmin_rate = 1e9\n",
            "no group '@gpu'"},
           {"baselines = [1]\n", "baselines: not a table"},
           {"baseline = [\"cpu\"]\n", "unknown key 'baseline'"},
           {"baselines = [\"cpu\"\n", "line 1"},
           {"baselines = [\"cpu\"]\ntarget = 3\n", "not a list of tables"},
       }) {
    const std::string e = error_of(c.text);
    EXPECT_NE(e.find("bench table assets/bench/test.toml: "), std::string::npos) << c.text << "\n" << e;
    EXPECT_NE(e.find(c.says), std::string::npos) << c.text << "\n" << e;
  }
}

// Each demo's built-in table: it reads, has a baseline and a target, and every target's variants are
// rows the bench lists (a variant of the plan's table or one of its own rows).
TEST(BenchTable, EveryDemosTableNamesRowsOfItsBench) {
  for (const std::string& name : gpulab::testing::demo_names()) {
    std::unique_ptr<Demo> demo = make_demo(name);
    std::vector<const char*> args = {"bench", "--demo", name.c_str()};
    ParseResult r = gpulab::testing::parse_with_every_demo(args);
    ASSERT_TRUE(r.options) << r.error;
    const std::vector<std::unique_ptr<Demo>> all = make_demos();
    size_t index = 0;
    while (index < all.size() && all[index]->name() != name) ++index;
    const gpulab::Setup setup = bench_setup(*demo, *r.options, std::move(r.params.at(index)), false);
    BenchSpec spec;
    ASSERT_TRUE(demo->bench(setup, *r.options, &spec)) << name;
    EXPECT_EQ(spec.suite.demo, name);
    EXPECT_FALSE(spec.suite.baselines.empty()) << name;
    EXPECT_FALSE(spec.suite.targets.empty()) << name;
    std::set<std::string> rows;
    for (const BenchVariant& v : spec.variants) rows.insert(v.id);
    for (const BenchJob& j : spec.extra) rows.insert(j.variant);
    for (const BenchTarget& t : spec.suite.targets) {
      EXPECT_NE(t.kind(), BenchTarget::Kind::Invalid) << name << ": " << t.what;
      for (const std::string& id : t.variants)
        EXPECT_TRUE(rows.count(id)) << name << ": " << t.what << ": " << id;
    }
  }
}

}  // namespace
}  // namespace gpulab

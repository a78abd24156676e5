#pragma once
// The bench's stepper: the case × variant × block loop, written once for every demo. A demo
// describes its benchmark as a BenchSpec (Demo::bench: its cases, the variants --variant picks from,
// any rows of its own, baselines, targets, notes, and a probe factory that makes a Probe for a job on
// a case's input with the same code as Demo::probe); the stepper lists the jobs and measures one a
// step(). Every measurement, the bench's and the ladder's (presenter/ladder.cpp), is one call of
// bench_measure_probe: make the probe, verify it when asked, bench_time_steps, bench_fill.
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/bench.h"
#include "core/cli.h"
#include "core/probe.h"

namespace gpulab {

struct StageTables;

// One input a bench measures on, labelled as its rows print it.
struct BenchCase {
  std::string size;                 // "16384x16384", "N=131072"
  long long width = 0, height = 0;  // the size as numbers (height 1 for N items)
  std::string input;                // "grey linear"; "" when the demo has one input
};

// A variant the plan may pick (bench_plan): a row of the demo's table in the bench's terms.
struct BenchVariant {
  size_t stage = 0;      // the demo's stage (as Demo::probe takes it)
  std::string stage_id;  // the rows' stage column: "step", "histogram"
  std::string id;
  std::span<const int> blocks;  // empty: no block sizes (block 0, shown "-")
  bool square_blocks = false;
  int default_block = 0;
};

// One row to measure: a variant (or a row of the demo's own, as rotate's fetch-ceiling) at a block on
// a case.
struct BenchJob {
  size_t case_index = 0;
  size_t stage = 0;
  std::string stage_id, variant;
  int block = 0;
  std::string block_label;     // "16x16", "256", "-"
  bool baseline_only = false;  // measured as a baseline, not asked for
};

// What a demo's benchmark is: Demo::bench fills it, the stepper measures it.
struct BenchSpec {
  // demo, baselines, targets, the notes known up front; device and peaks (BenchStream fills them).
  BenchSuite suite;
  std::string item_unit;                        // of every row, also those not measured ("cell updates")
  std::vector<BenchCase> cases;                 // measured in this order
  std::vector<BenchVariant> variants;           // the plan's table, in row order (empty: no plan rows)
  std::optional<std::vector<std::string>> ids;  // the ids asked for (default: --variant)
  std::optional<std::vector<BenchBaseline>> plan_baselines;  // those the plan adds (default: suite's)
  std::vector<BenchJob> extra;                               // measured after the plan's rows in every case
  // The probe of `job` on the input of `c`; its labels (size, input) come from the case. Whatever it
  // throws becomes the row's error.
  std::function<Probe(const BenchCase& c, const BenchJob& job)> probe;
  // Optional: true leaves `job` out (no row); a *note set is added to the suite's notes.
  std::function<bool(const BenchCase& c, const BenchJob& job, const BenchSuite& so_far, std::string* note)>
      skip;
  // Optional: called once after the last job (notes drawn from the rows).
  std::function<void(BenchSuite&)> finish;
};

// How bench_measure_probe measures.
struct BenchMeasure {
  bool verify = false;              // run probe.verify first (the ladder): a difference is a Mismatch
  int steps = 0, repeats = 7;       // as --steps (0: sized) and --repeats
  std::function<bool()> cancelled;  // asked before every timed run: true stops with Cancelled
};

enum class BenchOutcome {
  Measured,     // the row is filled
  Unavailable,  // the probe cannot run here (or making it threw): row.error says why
  Mismatch,     // verify found a difference: row.error is it
  Error,        // verifying or timing threw: row.error is what
  Cancelled,    // BenchMeasure::cancelled said so
};

struct BenchMeasured {
  BenchOutcome outcome = BenchOutcome::Unavailable;
  bool verified = false;  // verify ran and agreed, or the probe has nothing to verify
  std::string note;       // the probe's note
};

// Measures one probe into `row`: makes it with `make`, verifies it when asked, times probe.run as the
// bench does (bench_time_steps: warm-up, calibration, median of repeats) and fills the row
// (bench_fill, with the peaks of `peaks`). The probe's device is the row's, and its size and unit
// fill the row where the caller left them empty. The row's error is set unless Measured.
BenchMeasured bench_measure_probe(BenchRow& row, const std::function<Probe()>& make, const BenchMeasure& how,
                                  const BenchSuite& peaks);

class BenchStepper {
 public:
  // Lists the jobs: for each case, the plan's variants (bench_plan: the asked ids after the baselines
  // not asked for) at their blocks (bench_blocks: --all-blocks), then the spec's extra jobs. Throws
  // std::invalid_argument for an unknown --variant.
  BenchStepper(BenchSpec spec, const Options& options);

  const std::vector<BenchJob>& jobs() const { return jobs_; }
  bool done() const { return next_ >= jobs_.size(); }
  // Measures the next job into the suite, or leaves it out by the spec's skip rule. Returns the row
  // added, nullptr when the job was skipped or none was left.
  const BenchRow* step();
  const BenchSuite& suite() const { return spec_.suite; }
  // After the last job: the spec's finish, then the speedups. The suite is left empty.
  BenchSuite finish();

 private:
  BenchSpec spec_;
  BenchMeasure how_;
  std::vector<BenchJob> jobs_;
  size_t next_ = 0;
};

// `gpulab bench`'s loop: every job of `spec` back to back, a progress line each on stderr; the
// finished suite.
BenchSuite bench_run(BenchSpec spec, const Options& options);

// The plan's table from a demo's stages (Demo::stage_tables), stage by stage in table order: each
// variant's id, blocks and default block, its stage's index and id. `keep` (default: every stage)
// leaves out a stage the bench does not measure.
std::vector<BenchVariant> bench_variants(const StageTables& tables,
                                         const std::function<bool(size_t stage)>& keep = nullptr);

}  // namespace gpulab

// The bench's stepper and its one measurement (bench_measure_probe), shared with the ladder.
#include "core/bench_stepper.h"

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <utility>

#include "base/stats.h"
#include "core/demo.h"

namespace gpulab {
namespace {

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

}  // namespace

BenchMeasured bench_measure_probe(BenchRow& row, const std::function<Probe()>& make, const BenchMeasure& how,
                                  const BenchSuite& peaks) {
  BenchMeasured m;
  Probe p;
  try {
    p = make();
  } catch (const std::exception& e) {
    row.error = e.what();
    return m;
  }
  if (!p.unavailable.empty() || !p.run) {
    row.error = p.unavailable.empty() ? "cannot be run here" : p.unavailable;
    return m;
  }
  m.note = p.note;
  row.device = p.device;
  if (row.size.empty()) {
    row.size = p.size;
    row.width = p.width;
    row.height = p.height;
  }
  if (row.item_unit.empty()) row.item_unit = p.item_unit;
  if (row.per.empty()) row.per = p.per.empty() ? "per step" : p.per;
  try {
    if (how.verify) {
      if (p.verify) {
        if (std::string diff = p.verify(); !diff.empty()) {
          row.error = diff;
          m.outcome = BenchOutcome::Mismatch;
          return m;
        }
      }
      m.verified = true;
    }
    Options o;
    o.bench_steps = how.steps;
    o.bench_repeats = how.repeats;
    auto step = [&](int steps) {
      if (how.cancelled && how.cancelled()) throw Cancelled();
      p.run(steps);
    };
    bench_fill(row,
               bench_time_steps(step, p.gpu, p.stream, o, p.steps_per_pass,
                                "bench " + row.variant + (row.size.empty() ? "" : " at " + row.size)),
               p.items_per_step, p.bytes_per_step, p.flops_per_step, peaks, p.gpu);
    m.outcome = BenchOutcome::Measured;
  } catch (const Cancelled& e) {
    row.error = e.what();
    m.outcome = BenchOutcome::Cancelled;
  } catch (const std::exception& e) {
    row.error = e.what();
    m.outcome = BenchOutcome::Error;
  }
  return m;
}

BenchStepper::BenchStepper(BenchSpec spec, const Options& o) : spec_(std::move(spec)) {
  how_.steps = o.bench_steps;
  how_.repeats = o.bench_repeats;
  std::vector<std::pair<const BenchVariant*, bool>> plan;
  if (!spec_.variants.empty())
    plan = bench_plan(std::span<const BenchVariant>(spec_.variants), spec_.ids.value_or(o.variants),
                      spec_.plan_baselines.value_or(spec_.suite.baselines));
  for (size_t c = 0; c < spec_.cases.size(); ++c) {
    for (const auto& [v, baseline_only] : plan) {
      for (int block : bench_blocks(*v, o)) {
        BenchJob j;
        j.case_index = c;
        j.stage = v->stage;
        j.stage_id = v->stage_id;
        j.variant = v->id;
        j.block = block;
        j.block_label = block_label(v->blocks, v->square_blocks, block);
        j.baseline_only = baseline_only;
        jobs_.push_back(std::move(j));
      }
    }
    for (BenchJob j : spec_.extra) {
      j.case_index = c;
      jobs_.push_back(std::move(j));
    }
  }
}

const BenchRow* BenchStepper::step() {
  if (done()) return nullptr;
  const BenchJob& job = jobs_[next_++];
  const BenchCase& c = spec_.cases.at(job.case_index);
  BenchSuite& suite = spec_.suite;
  if (spec_.skip) {
    std::string note;
    if (spec_.skip(c, job, suite, &note)) {
      if (!note.empty()) suite.notes.push_back(std::move(note));
      return nullptr;
    }
  }
  BenchRow row;
  row.demo = suite.demo;
  row.stage = job.stage_id;
  row.variant = job.variant;
  row.block = job.block_label;
  row.size = c.size;
  row.width = c.width;
  row.height = c.height;
  row.input = c.input;
  row.item_unit = spec_.item_unit;
  row.baseline_only = job.baseline_only;
  bench_measure_probe(
      row, [&] { return spec_.probe(c, job); }, how_, suite);
  suite.rows.push_back(std::move(row));
  return &suite.rows.back();
}

BenchSuite BenchStepper::finish() {
  if (spec_.finish) spec_.finish(spec_.suite);
  compute_speedups(spec_.suite);
  return std::exchange(spec_.suite, BenchSuite{});
}

BenchSuite bench_run(BenchSpec spec, const Options& options) {
  BenchStepper stepper(std::move(spec), options);
  bool stages = false;  // more than one stage: the progress lines name it
  for (const BenchJob& j : stepper.jobs()) stages |= j.stage_id != stepper.jobs().front().stage_id;
  while (!stepper.done()) {
    const BenchRow* r = stepper.step();
    if (!r) continue;
    const std::string result = r->error.empty() ? format_time(r->ms_median) + " " + r->per : r->error;
    const std::string stage =
        stages ? r->stage + std::string(r->stage.size() < 10 ? 10 - r->stage.size() : 1, ' ') : "";
    std::fprintf(stderr, "bench: %s%-24s %-7s %s%s %s\n", stage.c_str(), r->variant.c_str(), r->block.c_str(),
                 r->size.c_str(), r->input.empty() ? "" : (" " + r->input).c_str(), result.c_str());
  }
  return stepper.finish();
}

std::vector<BenchVariant> bench_variants(const StageTables& tables, const std::function<bool(size_t)>& keep) {
  std::vector<BenchVariant> out;
  for (size_t s = 0; s < tables.stages.size(); ++s) {
    if (keep && !keep(s)) continue;
    for (const VariantChoice& v : tables.stages[s].variants)
      out.push_back({s, std::string(tables.stages[s].id), std::string(v.id), v.blocks, v.square_blocks,
                     v.default_block});
  }
  return out;
}

}  // namespace gpulab

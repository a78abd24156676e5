#include "presenter/ladder.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <exception>
#include <stdexcept>

#include "common/cuda_probe.h"
#include "core/bench_stepper.h"

namespace gpulab::presenter {
namespace {

constexpr const char* kPipelineStageId = "pipeline";  // the whole pipeline's panel
constexpr const char* kCancelled = "cancelled";       // the reason of the rungs a cancel left

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v, const char* fmt = "%.6g") {
  if (v == 0) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

const char* state_name(RungState s) {
  switch (s) {
    case RungState::Pending:
      return "pending";
    case RungState::Measured:
      return "measured";
    case RungState::Failed:
      return "failed";
    case RungState::Unavailable:
      return "unavailable";
  }
  return "";
}

namespace {
// The stage's baseline rung: its first measured non-GPU rung in table order, else its first measured.
const Rung* baseline_rung(const std::vector<Rung>& rungs, size_t stage) {
  const Rung* first = nullptr;
  for (const Rung& r : rungs) {
    if (r.pick.stage != stage || r.yardstick || r.state != RungState::Measured || !(r.row.ms_median > 0))
      continue;
    if (!r.gpu) return &r;
    if (!first) first = &r;
  }
  return first;
}
}  // namespace

std::string ladder_baseline(const std::vector<Rung>& rungs, size_t stage) {
  const Rung* base = baseline_rung(rungs, stage);
  return base ? base->variant : std::string();
}

void compute_ladder(std::vector<Rung>& rungs) {
  for (Rung& r : rungs) {
    r.speedup_vs_baseline = r.speedup_vs_previous = r.pct_peak = 0;
    r.peak_label.clear();
  }
  std::vector<size_t> stages;
  for (const Rung& r : rungs)
    if (std::find(stages.begin(), stages.end(), r.pick.stage) == stages.end()) stages.push_back(r.pick.stage);
  // Why there is no GPU, in full on the first rung it stops, then "needs an NVIDIA GPU".
  const CudaStatus cuda = cuda_status();
  bool told_no_gpu = false;
  for (size_t stage : stages) {
    const Rung* base = baseline_rung(rungs, stage);
    const double base_ms = base ? base->row.ms_median : 0;
    double previous_ms = 0;
    for (Rung& r : rungs) {
      if (r.pick.stage != stage || r.state != RungState::Measured || !(r.row.ms_median > 0)) continue;
      if (!r.yardstick) {
        if (base_ms > 0) r.speedup_vs_baseline = base_ms / r.row.ms_median;
        if (previous_ms > 0) r.speedup_vs_previous = previous_ms / r.row.ms_median;
        previous_ms = r.row.ms_median;
      }
      if (r.row.pct_peak_flops > 0) {
        r.pct_peak = r.row.pct_peak_flops;
        r.peak_label = "of FP32 peak";
      } else if (r.row.pct_peak > 0) {
        r.pct_peak = r.row.pct_peak;
        r.peak_label = "of DRAM bandwidth";
      }
    }
  }
}

BenchSuite ladder_suite(const std::vector<Rung>& rungs, std::string_view demo, const Context& ctx) {
  BenchSuite suite;
  suite.command = "ladder";
  suite.demo = std::string(demo);
  suite.peak_bandwidth_gbps = ctx.peak_bandwidth_gbps;
  suite.peak_fp32_gflops = ctx.peak_fp32_gflops;
  std::vector<size_t> stages;
  for (const Rung& r : rungs) {
    BenchRow row = r.row;
    row.demo = suite.demo;
    row.stage = r.stage_id;
    row.variant = r.variant;
    row.block = r.block_label;
    if (r.state != RungState::Measured) row.error = r.reason.empty() ? state_name(r.state) : r.reason;
    suite.rows.push_back(row);
    if (std::find(stages.begin(), stages.end(), r.pick.stage) == stages.end()) stages.push_back(r.pick.stage);
  }
  // One baseline column: the CPU (or first) rung of each stage.
  BenchBaseline base;
  base.label = "baseline";
  for (size_t s : stages)
    if (std::string id = ladder_baseline(rungs, s); !id.empty()) base.variants.push_back(id);
  if (!base.variants.empty()) suite.baselines.push_back(base);
  suite.device = ladder_device(rungs);
  compute_speedups(suite);
  // A yardstick has no speed-up of its own; the notes say what its rows are.
  for (size_t i = 0; i < rungs.size() && i < suite.rows.size(); ++i) {
    if (!rungs[i].yardstick) continue;
    std::fill(suite.rows[i].speedups.begin(), suite.rows[i].speedups.end(), 0.0);
    suite.notes.push_back(rungs[i].variant + ": a yardstick, not a variant (no speed-up of its own)" +
                          (rungs[i].lesson.empty() ? "" : ": " + rungs[i].lesson));
  }
  return suite;
}

std::string ladder_device(const std::vector<Rung>& rungs) {
  std::string device;
  for (const Rung& r : rungs)
    if (r.state == RungState::Measured && (device.empty() || (r.gpu && !r.row.device.empty()))) {
      device = r.row.device;
      if (r.gpu) break;
    }
  return device;
}

ChartData ladder_chart(const std::vector<Rung>& rungs, std::string_view demo_title, const std::string& device,
                       const std::function<void(const Rung&, ChartRung&)>& decorate) {
  ChartData c;
  c.title = std::string(demo_title);
  c.device = device;
  const std::time_t now = std::time(nullptr);
  char date[16] = "";
  if (const std::tm* t = std::localtime(&now)) std::strftime(date, sizeof date, "%Y-%m-%d", t);
  c.date = date;
  std::vector<size_t> stages;
  for (const Rung& r : rungs)
    if (std::find(stages.begin(), stages.end(), r.pick.stage) == stages.end()) stages.push_back(r.pick.stage);
  // Why there is no GPU, in full on the first rung it stops, then "needs an NVIDIA GPU".
  const CudaStatus cuda = cuda_status();
  bool told_no_gpu = false;
  for (size_t stage : stages) {
    ChartPanel panel;
    bool any_runs = false;
    for (size_t i = 0; i < rungs.size(); ++i) {
      const Rung& r = rungs[i];
      if (r.pick.stage != stage) continue;
      panel.title = r.stage_title.empty() ? r.stage_id : r.stage_title;
      panel.id = r.stage_id;
      panel.whole_pipeline = r.stage_id == kPipelineStageId;
      any_runs = any_runs || r.state == RungState::Measured || r.state == RungState::Failed;
      if (c.input.empty() && !r.row.size.empty()) c.input = r.row.size;
      ChartRung cr;
      cr.name = r.variant;
      cr.lesson = r.lesson;
      cr.block = r.block_label;
      cr.state = r.state == RungState::Measured ? ChartRungState::Measured
                 : r.state == RungState::Failed ? ChartRungState::Failed
                                                : ChartRungState::Unavailable;
      cr.reason = r.reason;
      if (cr.state == ChartRungState::Unavailable && brief_cuda_reason(r.reason, cuda) != r.reason) {
        if (told_no_gpu) cr.reason = brief_cuda_reason(r.reason, cuda);
        told_no_gpu = true;
      }
      cr.ms_per_step = r.row.ms_median;
      if (!r.row.per.empty()) panel.per = r.row.per;  // the measured rungs' (one stage: one word)
      cr.speedup_vs_baseline = r.speedup_vs_baseline;
      cr.speedup_vs_previous = r.speedup_vs_previous;
      cr.pct_peak = r.pct_peak;
      cr.peak_label = r.peak_label;
      cr.note = r.note;
      cr.gpu = r.gpu;
      cr.library = r.library;
      cr.yardstick = r.yardstick;
      cr.bounds = r.bounds;
      cr.source = int(i);
      if (decorate) decorate(r, cr);
      panel.rungs.push_back(std::move(cr));
    }
    panel.baseline = ladder_baseline(rungs, stage);
    if (any_runs) c.panels.push_back(std::move(panel));
  }
  return c;
}

size_t add_recorded(ChartData& chart, const std::vector<Rung>& rungs, std::string_view demo,
                    const RecordedResults& recorded) {
  if (recorded.demo != demo) return 0;
  size_t added = 0;
  for (ChartPanel& panel : chart.panels) {
    // The case the panel measured here: its items a step, from a measured rung.
    double items = 0;
    for (const ChartRung& cr : panel.rungs) {
      if (cr.source < 0 || size_t(cr.source) >= rungs.size()) continue;
      const Rung& r = rungs[size_t(cr.source)];
      if (r.state == RungState::Measured && !r.yardstick && r.row.items_per_s > 0 && r.row.ms_median > 0) {
        items = r.row.items_per_s * r.row.ms_median * 1e-3;
        break;
      }
    }
    if (items == 0) continue;  // nothing measured yet: the case is not known
    for (ChartRung& cr : panel.rungs) {
      if (cr.state != ChartRungState::Unavailable || cr.yardstick || cr.source < 0 ||
          size_t(cr.source) >= rungs.size())
        continue;
      const Rung& r = rungs[size_t(cr.source)];
      if (r.state != RungState::Unavailable || r.reason == kCancelled) continue;
      bool other_size = false;
      const RecordedRow* best = recorded.find(r.stage_id, r.variant, items, &other_size);
      if (!best) continue;
      if (other_size) {
        if (!best->size.empty()) cr.reason += "; recorded only at " + best->size;
        continue;
      }
      cr.state = ChartRungState::Recorded;
      cr.ms_per_step = best->ms_per_step;
      cr.speedup_vs_baseline = best->speedup.value_or(0);
      cr.recorded_baseline = best->speedup.has_value() ? best->speedup_baseline : std::string();
      cr.speedup_vs_previous = 0;  // a chain through times measured here: not with a recorded one
      cr.pct_peak = 0;
      cr.peak_label.clear();
      cr.block = best->block > 0 ? std::to_string(best->block) : std::string();
      cr.counters.clear();
      cr.counters_slot = false;
      ++added;
    }
  }
  if (added > 0) chart.recorded = recorded.label();
  return added;
}

std::string ladder_csv(const std::vector<Rung>& rungs) {
  std::string out =
      "stage,variant,block,state,ms_per_step,items_per_s,item_unit,gbps,gflops,pct_peak,peak,"
      "speedup_vs_baseline,speedup_vs_previous,size,device,reason\n";
  for (const Rung& r : rungs) {
    const BenchRow& w = r.row;
    const bool m = r.state == RungState::Measured;
    const std::string fields[] = {r.stage_id,
                                  r.variant,
                                  r.block_label,
                                  state_name(r.state),
                                  m ? number(w.ms_median) : "",
                                  m ? number(w.items_per_s, "%.4g") : "",
                                  m ? w.item_unit : "",
                                  m ? number(w.gbps, "%.4g") : "",
                                  m ? number(w.gflops, "%.4g") : "",
                                  m ? number(r.pct_peak, "%.3g") : "",
                                  m ? r.peak_label : "",
                                  m ? number(r.speedup_vs_baseline, "%.4g") : "",
                                  m ? number(r.speedup_vs_previous, "%.4g") : "",
                                  w.size,
                                  w.device,
                                  r.reason};
    std::string line;
    for (const std::string& f : fields) {
      if (!line.empty()) line += ',';
      line += csv_field(f);
    }
    out += line + "\n";
  }
  return out;
}

LadderRun::LadderRun(Demo& demo, const Context& ctx, LadderOptions options)
    : demo_(demo), ctx_(ctx), options_(std::move(options)) {
  const std::vector<Stage> stages = demo_.stages();
  for (size_t s : stage_order(demo_)) {
    const Stage& st = stages[s];
    for (size_t i = 0; i < st.variants.size(); ++i) {
      const VariantChoice& v = st.variants[i];
      if (!options_.variants.empty() &&
          std::find(options_.variants.begin(), options_.variants.end(), v.id) == options_.variants.end())
        continue;
      Rung r;
      r.stage_id = std::string(st.id);
      r.stage_title = std::string(st.title);
      r.variant = std::string(v.id);
      r.title = std::string(v.title);
      r.lesson = std::string(v.lesson);
      r.gpu = v.needs_cuda;
      r.library = v.library;
      r.pick =
          Pick{s, static_cast<int>(i), i == static_cast<size_t>(st.variant) ? st.block : v.default_block};
      r.block_label = block_label(v, r.pick.block);
      if (!st.active) {
        r.state = RungState::Unavailable;
        r.reason =
            st.inactive_reason.empty() ? "the stage does not run in this configuration" : st.inactive_reason;
      } else if (!v.available) {
        r.state = RungState::Unavailable;
        r.reason = v.unavailable_reason.empty() ? "not available here" : v.unavailable_reason;
      }
      rungs_.push_back(std::move(r));
    }
    // The stage's yardsticks, each after the last rung it bounds (else at the stage's end).
    const std::vector<Yardstick> yardsticks = demo_.yardsticks();
    for (size_t y = 0; y < yardsticks.size(); ++y) {
      const Yardstick& ys = yardsticks[y];
      if (ys.stage != s) continue;
      if (!options_.variants.empty() &&
          std::find(options_.variants.begin(), options_.variants.end(), ys.id) == options_.variants.end())
        continue;
      Rung r;
      r.yardstick = true;
      r.yardstick_index = y;
      r.stage_id = std::string(st.id);
      r.stage_title = std::string(st.title);
      r.variant = ys.id;
      r.title = ys.title;
      r.lesson = ys.lesson;
      r.gpu = true;
      r.pick = Pick{s, -1, 0};
      r.block_label = "-";
      for (const std::string& b : ys.bounds) r.bounds += (r.bounds.empty() ? "" : ", ") + b;
      if (!st.active) {
        r.state = RungState::Unavailable;
        r.reason =
            st.inactive_reason.empty() ? "the stage does not run in this configuration" : st.inactive_reason;
      }
      size_t at = rungs_.size();  // after the stage's last row, or after the last rung it bounds
      for (size_t k = rungs_.size(); k-- > 0 && rungs_[k].pick.stage == s;)
        if (!rungs_[k].yardstick &&
            std::find(ys.bounds.begin(), ys.bounds.end(), rungs_[k].variant) != ys.bounds.end()) {
          at = k + 1;
          break;
        }
      rungs_.insert(rungs_.begin() + std::ptrdiff_t(at), std::move(r));
    }
  }
  // A demo whose stages make one result together gets a last panel: its CPU pipeline and its
  // pipeline at its best (the fastest measured variants chained), timed as one step.
  const size_t running = static_cast<size_t>(
      std::count_if(stages.begin(), stages.end(), [](const Stage& st) { return st.active; }));
  if (options_.variants.empty() && demo_.stage_tables().pipeline && running >= 2) {
    pipeline_stage_ = stages.size();
    for (const bool gpu : {false, true}) {
      Rung r;
      r.pick = Pick{pipeline_stage_, gpu ? 1 : 0, 0};
      r.stage_id = kPipelineStageId;
      r.stage_title = "whole pipeline";
      r.variant = gpu ? "pipeline-best" : "pipeline-cpu";
      r.title = gpu ? "the best GPU pipeline" : "the CPU pipeline";
      r.lesson = gpu ? "the fastest variant of each stage, chained"
                     : "each stage's CPU variant, one after the other";
      r.gpu = gpu;
      r.block_label = "-";
      rungs_.push_back(std::move(r));
    }
  }
  if (!options_.variants.empty()) {
    for (const std::string& id : options_.variants) {
      const bool found =
          std::any_of(rungs_.begin(), rungs_.end(), [&](const Rung& r) { return r.variant == id; });
      if (!found)
        throw std::invalid_argument("no variant '" + id + "' in the " + std::string(demo_.name()) + " demo");
    }
  }
}

LadderRun::~LadderRun() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

void LadderRun::run_here() { measure_all(); }

void LadderRun::start() {
  if (worker_.joinable()) return;
  worker_ = std::thread([this] { measure_all(); });
}

std::vector<Rung> LadderRun::rungs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rungs_;
}

double LadderRun::progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rungs_.empty() ? 1.0 : static_cast<double>(next_) / static_cast<double>(rungs_.size());
}

std::string LadderRun::current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_;
}

std::string LadderRun::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

void LadderRun::measure_all() {
  try {
    for (size_t i = 0;; ++i) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        next_ = i;
        if (i >= rungs_.size()) break;
        current_ = rungs_[i].variant;
      }
      if (cancel_.load()) break;
      measure(i);
      Rung done;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        compute_ladder(rungs_);
        done = rungs_[i];
      }
      if (options_.on_rung) options_.on_rung(done);
    }
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = e.what();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    current_.clear();
    if (cancel_.load())
      for (Rung& r : rungs_)
        if (r.state == RungState::Pending) {
          r.state = RungState::Unavailable;
          r.reason = kCancelled;
        }
  }
  done_.store(true);
}

BenchSuite LadderRun::device_peaks() const {
  BenchSuite peaks;
  peaks.peak_bandwidth_gbps = ctx_.peak_bandwidth_gbps;
  peaks.peak_fp32_gflops = ctx_.peak_fp32_gflops;
  return peaks;
}

BenchMeasure LadderRun::measure_how() {
  BenchMeasure how;
  how.repeats = options_.repeats;
  how.cancelled = [this] { return cancel_.load(); };
  return how;
}

void LadderRun::measure(size_t index) {
  Rung r;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    r = rungs_[index];
  }
  if (r.state != RungState::Pending) return;
  if (r.yardstick || r.pick.stage == pipeline_stage_) {
    if (r.yardstick)
      measure_yardstick(r);
    else
      measure_pipeline(r);
    std::lock_guard<std::mutex> lock(mutex_);
    rungs_[index] = std::move(r);
    return;
  }
  // The rung's variant as the demo lists it: its block sizes and how they are written.
  const VariantChoice& v = variant_of(demo_.stage_tables(), r.pick);
  // The blocks to try: every allowed one (best), else the one listed.
  std::vector<int> blocks{r.pick.block};
  if (options_.best_block && !v.blocks.empty()) blocks.assign(v.blocks.begin(), v.blocks.end());
  // The probes' picks: the demo's, with the rung's at each block.
  Picks picks = demo_.setup().picks;
  const BenchSuite peaks = device_peaks();
  BenchMeasure how = measure_how();
  how.verify = true;  // until one block is verified: it stands for the others
  bool any = false;
  for (int block : blocks) {
    if (cancel_.load()) return;
    const bool verifying = how.verify;
    BenchRow row;
    picks.at(r.pick.stage) = Pick{r.pick.stage, r.pick.variant, block};
    const BenchMeasured m = bench_measure_probe(
        row, [&] { return demo_.probe(picks, r.pick.stage); }, how, peaks);
    if (m.outcome == BenchOutcome::Cancelled) return;
    if (m.outcome == BenchOutcome::Unavailable) {
      if (!any) {
        r.state = RungState::Unavailable;
        r.reason = row.error;
      }
      break;  // the same reason holds for every block
    }
    if (m.outcome == BenchOutcome::Mismatch) {
      r.state = RungState::Failed;
      r.reason = row.error;
      break;
    }
    if (m.verified) how.verify = false;
    if (m.verified || !verifying) r.note = m.note;
    if (m.outcome == BenchOutcome::Error) {
      if (!any) {
        r.state = RungState::Failed;
        r.reason = row.error;
      }
      continue;
    }
    if (!any || row.ms_median < r.row.ms_median) {
      r.row = row;
      r.pick.block = block;
      r.block_label = block_label(v, block);
    }
    any = true;
    r.state = RungState::Measured;
    r.reason.clear();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  rungs_[index] = std::move(r);
}

void LadderRun::measure_pipeline(Rung& r) {
  std::vector<Rung> rs;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rs = rungs_;
  }
  const std::vector<Stage> stages = demo_.stages();
  // Per running stage: its measured rungs of the pipeline's backend, fastest first.
  std::vector<std::vector<const Rung*>> per_stage;
  std::vector<size_t> running;
  for (size_t s = 0; s < stages.size(); ++s) {
    if (!stages[s].active) continue;
    std::vector<const Rung*> m;
    const Rung* any = nullptr;
    for (const Rung& x : rs) {
      if (x.pick.stage != s || x.gpu != r.gpu || x.yardstick) continue;
      if (!any) any = &x;
      if (x.state == RungState::Measured) m.push_back(&x);
    }
    if (m.empty()) {
      r.state = RungState::Unavailable;
      r.reason = "no " + std::string(r.gpu ? "GPU" : "CPU") + " variant of " + std::string(stages[s].id) +
                 " was measured" + (any && !any->reason.empty() ? ": " + any->reason : "");
      return;
    }
    // The CPU pipeline is the baselines' (each stage's first CPU variant); the GPU one its fastest.
    if (r.gpu)
      std::stable_sort(m.begin(), m.end(),
                       [](const Rung* a, const Rung* b) { return a->row.ms_median < b->row.ms_median; });
    per_stage.push_back(std::move(m));
    running.push_back(s);
  }
  auto step = [&](Picks& c, size_t k, const Rung* x) { c.at(running[k]) = x->pick; };
  std::vector<Picks> candidates(1, demo_.setup().picks);
  for (size_t k = 0; k < running.size(); ++k) step(candidates[0], k, per_stage[k].front());
  // A first stage's variant may do a later stage's work (a histogram that writes the LUT) and be
  // slower on its own yet faster chained: every measured one of it is tried with the others' best.
  if (r.gpu)
    for (size_t i = 1; i < per_stage[0].size(); ++i) {
      Picks c = candidates[0];
      step(c, 0, per_stage[0][i]);
      candidates.push_back(std::move(c));
    }
  const BenchSuite peaks = device_peaks();
  const BenchMeasure how = measure_how();  // the stages' variants were verified: not again
  bool any = false;
  for (const Picks& c : candidates) {
    BenchRow row;
    const BenchMeasured m = bench_measure_probe(
        row, [&] { return demo_.probe(c, kWholePipeline); }, how, peaks);
    if (m.outcome == BenchOutcome::Cancelled) return;
    if (m.outcome != BenchOutcome::Measured) {
      if (!any) {
        r.state = m.outcome == BenchOutcome::Unavailable ? RungState::Unavailable : RungState::Failed;
        r.reason = row.error;
      }
      continue;
    }
    if (!any || row.ms_median < r.row.ms_median) {
      r.row = row;
      r.lesson = m.note;  // what ran: "hist-fused-scan 1024 → apply-shared 256"
    }
    any = true;
    r.state = RungState::Measured;
    r.reason.clear();
  }
}

void LadderRun::measure_yardstick(Rung& r) {
  const Picks picks = demo_.setup().picks;
  const BenchMeasure how = measure_how();  // nothing to verify: it computes no result
  BenchRow row;
  const BenchMeasured m = bench_measure_probe(
      row, [&] { return demo_.yardstick_probe(picks, r.yardstick_index); }, how, device_peaks());
  switch (m.outcome) {
    case BenchOutcome::Cancelled:
      return;
    case BenchOutcome::Measured:
      r.row = row;
      r.note = m.note;
      r.state = RungState::Measured;
      r.reason.clear();
      return;
    case BenchOutcome::Unavailable:
      r.state = RungState::Unavailable;
      r.reason = row.error;
      return;
    case BenchOutcome::Mismatch:
    case BenchOutcome::Error:
      r.state = RungState::Failed;
      r.reason = row.error;
      return;
  }
}

}  // namespace gpulab::presenter

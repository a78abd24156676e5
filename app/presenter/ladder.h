#pragma once
// The speed-up ladder ("compare all"): every variant of every active stage of a demo, measured on a
// copy of the demo's current input (Demo::probe), warm and synchronised by the bench's own
// measurement (bench_measure_probe: median of repeats), each verified against the CPU reference
// first (a variant that disagrees is marked Failed, never charted as a result), at its fastest
// allowed block size or at the chosen one. A demo of several stages that make one result together
// (StageTables::pipeline) gets a last panel, "pipeline": the CPU pipeline and the GPU pipeline at its
// best (the fastest measured variant of each running stage, chained: Demo::probe of kWholePipeline),
// each timed as one step. A rung is one pick of the demo's Setup changed; the lead stage comes first.
// One code path for the window and `gpulab ladder`: a LadderRun runs on a worker thread (the window
// polls it between frames, so no frame waits for a measurement) or on the caller's (the CLI).
#include <atomic>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/bench.h"
#include "core/bench_stepper.h"
#include "core/demo.h"
#include "core/recorded.h"
#include "presenter/ladder_chart.h"

namespace gpulab::presenter {

enum class RungState { Pending, Measured, Failed, Unavailable };
// "pending", "measured", "failed", "unavailable".
const char* state_name(RungState s);

struct Rung {
  // What the rung runs: its stage (the panel; the whole pipeline's panel is the stage after the last),
  // the variant (its index in the stage's table) and the block measured (the fastest of those tried,
  // or the chosen one).
  Pick pick;
  std::string stage_id, stage_title;
  std::string variant, title, lesson;  // variant: its id, as the table, CSV, JSON and chart write it
  bool gpu = false;                    // a GPU variant (needs CUDA)
  bool library = false;                // a library's call (the variant table's `library`)
  RungState state = RungState::Pending;
  std::string reason;              // Unavailable / Failed: why
  std::string block_label;         // "32x32", "256", "-"
  std::string note;                // the probe's note (e.g. "not verified: ...")
  BenchRow row;                    // the measurement, in the bench's terms (ms, items/s, % of peak)
  double speedup_vs_baseline = 0;  // the stage's baseline ms / this ms (0: no baseline measured)
  double speedup_vs_previous = 0;  // the previous measured rung's ms / this ms (0: the first)
  double pct_peak = 0;             // of the peak the demo is bound by (FP32 when it counts FLOPs)
  std::string peak_label;          // "of DRAM bandwidth", "of FP32 peak"
  // A yardstick row (Demo::yardsticks): not a variant and never a pick (pick.variant is -1). It is
  // measured through Demo::yardstick_probe, listed after the last rung it bounds, and has no
  // speed-ups: it is no baseline and no step of the chain of "vs previous".
  bool yardstick = false;
  size_t yardstick_index = 0;  // in Demo::yardsticks()
  std::string bounds;          // the variants it is the yardstick of, "gemm-tensor-bf16"
};

struct LadderOptions {
  bool best_block = true;             // try every allowed block and keep the fastest; else the current one
  std::vector<std::string> variants;  // only these ids (empty: all)
  int repeats = 5;                    // timed repeats per block (the median is kept)
  std::function<void(const Rung&)> on_rung;  // called (on the measuring thread) as each rung ends
};

// The numbers of a ladder from its measured rungs: per stage, the baseline (its first measured
// non-GPU rung in table order, else its first measured rung) and the speed-ups over it and over the
// previous measured rung, and the % of peak (FP32 where the row counts FLOPs, else DRAM bandwidth).
// Yardstick rows get their % of peak only. Pure arithmetic, tested on given timings.
void compute_ladder(std::vector<Rung>& rungs);
// The stage's baseline variant ("" when none of its rungs was measured).
std::string ladder_baseline(const std::vector<Rung>& rungs, size_t stage);

// The rows of the ladder as a bench suite (bench_json's schema), with the device and its peaks.
BenchSuite ladder_suite(const std::vector<Rung>& rungs, std::string_view demo, const Context& ctx);
// The device a ladder ran on: its first measured GPU rung's, else its first measured rung's.
std::string ladder_device(const std::vector<Rung>& rungs);
// The chart of a ladder: one panel a stage that has a rung to show (a stage that does not run in
// this configuration is left out), rungs in the table's order, titled with the demo, the input's
// size, the device and today's date. `decorate` may add to each chart rung (the counters' line).
ChartData ladder_chart(const std::vector<Rung>& rungs, std::string_view demo_title, const std::string& device,
                       const std::function<void(const Rung&, ChartRung&)>& decorate = {});
// Figures recorded on the GPU that ran them (--results: a bench's or ladder's JSON of `demo`) for the
// chart's rungs that cannot run here: a rung listed as unavailable (not one left by a cancel) whose stage
// and variant the file has for the same case (the panel's size) becomes Recorded with the file's time
// (its fastest row of that case) and its speed-up over the file's own baseline, never one over a time
// measured here; ChartData::recorded gets the file's label. A variant the file has at another size
// only stays unavailable, its reason saying so; a panel with nothing measured yet (its case unknown) is
// left as it is. Returns the number of rungs given recorded figures
// (0: the chart is left as it was).
size_t add_recorded(ChartData& chart, const std::vector<Rung>& rungs, std::string_view demo,
                    const RecordedResults& recorded);
// One line a rung: stage, variant, block, state, ms/step, items/s, unit, GB/s, GFLOP/s, % of peak,
// speed-ups, reason. Quoted as RFC 4180 where a field needs it.
std::string ladder_csv(const std::vector<Rung>& rungs);

class LadderRun {
 public:
  // The rungs are listed at once (every variant of every active stage, Pending or Unavailable).
  LadderRun(Demo& demo, const Context& ctx, LadderOptions options);
  ~LadderRun();  // cancels and joins a running worker
  LadderRun(const LadderRun&) = delete;
  LadderRun& operator=(const LadderRun&) = delete;

  // Measures every rung on the calling thread (the CLI).
  void run_here();
  // Measures on a worker thread; while it runs, nothing else may call into the demo (the window
  // pauses it: no compute, render or ui of the demo until done() is true).
  void start();
  bool done() const { return done_.load(); }
  void cancel() { cancel_.store(true); }
  bool cancelled() const { return cancel_.load(); }

  // Snapshots for the UI (under a lock): the rungs so far, the fraction done, the rung in measurement.
  std::vector<Rung> rungs() const;
  double progress() const;
  std::string current() const;
  // Set when the run stopped on an error outside any one rung.
  std::string error() const;

 private:
  void measure_all();
  void measure(size_t index);
  void measure_pipeline(Rung& r);   // the last panel's rungs, from the stages' measured ones
  void measure_yardstick(Rung& r);  // a yardstick row, through Demo::yardstick_probe
  BenchSuite device_peaks() const;  // the device's peaks, for the rows' % of peak
  BenchMeasure measure_how();       // the repeats asked for, cancelled by cancel()

  Demo& demo_;
  const Context& ctx_;
  LadderOptions options_;
  mutable std::mutex mutex_;
  std::vector<Rung> rungs_;
  size_t next_ = 0;
  size_t pipeline_stage_ = static_cast<size_t>(-1);  // the whole pipeline's panel (none: -1)
  std::string current_, error_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::thread worker_;
};

}  // namespace gpulab::presenter

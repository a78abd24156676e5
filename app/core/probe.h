#pragma once
// A probe: one (stage, variant, block) of a demo made runnable on a private copy of the demo's
// current input, so that the ladder (and later A/B and the counters) can time and verify any variant
// without touching what the demo displays. A demo makes probes through Demo::probe; whoever holds
// one may call run() and verify() from any one thread at a time (the ladder uses a worker thread),
// never together with the demo's own compute on the same engine: a probe owns its engines.
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "common/hd.h"

namespace gpulab {

struct Probe {
  std::string unavailable;  // why this variant cannot run here ("no CUDA device"); run is empty then
  bool gpu = false;         // timed with CUDA events on `stream`, else with the host clock
  Stream stream = nullptr;  // the probe's own stream (GPU probes)
  std::string device;       // the engine's device name
  // What one step does, for rates and the % of peak (as the bench's rows).
  double items_per_step = 0;
  std::string item_unit;      // "cell updates"
  double bytes_per_step = 0;  // fewest bytes a step moves (0: no bandwidth figure)
  double flops_per_step = 0;  // floating-point operations a step (0: none)
  std::string size;           // the input's size as the bench prints it ("1024x1024", "N=4096")
  long long width = 0, height = 0;
  // What a step is, in the words of the demo's throughput label and so of the HUD ("per
  // generation", "per frame"; "": per step): the bench's table and the ladder say a step's time so.
  std::string per;
  // Steps the variant advances in one pass through memory (a Life rung's generations a pass): timed
  // runs are whole passes, so a rate is not lowered by a short last pass that the lecture never runs.
  int steps_per_pass = 1;
  // Advances `steps` steps of the copy (synchronous or not: the timer synchronises).
  std::function<void(int steps)> run;
  // Runs a few steps from a fresh copy of the input beside the CPU reference and compares: "" when
  // they agree, else the first difference. Empty: the variant is the reference itself.
  std::function<std::string()> verify;
  std::string note;             // shown with the result, e.g. why it was not verified
  std::shared_ptr<void> state;  // the engines and copies run and verify use
};

// A probe that cannot run, saying why.
inline Probe probe_unavailable(std::string why) {
  Probe p;
  p.unavailable = std::move(why);
  return p;
}

}  // namespace gpulab

// Game of Life's benchmark: every variant (and block shape with --all-blocks) at each size, on a
// random grid (density 0.25, --seed), measured by core's stepper through make_life_probe. The Setup's
// options pin the sweep: --grid is the size, --rule, --density and --pattern (placed at the centre)
// the input, --generations-per-pass gpu-bit-multistep's k (no k sweep then).
// cpu-naive and gpu-global are always measured too, as the baselines of the speedup columns.
// Its own rows (GPU): gpu-bit-multistep at k = 1, 2, 4 and 8 generations a pass (the variant's own
// row is its default, k = 16), and the one-generation-a-pass DRAM bound: a device-to-device copy of
// the packed grid, the bytes one generation of gpu-bitpacked must read and write.
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/text.h"
#include "core/bench_stepper.h"
#include "core/bench_table.h"
#include "demos/common/bench_engines.h"
#include "demos/life/life_demo.h"
#include "life/life.h"

#include "life/life_cuda.h"

namespace gpulab {
namespace {

constexpr const char* kMultistep = "gpu-bit-multistep";
constexpr const char* kCopyRow = "packed-copy";  // the one-step DRAM bound
// The k sweep's rows besides the variant's own (k = kDefaultGenerationsPerPass).
constexpr int kSweep[] = {1, 2, 4, 8};
static_assert(life::kDefaultGenerationsPerPass == 16, "the sweep's last row is the variant's own");

std::string sweep_row(int k) { return std::string(kMultistep) + " k=" + std::to_string(k); }

// k of a row of the multistep sweep; 0 for any other row.
int sweep_k(const std::string& row) {
  if (row == kMultistep) return life::kDefaultGenerationsPerPass;
  for (int k : kSweep)
    if (row == sweep_row(k)) return k;
  return 0;
}

// Each case's multistep rows and bitpacked against the copy (the bound of one generation a pass).
std::vector<std::string> bound_report(const BenchSuite& suite) {
  std::vector<std::string> out;
  for (const BenchRow& c : suite.rows) {
    if (c.variant != kCopyRow || !c.error.empty() || c.items_per_s <= 0) continue;
    for (const BenchRow& r : suite.rows) {
      if (r.size != c.size || !r.error.empty() || (sweep_k(r.variant) == 0 && r.variant != "gpu-bitpacked"))
        continue;
      char line[256];
      std::snprintf(
          line, sizeof line, "%s %s: %.3g cell updates/s = %.2fx the one-step DRAM bound (%.3g, this run)",
          c.size.c_str(), r.variant.c_str(), r.items_per_s, r.items_per_s / c.items_per_s, c.items_per_s);
      out.push_back(line);
    }
  }
  return out;
}

}  // namespace

bool LifeDemo::bench(const Setup& setup, const Options& o, BenchSpec* out) {
  if (std::string bad = configure_for_bench(*this, setup, o); !bad.empty()) throw std::invalid_argument(bad);
  const LifeParams& given = setup.params.as<LifeParams>();
  if (!given.grid.empty() && !o.bench_sizes.empty())
    throw std::invalid_argument("--grid and bench --size both give the size: give one");
  const int own_k =
      given.generations_per_pass.empty() ? life::kDefaultGenerationsPerPass : generations_per_pass_;
  BenchSpec& spec = *out;
  bench_declare(spec, "life");
  spec.item_unit = "cell updates";
  spec.variants = bench_variants(stage_tables(), [](size_t s) { return s == 0; });  // not the ghost copies
  if (std::string note = pinned_note(setup); !note.empty()) spec.suite.notes.push_back(note);
  std::vector<BenchSize> sizes = o.bench_sizes.empty() ? std::vector<BenchSize>{{16384, 0}} : o.bench_sizes;
  if (!given.grid.empty()) sizes = {{grid_w_, grid_h_}};
  for (BenchSize size : sizes) {
    const long long w = size.width, h = size.height ? size.height : size.width;
    if (const std::string bad = life::check_size(w, h); !bad.empty()) throw std::invalid_argument(bad);
    if (pattern_ && (pattern_->width > w || pattern_->height > h))
      throw std::invalid_argument(text::escape(pattern_path_.string()) + ": the pattern is " +
                                  std::to_string(pattern_->width) + "x" + std::to_string(pattern_->height) +
                                  ", larger than the bench's " + std::to_string(w) + "x" + std::to_string(h) +
                                  " grid");
    spec.cases.push_back({std::to_string(w) + "x" + std::to_string(h), w, h, ""});
  }

  auto engines = std::make_shared<BenchEngines<life::Engine>>(spec.suite, o, life::make_cpu_engine());
  if (engines->cuda()) {
    engines->set_gpu(life::CudaEngine::create(engines->stream()));
    // The multistep sweep and the one-step bound, beside the plan's rows of every case (when the
    // plan measures gpu-bit-multistep or gpu-bitpacked: always, unless --variant leaves both out).
    const life::Variant& ms = *life::find_variant(kMultistep);
    const std::string ms_block = block_label(ms.blocks, ms.square_blocks, ms.default_block);
    std::vector<std::string> rows;
    if (given.generations_per_pass.empty())  // else k is the command line's: no sweep
      for (int k : kSweep) rows.push_back(sweep_row(k));
    rows.push_back(kCopyRow);
    bool wanted = o.variants.empty();
    for (const std::string& id : o.variants) wanted = wanted || id == kMultistep || id == "gpu-bitpacked";
    for (const std::string& row : wanted ? rows : std::vector<std::string>{}) {
      BenchJob job;
      job.stage_id = "step";
      job.variant = row;
      job.block = row == kCopyRow ? 0 : ms.default_block;
      job.block_label = row == kCopyRow ? "-" : ms_block;
      spec.extra.push_back(job);
    }
  }
  // The input of every case: the command line's rule, density and pattern (else random cells), the
  // pattern's grid made once a case.
  auto base = std::make_shared<LifeInput>();
  base->rule = rule_;
  base->density = density_;
  base->seed = bench_seed(o);
  std::optional<life::Pattern> pattern = pattern_;
  spec.probe = [engines, base, pattern, own_k](const BenchCase& c, const BenchJob& job) {
    const int k = job.variant == kMultistep ? own_k : sweep_k(job.variant);
    const bool copy_row = job.variant == kCopyRow;
    const life::Variant& v = *life::find_variant(k > 0      ? kMultistep
                                                 : copy_row ? "gpu-bitpacked"
                                                            : job.variant);
    std::string why;
    std::shared_ptr<life::Engine> e = engines->get(v.backend == life::Backend::Cuda, &why);
    if (!e) return probe_unavailable(why);
    auto input = std::make_shared<LifeInput>(*base);
    input->width = static_cast<int>(c.width);
    input->height = static_cast<int>(c.height);
    if (pattern) {
      input->cells = life::Grid(input->width, input->height);
      std::string err;
      if (!life::place_centered(*input->cells, *pattern, &err)) return probe_unavailable(err);
    }
    if (k > 0) input->generations_per_pass = k;
    constexpr int kGhostBlock = 256;  // the engine's default
    Probe p = make_life_probe(std::move(e), engines->stream(), std::move(input), v, job.block, kGhostBlock);
    if (copy_row) {  // one read and one write of the packed grid: what one generation must move
      auto* cuda = static_cast<life::CudaEngine*>(engines->gpu());
      p.run = [cuda](int steps) {
        for (int i = 0; i < steps; ++i) cuda->run_packed_copy();
      };
      p.verify = nullptr;
    }
    return p;
  };
  spec.finish = [own_k](BenchSuite& suite) {
    for (const std::string& line : bound_report(suite)) suite.notes.push_back(line);
    suite.notes.push_back(std::string(kMultistep) + " k=K: K generations a pass through memory (the row " +
                          kMultistep + " is k=" + std::to_string(own_k) +
                          "); GB/s counts the packed grid read and written once a pass");
    suite.notes.push_back(
        std::string(kCopyRow) +
        ": a device-to-device copy of the packed grid, the bytes one generation a pass must "
        "move: the bound of every one-generation-a-pass rung");
  };
  return true;
}

std::string LifeDemo::recorded_row(size_t, std::string_view variant) const {
  // The bench's row of gpu-bit-multistep is k = 16; other k of its sweep have rows of their own.
  if (variant == kMultistep && generations_per_pass_ != life::kDefaultGenerationsPerPass)
    return sweep_row(generations_per_pass_);
  return std::string(variant);
}

}  // namespace gpulab

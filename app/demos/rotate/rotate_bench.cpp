// Texture rotation's benchmark: every variant on an output of 8192x8192 (or --size), grey 8-bit and
// RGBA8, point and linear filtering, rotated by 30° with border addressing and normalized
// coordinates, through make_rotate_probe; pixels/s, GB/s (the output written once and the source read
// once: a lower bound) and the speedups over `cpu` and `global` measured in the same run. Its own
// row: the fetch-only ceiling of each case (GPU). Core's stepper measures them. The Setup's options
// pin the sweep: --angle, --scale, --address, --normalized and --read-mode replace the fixed settings,
// --filter keeps one filter, --image is the input (its size and channels); --spin and --output, which
// change how a rotation is shown and not what it computes, are refused.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bench_stepper.h"
#include "core/bench_table.h"
#include "demos/common/bench_engines.h"
#include "demos/common/image_source.h"
#include "demos/rotate/rotate_demo.h"
#include "image/image.h"
#include "rotate/rotate.h"

#include "rotate/rotate_cuda.h"

namespace gpulab {
namespace {

// The fetch-only ceiling: this variant's kernel (the four-pixel one) without its stores.
constexpr const char* kCeilingKernel = "tex-array-x4";
constexpr const char* kCeilingRow = "fetch-ceiling";

image::Image bench_image(int w, int h, int channels) {
  // The generated filter-test picture (fine lines, zone plate, text) at the size, as RGBA when asked.
  image::Image img = image::generate("filter-test", w, h);
  return img.channels == channels ? img : image::convert_channels(img, channels);
}

}  // namespace

std::vector<std::string> ceiling_report(const BenchSuite& suite) {
  std::vector<std::string> out;
  for (const BenchRow& c : suite.rows) {
    if (c.variant != kCeilingRow || !c.error.empty() || c.items_per_s <= 0) continue;
    const BenchRow* best = nullptr;
    for (const BenchRow& r : suite.rows) {
      if (r.variant == kCeilingRow || r.variant == "cpu" || !r.error.empty() || r.size != c.size ||
          r.input != c.input)
        continue;
      if (!best || r.items_per_s > best->items_per_s) best = &r;
    }
    if (!best) continue;
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s %s: best %s %.3g px/s = %.0f%% of the fetch-only ceiling (%.3g px/s, this run)",
                  c.input.c_str(), c.size.c_str(), best->variant.c_str(), best->items_per_s,
                  100.0 * best->items_per_s / c.items_per_s, c.items_per_s);
    out.push_back(line);
  }
  return out;
}

bool RotateDemo::bench(const Setup& setup, const Options& o, BenchSpec* out) {
  if (std::string bad =
          reject_seed(setup.shared, "the rotate bench (its picture is the fixed filter-test scene)");
      !bad.empty())
    throw std::invalid_argument(bad);
  if (std::string bad = configure_for_bench(*this, setup, o); !bad.empty()) throw std::invalid_argument(bad);
  const RotateParams& given = setup.params.as<RotateParams>();
  if (!given.spin.empty() || !given.output.empty())
    throw std::invalid_argument(std::string(!given.spin.empty() ? "--spin" : "--output") +
                                " changes how the rotation is shown, not what the bench measures (one "
                                "rotation a step, into the engine's output)");
  const bool image_given = !setup.shared.image.empty();
  if (image_given && !o.bench_sizes.empty())
    throw std::invalid_argument("--image and bench --size both give the size: give one");
  // The settings of every case: the fixed ones, but for what the command line gives.
  rotate::Settings base;
  base.params.angle_deg = given.angle.empty() ? 30.0f : settings_.params.angle_deg;
  base.params.scale = given.scale.empty() ? 1.0f : settings_.params.scale;
  base.params.address = given.address.empty() ? rotate::Address::Border : settings_.params.address;
  base.normalized = given.normalized.empty() ? true : settings_.normalized;
  base.read_mode = given.read_mode.empty() ? rotate::ReadMode::NormalizedFloat : settings_.read_mode;
  std::vector<rotate::Filter> filters(std::begin(rotate::kFilters), std::end(rotate::kFilters));
  if (!given.filter.empty()) filters = {settings_.params.filter};
  BenchSpec& spec = *out;
  std::vector<std::string> gpu_ids;
  for (const rotate::Variant& v : rotate::variants())
    if (v.backend == rotate::Backend::Cuda && v.kind() != rotate::Kind::Lecture) gpu_ids.emplace_back(v.id);
  bench_declare(spec, "rotate", {{"gpu", gpu_ids}});
  spec.item_unit = "pixels";
  spec.variants = bench_variants(stage_tables());
  if (std::string note = pinned_note(setup); !note.empty()) spec.suite.notes.push_back(note);

  // The cases: each size, grey and RGBA8 (one image each), point and linear filtering; --image: its
  // size and channels.
  struct Case {
    size_t image;  // the index of its image: one a size and channel count
    int channels;
    rotate::Filter filter;
  };
  std::vector<Case> cases;
  size_t images = 0;
  std::vector<BenchSize> sizes = o.bench_sizes.empty() ? std::vector<BenchSize>{{8192, 8192}} : o.bench_sizes;
  if (image_given) sizes = {{image_.width, image_.height}};
  const std::vector<int> channel_counts =
      image_given ? std::vector<int>{image_.channels} : std::vector<int>{1, 4};
  for (BenchSize size : sizes) {
    if (!image_given) size = image_bench_size(size);
    for (int channels : channel_counts) {
      for (rotate::Filter filter : filters) {
        spec.cases.push_back(
            {std::to_string(size.width) + "x" + std::to_string(size.height), size.width, size.height,
             std::string(channels == 1 ? "grey " : "RGBA8 ") + std::string(rotate::name(filter))});
        cases.push_back({images, channels, filter});
      }
      ++images;
    }
  }

  // The engines, and the image of the cases measured last (made once, uploaded once to each engine).
  struct State {
    std::shared_ptr<BenchEngines<rotate::Engine>> engines;
    std::vector<Case> cases;
    rotate::Settings base;
    std::shared_ptr<const image::Image> given;  // --image, else null: the generated picture
    size_t image = static_cast<size_t>(-1);
    std::shared_ptr<const image::Image> source;

    std::shared_ptr<rotate::Engine> engine(bool gpu, const BenchCase& c, size_t index, std::string* why) {
      const Case& k = cases[index];
      if (image != k.image) {
        source =
            given
                ? given
                : std::make_shared<const image::Image>(bench_image(int(c.width), int(c.height), k.channels));
        image = k.image;
      }
      return engines->get(
          gpu, k.image, [&](rotate::Engine& e) { e.upload(*source); }, why);
    }
  };
  auto st = std::make_shared<State>();
  st->engines = std::make_shared<BenchEngines<rotate::Engine>>(spec.suite, o, rotate::make_cpu_engine());
  st->cases = std::move(cases);
  st->base = base;
  if (image_given) st->given = std::make_shared<const image::Image>(image_);
  if (st->engines->cuda()) st->engines->set_gpu(rotate::CudaEngine::create(st->engines->stream()));
  // The fetch-only ceiling of each case: the four-pixel kernel with its stores taken out.
  const rotate::Variant& ceiling = *rotate::find_variant(kCeilingKernel);
  if (st->engines->gpu()) {
    BenchJob job;
    job.stage_id = "rotate";
    job.variant = kCeilingRow;
    job.block = ceiling.default_block;
    job.block_label = block_label(ceiling.blocks, ceiling.square_blocks, ceiling.default_block);
    spec.extra.push_back(job);
  }
  spec.probe = [st](const BenchCase& c, const BenchJob& job) {
    const bool ceiling_row = job.variant == kCeilingRow;
    const rotate::Variant& v = *rotate::find_variant(ceiling_row ? kCeilingKernel : job.variant);
    std::string why;
    std::shared_ptr<rotate::Engine> e =
        st->engine(v.backend == rotate::Backend::Cuda, c, job.case_index, &why);
    if (!e) return probe_unavailable(why);
    rotate::Settings s = st->base;
    s.params.filter = st->cases[job.case_index].filter;
    Probe p = make_rotate_probe(e, st->engines->stream(), st->source, s, c.input, v, job.block);
    if (ceiling_row) {  // the same kernel's fetches without its stores: the source read once
      auto* cuda = static_cast<rotate::CudaEngine*>(e.get());
      p.bytes_per_step = p.items_per_step * st->cases[job.case_index].channels;
      p.run = [cuda, pv = &v, block = job.block, s](int steps) {
        for (int i = 0; i < steps; ++i) cuda->run_fetch_only(*pv, block, s);
      };
      p.verify = nullptr;
    }
    return p;
  };
  // No ceiling row where the case's image did not reach the GPU (its rows say why).
  spec.skip = [st](const BenchCase& c, const BenchJob& job, const BenchSuite&, std::string*) {
    std::string why;
    return job.variant == kCeilingRow && !st->engine(true, c, job.case_index, &why);
  };
  char settings[160];
  std::snprintf(
      settings, sizeof settings, "%g° rotation at scale %g, %s addressing, %s coordinates, %s reads",
      double(base.params.angle_deg), double(base.params.scale),
      std::string(rotate::name(base.params.address)).c_str(), base.normalized ? "normalized" : "unnormalized",
      base.read_mode == rotate::ReadMode::NormalizedFloat ? "normalized-float" : "element-type");
  spec.finish = [settings = std::string(settings)](BenchSuite& suite) {
    for (const std::string& line : ceiling_report(suite)) suite.notes.push_back(line);
    suite.notes.push_back(settings);
    suite.notes.push_back(
        std::string(kCeilingRow) + ": " + kCeilingKernel +
        "'s fetches with no stores (what the texture unit sustains alone), the ceiling of every variant");
  };
  return true;
}

}  // namespace gpulab

// Texture-rotation benchmark rows: every variant on an output of 8192x8192 (or --size), grey 8-bit
// and RGBA8, point and linear filtering, rotated by 30° with border addressing and normalized
// coordinates; pixels/s, GB/s (the output written once and the source read once: a lower bound) and
// the speedups over `cpu` and `global` measured in the same run. The measuring loop is core's.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bench.h"
#include "demos/common/image_source.h"
#include "demos/rotate/rotate_demo.h"
#include "image/image.h"
#include "rotate/rotate.h"

#if defined(GPULAB_HAVE_CUDA)
#include "rotate/rotate_cuda.h"
#endif

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
      if (r.variant == kCeilingRow || r.variant == "cpu" || !r.error.empty() || r.size != c.size || r.input != c.input)
        continue;
      if (!best || r.items_per_s > best->items_per_s) best = &r;
    }
    if (!best) continue;
    char line[256];
    std::snprintf(line, sizeof line, "%s %s: best %s %.3g px/s = %.0f%% of the fetch-only ceiling (%.3g px/s, this run)",
                  c.input.c_str(), c.size.c_str(), best->variant.c_str(), best->items_per_s,
                  100.0 * best->items_per_s / c.items_per_s, c.items_per_s);
    out.push_back(line);
  }
  return out;
}

BenchSuite bench_rotate(const Options& o) {
  if (std::string bad = reject_seed(o, "the rotate bench (its picture is the fixed filter-test scene)"); !bad.empty())
    throw std::runtime_error(bad);
  BenchSuite suite;
  suite.demo = "rotate";
  suite.baselines = {"cpu", "global"};
  std::vector<std::string> gpu_ids;
  for (const rotate::Variant& v : rotate::variants())
    if (v.backend == rotate::Backend::Cuda && v.kind != rotate::Kind::Lecture) gpu_ids.emplace_back(v.id);
  // Grey has no rate target: the best grey kernel is bounded by what the texture unit fetches with
  // no stores at all (0.80e12 px/s on the H100), so the bench reports it as a fraction of that
  // ceiling, measured in the same run (the fetch-ceiling rows), instead.
  BenchTarget rgba;
  rgba.what = "best variant >= 0.33e12 px/s, RGBA8 linear, 8192x8192 (H100)";
  rgba.variants = gpu_ids;
  rgba.width = rgba.height = 8192;
  rgba.input = "RGBA8 linear";
  rgba.min_items_per_s = 0.33e12;
  rgba.device_hint = "H100";
  suite.targets = {rgba};
  [[maybe_unused]] const rotate::Variant& ceiling_kernel = *rotate::find_variant(kCeilingKernel);

  std::unique_ptr<rotate::Engine> cpu = rotate::make_cpu_engine();
  const BenchStream bench_stream(suite, o, std::string(cpu->device_name()));
  const Stream stream = bench_stream.get();
  std::unique_ptr<rotate::Engine> gpu;
#if defined(GPULAB_HAVE_CUDA)
  if (bench_stream.cuda()) gpu = rotate::CudaEngine::create(stream);
#endif
  const auto plan = bench_plan(rotate::variants(), o.variants, suite.baselines);

  std::vector<BenchSize> sizes = o.bench_sizes;
  if (sizes.empty()) sizes = {{8192, 8192}};
  for (BenchSize size : sizes) {
    size = image_bench_size(size);
    const int w = static_cast<int>(size.width), h = static_cast<int>(size.height);
    for (int channels : {1, 4}) {
      const image::Image src = bench_image(w, h, channels);
      cpu->upload(src);
      std::string gpu_error;
      if (gpu) {
        try {
          gpu->upload(src);
        } catch (const std::exception& e) {
          gpu_error = e.what();
        }
      }
      for (rotate::Filter filter : rotate::kFilters) {
        rotate::Settings s;
        s.params = {30.0f, 1.0f, filter, rotate::Address::Border};
        const std::string input = std::string(channels == 1 ? "grey " : "RGBA8 ") + std::string(rotate::name(filter));
        for (const auto& [variant, baseline_only] : plan) {
          const auto* v = variant;  // a plain variable: lambdas below capture it (clang 14 cannot capture a binding)
          const std::vector<int> blocks = bench_blocks(*v, o);
          const bool is_cpu = v->backend == rotate::Backend::Cpu;
          for (int block : blocks) {
            BenchRow row;
            row.demo = "rotate";
            row.stage = "rotate";
            row.variant = std::string(v->id);
            row.block = v->blocks.empty() ? "-" : std::to_string(block) + "x" + std::to_string(block);
            row.size = std::to_string(w) + "x" + std::to_string(h);
            row.width = w;
            row.height = h;
            row.input = input;
            row.item_unit = "pixels";
            row.baseline_only = baseline_only;
            rotate::Engine* e = is_cpu ? cpu.get() : gpu.get();
            row.device = e ? std::string(e->device_name()) : "";
            const double pixels = double(w) * double(h);
            bench_measure_row(
                row, !e ? "no CUDA device" : is_cpu ? "" : gpu_error, !is_cpu, pixels, 2.0 * pixels * channels,
                [&](int steps) { for (int i = 0; i < steps; ++i) e->run(*v, block, s); }, stream, o, suite);
            std::fprintf(stderr, "bench: %-10s %-6s %s %s %s\n", row.variant.c_str(), row.block.c_str(), row.size.c_str(),
                         input.c_str(),
                         row.error.empty() ? (std::to_string(row.ms_median) + " ms/step").c_str() : row.error.c_str());
            suite.rows.push_back(row);
          }
        }
#if defined(GPULAB_HAVE_CUDA)
        // The fetch-only ceiling of this case: the four-pixel kernel with its stores taken out.
        if (gpu && gpu_error.empty()) {
          BenchRow row;
          row.demo = row.stage = "rotate";
          row.variant = std::string(kCeilingRow);
          row.block = std::to_string(ceiling_kernel.default_block) + "x" + std::to_string(ceiling_kernel.default_block);
          row.size = std::to_string(w) + "x" + std::to_string(h);
          row.width = w;
          row.height = h;
          row.input = input;
          row.item_unit = "pixels";
          row.device = std::string(gpu->device_name());
          const double pixels = double(w) * double(h);
          auto* cuda = static_cast<rotate::CudaEngine*>(gpu.get());
          bench_measure_row(
              row, "", true, pixels, double(pixels) * channels,
              [&](int steps) { for (int i = 0; i < steps; ++i) cuda->run_fetch_only(ceiling_kernel, ceiling_kernel.default_block, s); },
              stream, o, suite);
          std::fprintf(stderr, "bench: %-10s %-6s %s %s %s\n", row.variant.c_str(), row.block.c_str(), row.size.c_str(),
                       input.c_str(),
                       row.error.empty() ? (std::to_string(row.ms_median) + " ms/step").c_str() : row.error.c_str());
          suite.rows.push_back(row);
        }
#endif
      }
    }
  }
  for (const std::string& line : ceiling_report(suite)) suite.notes.push_back(line);
  suite.notes.push_back("30° rotation at scale 1, border addressing, normalized coordinates, normalized-float reads");
  suite.notes.push_back(std::string(kCeilingRow) + ": " + kCeilingKernel +
                        "'s fetches with no stores (what the texture unit sustains alone), the ceiling of every variant");
  return suite;
}

}  // namespace gpulab

// gl label (the batch run is the binary, headless): `gpulab bench --demo rotate --angle 45` measures a 45°
// rotation. Checked by output: the bench's CPU rung, run once on the same image, leaves exactly the
// image `gpulab --headless --demo rotate --variant cpu --angle 45 --save-image` writes (the same rung:
// on a GPU the batch run's default is a texture rung, whose 8-bit filter weights round otherwise);
// without --angle the bench keeps its own 30°, which differs.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/bench.h"
#include "core/bench_stepper.h"
#include "core/cli.h"
#include "core/demo.h"
#include "gl/image_io.h"
#include "image/image.h"
#include "rotate/rotate.h"
#include "support/configure_demo.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;

namespace gpulab {
namespace {

// The pixels (RGBA) the rotate bench's CPU rung leaves after one step of its linear case, for
// `gpulab bench --demo rotate ARGS`.
std::vector<uint8_t> bench_cpu_output(std::vector<const char*> args) {
  args.insert(args.begin(), {"bench", "--demo", "rotate"});
  ParseResult r = testing::parse_with_every_demo(args);
  EXPECT_TRUE(r.options) << r.error;
  if (!r.options) return {};
  std::unique_ptr<Demo> demo = make_demo("rotate");
  size_t index = 0;
  for (const auto& d : make_demos()) {
    if (d->name() == "rotate") break;
    ++index;
  }
  const gpulab::Setup setup = bench_setup(*demo, *r.options, std::move(r.params.at(index)), false);
  BenchSpec spec;
  EXPECT_TRUE(demo->bench(setup, *r.options, &spec));
  for (size_t c = 0; c < spec.cases.size(); ++c) {
    if (spec.cases[c].input.find("linear") == std::string::npos) continue;
    BenchJob job;
    job.case_index = c;
    job.stage_id = "rotate";
    job.variant = "cpu";
    job.block_label = "-";
    Probe p = spec.probe(spec.cases[c], job);
    EXPECT_EQ(p.unavailable, "");
    if (!p.run) return {};
    p.run(1);
    // The probe holds its engine (make_rotate_probe): its output is the rung's.
    const image::Image out = std::static_pointer_cast<rotate::Engine>(p.state)->output();
    return image::convert_channels(out, 4).pixels;
  }
  ADD_FAILURE() << "no linear case";
  return {};
}

TEST(BenchSetupGl, TheRotateBenchMeasuresTheAngleGiven) {
  const fs::path dir = testing::temp_dir("gpulab-bench-setup");
  const fs::path in = dir / "in.png", batch = dir / "batch.png";
  ASSERT_EQ(image::save_png(in, image::generate("filter-test", 96, 64)), "");
  const testing::ProcessResult run =
      testing::run_gpulab_in("--headless --demo rotate --variant cpu --image " + in.string() +
                                 " --angle 45 --save-image " + batch.string(),
                             dir, "gpulab-bench-setup");
  ASSERT_EQ(run.status, 0) << run.output;
  std::string err;
  const gl::Image want = gl::read_image(batch, &err);
  ASSERT_EQ(err, "");
  const std::vector<uint8_t> at45 = bench_cpu_output({"--image", in.c_str(), "--angle", "45"});
  ASSERT_EQ(at45.size(), want.rgba.size());
  EXPECT_TRUE(at45 == want.rgba) << "the bench's CPU rung is not the 45° the batch run wrote";
  const std::vector<uint8_t> own = bench_cpu_output({"--image", in.c_str()});
  EXPECT_FALSE(own == want.rgba) << "without --angle the bench rotates by its own 30°";
}

}  // namespace
}  // namespace gpulab

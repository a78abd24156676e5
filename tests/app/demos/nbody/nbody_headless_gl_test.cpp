// N-body end to end through the binary, headless: the batch mode others check our numbers with, the
// initial conditions on screen, and bad input refused with the reason.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "gl/image_io.h"
#include "nbody/nbody.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;

namespace {

using gpulab::testing::ProcessResult;

ProcessResult run_gpulab(const std::string& args) {
  return gpulab::testing::run_gpulab(args, "gpulab-nbody");
}
fs::path temp_dir() { return gpulab::testing::temp_dir("gpulab-nbody"); }

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using namespace gpulab;

TEST(NbodyBatch, StepsZeroWritesTheInitialStateExactly) {
  const fs::path csv = temp_dir() / "init.csv";
  const ProcessResult r = run_gpulab(
      "--headless --cpu --demo nbody --bodies 101 --init disk --seed 7 --steps 0 "
      "--save-bodies " +
      csv.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string text = read_text(csv);
  EXPECT_EQ(text.rfind("# gpulab nbody G=1 softening=0.05 dt=0.005 step=0\nx,y,z,vx,vy,vz,m\n", 0), 0u)
      << text.substr(0, 120);
  const nbody::LoadResult got = nbody::parse_csv(text, csv.string());
  ASSERT_TRUE(got.file) << got.error;
  const nbody::System want = nbody::make_initial(nbody::InitKind::Disk, 101, 7, nbody::Params{});
  EXPECT_EQ(got.file->system, want);  // %.9g round-trips every float exactly
}

TEST(NbodyBatch, KStepsEqualTheReferenceEngineAndLoadContinuesThem) {
  const fs::path a = temp_dir() / "k.csv", b = temp_dir() / "k2.csv", c = temp_dir() / "k3.csv";
  nbody::Params p;
  p.dt = 0.01f;
  p.softening = 0.1f;
  p.G = 2.0f;
  const std::string flags =
      "--headless --cpu --demo nbody --bodies 64 --init plummer --seed 3 --dt 0.01 "
      "--softening 0.1 --gravity 2";
  ProcessResult r = run_gpulab(flags + " --steps 20 --save-bodies " + a.string());
  ASSERT_EQ(r.status, 0) << r.output;
  auto engine = nbody::make_cpu_engine();
  engine->set_params(p);
  engine->upload(nbody::make_initial(nbody::InitKind::Plummer, 64, 3, p));
  engine->step(*nbody::find_variant("cpu"), 0, 20);
  const nbody::LoadResult got = nbody::load_bodies(a.string());
  ASSERT_TRUE(got.file) << got.error;
  ASSERT_TRUE(got.file->params);
  EXPECT_EQ(*got.file->params, p);
  EXPECT_EQ(got.file->step, 20u);
  EXPECT_EQ(got.file->system, engine->download());  // the CPU reference is deterministic

  // 20 steps, saved, loaded and 0 more steps: the same file content but the header's step.
  r = run_gpulab("--headless --cpu --demo nbody --load-bodies " + a.string() + " --steps 0 --save-bodies " +
                 b.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nbody::LoadResult again = nbody::load_bodies(b.string());
  ASSERT_TRUE(again.file) << again.error;
  EXPECT_EQ(again.file->system, got.file->system);
  EXPECT_EQ(*again.file->params, p);  // G, softening and dt come from the file's header
  // A flag overrides the header.
  r = run_gpulab("--headless --cpu --demo nbody --load-bodies " + a.string() +
                 " --dt 0.02 --steps 0 --save-bodies " + c.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const nbody::LoadResult over = nbody::load_bodies(c.string());
  ASSERT_TRUE(over.file && over.file->params) << over.error;
  EXPECT_FLOAT_EQ(over.file->params->dt, 0.02f);
}

TEST(NbodyBatch, BadValuesAreRefusedWithTheReasonAndStatus1) {
  const fs::path out = temp_dir() / "never.csv";
  fs::remove(out);
  struct Case {
    std::string args, says;
  };
  for (const Case& c :
       {Case{"--dt 0", "dt"}, Case{"--dt -1", "dt"}, Case{"--softening -0.5", "soften"},
        Case{"--bodies 0", "--bodies"}, Case{"--gravity nan", "--gravity"}, Case{"--init spiral", "spiral"},
        Case{"--load-bodies /no/such/file.csv", "/no/such/file.csv"},
        Case{"--load-bodies " + std::string(GPULAB_TEST_DATA) + "/nbody/bad_number.csv", "line"}}) {
    const ProcessResult r =
        run_gpulab("--headless --cpu --demo nbody --steps 1 " + c.args + " --save-bodies " + out.string());
    EXPECT_EQ(r.status, 1) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.args;
  }
}

TEST(NbodyBatch, AnotherDemosOptionIsAUsageError) {
  const ProcessResult r = run_gpulab("--headless --demo life --bodies 100");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--bodies is an option of the nbody demo"), std::string::npos) << r.output;
}

TEST(NbodyHeadless, EveryInitialConditionDrawsAPicture) {
  for (const nbody::InitInfo& k : nbody::init_kinds()) {
    const fs::path png = temp_dir() / ("nbody-" + std::string(k.id) + ".png");
    fs::remove(png);
    const ProcessResult r = run_gpulab("--headless --demo nbody --bodies 2048 --init " + std::string(k.id) +
                                       " --frames 5 --size 320x240 --no-ui --screenshot " + png.string());
    ASSERT_EQ(r.status, 0) << r.output;
    std::string err;
    const gl::Image img = gl::read_image(png, &err);
    ASSERT_EQ(img.width, 320) << err;
    // Bodies glow on the dark clear colour: many lit pixels, and more than one colour (the ramp).
    size_t lit = 0;
    std::set<uint32_t> colours;
    for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
      const int sum = img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2];
      lit += sum > 120;
      colours.insert(img.rgba[i] | img.rgba[i + 1] << 8 | img.rgba[i + 2] << 16);
    }
    EXPECT_GT(lit, 200u) << k.id;
    EXPECT_GT(colours.size(), 20u) << k.id;
  }
}

}  // namespace

// Bad input, second round (issue 30).
// A batch of millions of bodies on the CPU says its estimate at once: the initial state's energy (a
// pass over the pairs, hours at this size) was computed first, for a drift plot a batch never draws.
TEST(NbodyBatch, AHugeCpuBatchSaysItsEstimateBeforeAnyPassOverThePairs) {
  const fs::path out = fs::temp_directory_path() / "gpulab-nbody-huge.csv";
  fs::remove(out);
  const ProcessResult r = gpulab::testing::run_gpulab(
      "--headless --cpu --demo nbody --bodies 4194304 --steps 1 --save-bodies " + out.string(),
      "gpulab-nbody-huge", 15);
  EXPECT_EQ(r.status, gpulab::testing::kKilledAtLimit) << r.output;
  EXPECT_NE(r.output.find("gpulab: 1 steps of 4194304 bodies on the CPU: about "), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(NbodyBatch, AStateThatBlowsUpIsNotWritten) {
  // Two bodies all but coincident, no softening: -nan in every field, exit 0, before.
  const fs::path in = temp_dir() / "close.csv", out = temp_dir() / "blown.csv";
  std::ofstream(in) << "# gpulab nbody G=1 softening=0 dt=0.005 step=0\nx,y,z,vx,vy,vz,m\n"
                       "0,0,0,0,0,0,1\n1e-30,0,0,0,0,0,1\n";
  const ProcessResult r = run_gpulab("--headless --cpu --demo nbody --load-bodies " + in.string() +
                                     " --steps 3 --save-bodies " + out.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("the state is not finite after step"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

TEST(NbodyBatch, TheSuccessLineEscapesThePath) {
  // Control bytes in the output's name reached the terminal raw.
  const fs::path out = temp_dir() / "clear\x1b[2J.csv";
  const ProcessResult r =
      run_gpulab("--headless --cpu --demo nbody --bodies 8 --steps 1 --save-bodies '" + out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(out));
  EXPECT_NE(r.output.find("clear\\x1B[2J.csv"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << "a raw escape byte in the output";
}

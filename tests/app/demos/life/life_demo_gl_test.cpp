// gl label: the Life demo's pattern handling on a headless context with the CPU backend: the pattern
// file is read once (a reset never reads it again), --rule beats the file's rule with a notice, and
// the file's warnings reach the user.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "demos/life/life_demo.h"
#include "life/life.h"
#include "support/demo_gl_fixture.h"
#include "support/run_binary.h"

namespace gpulab {
namespace {

namespace fs = std::filesystem;

class LifeDemoGl : public testing::CpuDemoGlTest<LifeDemoGl, 160, 120> {
 protected:
  void SetUp() override {
    CpuDemoGlTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ctx_.notify = [this](std::string line) { notices_.push_back(std::move(line)); };
    dir_ = testing::temp_dir("gpulab-life-demo") /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    fs::remove_all(dir_);
    CpuDemoGlTest::TearDown();
  }
  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  std::string all_notices() const {
    std::string s;
    for (const std::string& n : notices_) s += n + "\n";
    return s;
  }
  std::vector<std::string> notices_;
  fs::path dir_;
};

// The live cells of the grid, as (x, y).
std::vector<std::pair<int, int>> live(const life::Grid& g) {
  std::vector<std::pair<int, int>> out;
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      if (g.at(x, y)) out.push_back({x, y});
  return out;
}

// A lesson typed into the pattern field (or given to --pattern) is named as a lesson, not read as a
// malformed pattern; the grid stays.
TEST_F(LifeDemoGl, ALessonGivenAsAPatternIsNamedAsALesson) {
  const fs::path lesson = write("01-life.TOML", "title = \"Life\"\n[[step]]\ndemo = \"life\"\n");
  LifeDemo demo;
  configure(demo, {"--grid", "16x16"});
  demo.attach(ctx_);
  const life::Grid before = demo.engine().download();
  std::string error;
  EXPECT_FALSE(demo.open_file(lesson, &error));
  EXPECT_EQ(error, "'" + lesson.string() +
                       "' is a lesson, not a pattern: drop it on the window, open it in the Lesson tab or "
                       "give --lesson");
  EXPECT_EQ(demo.engine().download(), before);
  demo.detach();
  LifeDemo other;
  EXPECT_EQ(testing::configure_demo(other, {"--pattern", lesson.c_str()}), "--pattern " + error);
}

TEST_F(LifeDemoGl, ThePatternFileIsReadOnceAndResetPlacesThatCopy) {
  const fs::path file = write("blinker.rle", "x = 3, y = 1\n3o!\n");
  LifeDemo demo;
  configure(demo, {"--grid", "9x9", "--pattern", file.c_str()});
  // Gone after configure: attach and every reset place what was read then, never a random fill.
  fs::remove(file);
  demo.attach(ctx_);
  const std::vector<std::pair<int, int>> blinker{{3, 4}, {4, 4}, {5, 4}};
  EXPECT_EQ(live(demo.engine().download()), blinker);
  Frame f = frame(false);
  f.reset = true;
  demo.compute(f);
  EXPECT_EQ(live(demo.engine().download()), blinker);
  EXPECT_EQ(all_notices().find("random"), std::string::npos) << all_notices();
  demo.detach();
}

TEST_F(LifeDemoGl, TheCommandLinesRuleBeatsTheFilesWithANotice) {
  const fs::path file = write("highlife.rle", "x = 3, y = 1, rule = B36/S23\n3o!\n");
  {
    LifeDemo demo;
    configure(demo, {"--grid", "9x9", "--pattern", file.c_str(), "--rule", "B3/S23"});
    demo.attach(ctx_);
    EXPECT_EQ(demo.engine().rule(), life::Rule::conway());
    EXPECT_NE(all_notices().find("the file says rule B36/S23; --rule B3/S23 wins"), std::string::npos)
        << all_notices();
    demo.detach();
  }
  notices_.clear();
  {
    // Without --rule the file's rule is used, silently.
    LifeDemo demo;
    configure(demo, {"--grid", "9x9", "--pattern", file.c_str()});
    demo.attach(ctx_);
    EXPECT_EQ(demo.engine().rule(), *life::Rule::parse("B36/S23"));
    EXPECT_EQ(all_notices().find("wins"), std::string::npos) << all_notices();
    // A file opened later brings its own rule, whatever the command line said.
    const fs::path conway = write("conway.rle", "x = 3, y = 1, rule = B3/S23\n3o!\n");
    std::string err;
    ASSERT_TRUE(demo.open_file(conway, &err)) << err;
    EXPECT_EQ(demo.engine().rule(), life::Rule::conway());
    demo.detach();
  }
}

TEST_F(LifeDemoGl, TheFilesWarningsAreTold) {
  const fs::path file = write("typo.rle", "x = 3, y = 1, 4ule = B36/S23\n3o!\n");
  LifeDemo demo;
  configure(demo, {"--grid", "9x9", "--pattern", file.c_str()});
  demo.attach(ctx_);
  EXPECT_NE(all_notices().find("typo.rle:1: unknown header field '4ule'"), std::string::npos)
      << all_notices();
  EXPECT_EQ(demo.engine().rule(), life::Rule::conway());
  notices_.clear();
  std::string err;
  ASSERT_TRUE(demo.open_file(file, &err)) << err;
  EXPECT_NE(all_notices().find("'4ule'"), std::string::npos) << all_notices();
  demo.detach();
}

// The same through the binary: a FIFO as --pattern or --screenshot is refused at once, the FIFO
// stays, and the exit status says it failed.
TEST_F(LifeDemoGl, SpecialFilesAreRefusedByTheBinaryWithoutBlocking) {
  const fs::path fifo = dir_ / "pipe.rle";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  testing::ProcessResult r =
      testing::run_gpulab("--headless --cpu --frames 1 --pattern " + fifo.string(), "gpulab-life-fifo");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("FIFO"), std::string::npos) << r.output;
  r = testing::run_gpulab("--headless --cpu --frames 1 --screenshot " + fifo.string(), "gpulab-life-fifo");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced";
  // A pattern read once: a batch run on a pattern file saves the pattern, never a random fill.
  const fs::path rle = write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
  const fs::path out = dir_ / "out.rle";
  r = testing::run_gpulab(
      "--headless --cpu --grid 16x16 --pattern " + rle.string() + " --steps 0 --save-pattern " + out.string(),
      "gpulab-life-fifo");
  ASSERT_EQ(r.status, 0) << r.output;
  const life::PatternResult saved = life::load_pattern_file(out.string());
  ASSERT_TRUE(saved) << saved.error.message;
  EXPECT_EQ(saved.pattern->population(), 5u);
}

}  // namespace
}  // namespace gpulab

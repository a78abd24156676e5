// cpu label: a lesson edited while it runs is read again at the same step (clamped when steps went
// away), only once the write has finished (the file the same at two looks), and started again only
// when what the step runs changed; a malformed edit keeps the lesson as it was and says why, quoting
// the file, the line and the step. The clock is the test's: each look is at a time it chooses.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/demo.h"
#include "presenter/lesson.h"
#include "presenter/lesson_player.h"
#include "support/run_binary.h"

namespace fs = std::filesystem;
using namespace gpulab;
using namespace gpulab::presenter;

namespace {

// A lesson of `n` Life steps on the CPU, the last step's caption `last`.
std::string lesson_text(int n, const std::string& last, const std::string& variant = "cpu-lut") {
  std::string t = "title = \"reload\"\n";
  for (int i = 1; i <= n; ++i) {
    t += "[[step]]\n";
    if (i == 1) t += "demo = \"life\"\nparams = { grid = \"64x48\", seed = 3 }\n";
    t += "variant = \"" + std::string(i == n ? variant : (i % 2 ? "cpu-naive" : "cpu-lut")) + "\"\n";
    t += "caption = \"" + (i == n ? last : "step " + std::to_string(i)) + "\"\n";
  }
  return t;
}

class Reload : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = gpulab::testing::temp_dir("gpulab-reload");
    file_ = dir_ / "lecture.toml";
    write(lesson_text(3, "three"));
    LessonLoad r = load_lesson(file_, make_demos);
    ASSERT_TRUE(r.lesson) << r.error;
    player_ = std::make_unique<LessonPlayer>(std::move(*r.lesson));
    player_->shown(2, "");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes the file with a modification time of its own (a second later each time), as an editor would.
  void write(const std::string& text) {
    { std::ofstream(file_, std::ios::trunc) << text; }
    stamp_ += std::chrono::seconds(1);
    fs::last_write_time(file_, stamp_);
  }
  // A look at the file at time t.
  LessonReload poll(double t, bool* restart = nullptr) {
    return player_->poll_file(t, make_demos, false, restart);
  }
  // Looks until the file is taken or refused (two looks a poll interval apart), from time t.
  LessonReload settle(double* t, bool* restart) {
    LessonReload r = LessonReload::None;
    for (int i = 0; i < 4 && r == LessonReload::None; ++i) {
      *t += LessonPlayer::kPollSeconds;
      r = poll(*t, restart);
    }
    return r;
  }

  fs::path dir_, file_;
  fs::file_time_type stamp_ = fs::file_time_type::clock::now() - std::chrono::hours(1);
  std::unique_ptr<LessonPlayer> player_;
};

TEST_F(Reload, ANewCaptionIsShownAtTheSameStepWithoutRestartingIt) {
  bool restart = true;
  EXPECT_EQ(poll(0.0, &restart), LessonReload::None);  // nothing changed
  write(lesson_text(3, "three, edited"));
  // The first look sees the change and waits for the write to end; looks within the interval are skipped.
  EXPECT_EQ(poll(1.0), LessonReload::None);
  EXPECT_EQ(poll(1.0 + LessonPlayer::kPollSeconds / 2), LessonReload::None);
  EXPECT_EQ(player_->step()->caption, "three");
  EXPECT_EQ(poll(1.0 + LessonPlayer::kPollSeconds, &restart), LessonReload::Reloaded);
  EXPECT_FALSE(restart);  // the same demo, parameters and variant: the simulation goes on
  EXPECT_EQ(player_->current(), 2);
  EXPECT_EQ(player_->step()->caption, "three, edited");
  EXPECT_EQ(player_->progress(), "step 3 of 3 — the end");
  EXPECT_EQ(poll(10.0), LessonReload::None);  // read once
}

TEST_F(Reload, StepsThatWentAwayClampTheStepAndAChangedVariantRestartsIt) {
  double t = 0;
  bool restart = false;
  write(lesson_text(2, "now the last"));
  ASSERT_EQ(settle(&t, &restart), LessonReload::Reloaded);
  EXPECT_EQ(player_->current(), 1);  // step 3 went away: the last step
  EXPECT_EQ(player_->size(), 2);
  EXPECT_EQ(player_->step()->caption, "now the last");
  EXPECT_TRUE(restart);
  write(lesson_text(2, "now the last", "cpu-naive"));
  ASSERT_EQ(settle(&t, &restart), LessonReload::Reloaded);
  EXPECT_EQ(player_->current(), 1);
  EXPECT_EQ(player_->step()->variants, std::vector<std::string>{"cpu-naive"});
  EXPECT_TRUE(restart);  // the step runs another variant: it is started again
  // A step added after the current one: the step stays, "next" names it.
  write(lesson_text(2, "now the last", "cpu-naive") + "[[step]]\ntitle = \"an encore\"\n");
  ASSERT_EQ(settle(&t, &restart), LessonReload::Reloaded);
  EXPECT_EQ(player_->current(), 1);
  EXPECT_FALSE(restart);
  EXPECT_EQ(player_->progress(), "step 2 of 3 — next: an encore");
}

TEST_F(Reload, AMalformedEditKeepsTheLessonAsItWasAndSaysWhyQuotingTheFile) {
  double t = 0;
  bool restart = true;
  write(lesson_text(3, "three") + "[[step]]\nvariant = \"gpu-nonesuch\"\n");
  ASSERT_EQ(settle(&t, &restart), LessonReload::Refused);
  EXPECT_FALSE(restart);
  const std::string& why = player_->reload_error();
  EXPECT_EQ(why.rfind("lesson not reloaded: " + file_.string() + ":", 0), 0u) << why;
  EXPECT_NE(why.find("step 4: unknown variant 'gpu-nonesuch'"), std::string::npos) << why;
  EXPECT_NE(why.find("the lesson as it was goes on"), std::string::npos) << why;
  EXPECT_EQ(player_->size(), 3);
  EXPECT_EQ(player_->current(), 2);
  EXPECT_EQ(player_->step()->caption, "three");
  EXPECT_EQ(settle(&t, &restart), LessonReload::None);  // that version is not read again

  // Not TOML at all (an edit saved half-way), with a control byte in it: the message escapes it.
  write("title = \"reload\x1b\n[[step]\n");
  ASSERT_EQ(settle(&t, &restart), LessonReload::Refused);
  EXPECT_NE(player_->reload_error().find("not valid TOML"), std::string::npos) << player_->reload_error();
  EXPECT_EQ(player_->reload_error().find('\x1b'), std::string::npos);
  EXPECT_EQ(player_->step()->caption, "three");

  // Fixed: read again, the message gone.
  write(lesson_text(3, "three again"));
  ASSERT_EQ(settle(&t, &restart), LessonReload::Reloaded);
  EXPECT_EQ(player_->reload_error(), "");
  EXPECT_EQ(player_->step()->caption, "three again");
}

TEST_F(Reload, AFileMissingForAMomentIsNotAnEdit) {
  double t = 0;
  fs::remove(file_);
  EXPECT_EQ(settle(&t, nullptr), LessonReload::None);
  EXPECT_EQ(player_->step()->caption, "three");
  write(lesson_text(3, "back"));
  EXPECT_EQ(settle(&t, nullptr), LessonReload::Reloaded);
  EXPECT_EQ(player_->step()->caption, "back");
}

}  // namespace

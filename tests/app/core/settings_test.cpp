// cpu label: the per-user settings (app/core/settings.h) round trip through a real file in a
// temporary XDG_CONFIG_HOME (never the real user's), and every kind of corrupt file is reported with
// the file and line and ignored, defaults used; --ui-scale is checked when the command line is read.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "core/settings.h"
#include "core/toml_text.h"
#include "support/configure_demo.h"
#include "support/unprivileged.h"

namespace fs = std::filesystem;

namespace gpulab {
namespace {

// XDG_CONFIG_HOME pointed at a fresh temporary folder for the test's lifetime.
class SettingsFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpulab-settings-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (const char* old = std::getenv("XDG_CONFIG_HOME")) old_ = old;
    ::setenv("XDG_CONFIG_HOME", dir_.c_str(), 1);
  }
  void TearDown() override {
    if (old_)
      ::setenv("XDG_CONFIG_HOME", old_->c_str(), 1);
    else
      ::unsetenv("XDG_CONFIG_HOME");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path path() const { return dir_ / "gpulab" / "settings.toml"; }
  void write(const std::string& text) {
    fs::create_directories(path().parent_path());
    std::ofstream(path(), std::ios::binary) << text;
  }
  SettingsLoad load() { return load_settings(path()); }

  fs::path dir_;
  std::optional<std::string> old_;
};

#define EXPECT_HAS(haystack, needle)                               \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "missing '" << (needle) << "' in: " << (haystack)

TEST_F(SettingsFile, PathFollowsXdgConfigHomeThenHome) {
  std::string why;
  EXPECT_EQ(settings_path(&why), path());
  ::setenv("XDG_CONFIG_HOME", "relative/dir", 1);  // a relative one is ignored, as the specification says
  const char* home = std::getenv("HOME");
  if (home && *home == '/') {
    EXPECT_EQ(settings_path(&why), fs::path(home) / ".config/gpulab/settings.toml");
  }
  ::unsetenv("XDG_CONFIG_HOME");
  const std::string saved_home = home ? home : "";
  ::unsetenv("HOME");
  EXPECT_TRUE(settings_path(&why).empty());
  EXPECT_HAS(why, "HOME");
  if (!saved_home.empty()) ::setenv("HOME", saved_home.c_str(), 1);
}

TEST_F(SettingsFile, MissingFileGivesDefaultsAndNoProblem) {
  const SettingsLoad r = load();
  EXPECT_FALSE(r.found);
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.settings, Settings{});
}

TEST_F(SettingsFile, RoundTrip) {
  Settings s;
  s.ui_scale = 2.5f;
  s.theme = Theme::Light;
  s.hud = true;
  s.last_demo = "nbody";
  s.window_width = 1920;
  s.window_height = 1080;
  s.monitor = 1;
  ASSERT_EQ(save_settings(path(), s), "");  // creates gpulab/ inside the config folder
  const SettingsLoad r = load();
  EXPECT_TRUE(r.found);
  EXPECT_TRUE(r.problems.empty()) << r.problems.front();
  EXPECT_EQ(r.settings, s);
  // No scale saved means the display's.
  s.ui_scale.reset();
  s.theme = Theme::Dark;
  ASSERT_EQ(save_settings(path(), s), "");
  EXPECT_EQ(load().settings, s);
  // What is written is TOML a person can read and edit.
  std::ifstream in(path());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_HAS(text, "theme = \"dark\"");
  EXPECT_HAS(text, "window_width = 1920");
  EXPECT_HAS(text, "monitor = 1");
  EXPECT_EQ(text.find("ui_scale ="), std::string::npos);
}

TEST_F(SettingsFile, KeysAreReadAsATableOfActionsAndKeys) {
  const SettingsLoad r =
      parse_settings("[keys]\nladder = \"F10\"\nnext = [\"PageDown\", \"N\"]\nhud = 3\n", "s.toml");
  ASSERT_EQ(r.settings.keys.size(), 2u);
  EXPECT_EQ(r.settings.keys[0].action, "ladder");
  EXPECT_EQ(r.settings.keys[0].keys, std::vector<std::string>{"F10"});
  EXPECT_EQ(r.settings.keys[1].keys, (std::vector<std::string>{"PageDown", "N"}));
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_NE(r.problems[0].find("keys.'hud'"), std::string::npos) << r.problems[0];
  EXPECT_NE(r.problems[0].find(":4:"), std::string::npos) << "the line is named: " << r.problems[0];
  const SettingsLoad bad = parse_settings("keys = \"F5\"\n", "s.toml");
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_NE(bad.problems[0].find("must be a table"), std::string::npos) << bad.problems[0];
}

// The first start's hint, once used, is remembered: read, written, patched, and a wrong type refused.
TEST_F(SettingsFile, TheHintUsedIsRemembered) {
  EXPECT_FALSE(parse_settings("", "s.toml").settings.hint_used);
  EXPECT_TRUE(parse_settings("hint_used = true\n", "s.toml").settings.hint_used);
  const SettingsLoad bad = parse_settings("hint_used = 1\n", "s.toml");
  EXPECT_FALSE(bad.settings.hint_used);
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_NE(bad.problems[0].find("hint_used"), std::string::npos) << bad.problems[0];
  Settings s;
  ASSERT_EQ(save_settings(path(), s), "");
  s.hint_used = true;
  ASSERT_EQ(save_settings(path(), s), "");  // the file that is there, patched
  EXPECT_TRUE(load().settings.hint_used);
  std::ifstream in(path());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_HAS(text, "hint_used = true");
}

TEST_F(SettingsFile, TheMonitorIsANumberInRange) {
  EXPECT_EQ(parse_settings("monitor = 2\n", "s.toml").settings.monitor, 2);
  for (const char* bad : {"monitor = -1\n", "monitor = 16\n", "monitor = \"HDMI-1\"\n", "monitor = 1.5\n"}) {
    const SettingsLoad r = parse_settings(bad, "s.toml");
    EXPECT_FALSE(r.settings.monitor.has_value()) << bad;
    ASSERT_EQ(r.problems.size(), 1u) << bad;
    EXPECT_NE(r.problems.front().find("monitor"), std::string::npos) << r.problems.front();
  }
}

TEST_F(SettingsFile, GoodEntriesAreUsedWhereOthersAreBad) {
  write("theme = \"light\"\nhud = \"yes\"\nui_scale = 3\n");
  const SettingsLoad r = load();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_HAS(r.problems[0], path().string() + ":2: ");
  EXPECT_HAS(r.problems[0], "'hud' must be true or false, not a string");
  EXPECT_EQ(r.settings.theme, Theme::Light);
  EXPECT_FALSE(r.settings.hud);  // the default
  ASSERT_TRUE(r.settings.ui_scale);
  EXPECT_EQ(*r.settings.ui_scale, 3.0f);  // an integer is a number too
}

struct CorruptCase {
  const char* name;
  const char* text;
  int line;
  const char* says;
};

void PrintTo(const CorruptCase& c, std::ostream* os) { *os << c.name; }

class CorruptSettings : public SettingsFile, public ::testing::WithParamInterface<CorruptCase> {};

TEST_P(CorruptSettings, IsReportedWithFileAndLineAndDefaultsAreUsed) {
  const CorruptCase& c = GetParam();
  write(c.text);
  const SettingsLoad r = load();
  EXPECT_TRUE(r.found);
  ASSERT_EQ(r.problems.size(), 1u) << c.name;
  EXPECT_HAS(r.problems[0], path().string() + ":" + std::to_string(c.line) + ": ");
  EXPECT_HAS(r.problems[0], c.says);
  EXPECT_EQ(r.settings, Settings{}) << c.name << ": defaults must be used";
  for (char ch : r.problems[0])
    EXPECT_FALSE(ch >= 0 && ch < 0x20) << "a raw control byte in: " << r.problems[0];
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CorruptSettings,
    ::testing::Values(
        CorruptCase{"bad_toml", "theme = \"light\"\nui_scale = = 2\n", 2, "not valid TOML"},
        CorruptCase{"unterminated_string", "# comment\n\ntheme = \"light\n", 3, "not valid TOML"},
        CorruptCase{"binary", "\x01\x02\x1b[2J\xff\xfe", 1, "not valid TOML"},
        CorruptCase{"wrong_type_scale", "\nui_scale = \"big\"\n", 2,
                    "'ui_scale' must be a number, not a string"},
        CorruptCase{"wrong_type_theme", "theme = 1\n", 1,
                    "'theme' must be \"dark\" or \"light\", not an integer"},
        CorruptCase{"unknown_theme", "theme = \"sepia\"\n", 1, "is 'sepia', not \"dark\" or \"light\""},
        CorruptCase{"scale_too_big", "ui_scale = 9.5\n", 1, "is 9.5, outside 0.75..4"},
        CorruptCase{"scale_too_small", "ui_scale = 0.5\n", 1, "outside 0.75..4"},
        CorruptCase{"scale_nan", "ui_scale = nan\n", 1, "outside 0.75..4"},
        CorruptCase{"scale_inf", "ui_scale = -inf\n", 1, "outside 0.75..4"},
        CorruptCase{"window_too_small", "\n\nwindow_width = 10\n", 3,
                    "'window_width' is 10, outside 200..16384"},
        CorruptCase{"window_float", "window_height = 900.5\n", 1,
                    "'window_height' must be an integer, not a number"},
        CorruptCase{"hud_int", "hud = 1\n", 1, "'hud' must be true or false, not an integer"},
        CorruptCase{"bad_demo", "last_demo = \"../../etc\"\n", 1, "not a demo's name"},
        CorruptCase{"unknown_key", "# gpulab\nfont_size = 20\n", 2, "unknown setting 'font_size'"},
        CorruptCase{"unknown_table", "[window]\nwidth = 3\n", 1, "unknown setting 'window'"},
        CorruptCase{"escaped_key", "\"a\\u001bb\" = 1\n", 1, "unknown setting 'a\\x1Bb'"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(SettingsFile, AFolderWhereTheFileBelongsIsReportedAndNotReplaced) {
  fs::create_directories(path());
  const SettingsLoad r = load();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_HAS(r.problems[0], path().string());
  EXPECT_HAS(r.problems[0], "a folder");
  EXPECT_EQ(r.settings, Settings{});
  EXPECT_NE(save_settings(path(), Settings{}), "");  // refused, never replaced
  EXPECT_TRUE(fs::is_directory(path()));
  EXPECT_NE(forget_settings(path()), "");
  EXPECT_TRUE(fs::is_directory(path()));
}

TEST_F(SettingsFile, AFifoWhereTheFileBelongsIsReportedWithoutWaiting) {
  fs::create_directories(path().parent_path());
  ASSERT_EQ(::mkfifo(path().c_str(), 0600), 0);
  const SettingsLoad r = load();  // no writer: a blocking open would hang here
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_HAS(r.problems[0], "FIFO");
  EXPECT_EQ(r.settings, Settings{});
  EXPECT_NE(save_settings(path(), Settings{}), "");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(path())));
}

TEST_F(SettingsFile, ForgetRemovesTheFile) {
  Settings s;
  s.theme = Theme::Light;
  ASSERT_EQ(save_settings(path(), s), "");
  EXPECT_EQ(forget_settings(path()), "");
  EXPECT_FALSE(fs::exists(path()));
  EXPECT_EQ(forget_settings(path()), "");  // nothing to forget is no error
  EXPECT_EQ(load().settings, Settings{});
}

// Bad input, second round (issue 30): a settings file is never lost, and no file crashes the reader.

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(SettingsText, ALineEndingBackslashBeforeANonAsciiCharacterIsRefused) {
  // toml++ 3 reaches __builtin_unreachable classifying some non-ASCII characters after a line-ending
  // backslash in a """ string (found by fuzzing): refused before it parses, with the line.
  const std::string bad = "hud = true\ntheme = \"\"\"dark\\\n\n  \xE2\x80\x94 light\"\"\"\n";
  const SettingsLoad r = parse_settings(bad, "s.toml");
  EXPECT_FALSE(r.readable);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_HAS(r.problems[0], "s.toml:2: a line-ending backslash");
  EXPECT_EQ(r.settings, Settings{});
  EXPECT_EQ(toml_backslash_before_non_ascii(bad), 2);
  // The same character on the backslash's line, an escaped backslash, a literal string and a
  // comment are fine.
  EXPECT_EQ(toml_backslash_before_non_ascii("t = \"\"\"a \xE2\x80\x94\\\n b\"\"\"\n"), 0);
  EXPECT_EQ(toml_backslash_before_non_ascii("t = \"\"\"a\\\\\n\xE2\x80\x94\"\"\"\n"), 0);
  EXPECT_EQ(toml_backslash_before_non_ascii("t = \'\'\'a\\\n\xE2\x80\x94\'\'\'\n"), 0);
  EXPECT_EQ(toml_backslash_before_non_ascii("# a\\\n\"\xC3\xA9\" = 1\n"), 0);
  EXPECT_TRUE(parse_settings("theme = \"\"\"li\\\n   ght\"\"\"\n", "s.toml").readable);
}

TEST_F(SettingsFile, DeepNestingIsRefusedWithTheLineBeforeTheParserRecurses) {
  // 32,000 dotted parts under the 64 KiB limit crashed toml++ (a stack overflow) at every start.
  std::string key = "a";
  for (int i = 1; i < 32000; ++i) key += ".a";
  write("theme = \"light\"\n# the next line nests too deep\n" + key + " = 1\n");
  ASSERT_LT(fs::file_size(path()), 64u * 1024);
  const SettingsLoad r = load();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_HAS(r.problems[0], path().string() + ":3: nested");
  EXPECT_HAS(r.problems[0], "more than 64");
  EXPECT_FALSE(r.readable);
  EXPECT_EQ(r.settings, Settings{});
  // Deep tables, arrays and inline tables too; 64 levels are read.
  EXPECT_FALSE(parse_settings("[" + key.substr(0, 2 * 70 - 1) + "]\n", "s.toml").readable);
  EXPECT_FALSE(
      parse_settings("x = " + std::string(100, '[') + std::string(100, ']') + "\n", "s.toml").readable);
  std::string inline_tables = "x = ";
  for (int i = 0; i < 100; ++i) inline_tables += "{ a = ";
  inline_tables += "1" + std::string(100, '}') + "\n";
  EXPECT_FALSE(parse_settings(inline_tables, "s.toml").readable);
  const SettingsLoad ok = parse_settings(key.substr(0, 2 * 60 - 1) + " = 1\n", "s.toml");
  EXPECT_TRUE(ok.readable);
  ASSERT_EQ(ok.problems.size(), 1u);
  EXPECT_HAS(ok.problems[0], "unknown setting 'a'");
  // Dots inside strings and quoted keys are no nesting.
  EXPECT_TRUE(parse_settings("\"" + key + "\" = \"" + key + "\"\n", "s.toml").readable);
}

TEST_F(SettingsFile, AFileThatCannotBeReadIsNeverOverwritten) {
  for (const std::string& text : {std::string("# mine\ntheme = \"light\"\nhud = tru\n"),
                                  std::string("window_width = 123456789012345678901\n"),
                                  "# big\n" + std::string(70 * 1024, '#') + "\n"}) {
    write(text);
    const SettingsLoad r = load();
    EXPECT_FALSE(r.readable) << r.problems.at(0);
    Settings changed;
    changed.hud = true;
    const std::string err = save_settings(path(), changed);
    EXPECT_HAS(err, "left as it is");
    EXPECT_EQ(slurp(path()), text) << "the user's file must stay byte for byte";
  }
}

TEST_F(SettingsFile, ARewriteKeepsCommentsUnknownKeysAndRejectedLines) {
  const std::string text =
      "# my settings\n"
      "theme   = \"dark\"   # dark for the lab\n"
      "hud = false\n"
      "font_size = 20       # not gpulab's (yet)\n"
      "window_width = 10    # rejected: too small\n"
      "\n"
      "[extra]\n"
      "x = 1\n";
  write(text);
  const SettingsLoad r = load();
  ASSERT_TRUE(r.readable);
  EXPECT_EQ(r.problems.size(), 3u);  // font_size, window_width, [extra]
  // Nothing changed: nothing written (a file with problems used to be rewritten a second after start).
  EXPECT_EQ(save_settings(path(), r.settings), "");
  EXPECT_EQ(slurp(path()), text);
  // The theme and a new key change: those lines alone.
  Settings s = r.settings;
  s.theme = Theme::Light;
  s.ui_scale = 2.0f;
  ASSERT_EQ(save_settings(path(), s), "");
  EXPECT_EQ(slurp(path()),
            "# my settings\n"
            "theme   = \"light\"   # dark for the lab\n"
            "hud = false\n"
            "font_size = 20       # not gpulab's (yet)\n"
            "window_width = 10    # rejected: too small\n"
            "\n"
            "ui_scale = 2.0\n"
            "[extra]\n"
            "x = 1\n");
  EXPECT_EQ(load().settings.theme, Theme::Light);
  // Back to the display's scale: its line goes, the rest stays.
  s.ui_scale.reset();
  ASSERT_EQ(save_settings(path(), s), "");
  EXPECT_EQ(slurp(path()).find("ui_scale"), std::string::npos);
  EXPECT_HAS(slurp(path()), "font_size = 20       # not gpulab's (yet)\n");
  EXPECT_HAS(slurp(path()), "# my settings\n");
}

TEST_F(SettingsFile, AReadOnlyFileIsNotReplaced) {
  write("theme = \"dark\"\n");
  ASSERT_EQ(::chmod(path().c_str(), 0444), 0);
  Settings s;
  s.theme = Theme::Light;
  EXPECT_HAS(save_settings(path(), s), "read-only");  // root too: no write bit at all means keep it
  EXPECT_EQ(slurp(path()), "theme = \"dark\"\n");
  // As an unprivileged user, whose folder is writable but whose file is not (0644, owned by root):
  // the temporary file used to be renamed over it.
  ASSERT_EQ(::chmod(path().c_str(), 0644), 0);
  ASSERT_EQ(::chmod(path().parent_path().c_str(), 0777), 0);
  ASSERT_EQ(::chmod(dir_.c_str(), 0777), 0);
  const std::string err = gpulab::testing::as_unprivileged([&] { return save_settings(path(), s); });
  ASSERT_EQ(err.rfind("child failed", 0), std::string::npos) << err;
  if (::geteuid() == 0) {  // as a normal user the file is the user's own
    EXPECT_HAS(err, "read-only");
    EXPECT_EQ(slurp(path()), "theme = \"dark\"\n");
  }
}

// --ui-scale, --projector and --reset-settings on the command line.
ParseResult parse(std::vector<const char*> args) { return testing::parse_with_every_demo(std::move(args)); }

TEST(UiScaleOption, AcceptsTheRangeEnds) {
  for (const char* v : {"0.75", "1", "2.5", "4"}) {
    const ParseResult r = parse({"--ui-scale", v});
    ASSERT_TRUE(r.options) << v << ": " << r.error;
    ASSERT_TRUE(r.options->ui_scale);
    EXPECT_FLOAT_EQ(*r.options->ui_scale, std::stof(v));
  }
  const ParseResult none = parse({});
  ASSERT_TRUE(none.options);
  EXPECT_FALSE(none.options->ui_scale);
  EXPECT_FALSE(none.options->projector);
  EXPECT_FALSE(none.options->reset_settings);
  EXPECT_FALSE(none.options->demo_given);
}

TEST(UiScaleOption, RefusesNanEmptyAndOutOfRangeNamingTheOption) {
  for (const char* v : {"0.74", "4.01", "0", "-1", "nan", "NaN", "inf", "", " ", "big", "2x"}) {
    const ParseResult r = parse({"--ui-scale", v});
    EXPECT_FALSE(r.options) << "'" << v << "' accepted";
    EXPECT_EQ(r.exit_code, 1) << v << ": " << r.error;
    EXPECT_HAS(r.error, "--ui-scale");
  }
  const ParseResult eq = parse({"--ui-scale="});
  EXPECT_FALSE(eq.options);
  EXPECT_HAS(eq.error, "--ui-scale");
}

TEST(UiScaleOption, ProjectorAndResetAreRunOptions) {
  const ParseResult r = parse({"--projector", "--reset-settings", "--demo", "nbody"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_TRUE(r.options->projector);
  EXPECT_TRUE(r.options->reset_settings);
  EXPECT_TRUE(r.options->demo_given);
  for (const char* flag : {"--projector", "--reset-settings"}) {
    const ParseResult b = parse({"bench", flag});
    EXPECT_FALSE(b.options) << flag;
    EXPECT_EQ(b.exit_code, 2);
  }
  const ParseResult b = parse({"bench", "--ui-scale", "2"});
  EXPECT_FALSE(b.options);
}

TEST(UiScaleOption, DemoOptionsKeepTheDefaultDemo) {
  // --grid is the Life demo's: the last demo of the settings must not replace it.
  const ParseResult r = parse({"--grid", "64x64"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_TRUE(r.options->demo_options_given);
  EXPECT_FALSE(r.options->demo_given);
}

}  // namespace
}  // namespace gpulab

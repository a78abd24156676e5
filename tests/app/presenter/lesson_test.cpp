// cpu label: lesson scripts. Every shipped lesson loads and follows its lecture; each malformed lesson
// is refused naming the file, the line and the step; parameters carry over while the demo stays the
// same; the player's moves and its "step K of N — next" line.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "core/demo.h"
#include "core/keymap.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/life/life_demo.h"
#include "demos/nbody/nbody_demo.h"
#include "image/image.h"
#include "presenter/lesson.h"
#include "presenter/lesson_player.h"
#include "support/run_binary.h"
#include "support/test_paths.h"

namespace fs = std::filesystem;
using namespace gpulab;
using namespace gpulab::presenter;

namespace {

const fs::path kLessons = fs::path(GPULAB_TEST_ASSETS) / "lessons";

LessonLoad parse(const std::string& text) { return parse_lesson(text, kLessons / "test.toml", make_demos); }

// What every refusal must start with: the file, the line and (where there is one) the step.
void expect_refused_at(const std::string& text, int line, int step, const std::string& says) {
  const LessonLoad r = parse(text);
  ASSERT_FALSE(r.lesson) << text;
  std::string where = (kLessons / "test.toml").string() + ":" + std::to_string(line) + ": ";
  if (step > 0) where += "step " + std::to_string(step) + ": ";
  EXPECT_EQ(r.error.rfind(where, 0), 0u) << "want " << where << "\ngot " << r.error;
  std::string quoted = says;  // messages quote input in single quotes (text::quote)
  std::replace(quoted.begin(), quoted.end(), '"', '\'');
  EXPECT_NE(r.error.find(quoted), std::string::npos) << "want " << quoted << "\ngot " << r.error;
}

}  // namespace

TEST(Lesson, EveryShippedLessonLoadsAndFollowsItsLecture) {
  const std::vector<fs::path> files = shipped_lessons(GPULAB_TEST_ASSETS);
  ASSERT_EQ(files.size(), 7u)
      << "one lesson per lecture: Life, histogram, reductions, N-body, textures, transfers, matrices";
  // The lecture's demo and the variants its order passes through (course materials' order).
  const std::vector<std::pair<std::string, std::vector<std::string>>> want = {
      {"life", {"cpu-naive", "cpu-lut", "gpu-global", "gpu-lut-constant", "gpu-shared", "gpu-bitpacked"}},
      {"histeq",
       {"hist-naive-race", "hist-atomic-global", "hist-shared-private", "hist-atomic-gridstride",
        "hist-cub"}},
      {"histeq",
       {"reduce-divergent", "reduce-strided-index", "reduce-sequential", "reduce-add-on-load",
        "reduce-unroll-last-warp"}},
      {"nbody", {"cpu", "gpu-naive-aos", "gpu-global-soa", "gpu-shared-tile", "gpu-tile-float4"}},
      {"rotate", {"cpu", "tex-array", "lecture"}},
      {"transfers",
       {"host-pageable", "h2d-pageable", "h2d-pinned", "h2d-registered", "zero-copy-mapped", "managed-faults",
        "managed-prefetch", "serial", "async-pageable", "streams-4", "graph", "display-host-copy",
        "display-pbo", "display-interop"}},
      {"matrix",
       {"transpose-naive", "transpose-shared", "transpose-shared-padded", "gemm-shared-tile-aat",
        "gemm-shared-tile-aat-padded"}},
  };
  for (size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i].string());
    const LessonLoad r = load_lesson(files[i], make_demos);
    ASSERT_TRUE(r.lesson) << r.error;
    const Lesson& l = *r.lesson;
    EXPECT_FALSE(l.title.empty());
    ASSERT_GE(l.steps.size(), 5u);
    std::vector<std::string> order;
    for (const LessonStep& s : l.steps) {
      EXPECT_EQ(s.demo, want[i].first);
      EXPECT_FALSE(s.caption.empty()) << "step at line " << s.line;
      EXPECT_FALSE(s.title.empty());
      // One variant a step; the matrix lab's padding is an A/B of two.
      if (want[i].first != "matrix") {
        ASSERT_EQ(s.variants.size(), 1u) << "step at line " << s.line;
      }
      for (const std::string& v : s.variants)
        if (order.empty() || order.back() != v) order.push_back(v);
    }
    // The lecture's variants appear in the lecture's order.
    size_t at = 0;
    for (const std::string& v : order)
      if (at < want[i].second.size() && v == want[i].second[at]) ++at;
    EXPECT_EQ(at, want[i].second.size()) << "the variants are not in the lecture's order";
  }
}

// The matrix lab's lesson: the padding column against bank conflicts as A/B steps, the transpose's
// tile and the lab's A·Aᵀ, each half one Setup with the padded variant picked on the same input.
TEST(Lesson, TheMatrixLessonIsTheLabsPaddingAb) {
  const LessonLoad r = load_lesson(kLessons / "07-matrix.toml", make_demos);
  ASSERT_TRUE(r.lesson) << r.error;
  const std::vector<std::unique_ptr<Demo>> demos = make_demos();
  const Demo* matrix = nullptr;
  for (const auto& d : demos)
    if (d->name() == "matrix") matrix = d.get();
  ASSERT_TRUE(matrix);
  const StageTables& t = matrix->stage_tables();
  std::vector<std::pair<std::string, std::string>> ab;
  for (const LessonStep& s : r.lesson->steps) {
    for (const std::string& v : s.variants) EXPECT_TRUE(find_pick(t, v)) << v << " is no matrix variant";
    if (!s.b) continue;
    EXPECT_TRUE(same_input(s.setup, *s.b)) << "step at line " << s.line;
    // The stage B changes (transpose or multiply): the halves differ there only.
    size_t changed = 0, differ = 0;
    for (size_t st = 0; st < s.setup.picks.size(); ++st)
      if (s.setup.picks[st] != s.b->picks.at(st)) changed = st, ++differ;
    EXPECT_EQ(differ, 1u) << "step at line " << s.line;
    ab.emplace_back(variant_of(t, s.setup.picks.at(changed)).id, variant_of(t, s.b->picks.at(changed)).id);
  }
  const std::vector<std::pair<std::string, std::string>> want = {
      {"transpose-shared", "transpose-shared-padded"},
      {"gemm-shared-tile-aat", "gemm-shared-tile-aat-padded"}};
  EXPECT_EQ(ab, want);
  // The A·Aᵀ steps multiply (the op carries over from the step that sets it), large enough to time.
  const LessonStep& last = r.lesson->steps.back();
  const auto op =
      std::find_if(last.params.begin(), last.params.end(), [](const auto& kv) { return kv.first == "op"; });
  ASSERT_NE(op, last.params.end());
  EXPECT_EQ(op->second, "multiply");
  // The captions name what the step changes.
  EXPECT_NE(r.lesson->steps[2].caption.find("tile[32][33]"), std::string::npos);
  EXPECT_NE(last.caption.find("BLOCK_SIZE + 1"), std::string::npos);
}

// overlay = "histogram": the histeq demo's --histogram-overlay from that step on, until "none"; the
// histogram lesson opens it at its first step, so the projected screen shows a histogram throughout.
TEST(Lesson, TheHistogramOverlayIsAStepKeyThatCarriesOver) {
  const LessonLoad r = parse(R"(title = "t"
[[step]]
demo = "histeq"
variant = "hist-cpu"
overlay = "histogram"
[[step]]
variant = "hist-atomic-global"
[[step]]
overlay = "none"
)");
  ASSERT_TRUE(r.lesson) << r.error;
  const auto& st = r.lesson->steps;
  EXPECT_TRUE(st[0].setup.params.as<HisteqParams>().histogram_overlay);
  EXPECT_TRUE(st[1].setup.params.as<HisteqParams>().histogram_overlay);
  EXPECT_FALSE(st[2].setup.params.as<HisteqParams>().histogram_overlay);
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"histeq\"\noverlay = \"cdf\"\n", 4, 1,
                    "overlay must be \"histogram\" or \"none\", not \"cdf\"");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\noverlay = \"histogram\"\n", 4, 1,
                    "is the histeq demo's, not life's");
  const LessonLoad shipped = load_lesson(kLessons / "02-histogram.toml", make_demos);
  ASSERT_TRUE(shipped.lesson) << shipped.error;
  for (const LessonStep& s : shipped.lesson->steps)
    EXPECT_TRUE(s.setup.params.as<HisteqParams>().histogram_overlay) << "step at line " << s.line;
}

TEST(Lesson, ParametersCarryOverWhileTheDemoStaysTheSame) {
  const LessonLoad r = parse(R"(title = "t"
[[step]]
demo = "life"
variant = "cpu-lut"
params = { grid = "64x48", density = 0.5 }
[[step]]
params = { density = 0.25 }
[[step]]
demo = "nbody"
params = { bodies = 300 }
[[step]]
demo = "histeq"
variant = "hist-cpu"
params = { per-channel = true }
)");
  ASSERT_TRUE(r.lesson) << r.error;
  const auto& s = r.lesson->steps;
  ASSERT_EQ(s.size(), 4u);
  // Each step is a Setup: the demo, its parameters and its picks.
  auto life = [&](size_t k) -> const LifeParams& { return s[k].setup.params.as<LifeParams>(); };
  EXPECT_EQ(s[0].setup.demo, "life");
  EXPECT_EQ(life(0).grid, "64x48");
  EXPECT_EQ(life(0).density, 0.5);
  EXPECT_EQ(life(1).grid, "64x48");
  EXPECT_EQ(life(1).density, 0.25);
  const StageTables& t = LifeDemo().stage_tables();
  EXPECT_EQ(variant_of(t, s[0].setup.picks[0]).id, "cpu-lut");
  EXPECT_EQ(variant_of(t, s[1].setup.picks[0]).id, "cpu-lut") << "the variant carries over";
  EXPECT_FALSE(same_input(s[0].setup, s[1].setup));
  EXPECT_EQ(s[1].title, "cpu-lut") << "a step without a title is named by its variant";
  EXPECT_EQ(s[2].setup.demo, "nbody");
  EXPECT_EQ(s[2].setup.params.as<NbodyParams>().bodies, 300) << "another demo starts from its defaults";
  EXPECT_EQ(s[2].setup.params.as<NbodyParams>().dt_given, false);
  EXPECT_TRUE(s[3].setup.params.as<HisteqParams>().per_channel);
  // A step's Setup configures a fresh demo exactly as its command line would.
  std::unique_ptr<Demo> d = make_demo("life");
  d->bind(s[0].setup);
  EXPECT_EQ(d->configure(options_without_outputs(false)), "");
  EXPECT_EQ(d->stages()[0].variants[static_cast<size_t>(d->stages()[0].variant)].id, "cpu-lut");
}

TEST(Lesson, AStepOnTheSameInputHasTheSameInput) {
  const LessonLoad r = parse(R"(title = "t"
[[step]]
demo = "life"
variant = "cpu-naive"
[[step]]
variant = "cpu-lut"
block = []
)");
  ASSERT_TRUE(r.lesson) << r.error;
  EXPECT_TRUE(same_input(r.lesson->steps[0].setup, r.lesson->steps[1].setup));
  EXPECT_NE(r.lesson->steps[0].setup.picks, r.lesson->steps[1].setup.picks);
}

// An A/B step's halves are one Setup copied, with the second variant picked (b = a; b.picks[s] = p).
TEST(Lesson, AnAbStepsHalvesAreOneSetupWithOnePickChanged) {
  const LessonLoad r = parse(R"(title = "t"
[[step]]
demo = "life"
variant = ["cpu-naive", "gpu-shared"]
block = "ghost=128"
params = { grid = "64x48" }
)");
  ASSERT_TRUE(r.lesson) << r.error;
  const LessonStep& s = r.lesson->steps[0];
  ASSERT_TRUE(s.b);
  const gpulab::Setup& a = s.setup;
  const gpulab::Setup& b = *s.b;
  EXPECT_TRUE(same_input(a, b));
  const StageTables& t = LifeDemo().stage_tables();
  EXPECT_EQ(variant_of(t, a.picks[0]).id, "cpu-naive");
  EXPECT_EQ(variant_of(t, b.picks[0]).id, "gpu-shared");
  EXPECT_EQ(b.picks[0].block, variant_of(t, b.picks[0]).default_block);
  EXPECT_EQ(a.picks[1], b.picks[1]) << "the other stages as A has them";
  EXPECT_EQ(b.picks[1].block, 128);
  EXPECT_EQ(b.params.as<LifeParams>().grid, "64x48");
  EXPECT_NE(a.params.get(), b.params.get()) << "a copy, not a shared value";
}

TEST(Lesson, RelativeFilesAreTakenFromTheLessonsFolder) {
  const LessonLoad r = parse(R"(title = "t"
[[step]]
demo = "life"
params = { pattern = "../patterns/glider.rle", grid = "64x64" }
)");
  ASSERT_TRUE(r.lesson) << r.error;
  const std::string pattern = r.lesson->steps[0].setup.params.as<LifeParams>().pattern;
  EXPECT_EQ(pattern, (kLessons / ".." / "patterns" / "glider.rle").lexically_normal().string());
}

TEST(Lesson, AResultsFileIsNamedBesideTheLessonAndReadOnlyWhenItOpens) {
  // results = "...": relative to the lesson's folder, an absolute path as it is; not read here (a
  // missing file is said when the lesson opens, which it still does).
  LessonLoad r = parse("title = \"t\"\nresults = \"life-h100.json\"\n[[step]]\ndemo = \"life\"\n");
  ASSERT_TRUE(r.lesson) << r.error;
  EXPECT_EQ(r.lesson->results, kLessons / "life-h100.json");
  r = parse(
      "title = \"t\"\nresults = \"../../tests/data/results/life-h100.json\"\n[[step]]\ndemo = \"life\"\n");
  ASSERT_TRUE(r.lesson) << r.error;
  EXPECT_EQ(r.lesson->results, kLessons / ".." / ".." / "tests" / "data" / "results" / "life-h100.json");
  r = parse("title = \"t\"\nresults = \"/srv/gpu/life.json\"\n[[step]]\ndemo = \"life\"\n");
  ASSERT_TRUE(r.lesson) << r.error;
  EXPECT_EQ(r.lesson->results, fs::path("/srv/gpu/life.json"));
  r = parse("title = \"t\"\n[[step]]\ndemo = \"life\"\n");
  ASSERT_TRUE(r.lesson) << r.error;
  EXPECT_TRUE(r.lesson->results.empty()) << "none named";
  expect_refused_at("title = \"t\"\nresults = 3\n[[step]]\ndemo = \"life\"\n", 2, 0,
                    "results must be a string, not an integer");
  expect_refused_at("title = \"t\"\nresults = [\"a.json\"]\n[[step]]\ndemo = \"life\"\n", 2, 0,
                    "results must be a string");
  expect_refused_at("title = \"t\"\nresults = \"\"\n[[step]]\ndemo = \"life\"\n", 2, 0,
                    "results names no file");
}

TEST(Lesson, MalformedLessonsNameTheFileLineAndStep) {
  // Not TOML at all (line 5 is in the second step).
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\n[[step]]\ncaption = \n", 5, 2,
                    "not valid TOML");
  // An unknown key at the top and in a step.
  expect_refused_at("title = \"t\"\nauthor = \"me\"\n[[step]]\ndemo = \"life\"\n", 2, 0,
                    "unknown key \"author\"");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\n\n[[step]]\ncolour = \"red\"\n", 6, 2,
                    "unknown key \"colour\"");
  // An unknown variant id, alone and as the second of an A/B pair.
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\n[[step]]\nvariant = \"gpu-magic\"\n", 5, 2,
                    "unknown variant \"gpu-magic\"");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"nbody\"\nvariant = [\"cpu\", \"gpu-nope\"]\n", 4, 1,
                    "unknown variant \"gpu-nope\"");
  // Values out of range: the demo's own checks, on the parameter's line.
  expect_refused_at(
      "title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { grid = \"64x64\" }\n[[step]]\n[step.params]\n"
      "density = 1.5\n",
      7, 2, "--density");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"nbody\"\nparams = { bodies = 0 }\n", 4, 1, "--bodies");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"rotate\"\nparams = { filter = \"cubic\" }\n", 4, 1,
                    "cubic");
  // A block the variant does not take.
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nvariant = \"gpu-shared\"\nblock = 7\n", 5, 1,
                    "gpu-shared takes blocks of");
  // A parameter the demo does not have, an output, a wrong type.
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { bodies = 5 }\n", 4, 1,
                    "unknown parameter \"bodies\" of the life demo");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { save-pattern = \"x.rle\" }\n", 4, 1,
                    "unknown parameter \"save-pattern\"");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\ncode = \"yes\"\n", 4, 1,
                    "code must be true or false");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"histeq\"\nparams = { per-channel = \"yes\" }\n", 4, 1,
                    "is a switch");
  // A missing file, no demo, an unknown demo, the same variant twice for A/B.
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { pattern = \"no-such.rle\" }\n", 4,
                    1, "no-such.rle");
  expect_refused_at("title = \"t\"\n[[step]]\ncaption = \"c\"\n", 2, 1, "the first step must name its demo");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"pong\"\n", 2, 1, "no demo \"pong\"");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nvariant = [\"cpu-lut\", \"cpu-lut\"]\n", 4, 1,
                    "twice");
  // No title, no steps.
  expect_refused_at("[[step]]\ndemo = \"life\"\n", 1, 0, "no title");
  expect_refused_at("title = \"t\"\n", 1, 0, "no steps");
}

// Bad input, second round (issue 30): nothing a lesson file says may crash or abort the app.
TEST(Lesson, DeepNestingIsRefusedBeforeTheParserRecurses) {
  // ~40,000 dotted parts (a key or a table header) overflowed toml++'s stack.
  std::string deep = "a";
  for (int i = 1; i < 40000; ++i) deep += ".a";
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\n" + deep + " = 1\n", 4, 1, "nested");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\n[[step]]\n[" + deep + "]\n", 5, 2,
                    "more than 64");
  expect_refused_at("title = \"t\"\nx = " + std::string(300, '[') + "\n", 2, 0, "nested");
}

TEST(Lesson, ALineEndingBackslashBeforeANonAsciiCharacterIsRefused) {
  // A caption continued with a backslash onto a line that starts with a dash (U+2014): toml++ 3
  // reaches undefined behaviour there, so the reader refuses it with the line and the step.
  expect_refused_at(
      "title = \"t\"\n[[step]]\ndemo = \"life\"\ncaption = \"\"\"one\\\n  \xE2\x80\x94 two\"\"\"\n", 4, 1,
      "line-ending backslash");
}

TEST(Lesson, OverLongTextsAreRefusedWithTheLimit) {
  // A caption of ~24,000 characters aborted the window on ImGui's 16-bit vertex index.
  const std::string step = "title = \"t\"\n[[step]]\ndemo = \"life\"\n";
  expect_refused_at(step + "caption = \"" + std::string(24000, 'x') + "\"\n", 4, 1,
                    "caption is 24000 characters long; at most 1000");
  expect_refused_at(step + "notes = \"" + std::string(5000, 'n') + "\"\n", 4, 1, "notes is 5000 characters");
  expect_refused_at(step + "title = \"" + std::string(300, 't') + "\"\n", 4, 1, "title is 300 characters");
  expect_refused_at("title = \"" + std::string(201, 'T') + "\"\n[[step]]\ndemo = \"life\"\n", 1, 0,
                    "title is 201 characters");
  // Characters, not bytes: 1000 two-byte characters are fine.
  std::string umlauts;
  for (int i = 0; i < 1000; ++i) umlauts += "\xC3\xBC";
  const LessonLoad ok = parse(step + "caption = \"" + umlauts + "\"\n");
  ASSERT_TRUE(ok.lesson) << ok.error;
  EXPECT_EQ(ok.lesson->steps[0].caption, umlauts);
}

TEST(Lesson, ANonFiniteParameterIsNamedAsSuch) {
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { density = nan }\n", 4, 1,
                    "params.density must be a finite number, not nan");
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { density = -inf }\n", 4, 1,
                    "not inf");
  // An integer that wraps in 32 bits is refused as typed, on its line (the one number parser).
  expect_refused_at("title = \"t\"\n[[step]]\ndemo = \"life\"\nparams = { grid = \"4294967306x10\" }\n", 4, 1,
                    "4294967306x10");
}

TEST(Lesson, AStepThatRepeatsAnotherIsStartedOnce) {
  // 500 steps naming one image decoded it 500 times while the lesson was checked.
  int made = 0;
  const DemoFactory counting = [&made] {
    ++made;
    return make_demos();
  };
  const fs::path png = gpulab::testing::temp_dir("gpulab-lesson") / "one.png";
  ASSERT_EQ(image::save_png(png, image::generate("hazy-landscape", 64, 48)), "");
  auto steps = [&png](int n) {
    std::string text = "title = \"t\"\n";
    for (int i = 0; i < n; ++i)
      text += "[[step]]\ndemo = \"histeq\"\nparams = { image = \"" + png.string() + "\" }\n";
    return text;
  };
  made = 0;
  ASSERT_TRUE(parse_lesson(steps(1), kLessons / "test.toml", counting).lesson);
  const int one = made;
  made = 0;
  const LessonLoad many = parse_lesson(steps(40), kLessons / "test.toml", counting);
  ASSERT_TRUE(many.lesson) << many.error;
  EXPECT_EQ(many.lesson->steps.size(), 40u);
  // Each step's parameters are still read against a fresh demo (one set each), but the step itself is
  // started (configured, its image decoded) once.
  EXPECT_EQ(made, one + 39) << "a repeated step was started again";
  // A different step is checked on its own: a bad one after good ones is still refused.
  expect_refused_at(steps(3) + "[[step]]\nparams = { image = \"no-such.png\" }\n", 12, 4, "no-such.png");
}

TEST(Lesson, AnUnreadableFileIsNamed) {
  const LessonLoad r = load_lesson(kLessons / "no-such-lesson.toml", make_demos);
  ASSERT_FALSE(r.lesson);
  EXPECT_NE(r.error.find("no-such-lesson.toml"), std::string::npos) << r.error;
  const LessonLoad dir = load_lesson(kLessons, make_demos);
  ASSERT_FALSE(dir.lesson);
  EXPECT_NE(dir.error.find("folder"), std::string::npos) << dir.error;
}

TEST(LessonPlayer, MovesStayInsideTheLessonAndSayWhatComesNext) {
  const LessonLoad r = parse(R"(title = "t"
[[step]]
demo = "life"
variant = "cpu-naive"
[[step]]
title = "the table"
variant = "cpu-lut"
[[step]]
variant = "gpu-global"
)");
  ASSERT_TRUE(r.lesson) << r.error;
  LessonPlayer p(*r.lesson);
  EXPECT_EQ(p.current(), -1);
  EXPECT_EQ(p.target(LessonMove::Next), 0);
  p.shown(0, "");
  EXPECT_EQ(p.progress(), "step 1 of 3 — next: the table");
  EXPECT_EQ(p.target(LessonMove::Previous), 0) << "nothing before the first step";
  EXPECT_EQ(p.target(LessonMove::Last), 2);
  p.shown(2, "gpu-global cannot run here");
  EXPECT_EQ(p.progress(), "step 3 of 3 — the end");
  EXPECT_EQ(p.problem(), "gpu-global cannot run here");
  EXPECT_EQ(p.target(LessonMove::Next), 2) << "nothing after the last step";
  EXPECT_EQ(p.target(LessonMove::Previous), 1);
  EXPECT_EQ(p.target(LessonMove::First), 0);
}

TEST(LessonKeys, TheClickersKeysAreTheLessonsOnlyWhileOneRuns) {
  for (int key : {GLFW_KEY_PAGE_DOWN, GLFW_KEY_RIGHT}) {
    EXPECT_EQ(find_shell_key(key, false), nullptr) << key << " is the demo's without a lesson";
    ASSERT_NE(find_shell_key(key, false, true), nullptr) << key;
    EXPECT_EQ(find_shell_key(key, false, true)->action, KeyAction::LessonNext);
  }
  for (int key : {GLFW_KEY_PAGE_UP, GLFW_KEY_LEFT}) {
    ASSERT_NE(find_shell_key(key, false, true), nullptr) << key;
    EXPECT_EQ(find_shell_key(key, false, true)->action, KeyAction::LessonPrevious);
  }
  EXPECT_EQ(find_shell_key(GLFW_KEY_HOME, false, true)->action, KeyAction::LessonFirst);
  EXPECT_EQ(find_shell_key(GLFW_KEY_END, false, true)->action, KeyAction::LessonLast);
  // Rotate's Left / Right are not a clash (the lesson takes them only while it runs), but a shell key
  // on a lesson key is.
  const KeyBinding rotate_left{GLFW_KEY_LEFT, 0, 0, false, "Left", "turn", "Texture rotation"};
  EXPECT_TRUE(key_clashes(std::vector<KeyBinding>{rotate_left}, shell_keys()).empty());
  const KeyBinding shell_b{GLFW_KEY_PAGE_DOWN, 0,           0,           false,
                           "PageDown",         "something", "Presenter", KeyAction::Hud};
  EXPECT_EQ(key_clashes(std::vector<KeyBinding>{shell_b}, shell_keys()).size(), 1u);
}

TEST(ClickerKeys, BlankAndWhiteAreAlwaysTheShellsAndF5IsTheSlideshowKey) {
  // A clicker's "blank" button sends B or '.', some send W or ',': they blank the view, lesson or not,
  // and never advance a lesson.
  for (bool lesson : {false, true}) {
    for (int key : {GLFW_KEY_B, GLFW_KEY_PERIOD}) {
      ASSERT_NE(find_shell_key(key, false, lesson), nullptr) << key;
      EXPECT_EQ(find_shell_key(key, false, lesson)->action, KeyAction::Blank);
    }
    for (int key : {GLFW_KEY_W, GLFW_KEY_COMMA}) {
      ASSERT_NE(find_shell_key(key, false, lesson), nullptr) << key;
      EXPECT_EQ(find_shell_key(key, false, lesson)->action, KeyAction::White);
    }
  }
  EXPECT_TRUE(is_slideshow_key(GLFW_KEY_F5));
  ASSERT_NE(find_shell_key(GLFW_KEY_L, true), nullptr);
  EXPECT_EQ(find_shell_key(GLFW_KEY_L, true)->action, KeyAction::Ladder) << "the ladder's other key";
  EXPECT_EQ(find_shell_key(GLFW_KEY_L, false), nullptr) << "plain L stays the rotate demo's";
  ASSERT_NE(find_shell_key(GLFW_KEY_P, true), nullptr);
  EXPECT_EQ(find_shell_key(GLFW_KEY_P, true)->action, KeyAction::Pointer) << "the spotlight";
  EXPECT_EQ(find_shell_key(GLFW_KEY_P, false), nullptr) << "plain P stays the rotate demo's";
}

TEST(Lesson, ACodeMarkMustBeInTheStepsKernel) {
  const LessonLoad good = parse(
      "title = \"t\"\n[[step]]\ndemo = \"life\"\nvariant = \"gpu-shared\"\ncode_mark = "
      "\"tile-load\"\ncaption = \"a\"\n");
  ASSERT_TRUE(good.lesson) << good.error;
  EXPECT_EQ(good.lesson->steps[0].code_mark, "tile-load");
  const LessonLoad missing = parse(
      "title = \"t\"\n[[step]]\ndemo = \"life\"\nvariant = \"gpu-global\"\ncode_mark = "
      "\"tile-load\"\ncaption = \"a\"\n");
  ASSERT_FALSE(missing.lesson);
  EXPECT_NE(missing.error.find("code_mark 'tile-load' is not in gpu-global's code"), std::string::npos)
      << missing.error;
  const LessonLoad bad =
      parse("title = \"t\"\n[[step]]\ndemo = \"life\"\ncode_mark = \"Tile Load\"\ncaption = \"a\"\n");
  ASSERT_FALSE(bad.lesson);
  EXPECT_NE(bad.error.find("code_mark must be a marker's name"), std::string::npos) << bad.error;
}

TEST(Lesson, TheOpenedNoticeEscapesTheTitle) {
  // The title is the file's text: a control byte in it reached the terminal and the toast raw.
  const LessonLoad r = parse(
      "title = \"Clear\\u001b[2J screen\\u0007\"\n[[step]]\ndemo = \"life\"\ncaption = \"one\"\n"
      "[[step]]\ndemo = \"life\"\ncaption = \"two\"\n");
  ASSERT_TRUE(r.lesson) << r.error;
  ASSERT_EQ(r.lesson->title, "Clear\x1b[2J screen\a");
  const std::string notice = lesson_opened_notice(*r.lesson);
  EXPECT_EQ(notice, "lesson: Clear\\x1B[2J screen\\x07 (2 steps; PageDown / PageUp)");
  EXPECT_EQ(notice.find('\x1b'), std::string::npos);
}

TEST(SuccessLines, TheLadderEscapesThePathsItWrote) {
  // `gpulab ladder` (no GL needed for its CSV and JSON) names each file it wrote: control bytes in a
  // name are escaped there as in refusals, and the file itself has the name as given.
  const fs::path dir = gpulab::testing::temp_dir("gpulab-success-lines");
  const fs::path csv = dir / "rows\x1b[2J.csv", json = dir / "suite\x07.json";
  fs::remove(csv);
  fs::remove(json);
  const gpulab::testing::ProcessResult r = gpulab::testing::run_gpulab(
      "ladder --cpu --demo life --grid 16x16 --csv '" + csv.string() + "' --json '" + json.string() + "'",
      "gpulab-success-lines");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(csv));
  EXPECT_TRUE(fs::exists(json));
  EXPECT_NE(r.output.find("ladder: wrote " + dir.string() + "/rows\\x1B[2J.csv"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("ladder: wrote " + dir.string() + "/suite\\x07.json"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << "a raw escape byte in the output";
  EXPECT_EQ(r.output.find('\a'), std::string::npos) << "a raw bell in the output";
}

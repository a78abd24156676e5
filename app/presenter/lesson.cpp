// Lesson scripts (lesson.h): TOML read with toml++, each step checked by starting it the way the
// command line would, on a fresh set of demos.
#include "presenter/lesson.h"

#include <toml++/toml.h>
#include <CLI/CLI.hpp>

#include "core/toml_text.h"
#include "presenter/code_panel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>

#include "common/file_io.h"
#include "common/text.h"
#include "core/cli.h"
#include "core/demo.h"
#include "image/image.h"

namespace gpulab::presenter {
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMaxLessonBytes = 1 << 20;
constexpr size_t kMaxSteps = 500;
// The longest texts a lesson may show, in characters: ImGui draws a text in one draw list of at most
// 65536 vertices (4 a glyph), so a caption of tens of thousands of characters would abort the app.
// These leave room for everything else in the panel, and are far more than a slide can show anyway.
constexpr size_t kMaxTitleChars = 200;
constexpr size_t kMaxCaptionChars = 1000;
constexpr size_t kMaxNotesChars = 4000;

// The keys a lesson file may use (docs/lesson-format.md describes each; a test compares the lists).
constexpr std::array<std::string_view, 3> kTopKeys = {"title", "results", "step"};
constexpr std::array<std::string_view, 12> kStepKeys = {"title",     "demo",    "variant", "block",
                                                        "params",    "ladder",  "code",    "code_lines",
                                                        "code_mark", "overlay", "caption", "notes"};

template <size_t N>
std::string key_list(const std::array<std::string_view, N>& keys) {
  std::string out;
  for (std::string_view k : keys) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}
template <size_t N>
bool known_key(const std::array<std::string_view, N>& keys, std::string_view k) {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

// "" when `text` has at most `max` characters (UTF-8 code points), else the message naming the key.
std::string too_long(const std::string& key, std::string_view text, size_t max) {
  size_t chars = 0;
  for (const char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  if (chars <= max) return {};
  return key + " is " + std::to_string(chars) + " characters long; at most " + std::to_string(max) +
         " are allowed (shorten it, or split it over steps)";
}

// The options a step may set for `demo`: its own option group's, less the outputs, plus the shared
// --image, --seed and --init (the demos that take no --init refuse it when the step is checked). Names
// without dashes, for the "known:" list of messages.
struct ParamNames {
  std::set<std::string> names;
  std::set<std::string> flags;  // options that take no value
};
ParamNames param_names(const Demo& demo) {
  CLI::App scratch;
  const std::unique_ptr<gpulab::DemoParams> params = demo.make_params();
  params->add_options(scratch);
  ParamNames p;
  for (CLI::App* g : scratch.get_subcommands([](CLI::App*) { return true; }))
    for (const CLI::Option* o : g->get_options()) {
      if (o->get_type_name().rfind(kOutputPath, 0) == 0) continue;  // a lesson writes nothing
      std::string n = o->get_name();
      while (!n.empty() && n.front() == '-') n.erase(n.begin());
      if (n.empty() || n == "help") continue;
      p.names.insert(n);
      if (o->get_items_expected_max() == 0) p.flags.insert(n);
    }
  p.names.insert("image");
  p.names.insert("seed");
  p.names.insert("init");
  return p;
}

// The step a line of the file belongs to: the number of [[step]] headers at or above it (0: none).
int step_at_line(std::string_view src, int line) {
  int step = 0, n = 0;
  for (std::string_view l : text::split_lines(src)) {
    if (++n > line) break;
    const std::string_view t = text::trim(l);
    if (t.rfind("[[step]]", 0) == 0) ++step;
  }
  return step;
}

std::string join(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

// A failed check: where and what.
struct Problem {
  int line = 0;
  std::string what;
};

class Parser {
 public:
  Parser(const fs::path& file, const DemoFactory& make, bool device)
      : file_(file), make_(make), device_(device) {
    demos_ = make_();
    for (const auto& d : demos_) demo_names_.emplace_back(d->name());
  }

  std::string at(int line, int step, const std::string& what) const {
    std::string out = text::escape(file_.string()) + ":" + std::to_string(line) + ": ";
    if (step > 0) out += "step " + std::to_string(step) + ": ";
    return out + what;
  }

  LessonLoad parse(std::string_view src) {
    LessonLoad r;
    // Every step is configured as it would run: a picture that many steps name is decoded once.
    const image::DecodeScope pictures;
    if (const TomlDepth deep = toml_too_deep(src); deep.line)
      return fail(r, deep.line, step_at_line(src, deep.line),
                  "nested " + std::to_string(deep.depth) +
                      " levels deep (dotted keys, tables, arrays), more than " +
                      std::to_string(kMaxTomlDepth));
    if (const int at = toml_backslash_before_non_ascii(src); at)
      return fail(r, at, step_at_line(src, at), kTomlBackslashProblem);
    toml::table root;
    try {
      root = toml::parse(src, file_.string());
    } catch (const toml::parse_error& e) {
      const int line = static_cast<int>(e.source().begin.line);
      r.error = at(line, step_at_line(src, line), "not valid TOML (" + text::escape(e.description()) + ")");
      return r;
    }
    Lesson lesson;
    lesson.file = file_;
    const toml::array* steps = nullptr;
    for (auto&& [key, node] : root) {
      const std::string k(key.str());
      const int line = static_cast<int>(node.source().begin.line);
      if (!known_key(kTopKeys, k))
        return fail(r, line, 0, "unknown key " + text::quote(k) + " (known: " + key_list(kTopKeys) + ")");
      if (k == "title") {
        if (!node.is_string())
          return fail(r, line, 0, "title must be a string, not " + std::string(toml_type_name(node)));
        lesson.title = *node.value<std::string>();
        if (std::string bad = too_long("title", lesson.title, kMaxTitleChars); !bad.empty())
          return fail(r, line, 0, bad);
      } else if (k == "results") {
        // Read when the lesson opens, not here: a missing file is said then and the lesson still opens.
        const std::optional<std::string> v = node.value_exact<std::string>();
        if (!v) return fail(r, line, 0, "results must be a string, not " + std::string(toml_type_name(node)));
        if (v->empty() || v->find('\0') != std::string::npos)
          return fail(r, line, 0, "results names no file (results = \"life-h100.json\", beside the lesson)");
        const fs::path p(*v);
        lesson.results = p.is_absolute() ? p : file_.parent_path() / p;
      } else if (k == "step") {
        steps = node.as_array();
        if (!steps || !steps->is_array_of_tables())
          return fail(r, line, 0,
                      "step must be an array of tables ([[step]]), not " + std::string(toml_type_name(node)));
      }
    }
    if (lesson.title.empty()) return fail(r, 1, 0, "the lesson has no title (title = \"...\")");
    if (!steps || steps->empty()) return fail(r, 1, 0, "the lesson has no steps ([[step]] tables)");
    if (steps->size() > kMaxSteps)
      return fail(r, 1, 0,
                  "the lesson has " + std::to_string(steps->size()) + " steps, more than " +
                      std::to_string(kMaxSteps));
    const LessonStep* prev = nullptr;
    for (size_t i = 0; i < steps->size(); ++i) {
      LessonStep s;
      if (Problem p = read_step(*(*steps)[i].as_table(), prev, &s); !p.what.empty())
        return fail(r, p.line, static_cast<int>(i + 1), p.what);
      lesson.steps.push_back(std::move(s));
      prev = &lesson.steps.back();
    }
    r.lesson = std::move(lesson);
    return r;
  }

 private:
  LessonLoad& fail(LessonLoad& r, int line, int step, const std::string& what) {
    r.error = at(line, step, what);
    return r;
  }

  // A step's value as a string (strings as they are, integers and numbers as written, booleans as
  // true/false); false when it is a table, an array or a date.
  static bool scalar(const toml::node& n, std::string* out) {
    if (auto s = n.value_exact<std::string>())
      *out = *s;
    else if (auto i = n.value_exact<int64_t>())
      *out = std::to_string(*i);
    else if (auto d = n.value_exact<double>()) {
      if (!std::isfinite(*d)) return false;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", *d);
      *out = buf;
    } else if (auto b = n.value_exact<bool>())
      *out = *b ? "true" : "false";
    else
      return false;
    return true;
  }

  Problem read_step(const toml::table& t, const LessonStep* prev, LessonStep* s) {
    s->line = static_cast<int>(t.source().begin.line);
    struct ParamAt {
      std::string name, value;
      int line;
    };
    std::vector<ParamAt> param_lines;  // for messages naming a parameter or its value
    const toml::node* params = nullptr;
    int variant_line = s->line, block_line = s->line;
    bool variant_given = false;
    std::optional<std::pair<std::string, int>> overlay;  // overlay = "...", and its line
    for (auto&& entry : t) {
      // (not a structured binding: clang 14 cannot capture one in the lambda below)
      const toml::node& node = entry.second;
      const std::string k(entry.first.str());
      const int line = static_cast<int>(node.source().begin.line);
      auto need_string = [&](std::string* out, size_t max_chars) -> Problem {
        if (!node.is_string())
          return {line, k + " must be a string, not " + std::string(toml_type_name(node))};
        *out = *node.value<std::string>();
        return {line, too_long(k, *out, max_chars)};
      };
      if (!known_key(kStepKeys, k))
        return {line, "unknown key " + text::quote(k) + " (known: " + key_list(kStepKeys) + ")"};
      Problem p;
      if (k == "title")
        p = need_string(&s->title, kMaxTitleChars);
      else if (k == "caption")
        p = need_string(&s->caption, kMaxCaptionChars);
      else if (k == "notes")
        p = need_string(&s->notes, kMaxNotesChars);
      else if (k == "demo")
        p = need_string(&s->demo, kMaxTitleChars);
      else if (k == "ladder" || k == "code") {
        if (!node.is_boolean())
          p = {line, k + " must be true or false, not " + std::string(toml_type_name(node))};
        else
          (k == "ladder" ? s->ladder : s->code) = *node.value<bool>();
      } else if (k == "variant") {
        variant_given = true;
        variant_line = line;
        if (node.is_string()) {
          s->variants = {*node.value<std::string>()};
        } else if (const toml::array* a = node.as_array(); a && (a->size() == 1 || a->size() == 2)) {
          for (const toml::node& v : *a) {
            if (!v.is_string())
              return {line, "variant must list variant ids (strings), not " + std::string(toml_type_name(v))};
            s->variants.push_back(*v.value<std::string>());
          }
          if (s->variants.size() == 2 && s->variants[0] == s->variants[1])
            return {line, "an A/B step needs two different variants, got " + text::quote(s->variants[0]) +
                              " twice"};
        } else {
          p = {line, "variant must be a variant id, or a list of two for A/B, not " +
                         std::string(toml_type_name(node)) + (a ? " of " + std::to_string(a->size()) : "")};
        }
      } else if (k == "block") {
        block_line = line;
        auto one = [&](const toml::node& b) -> Problem {
          std::string v;
          if (!(b.is_integer() || b.is_string()) || !scalar(b, &v))
            return {line, "block must be N or \"STAGE=N\" (or a list of them), not " +
                              std::string(toml_type_name(b))};
          s->blocks.push_back(v);
          return {};
        };
        if (const toml::array* a = node.as_array()) {
          for (const toml::node& b : *a)
            if (Problem q = one(b); !q.what.empty()) return q;
        } else {
          p = one(node);
        }
      } else if (k == "code_mark") {
        std::string v;
        if (Problem q = need_string(&v, 40); !q.what.empty())
          p = q;
        else if (v.empty() ||
                 v.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos)
          p = {line, "code_mark must be a marker's name (a-z, 0-9, - and _), not " + text::quote(v)};
        else
          s->code_mark = v;
      } else if (k == "code_lines") {
        // "12-20" or "12": the snippet's lines (1-based) the step points at.
        std::string v;
        if (Problem q = need_string(&v, 32); !q.what.empty()) {
          p = q;
        } else {
          const size_t dash = v.find('-');
          const std::string a = v.substr(0, dash), b = dash == std::string::npos ? a : v.substr(dash + 1);
          auto number = [](const std::string& t, int* out) {
            if (t.empty() || t.size() > 5 || t.find_first_not_of("0123456789") != std::string::npos)
              return false;
            *out = std::stoi(t);
            return *out >= 1;
          };
          int first = 0, last = 0;
          if (!number(a, &first) || !number(b, &last) || last < first)
            p = {line, "code_lines must be \"FIRST-LAST\" or \"LINE\" (1-based, FIRST <= LAST), not " +
                           text::quote(v)};
          else
            s->code_lines = {first, last};
        }
      } else if (k == "overlay") {
        // overlay = "histogram" | "none": the histogram demo's --histogram-overlay from this step on (a
        // parameter, so it carries over as parameters do).
        std::string v;
        if (Problem q = need_string(&v, 40); !q.what.empty())
          p = q;
        else if (v != "histogram" && v != "none")
          p = {line, "overlay must be 'histogram' or 'none', not " + text::quote(v)};
        else
          overlay = {v, line};
      } else if (k == "params") {
        if (!node.is_table())
          p = {line,
               "params must be a table ({ key = value, ... }), not " + std::string(toml_type_name(node))};
        params = &node;
      }
      if (!p.what.empty()) return p;
    }
    const bool same_demo = prev && (s->demo.empty() || s->demo == prev->demo);
    if (s->demo.empty()) {
      if (!prev) return {s->line, "the first step must name its demo (demo = \"...\")"};
      s->demo = prev->demo;
    }
    if (std::find(demo_names_.begin(), demo_names_.end(), s->demo) == demo_names_.end()) {
      std::string names;
      for (const std::string& n : demo_names_) names += (names.empty() ? "" : ", ") + n;
      return {s->line, "no demo " + text::quote(s->demo) + " (demos: " + names + ")"};
    }
    if (prev && !s->code) s->code = prev->code;  // the code panel stays as the step before left it
    if (same_demo) {
      s->params = prev->params;
      if (!variant_given) s->variants = prev->variants;
    }
    if (params) {
      std::vector<std::unique_ptr<Demo>> demos = make_();
      Demo* demo = nullptr;
      for (auto& d : demos)
        if (d->name() == s->demo) demo = d.get();
      const ParamNames known = param_names(*demo);
      for (auto&& [key, node] : *params->as_table()) {
        const std::string k(key.str());
        const int line = static_cast<int>(node.source().begin.line);
        if (!known.names.count(k))
          return {line, "unknown parameter " + text::quote(k) + " of the " + s->demo +
                            " demo (known: " + join(known.names) + ")"};
        std::string v;
        if (const auto d = node.value_exact<double>(); d && !std::isfinite(*d))
          return {line, "params." + k + " must be a finite number, not " + (std::isnan(*d) ? "nan" : "inf")};
        if (!scalar(node, &v))
          return {line, "params." + k + " must be a string, number or boolean, not " +
                            std::string(toml_type_name(node))};
        if (std::string bad = too_long("params." + k, v, kMaxTitleChars * 20); !bad.empty())
          return {line, bad};
        const bool flag = known.flags.count(k) > 0;
        if (flag != node.is_boolean())
          return {line, "params." + k +
                            (flag ? " is a switch: true or false" : " takes a value, not true or false")};
        if (!flag && text::trim(v).empty()) return {line, "params." + k + " is empty"};
        if (node.is_string()) {
          std::error_code ec;
          const fs::path rel = file_.parent_path() / v;
          if (fs::path(v).is_relative() && fs::is_regular_file(rel, ec)) v = rel.lexically_normal().string();
        }
        auto it =
            std::find_if(s->params.begin(), s->params.end(), [&](const auto& kv) { return kv.first == k; });
        if (flag && v == "false") {
          if (it != s->params.end()) s->params.erase(it);
        } else if (it != s->params.end()) {
          it->second = flag ? "" : v;
        } else {
          s->params.emplace_back(k, flag ? "" : v);
        }
        param_lines.push_back({k, v, line});
      }
    }
    if (overlay) {
      if (s->demo != "histeq")
        return {overlay->second,
                "overlay " + text::quote(overlay->first) + " is the histeq demo's, not " + s->demo + "'s"};
      auto on = std::find_if(s->params.begin(), s->params.end(),
                             [](const auto& kv) { return kv.first == "histogram-overlay"; });
      if (overlay->first == "none" && on != s->params.end()) s->params.erase(on);
      if (overlay->first == "histogram" && on == s->params.end())
        s->params.emplace_back("histogram-overlay", "");
    }
    if (s->title.empty())
      s->title = s->variants.empty()       ? s->demo
                 : s->variants.size() == 2 ? s->variants[0] + " vs " + s->variants[1]
                                           : s->variants[0];
    // Made as the command line would make it: every value checked by the demo's own code.
    const std::string error = make_setups(*s);
    if (error.empty()) return {};
    // The line of what the message names: a parameter (or its value), the variant, the block.
    int line = s->line;
    for (const ParamAt& p : param_lines)
      if (error.find("--" + p.name) != std::string::npos ||
          (p.value.size() > 2 && error.find(p.value) != std::string::npos))
        line = p.line;
    if (error.find("block") != std::string::npos) line = block_line;
    if (error.find("variant") != std::string::npos) line = variant_line;
    return {line, error};
  }

  // A fresh instance of the step's demo.
  std::unique_ptr<Demo> fresh(const std::string& name) const {
    for (auto& d : make_())
      if (d->name() == name) return std::move(d);
    return nullptr;
  }

  // `setup` configured on a fresh demo, as the app would start it: "" or why not.
  std::string check(const Setup& setup) const {
    std::unique_ptr<Demo> d = fresh(setup.demo);
    d->bind(setup);
    std::string error = d->configure(options_without_outputs(false));
    if (error.empty() && d->batch_requested()) error = "a lesson step writes no files";
    return error;
  }

  // The step's Setup (its parameters, shared inputs and picks) and, for an A/B step, B's: the same
  // with the second variant picked. "" or why not.
  std::string make_setups(LessonStep& s) {
    // A step that is another's again (the same input, the same variants and blocks) is not configured
    // twice: a lesson of many steps on one image decodes it once.
    std::string key = s.demo;
    for (const auto& [k, v] : s.params) key += "\n--" + k + "\n" + v;
    for (const std::string& v : s.variants) key += "\n--variant\n" + v;
    for (const std::string& b : s.blocks) key += "\n--block\n" + b;
    const bool check_it = checked_.insert(key).second;
    const Demo* demo = nullptr;  // its tables and parameters (a fresh one is configured by check)
    for (const auto& d : demos_)
      if (d->name() == s.demo) demo = d.get();
    const StageTables& tables = demo->stage_tables();
    Setup a = default_setup(*demo, device_);
    std::vector<std::string> args;
    for (const auto& [k, v] : s.params) {
      args.push_back("--" + k);
      if (!v.empty()) args.push_back(v);
    }
    if (std::string bad = parse_demo_options(args, *a.params.get(), a.shared); !bad.empty()) return bad;
    std::optional<Pick> b_pick;
    if (s.variants.size() == 2) {
      b_pick = find_pick(tables, s.variants[1]);
      if (!b_pick)
        return "unknown variant " + text::quote(s.variants[1]) + " for " + s.demo +
               " (gpulab --list shows the ids)";
    }
    const std::vector<std::string> first(s.variants.begin(),
                                         s.variants.begin() + (s.variants.empty() ? 0 : 1));
    if (std::string bad = apply_choices(*demo, first, s.blocks, a); !bad.empty()) return bad;
    if (!s.code_mark.empty()) {
      // The marker must be in the code the step shows: its variant's (the lead stage's without one).
      const std::optional<Pick> p = first.empty() ? std::optional<Pick>(a.picks.at(demo->lead_stage()))
                                                  : find_pick(tables, first.front());
      if (p) {
        const VariantChoice& v = variant_of(tables, *p);
        // Found as the code panel finds it (marked_lines), so that --check and the panel agree.
        if (marked_lines(code_view(tables.stages.at(p->stage), *p, std::nullopt), s.code_mark) ==
            std::pair{0, 0})
          return "code_mark " + text::quote(s.code_mark) + " is not in " + std::string(v.id) +
                 "'s code (mark lines in kernels/ with // mark NAME ... // end mark)";
      }
    }
    if (b_pick) {
      Setup b = a;
      choose(tables, b, *b_pick);
      if (std::string bad = check_it ? check(b) : ""; !bad.empty()) return bad;
      s.b = std::move(b);
    }
    if (std::string bad = check_it ? check(a) : ""; !bad.empty()) return bad;
    s.setup = std::move(a);
    return {};
  }

  fs::path file_;
  const DemoFactory& make_;
  bool device_ = false;
  std::vector<std::unique_ptr<Demo>> demos_;  // one of each, never configured: tables, parameters
  std::vector<std::string> demo_names_;
  std::set<std::string> checked_;  // the steps (as written) already configured
};

}  // namespace

std::vector<std::string> lesson_top_keys() { return {kTopKeys.begin(), kTopKeys.end()}; }
std::vector<std::string> lesson_step_keys() { return {kStepKeys.begin(), kStepKeys.end()}; }
std::vector<std::string> lesson_param_keys(const Demo& demo) {
  const ParamNames p = param_names(demo);
  return {p.names.begin(), p.names.end()};
}

std::string lesson_opened_notice(const Lesson& lesson) {
  return "lesson: " + text::escape(lesson.title) + " (" + std::to_string(lesson.steps.size()) +
         " steps; PageDown / PageUp)";
}

LessonLoad parse_lesson(std::string_view text, const fs::path& file, const DemoFactory& make_demos,
                        bool device) {
  Parser p(file, make_demos, device);
  return p.parse(text);
}

LessonLoad load_lesson(const fs::path& file, const DemoFactory& make_demos, bool device) {
  files::ReadResult rr = files::read_regular_file(file, kMaxLessonBytes);
  if (!rr.error.empty())
    return {std::nullopt, text::escape(file.string()) + ": cannot read the lesson (" + rr.error + ")"};
  const std::string_view src(reinterpret_cast<const char*>(rr.bytes.data()), rr.bytes.size());
  return parse_lesson(src, file, make_demos, device);
}

std::vector<fs::path> shipped_lessons(const fs::path& assets) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(assets / "lessons", ec))
    if (e.path().extension() == ".toml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gpulab::presenter

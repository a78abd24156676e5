// Reads a demo's bench table (bench_table.h) key by key into the suite's baselines and targets.
#include "core/bench_table.h"

#include <toml++/toml.h>
#include <algorithm>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/text.h"
#include "core/bench_stepper.h"

namespace gpulab {

std::string_view bench_table_builtin(std::string_view demo);  // generated/bench_tables.cpp

namespace {

struct Reader {
  std::string file;
  const BenchGroups& groups;

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw std::logic_error("bench table " + file + ": " + where + ": " + what);
  }
  // Every key of `t` is one of `known`: a misspelt key is an error, not a target left out.
  const toml::table& table(const toml::node* n, const std::string& where,
                           std::initializer_list<std::string_view> known) const {
    if (!n || !n->is_table()) fail(where, "not a table");
    for (const auto& [key, value] : *n->as_table())
      if (std::find(known.begin(), known.end(), key.str()) == known.end())
        fail(where, "unknown key " + text::quote(std::string(key.str())));
    return *n->as_table();
  }
  // A value of `t` (T{} where absent): a string, a whole number >= 0 or a number > 0.
  template <class T>
  T get(const toml::table& t, std::string_view key, const std::string& where) const {
    const toml::node* n = t.get(key);
    if (!n) return T{};
    const std::optional<T> v = n->value_exact<T>();
    if constexpr (std::is_same_v<T, std::string>) {
      if (v) return *v;
    } else if (v && *v >= 0 && (std::is_integral_v<T> || *v > 0)) {
      return *v;
    }
    fail(where, std::string(key) + ": " +
                    (std::is_same_v<T, std::string> ? "not a string"
                     : std::is_integral_v<T>        ? "not a whole number >= 0"
                                                    : "not a number > 0, like 1.0"));
  }
  const std::vector<std::string>& group(const std::string& name, const std::string& where) const {
    const auto it = groups.find(name.substr(1));
    if (it == groups.end()) fail(where, "no group " + text::quote(name) + " (the demo names its groups)");
    return it->second;
  }
  // A list of ids; each "@name" is the demo's group of that name.
  std::vector<std::string> ids(const toml::node* n, const std::string& where) const {
    std::vector<std::string> out;
    if (n && !n->is_array()) fail(where, "not a list of ids");
    for (const toml::node& e : n ? *n->as_array() : toml::array{}) {
      const std::optional<std::string> id = e.value_exact<std::string>();
      if (!id) fail(where, "an id is not a string");
      if (!id->starts_with('@'))
        out.push_back(*id);
      else
        for (const std::string& g : group(*id, where)) out.push_back(g);
    }
    return out;
  }
  // Baseline columns: each an id (the column is named after it) or { label, variants }.
  std::vector<BenchBaseline> baselines(const toml::node* n, const std::string& where) const {
    std::vector<BenchBaseline> out;
    if (!n || !n->is_array()) fail(where, "not a list of baselines");
    for (const toml::node& e : *n->as_array()) {
      if (const std::optional<std::string> id = e.value_exact<std::string>()) {
        out.emplace_back(*id);
        continue;
      }
      const toml::table& t = table(&e, where, {"label", "variants"});
      out.emplace_back(get<std::string>(t, "label", where), ids(t.get("variants"), where));
    }
    return out;
  }
  BenchTarget target(const toml::node* n, const std::string& where) const {
    const toml::table& t = table(n, where,
                                 {"what", "variants", "versus", "width", "height", "input", "size_option",
                                  "card", "min_rate", "min_ratio", "within", "max_ms", "on_card", "same_on"});
    BenchTarget out;
    out.what = get<std::string>(t, "what", where);
    const std::string at = where + " " + text::quote(out.what);
    out.variants = ids(t.get("variants"), at + ": variants");
    out.versus = ids(t.get("versus"), at + ": versus");
    out.width = get<int64_t>(t, "width", at);
    out.height = get<int64_t>(t, "height", at);
    out.input = get<std::string>(t, "input", at);
    if (out.input.starts_with('@')) {
      const std::vector<std::string>& g = group(out.input, at);
      if (g.size() != 1) fail(at, "the group " + text::quote(out.input) + " is not one input");
      out.input = g[0];
    }
    out.size_option = get<std::string>(t, "size_option", at);
    out.device_hint = get<std::string>(t, "card", at);
    out.min_items_per_s = get<double>(t, "min_rate", at);
    out.min_ratio = get<double>(t, "min_ratio", at);
    const double within = get<double>(t, "within", at);  // at most `within` times the time of versus
    if (within > 0 && out.min_ratio > 0) fail(at, "both min_ratio and within: give one");
    if (within > 0) out.min_ratio = 1.0 / within;
    out.max_ms = get<double>(t, "max_ms", at);
    if (out.what.empty() || out.kind() == BenchTarget::Kind::Invalid)
      fail(at,
           "a target needs what, variants and one of min_rate, min_ratio or within (with versus), max_ms");
    for (const toml::node& e : t.contains("on_card") ? *t.get_as<toml::array>("on_card") : toml::array{}) {
      const toml::table& c = table(&e, at + ": on_card", {"card", "what", "threshold"});
      out.on_cards.push_back({get<std::string>(c, "card", at), get<std::string>(c, "what", at),
                              get<double>(c, "threshold", at)});
    }
    for (const toml::node& e : t.contains("same_on") ? *t.get_as<toml::array>("same_on") : toml::array{}) {
      const toml::table& c = table(&e, at + ": same_on", {"card", "why"});
      same_target_on(out, get<std::string>(c, "card", at), get<std::string>(c, "why", at));
    }
    return out;
  }
};

}  // namespace

void bench_declare(BenchSpec& spec, const std::string& demo, const BenchGroups& groups,
                   std::string_view text) {
  const Reader r{"assets/bench/" + demo + ".toml", groups};
  if (text.empty()) text = bench_table_builtin(demo);
  if (text.empty()) r.fail("the file", "not in this build");
  toml::table root;
  try {
    root = toml::parse(text, r.file);
  } catch (const toml::parse_error& e) {
    r.fail("line " + std::to_string(e.source().begin.line), std::string(e.description()));
  }
  r.table(&root, "top", {"baselines", "plan_baselines", "target"});
  spec.suite.demo = demo;
  spec.suite.baselines = r.baselines(root.get("baselines"), "baselines");
  if (root.contains("plan_baselines"))
    spec.plan_baselines = r.baselines(root.get("plan_baselines"), "plan_baselines");
  spec.suite.targets.clear();
  const toml::array* targets = root.get_as<toml::array>("target");
  if (root.contains("target") && !targets) r.fail("target", "not a list of tables ([[target]])");
  for (size_t i = 0; targets && i < targets->size(); ++i)
    spec.suite.targets.push_back(r.target(targets->get(i), "target " + std::to_string(i + 1)));
}

}  // namespace gpulab

// Recorded results: reading a bench or ladder JSON back, and finding a variant's figures in it.
#include "core/recorded.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <set>
#include <string_view>
#include <tuple>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/text.h"

namespace gpulab {

std::string RecordedResults::label() const {
  return "recorded on " + (device.empty() ? std::string("another machine") : device) +
         (date.empty() ? std::string() : ", " + date);
}

const RecordedRow* RecordedResults::find(const std::string& stage, const std::string& variant,
                                         double items_per_step, bool* other_size) const {
  const RecordedRow* same = nullptr;     // the fastest row of the case (a file may hold several blocks)
  const RecordedRow* largest = nullptr;  // else the variant's largest case
  for (const RecordedRow& r : rows) {
    if (r.variant != variant || (!stage.empty() && !r.stage.empty() && r.stage != stage)) continue;
    if (items_per_step > 0 && std::fabs(r.items_per_step - items_per_step) <= 1e-3 * items_per_step) {
      if (!same || r.ms_per_step < same->ms_per_step) same = &r;
    } else if (!largest || r.items_per_step > largest->items_per_step) {
      largest = &r;
    }
  }
  if (other_size) *other_size = !same && largest != nullptr;
  return same ? same : largest;
}

namespace {

// A JSON value's kind in words, for "is a string, not a number".
const char* kind_of(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::boolean:
      return "true or false";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

// The largest figure a results file may hold: past it a time or a rate is no measurement (1e+305 s).
constexpr double kAbsurd = 1e18;

// Reads one object's keys with their types checked: each reader gives the value, the default where the
// key is absent, or sets the first problem ("\"baseline_only\" is a string, not true or false").
struct Keys {
  explicit Keys(const nlohmann::json& object) : o(object) {}
  const nlohmann::json& o;
  std::string problem;
  const nlohmann::json* at(const char* key, bool (nlohmann::json::*is)() const noexcept, const char* want) {
    const auto it = o.find(key);
    if (it == o.end()) return nullptr;
    if (!((*it).*is)()) {
      if (problem.empty()) problem = std::string("\"") + key + "\" is " + kind_of(*it) + ", not " + want;
      return nullptr;
    }
    return &*it;
  }
  std::string str(const char* key) {
    const nlohmann::json* v = at(key, &nlohmann::json::is_string, "a string");
    return v ? v->get<std::string>() : std::string();
  }
  bool flag(const char* key) {
    const nlohmann::json* v = at(key, &nlohmann::json::is_boolean, "true or false");
    return v && v->get<bool>();
  }
  // A number from 0 to kAbsurd (0 where absent).
  double num(const char* key) {
    const nlohmann::json* v = at(key, &nlohmann::json::is_number, "a number");
    if (!v) return 0;
    const double x = v->get<double>();
    if (!(x >= 0 && x <= kAbsurd)) {
      if (problem.empty()) {
        char said[64];
        std::snprintf(said, sizeof said, "%g", x);
        problem = std::string("\"") + key + "\" is " + said + ", not a figure from 0 to 1e18";
      }
      return 0;
    }
    return x;
  }
};

}  // namespace

std::optional<RecordedResults> parse_recorded_results(std::string_view bytes, const std::string& path,
                                                      std::string* error) {
  const std::string name = text::quote(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::parse_error& e) {
    // Where it stops being JSON, as line and column (e.byte is 1-based, one past what was read).
    const size_t at = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, bytes.size());
    const std::string_view before = bytes.substr(0, at);
    const size_t line = size_t(std::count(before.begin(), before.end(), '\n')) + 1;
    const size_t last_newline = before.rfind('\n');
    const size_t column = at - (last_newline == std::string_view::npos ? 0 : last_newline + 1) + 1;
    *error = "results file " + name + " is not JSON: line " + std::to_string(line) + ", column " +
             std::to_string(column) + " (gpulab bench --json or gpulab ladder --json writes one)";
    return std::nullopt;
  } catch (const nlohmann::json::exception& e) {
    // Read as JSON but not holdable: a number past a double ("1e705", found by fuzzing: it aborted).
    std::string what = e.what();
    if (const size_t at = what.find("] "); at != std::string::npos) what = what.substr(at + 2);
    *error = "results file " + name + " is not JSON gpulab can read: " + text::escape(what, 200) +
             " (gpulab bench --json or gpulab ladder --json writes one)";
    return std::nullopt;
  }
  if (!j.is_object()) {
    *error = "results file " + name + " is not a JSON object (gpulab bench --json or gpulab ladder --json " +
             "writes one)";
    return std::nullopt;
  }
  if (!j.contains("rows") || !j["rows"].is_array() || !j.contains("demo") || !j["demo"].is_string()) {
    *error = "results file " + name +
             " has no \"demo\" and \"rows\": it is not a gpulab bench or ladder JSON file";
    return std::nullopt;
  }
  auto refuse = [&](const std::string& where, const std::string& problem) {
    *error = "results file " + name + ": " + where + problem;
    return std::optional<RecordedResults>();
  };
  RecordedResults r;
  r.path = path;
  Keys top(j);
  r.demo = top.str("demo");
  r.device = top.str("device");
  r.date = top.str("recorded");
  if (!top.problem.empty()) return refuse("", top.problem);
  std::string baseline;
  if (const auto b = j.find("baselines"); b != j.end()) {
    if (!b->is_array()) return refuse("", std::string("\"baselines\" is ") + kind_of(*b) + ", not an array");
    for (const nlohmann::json& x : *b)
      if (!x.is_string())
        return refuse("", std::string("a label of \"baselines\" is ") + kind_of(x) + ", not a string");
    if (!b->empty()) baseline = (*b)[0].get<std::string>();
  }
  // The baseline's variants (a ladder's column is "baseline": each stage's CPU rung), to name the one a
  // row's speed-up is over.
  std::vector<std::string> baseline_variants;
  if (const auto groups = j.find("baseline_groups"); groups != j.end()) {
    if (!groups->is_array())
      return refuse("", std::string("\"baseline_groups\" is ") + kind_of(*groups) + ", not an array");
    size_t n = 0;
    for (const nlohmann::json& g : *groups) {
      ++n;
      const std::string where = "baseline group " + std::to_string(n) + ": ";
      if (!g.is_object()) return refuse(where, std::string("it is ") + kind_of(g) + ", not an object");
      Keys k(g);
      const std::string label = k.str("label");
      if (!k.problem.empty()) return refuse(where, k.problem);
      const auto vs = g.find("variants");
      if (vs == g.end()) continue;
      if (!vs->is_array())
        return refuse(where, std::string("\"variants\" is ") + kind_of(*vs) + ", not an array");
      for (const nlohmann::json& v : *vs) {
        if (!v.is_string())
          return refuse(where, std::string("a variant is ") + kind_of(v) + ", not a string");
        if (label == baseline) baseline_variants.push_back(v.get<std::string>());
      }
    }
  }
  const std::string speedup_key = "speedup_vs_" + baseline;
  size_t k = 0;
  for (const nlohmann::json& o : j["rows"]) {
    ++k;
    std::string where = "row " + std::to_string(k);
    if (!o.is_object()) return refuse(where, std::string(" is ") + kind_of(o) + ", not an object");
    Keys keys(o);
    RecordedRow row;
    row.variant = keys.str("variant");
    if (row.variant.empty() && keys.problem.empty()) return refuse(where, " has no variant");
    where += " (" + text::quote(row.variant) + "): ";
    const std::string failed = keys.str("error");
    const bool baseline_only = keys.flag("baseline_only");
    row.stage = keys.str("stage");
    // The bench writes the block as its label ("16x16", "256", "-"); older files as a number.
    if (const auto b = o.find("block"); b != o.end() && b->is_string()) {
      const std::string label = b->get<std::string>();
      row.block = std::isdigit(static_cast<unsigned char>(label.empty() ? 'x' : label[0]))
                      ? static_cast<int>(std::min(std::strtol(label.c_str(), nullptr, 10), 1L << 20))
                      : 0;
    } else {
      row.block = static_cast<int>(std::min(keys.num("block"), double(1 << 20)));
    }
    row.ms_per_step = keys.num("ms_per_step_median");
    const double items_per_s = keys.num("items_per_s");
    row.item_unit = keys.str("item_unit");
    row.size = keys.str("size");
    const double x = baseline.empty() ? 0 : keys.num(speedup_key.c_str());
    if (!keys.problem.empty()) return refuse(where, keys.problem);
    if (!failed.empty() || baseline_only) continue;  // nothing measured
    if (!(row.ms_per_step > 0)) return refuse(where, "it has no time a step (ms_per_step_median)");
    row.items_per_step = items_per_s * row.ms_per_step * 1e-3;
    if (x > 0) {
      row.speedup = x;
      row.speedup_baseline = baseline;
    }
    r.rows.push_back(std::move(row));
  }
  if (r.rows.empty()) {
    *error = "results file " + name + " has no measured row";
    return std::nullopt;
  }
  // "vs baseline" says little: a speed-up is over the baseline variant measured in the same case (a
  // set of the cases each variant has, so that a large file reads in linear time).
  std::set<std::tuple<std::string_view, std::string_view, std::string_view>> cases;
  for (const RecordedRow& b : r.rows) cases.emplace(b.variant, b.stage, b.size);
  for (RecordedRow& row : r.rows) {
    if (!row.speedup) continue;
    for (const std::string& v : baseline_variants) {
      if (cases.count({v, row.stage, row.size})) {
        row.speedup_baseline = v;
        break;
      }
    }
  }
  return r;
}

std::optional<RecordedResults> load_recorded_results(const std::filesystem::path& path, std::string* error) {
  const files::ReadResult f = files::read_regular_file(path, 64ull << 20);
  if (!f.error.empty()) {
    *error = "results file " + text::quote(path.string()) + ": " + f.error;
    return std::nullopt;
  }
  return parse_recorded_results(
      std::string_view(reinterpret_cast<const char*>(f.bytes.data()), f.bytes.size()), path.string(), error);
}

std::string today_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

}  // namespace gpulab

// Recorded results: reading a bench or ladder JSON back, and finding a variant's figures in it.
#include "core/recorded.h"

#include <algorithm>
#include <cmath>
#include <ctime>

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

std::optional<RecordedResults> load_recorded_results(const std::filesystem::path& path, std::string* error) {
  const std::string name = text::quote(path.string());
  const files::ReadResult f = files::read_regular_file(path, 64ull << 20);
  if (!f.error.empty()) {
    *error = "results file " + name + ": " + f.error;
    return std::nullopt;
  }
  const nlohmann::json j = nlohmann::json::parse(f.bytes.begin(), f.bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "results file " + name + " is not JSON (gpulab bench --json or gpulab ladder --json writes one)";
    return std::nullopt;
  }
  if (!j.contains("rows") || !j["rows"].is_array() || !j.contains("demo") || !j["demo"].is_string()) {
    *error = "results file " + name +
             " has no \"demo\" and \"rows\": it is not a gpulab bench or ladder JSON file";
    return std::nullopt;
  }
  RecordedResults r;
  r.path = path.string();
  r.demo = j["demo"].get<std::string>();
  if (j.contains("device") && j["device"].is_string()) r.device = j["device"].get<std::string>();
  if (j.contains("recorded") && j["recorded"].is_string()) r.date = j["recorded"].get<std::string>();
  std::string baseline;
  if (j.contains("baselines") && j["baselines"].is_array() && !j["baselines"].empty() &&
      j["baselines"][0].is_string())
    baseline = j["baselines"][0].get<std::string>();
  // The baseline's variants (a ladder's column is "baseline": each stage's CPU rung), to name the one a
  // row's speed-up is over.
  std::vector<std::string> baseline_variants;
  if (j.contains("baseline_groups") && j["baseline_groups"].is_array())
    for (const nlohmann::json& g : j["baseline_groups"])
      if (g.is_object() && g.value("label", std::string()) == baseline && g.contains("variants") &&
          g["variants"].is_array())
        for (const nlohmann::json& v : g["variants"])
          if (v.is_string()) baseline_variants.push_back(v.get<std::string>());
  size_t k = 0;
  for (const nlohmann::json& o : j["rows"]) {
    ++k;
    if (!o.is_object() || !o.contains("variant") || !o["variant"].is_string()) {
      *error = "results file " + name + ": row " + std::to_string(k) + " has no variant";
      return std::nullopt;
    }
    const auto num = [&](const char* key) {
      return o.contains(key) && o[key].is_number() ? o[key].get<double>() : 0.0;
    };
    const auto str = [&](const char* key) {
      return o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
    };
    if (!str("error").empty() || o.value("baseline_only", false)) continue;  // nothing measured
    RecordedRow row;
    row.variant = str("variant");
    row.stage = str("stage");
    row.block = static_cast<int>(num("block"));
    row.ms_per_step = num("ms_per_step_median");
    if (!std::isfinite(row.ms_per_step) || row.ms_per_step <= 0) {
      *error = "results file " + name + ": row " + std::to_string(k) + " (" + text::quote(row.variant) +
               ") has no time a step (ms_per_step_median)";
      return std::nullopt;
    }
    row.items_per_step = num("items_per_s") * row.ms_per_step * 1e-3;
    row.item_unit = str("item_unit");
    row.size = str("size");
    if (!baseline.empty()) {
      const double x = num(("speedup_vs_" + baseline).c_str());
      if (x > 0 && std::isfinite(x)) {
        row.speedup = x;
        row.speedup_baseline = baseline;
      }
    }
    r.rows.push_back(std::move(row));
  }
  if (r.rows.empty()) {
    *error = "results file " + name + " has no measured row";
    return std::nullopt;
  }
  // "vs baseline" says little: a speed-up is over the baseline variant measured in the same case.
  for (RecordedRow& row : r.rows) {
    if (!row.speedup) continue;
    for (const std::string& v : baseline_variants) {
      const bool there = std::any_of(r.rows.begin(), r.rows.end(), [&](const RecordedRow& b) {
        return b.variant == v && b.stage == row.stage && b.size == row.size;
      });
      if (there) {
        row.speedup_baseline = v;
        break;
      }
    }
  }
  return r;
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

#pragma once
// Recorded results: a bench's or a speed-up ladder's JSON (gpulab bench --json, gpulab ladder --json)
// from a machine with the GPU, shown where a variant cannot run here (a laptop without an NVIDIA GPU)
// instead of nothing, and always labelled with the device and the date they were recorded on, so
// that they are never taken for live figures.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab {

struct RecordedRow {
  std::string stage, variant;
  int block = 0;
  double ms_per_step = 0;  // the median
  double items_per_step = 0;
  std::string item_unit;
  std::string size;               // as the bench wrote it ("4096x4096", "65536 bodies")
  std::optional<double> speedup;  // over the CPU baseline of the file (its first baseline)
  std::string speedup_baseline;   // that baseline's variant (a ladder's: the stage's) or label
};

struct RecordedResults {
  std::string path;    // where it was read from (for messages)
  std::string demo;    // "life"
  std::string device;  // "NVIDIA H100 80GB HBM3"
  std::string date;    // "2026-11-27" ("" for files written before the bench recorded dates)
  std::vector<RecordedRow> rows;

  // "recorded on NVIDIA H100 80GB HBM3, 2026-11-27": the label every recorded figure carries.
  std::string label() const;
  // The row of `variant` (of `stage` when given) for the case of `items_per_step` items a step (the
  // same size: within 0.1%; the fastest where the file has several, as of blocks); else that
  // variant's largest case, with *other_size set.
  const RecordedRow* find(const std::string& stage, const std::string& variant, double items_per_step,
                          bool* other_size = nullptr) const;
};

// Reads a bench or ladder JSON file: nullopt with *error naming the file (control bytes escaped) and
// what is wrong (not a regular file, not JSON, no rows, a row without its median).
std::optional<RecordedResults> load_recorded_results(const std::filesystem::path& path, std::string* error);
// The same from the file's bytes (`path` names it in messages). Every key is read with its type
// checked: a value of another type ("baseline_only": "yes"), a figure that is negative, not finite or
// absurd (over 1e18), refuses the file with the row and the key named. Linear in the rows.
std::optional<RecordedResults> parse_recorded_results(std::string_view bytes, const std::string& path,
                                                      std::string* error);

// Today's date (UTC) as the bench writes it: "2026-11-27".
std::string today_utc();

}  // namespace gpulab

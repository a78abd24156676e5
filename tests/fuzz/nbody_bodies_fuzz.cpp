// Fuzz target: the N-body body-file readers (kernels/nbody/nbody.h), both on every input: the text
// as CSV (parse_csv) and the bytes as a tipsy file (parse_tipsy).
// Oracles: error messages hold no raw control byte; bodies read are consistent (all arrays of one
// length, finite values, masses >= 0 and at least one > 0); whatever either reader accepts is
// written back with write_csv and with write_tipsy, and each reads back to the same bodies (and
// the CSV to the same parameters and step): what --load-bodies reads, --save-bodies can write and
// read again.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "nbody/nbody.h"

using namespace gpulab;

namespace {

void check_bodies(const nbody::BodyFile& f) {
  const nbody::System& s = f.system;
  const size_t n = s.size();
  fuzz::require(n >= 1 && n <= size_t(nbody::kMaxBodies), "nbody: body count out of range");
  for (const auto* v : {&s.y, &s.z, &s.vx, &s.vy, &s.vz, &s.m})
    fuzz::require(v->size() == n, "nbody: arrays of different lengths");
  bool any_mass = false;
  for (size_t i = 0; i < n; ++i) {
    for (float v : {s.x[i], s.y[i], s.z[i], s.vx[i], s.vy[i], s.vz[i], s.m[i]})
      fuzz::require(std::isfinite(v), "nbody: a value that is not finite");
    fuzz::require(s.m[i] >= 0, "nbody: a negative mass");
    any_mass = any_mass || s.m[i] > 0;
  }
  fuzz::require(any_mass, "nbody: all masses are 0");
  if (f.params)
    fuzz::require(nbody::check_params(*f.params).empty(), "nbody: parameters that check_params refuses");
}

void check_round_trips(const nbody::BodyFile& f) {
  if (f.system.size() > 4096) return;  // a few KiB of input cannot hold more; keep each run fast
  const nbody::Params params = f.params.value_or(nbody::Params{});
  const std::string csv = nbody::write_csv(f.system, params, f.step);
  const nbody::LoadResult from_csv = nbody::parse_csv(csv, "round-trip.csv");
  if (!from_csv.file) fuzz::fail("nbody: parse_csv refused what write_csv wrote: " + from_csv.error);
  fuzz::require(from_csv.file->system == f.system,
                "nbody: the bodies did not survive write_csv and parse_csv");
  fuzz::require(from_csv.file->params && *from_csv.file->params == params,
                "nbody: the parameters did not survive write_csv and parse_csv");
  fuzz::require(from_csv.file->step == f.step, "nbody: the step did not survive write_csv and parse_csv");

  const std::vector<uint8_t> tipsy = nbody::write_tipsy(f.system, 0.0);
  const nbody::LoadResult from_tipsy = nbody::parse_tipsy(tipsy, "round-trip.tipsy");
  if (!from_tipsy.file) fuzz::fail("nbody: parse_tipsy refused what write_tipsy wrote: " + from_tipsy.error);
  fuzz::require(from_tipsy.file->system == f.system,
                "nbody: the bodies did not survive write_tipsy and parse_tipsy");
}

void check(const nbody::LoadResult& r, std::string_view reader) {
  if (!r.file) {
    fuzz::require(!r.error.empty(), "nbody: no bodies and no error");
    fuzz::check_message(reader, r.error);
    return;
  }
  check_bodies(*r.file);
  check_round_trips(*r.file);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check(nbody::parse_csv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv"),
        "nbody csv");
  check(nbody::parse_tipsy(std::span(data, size), "fuzz.tipsy"), "nbody tipsy");
  return 0;
}

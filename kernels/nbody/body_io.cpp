// Body files of the N-body demo. Both readers report the first problem, naming the file and the
// 1-based line (CSV) or the byte offset (tipsy), and never throw on bad input.
//
// CSV: `# gpulab nbody G=<g> softening=<eps> dt=<dt> step=<k>` (optional), `x,y,z,vx,vy,vz,m`, then
// one body a line, written with %.9g so that every float reads back exactly.
//
// Tipsy: the layout NVIDIA's cuda-samples nbody reads (5_Domain_Specific/nbody/tipsy.h): the header
// struct {double time; int nbodies, ndim, nsph, ndark, nstar;} (28 bytes, padded to 32 by the
// double's alignment), then nsph gas, ndark dark and nstar star particles, in native byte order.
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "common/text.h"
#include "nbody/nbody.h"

namespace gpulab::nbody {
namespace {

using text::split_lines;
using text::trim;

static_assert(
    std::endian::native == std::endian::little,
    "tipsy files are read and written in native order, which the format's users take as little-endian");

constexpr std::string_view kColumns = "x,y,z,vx,vy,vz,m";
constexpr std::string_view kHeaderTag = "gpulab nbody";

// Tipsy record sizes: the header padded to 8 bytes; gas = 12 floats; dark = 8 floats + int phi;
// star = 10 floats + int phi.
constexpr uint64_t kTipsyHeaderBytes = 32, kGasBytes = 48, kDarkBytes = 36, kStarBytes = 44;

// No body file of at most kMaxBodies bodies comes near this; refuse before reading gigabytes.
constexpr uint64_t kMaxFileBytes = 4ull << 30;

LoadResult fail(const std::string& name, const std::string& message) {
  LoadResult r;
  r.error = text::escape(name) + ": " + message;
  return r;
}
LoadResult fail_line(const std::string& name, size_t line, const std::string& message) {
  return fail(name, "line " + std::to_string(line) + ": " + message);
}
LoadResult fail_offset(const std::string& name, uint64_t offset, const std::string& message) {
  return fail(name, "offset " + std::to_string(offset) + ": " + message);
}

// Input quoted in a message, control bytes escaped.
std::string quoted(std::string_view s) { return text::quote(s, 80); }

// A finite float, correctly rounded. Empty on success, else why not.
std::string parse_float(std::string_view field, float& out) {
  field = trim(field);
  if (field.empty()) return "a number is missing (empty field)";
  // from_chars takes no leading '+', which other writers may produce.
  std::string_view digits = field.front() == '+' ? field.substr(1) : field;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  if (ec == std::errc::result_out_of_range) return quoted(field) + " is out of the range of a float";
  if (ec != std::errc() || end != digits.data() + digits.size()) return quoted(field) + " is not a number";
  if (!std::isfinite(out)) return quoted(field) + " is not a finite number";
  return {};
}

// `# gpulab nbody G=<g> softening=<eps> dt=<dt> step=<k>`, the keys in any order, each once.
std::string parse_header(std::string_view line, Params& params, uint64_t& step) {
  const std::string expected = "expected '# gpulab nbody G=<g> softening=<eps> dt=<dt> step=<k>'";
  std::string_view rest = trim(line.substr(1));
  if (rest.substr(0, kHeaderTag.size()) != kHeaderTag) return expected + ", found " + quoted(line);
  rest = trim(rest.substr(kHeaderTag.size()));

  bool seen_G = false, seen_softening = false, seen_dt = false, seen_step = false;
  while (!rest.empty()) {
    const size_t space = rest.find_first_of(" \t");
    const std::string_view token = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view{} : trim(rest.substr(space));
    const size_t eq = token.find('=');
    if (eq == std::string_view::npos) return quoted(token) + " is not key=value; " + expected;
    const std::string_view key = token.substr(0, eq), value = token.substr(eq + 1);
    bool* seen = key == "G"           ? &seen_G
                 : key == "softening" ? &seen_softening
                 : key == "dt"        ? &seen_dt
                 : key == "step"      ? &seen_step
                                      : nullptr;
    if (seen == nullptr) return "unknown key " + quoted(key) + "; " + expected;
    if (*seen) return quoted(key) + " is given twice";
    *seen = true;
    if (key == "step") {
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), step);
      if (ec != std::errc() || end != value.data() + value.size())
        return "step=" + text::escape(value, 80) + " is not a whole number of steps";
      continue;
    }
    float& target = key == "G" ? params.G : key == "softening" ? params.softening : params.dt;
    if (std::string why = parse_float(value, target); !why.empty()) return std::string(key) + ": " + why;
  }
  if (!(seen_G && seen_softening && seen_dt && seen_step)) return expected + ", found " + quoted(line);
  return check_params(params);
}

bool is_blank(std::string_view line) { return trim(line).empty(); }

// Bytes that no text file has: NUL and control characters other than tab, CR, LF.
bool looks_like_text(std::span<const uint8_t> bytes) {
  return std::none_of(bytes.begin(), bytes.end(), [](uint8_t c) {
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F;
  });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

template <class T>
T load(std::span<const uint8_t> bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

}  // namespace

LoadResult parse_csv(std::string_view text, const std::string& name) {
  std::vector<std::string_view> lines = split_lines(text);
  // Trailing blank lines, as editors leave them, are not bodies.
  while (!lines.empty() && is_blank(lines.back())) lines.pop_back();
  if (lines.empty()) return fail(name, "empty file");

  BodyFile file;
  size_t index = 0;  // 0-based; messages give index + 1
  if (trim(lines[0]).substr(0, 1) == "#") {
    Params params;
    if (std::string why = parse_header(trim(lines[0]), params, file.step); !why.empty())
      return fail_line(name, 1, why);
    file.params = params;
    ++index;
  }
  if (index == lines.size() || trim(lines[index]) != kColumns)
    return fail_line(name, index + 1,
                     "expected the column line '" + std::string(kColumns) + "'" +
                         (index < lines.size() ? ", found " + quoted(lines[index]) : std::string()));
  ++index;

  System& s = file.system;
  s.x.reserve(lines.size() - index);  // the others grow alike; one reserve shows the intent
  bool any_mass = false;
  for (; index < lines.size(); ++index) {
    const size_t line = index + 1;
    if (is_blank(lines[index])) return fail_line(name, line, "empty line");
    if (s.size() == static_cast<size_t>(kMaxBodies))
      return fail_line(name, line, "more than " + std::to_string(kMaxBodies) + " bodies");

    const std::string_view text_line = lines[index];
    const size_t fields = static_cast<size_t>(std::count(text_line.begin(), text_line.end(), ',')) + 1;
    if (fields != 7) return fail_line(name, line, "expected 7 numbers, found " + std::to_string(fields));
    float values[7];
    std::string_view rest = text_line;
    for (float& value : values) {
      const size_t comma = rest.find(',');
      if (std::string why = parse_float(rest.substr(0, comma), value); !why.empty())
        return fail_line(name, line, why);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    if (values[6] < 0) {
      const std::string_view mass = trim(text_line.substr(text_line.rfind(',') + 1));
      return fail_line(name, line, "mass " + std::string(mass) + " is negative");
    }
    any_mass = any_mass || values[6] > 0;

    s.x.push_back(values[0]);
    s.y.push_back(values[1]);
    s.z.push_back(values[2]);
    s.vx.push_back(values[3]);
    s.vy.push_back(values[4]);
    s.vz.push_back(values[5]);
    s.m.push_back(values[6]);
  }
  if (s.size() == 0) return fail(name, "no bodies");
  if (!any_mass) return fail(name, "all masses are 0 (at least one must be positive)");

  LoadResult r;
  r.file = std::move(file);
  return r;
}

std::string write_csv(const System& s, const Params& p, uint64_t step) {
  std::string out;
  out.reserve(128 + s.size() * 7 * 16);
  char line[256];
  // The parameters in their shortest form that reads back as the same float ("0.05", not
  // "0.0500000007"): people read this line.
  auto shortest = [](float v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
  };
  out += "# gpulab nbody G=" + shortest(p.G) + " softening=" + shortest(p.softening) +
         " dt=" + shortest(p.dt) + " step=" + std::to_string(step) + "\n";
  out += kColumns;
  out += '\n';
  for (size_t i = 0; i < s.size(); ++i) {
    std::snprintf(line, sizeof line, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", s.x[i], s.y[i], s.z[i], s.vx[i],
                  s.vy[i], s.vz[i], s.m[i]);
    out += line;
  }
  return out;
}

LoadResult parse_tipsy(std::span<const uint8_t> bytes, const std::string& name) {
  const uint64_t size = bytes.size();
  if (size < kTipsyHeaderBytes)
    return fail_offset(
        name, size, "the file ends inside the " + std::to_string(kTipsyHeaderBytes) + "-byte tipsy header");

  struct Count {
    const char* name;
    uint64_t offset;
    int32_t value;
  };
  const Count nbodies{"nbodies", 8, load<int32_t>(bytes, 8)}, ndim{"ndim", 12, load<int32_t>(bytes, 12)},
      nsph{"nsph", 16, load<int32_t>(bytes, 16)}, ndark{"ndark", 20, load<int32_t>(bytes, 20)},
      nstar{"nstar", 24, load<int32_t>(bytes, 24)};
  if (ndim.value != 3) {
    // A big-endian file (as some codes write tipsy) reads ndim as 3 with its bytes swapped.
    const std::string hint = uint32_t(ndim.value) == 0x03000000u
                                 ? " (the file looks big-endian: its ndim reads 3 byte-swapped; gpulab reads "
                                   "little-endian tipsy: swap its bytes first, e.g. numpy's byteswap)"
                                 : "";
    return fail_offset(name, ndim.offset, "ndim = " + std::to_string(ndim.value) + ", expected 3" + hint);
  }
  for (const Count& c : {nbodies, nsph, ndark, nstar})
    if (c.value < 0)
      return fail_offset(name, c.offset,
                         std::string(c.name) + " = " + std::to_string(c.value) + " is negative");
  const int64_t sum = int64_t{nsph.value} + ndark.value + nstar.value;
  if (nbodies.value != sum)
    return fail_offset(
        name, nbodies.offset,
        "nbodies = " + std::to_string(nbodies.value) + ", but nsph + ndark + nstar = " + std::to_string(sum));
  const uint64_t n = uint64_t(ndark.value) + uint64_t(nstar.value);
  if (n == 0)
    return fail(name,
                "no bodies (only " + std::to_string(nsph.value) + " gas particles, which are not read)");
  if (n > static_cast<uint64_t>(kMaxBodies))
    return fail_offset(
        name, ndark.offset,
        "ndark + nstar = " + std::to_string(n) + ", more than " + std::to_string(kMaxBodies) + " bodies");

  const uint64_t dark_start = kTipsyHeaderBytes + uint64_t(nsph.value) * kGasBytes;
  const uint64_t star_start = dark_start + uint64_t(ndark.value) * kDarkBytes;
  const uint64_t end = star_start + uint64_t(nstar.value) * kStarBytes;
  if (size < end)
    return fail_offset(name, size,
                       "the file ends early: its counts need " + std::to_string(end) + " bytes, it has " +
                           std::to_string(size));
  if (size > end)
    return fail_offset(name, end, std::to_string(size - end) + " bytes after the last particle");

  BodyFile file;
  System& s = file.system;
  s.resize(n);
  bool any_mass = false;
  // Dark and star particles both begin with mass, pos[3], vel[3].
  auto read = [&](size_t i, uint64_t offset, const char* kind, size_t index) -> std::string {
    static constexpr const char* kFields[7] = {"mass",   "pos[0]", "pos[1]", "pos[2]",
                                               "vel[0]", "vel[1]", "vel[2]"};
    float v[7];
    for (int k = 0; k < 7; ++k) {
      v[k] = load<float>(bytes, offset + 4 * k);
      if (!std::isfinite(v[k]))
        return "offset " + std::to_string(offset + 4 * k) + ": " + kind + " particle " +
               std::to_string(index) + ": " + kFields[k] + " is not finite";
    }
    if (v[0] < 0)
      return "offset " + std::to_string(offset) + ": " + kind + " particle " + std::to_string(index) +
             ": negative mass";
    any_mass = any_mass || v[0] > 0;
    s.m[i] = v[0];
    s.x[i] = v[1];
    s.y[i] = v[2];
    s.z[i] = v[3];
    s.vx[i] = v[4];
    s.vy[i] = v[5];
    s.vz[i] = v[6];
    return {};
  };
  const size_t dark = static_cast<size_t>(ndark.value);
  for (size_t i = 0; i < dark; ++i)
    if (std::string why = read(i, dark_start + i * kDarkBytes, "dark", i); !why.empty())
      return fail(name, why);
  for (size_t i = dark; i < n; ++i)
    if (std::string why = read(i, star_start + (i - dark) * kStarBytes, "star", i - dark); !why.empty())
      return fail(name, why);
  if (!any_mass) return fail(name, "all masses are 0 (at least one must be positive)");

  LoadResult r;
  r.file = std::move(file);
  return r;
}

std::vector<uint8_t> write_tipsy(const System& s, double time) {
  if (s.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::invalid_argument("nbody: too many bodies for a tipsy file");
  const auto n = static_cast<int32_t>(s.size());
  std::vector<uint8_t> out(kTipsyHeaderBytes + s.size() * kDarkBytes);
  uint8_t* p = out.data();
  auto put = [&p](auto value) {
    std::memcpy(p, &value, sizeof value);
    p += sizeof value;
  };
  put(time);
  for (int32_t count : {n, 3, 0, n, 0}) put(count);  // nbodies, ndim, nsph, ndark, nstar
  put(int32_t{0});                                   // the padding to 32 bytes
  for (int32_t i = 0; i < n; ++i) {
    for (float v : {s.m[i], s.x[i], s.y[i], s.z[i], s.vx[i], s.vy[i], s.vz[i], 0.0f /* eps */}) put(v);
    put(i);  // phi: the sample keeps the particle's id there
  }
  return out;
}

LoadResult load_bodies(const std::string& path) {
  files::ReadResult file = files::read_regular_file(path, kMaxFileBytes);
  if (!file.error.empty()) return fail(path, file.error);
  const std::vector<uint8_t>& bytes = file.bytes;

  const size_t dot = path.find_last_of("./");
  const std::string extension = dot != std::string::npos && path[dot] == '.' ? lower(path.substr(dot)) : "";
  const bool csv =
      extension == ".csv" || (extension != ".tipsy" && extension != ".bin" && extension != ".dat" &&
                              looks_like_text(std::span(bytes).first(std::min<size_t>(bytes.size(), 512))));
  if (csv)
    return parse_csv(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
  return parse_tipsy(bytes, path);
}

}  // namespace gpulab::nbody

// NumPy's .npy format (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// "\x93NUMPY", a major and minor version byte, the header's length (2 bytes little-endian in 1.0,
// 4 bytes in 2.0 and 3.0), then the header, a Python dict literal with 'descr', 'fortran_order' and
// 'shape', padded with spaces to a multiple of 64 bytes and ended by '\n', then the data. Only what
// students write with np.save(f, a.astype(np.float32)) is read: little-endian float32, C order,
// 1-D or 2-D; anything else is refused with the reason.
#include <cstring>
#include <map>

#include "common/file_io.h"
#include "common/text.h"
#include "matrix/matrix.h"

namespace gpulab::matrix {
namespace {

struct Value {
  enum class Type { String, Bool, Tuple } type = Type::String;
  std::string s;
  bool b = false;
  std::vector<long long> tuple;
};

// A tiny reader of the dict literal NumPy writes: {'key': value, ...} with string, True/False and
// tuple-of-integers values. Returns "" or what is wrong.
class DictParser {
 public:
  explicit DictParser(std::string_view s) : s_(s) {}
  std::string parse(std::map<std::string, Value>* out) {
    skip();
    if (!eat('{')) return "the header is not a Python dict (no '{')";
    skip();
    while (!eat('}')) {
      std::string key;
      if (!string(&key)) return "a key of the header dict is not a quoted string";
      skip();
      if (!eat(':')) return "no ':' after the key " + text::quote(key);
      skip();
      Value v;
      if (std::string bad = value(&v); !bad.empty()) return "the value of " + text::quote(key) + ": " + bad;
      if (out->count(key)) return "the key " + text::quote(key) + " appears twice";
      (*out)[key] = std::move(v);
      skip();
      if (eat(',')) {
        skip();
        continue;
      }
      skip();
      if (!eat('}')) return "the header dict is not closed with '}'";
      break;
    }
    skip();
    if (i_ != s_.size()) return "text after the header dict";
    return {};
  }

 private:
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool string(std::string* out) {
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return false;
    const char q = s_[i_++];
    const size_t end = s_.find(q, i_);
    if (end == std::string_view::npos) return false;
    *out = std::string(s_.substr(i_, end - i_));
    i_ = end + 1;
    return true;
  }
  std::string value(Value* v) {
    if (string(&v->s)) {
      v->type = Value::Type::String;
      return {};
    }
    if (s_.substr(i_, 4) == "True" || s_.substr(i_, 5) == "False") {
      v->type = Value::Type::Bool;
      v->b = s_[i_] == 'T';
      i_ += v->b ? 4 : 5;
      return {};
    }
    if (!eat('(')) return "not a string, True/False or a tuple";
    v->type = Value::Type::Tuple;
    skip();
    while (!eat(')')) {
      const size_t start = i_;
      bool neg = eat('-');
      if (i_ >= s_.size() || s_[i_] < '0' || s_[i_] > '9') return "a dimension that is not an integer";
      long long n = 0;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') {
        n = n * 10 + (s_[i_++] - '0');
        if (n > (1LL << 40)) return "a dimension far too large";
      }
      // 2.0 or 2e3: a number, but no dimension (it was "the tuple is not closed").
      if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E')) {
        size_t end = i_;
        while (end < s_.size() && s_[end] != ',' && s_[end] != ')' && s_[end] != ' ') ++end;
        return "a dimension must be a whole number, got " + text::quote(s_.substr(start, end - start), 40);
      }
      v->tuple.push_back(neg ? -n : n);
      skip();
      if (eat(',')) {
        skip();
        continue;
      }
      if (!eat(')')) return "the tuple is not closed with ')'";
      break;
    }
    return {};
  }

  std::string_view s_;
  size_t i_ = 0;
};

uint32_t le(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

NpyResult parse_npy(std::span<const uint8_t> bytes) {
  NpyResult r;
  auto fail = [&](std::string why) {
    r.error = std::move(why);
    return std::move(r);
  };
  static const uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
    return fail("not a NumPy .npy file (it does not start with \\x93NUMPY)");
  const int major = bytes[6];
  if (major < 1 || major > 3)
    return fail("unsupported .npy version " + std::to_string(major) + "." + std::to_string(bytes[7]) +
                " (1.0, 2.0 and 3.0 are read)");
  const int len_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < size_t(8 + len_bytes)) return fail("the file ends inside the header length");
  const uint64_t header_len = le(bytes.data() + 8, len_bytes);
  const uint64_t data_start = 8 + len_bytes + header_len;
  if (data_start > bytes.size())
    return fail("the header claims " + std::to_string(header_len) + " bytes but the file holds only " +
                std::to_string(bytes.size() - 8 - len_bytes) + " after the length");
  const std::string_view header(reinterpret_cast<const char*>(bytes.data()) + 8 + len_bytes, header_len);
  for (char ch : header)
    if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t')
      return fail("the header holds the control " + text::show_char(ch));  // "...control byte 0x01"
  std::map<std::string, Value> dict;
  if (std::string bad = DictParser(header).parse(&dict); !bad.empty()) return fail(bad);
  for (const auto& [key, v] : dict)
    if (key != "descr" && key != "fortran_order" && key != "shape")
      return fail("unknown key " + text::quote(key) + " in the header");
  for (const char* key : {"descr", "fortran_order", "shape"})
    if (!dict.count(key)) return fail(std::string("the header has no '") + key + "'");
  const Value& descr = dict["descr"];
  if (descr.type != Value::Type::String) return fail("'descr' is not a string");
  if (descr.s != "<f4") {
    std::string why = "dtype " + text::quote(descr.s) + " is not float32 ('<f4')";
    if (descr.s == ">f4")
      why += ": big-endian float32 is not read; save with a.astype('<f4')";
    else
      why += ": save with a.astype(np.float32)";
    return fail(why);
  }
  const Value& fortran = dict["fortran_order"];
  if (fortran.type != Value::Type::Bool) return fail("'fortran_order' is not True or False");
  if (fortran.b) return fail("Fortran (column-major) order is not read: save np.ascontiguousarray(a)");
  const Value& shape = dict["shape"];
  if (shape.type != Value::Type::Tuple) return fail("'shape' is not a tuple");
  if (shape.tuple.empty() || shape.tuple.size() > 2)
    return fail("the array has " + std::to_string(shape.tuple.size()) + " dimensions: a matrix has 1 or 2");
  const long long rows = shape.tuple.size() == 2 ? shape.tuple[0] : 1;
  const long long cols = shape.tuple.back();
  for (long long d : shape.tuple)
    if (d < 0) return fail("a negative dimension " + std::to_string(d) + " in 'shape'");
  if (std::string bad = check_shape("the array", rows, cols); !bad.empty()) return fail(bad);
  const uint64_t want = uint64_t(rows) * uint64_t(cols) * 4;
  const uint64_t have = bytes.size() - data_start;
  if (have < want)
    return fail("truncated: the shape needs " + std::to_string(want) + " bytes of data, the file holds " +
                std::to_string(have));
  if (have > want)
    return fail(std::to_string(have - want) + " bytes after the data the shape describes (" +
                std::to_string(want) + " bytes)");
  r.m = Matrix(int(rows), int(cols));
  std::memcpy(r.m.data.data(), bytes.data() + data_start, want);  // little-endian hosts only (x86-64, arm64)
  return r;
}

std::vector<uint8_t> encode_npy(const Matrix& m) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(m.rows) + ", " +
                       std::to_string(m.cols) + "), }";
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> out = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, uint8_t(header.size() & 0xFF), uint8_t(header.size() >> 8)};
  out.insert(out.end(), header.begin(), header.end());
  const auto* p = reinterpret_cast<const uint8_t*>(m.data.data());
  out.insert(out.end(), p, p + m.size() * 4);
  return out;
}

NpyResult read_npy(const std::filesystem::path& path) {
  files::ReadResult f = files::read_regular_file(path, kMaxElements * 4 + (1u << 20));
  NpyResult r;
  if (!f.error.empty()) {
    r.error = text::quote(path.string()) + ": " + f.error;
    return r;
  }
  r = parse_npy(f.bytes);
  if (!r.error.empty()) r.error = text::quote(path.string()) + ": " + r.error;
  return r;
}

std::string write_npy(const std::filesystem::path& path, const Matrix& m) {
  return files::write_regular_file(path, encode_npy(m));
}

}  // namespace gpulab::matrix

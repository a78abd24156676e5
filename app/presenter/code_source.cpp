// The code panel's source text (code_source.h): finding snippets, the line diff, the highlighting.
#include "presenter/code_source.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/text.h"

namespace gpulab::presenter {
namespace {

constexpr std::array<std::string_view, 48> kKeywords = {
    "auto",      "bool",      "break",       "case",     "char",
    "const",     "constexpr", "continue",    "default",  "do",
    "double",    "else",      "enum",        "false",    "float",
    "for",       "if",        "inline",      "int",      "long",
    "namespace", "nullptr",   "return",      "short",    "signed",
    "sizeof",    "static",    "static_cast", "struct",   "switch",
    "template",  "true",      "typename",    "unsigned", "using",
    "void",      "volatile",  "while",       "size_t",   "uint8_t",
    "uint32_t",  "uint64_t",  "int64_t",     "class",    "reinterpret_cast",
    "throw",     "noexcept",  "operator"};
constexpr std::array<std::string_view, 22> kCuda = {
    "__global__",       "__device__",      "__shared__", "__constant__",
    "__restrict__",     "__syncthreads",   "__syncwarp", "__launch_bounds__",
    "__forceinline__",  "threadIdx",       "blockIdx",   "blockDim",
    "gridDim",          "atomicAdd",       "atomicMin",  "atomicMax",
    "__shfl_down_sync", "__shfl_xor_sync", "__ldg",      "tex2D",
    "warpSize",         "__popc"};

}  // namespace

std::vector<const SourceRegion*> find_snippet(std::string_view name) {
  std::vector<const SourceRegion*> out;
  if (name.empty()) return out;
  for (const SourceRegion& r : source_regions())
    if (r.name && name == r.name) out.push_back(&r);
  return out;
}

std::string snippet_text(std::string_view name) {
  std::string out;
  for (const SourceRegion* r : find_snippet(name)) {
    if (!out.empty()) out += "\n";
    out += "// " + std::string(r->file) + ":" + std::to_string(r->line) + "\n" + r->text;
  }
  return out;
}

std::vector<bool> changed_lines(const std::vector<std::string>& before,
                                const std::vector<std::string>& after) {
  const size_t n = before.size(), m = after.size();
  // LCS table from the ends; kernels are a few hundred lines at most.
  std::vector<std::vector<unsigned>> lcs(n + 1, std::vector<unsigned>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = text::trim(before[i]) == text::trim(after[j]) ? lcs[i + 1][j + 1] + 1
                                                                : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<bool> changed(m, true);
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    if (text::trim(before[i]) == text::trim(after[j])) {
      changed[j] = false;
      ++i, ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return changed;
}

std::vector<TokenSpan> highlight(std::string_view line, bool* in_comment) {
  std::vector<TokenSpan> out;
  size_t i = 0;
  auto push = [&](size_t b, size_t e, Token k) {
    if (e > b) out.push_back({b, e, k});
  };
  if (!*in_comment) {
    const std::string_view t = text::trim(line);
    if (!t.empty() && t.front() == '#') {
      push(0, line.size(), Token::Preprocessor);
      return out;
    }
  }
  while (i < line.size()) {
    if (*in_comment) {
      const size_t end = line.find("*/", i);
      const size_t e = end == std::string_view::npos ? line.size() : end + 2;
      push(i, e, Token::Comment);
      if (end != std::string_view::npos) *in_comment = false;
      i = e;
      continue;
    }
    const char c = line[i];
    if (line.compare(i, 2, "//") == 0) {
      push(i, line.size(), Token::Comment);
      break;
    }
    if (line.compare(i, 2, "/*") == 0) {
      *in_comment = true;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t e = i + 1;
      while (e < line.size() && line[e] != c) e += line[e] == '\\' ? 2 : 1;
      e = std::min(e + 1, line.size());
      push(i, e, Token::String);
      i = e;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t e = i;
      while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '.')) ++e;
      push(i, e, Token::Number);
      i = e;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t e = i;
      while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
      const std::string_view word = line.substr(i, e - i);
      const bool cuda = std::find(kCuda.begin(), kCuda.end(), word) != kCuda.end();
      const bool kw = std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
      push(i, e, cuda ? Token::Cuda : kw ? Token::Keyword : Token::Text);
      i = e;
      continue;
    }
    size_t e = i + 1;
    while (e < line.size() && !std::isalnum(static_cast<unsigned char>(line[e])) && line[e] != '_' &&
           line[e] != '"' && line[e] != '\'' && line[e] != '/')
      ++e;
    push(i, e, Token::Text);
    i = e;
  }
  return out;
}

}  // namespace gpulab::presenter

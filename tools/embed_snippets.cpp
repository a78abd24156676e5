// embed_snippets: writes the C++ source that holds the code panel's kernel sources, taken at build
// time from the marked regions of the real files (app/CMakeLists.txt runs it), so the panel can never
// drift from what runs. The marker scheme, for any file under kernels/ (a new demo needs no edit here):
//
//   // snippet NAME          NAME = a variant's VariantRecord::snippet
//   ...the kernel, or the CPU routine...
//   // end snippet
//
// Several regions of one NAME (a kernel and the __device__ helper it calls, in one file or several)
// are joined in the order found (files sorted by path). A region may belong to several snippets:
// `// snippet NAME1 NAME2` (a kernel two variants launch, each with its own helper elsewhere). Markers are
// whole lines (leading spaces allowed); an unterminated or nested region fails the build naming the file and
// line.
//
// With --cuobjdump PATH --lib LIB (cuobjdump -sass and -res-usage are run on the kernels' library),
// each region also gets the SASS and resource usage (registers, shared, local and
// stack bytes) of the __global__ kernels it defines, matched by name in the mangled symbol. Without
// them, --no-sass REASON is what the panel says instead.
//
//   embed_snippets OUT.cpp SOURCE_ROOT [--cuobjdump PATH --lib LIB | --no-sass REASON] FILE...
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/text.h"

namespace {

struct Region {
  std::string name, file;
  int line = 0;  // first line of the region's text (1-based)
  std::string text;
};

struct Kernel {
  std::string symbol;  // mangled
  int instances = 0;   // template instantiations / architectures found (the first is kept)
  int regs = -1, shared = -1, local = -1, stack = -1;
  std::string sass;
};

// The standard output of `cmd`; false when it could not run or failed.
bool run(const std::string& cmd, std::string* out) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out->append(buf, n);
  return pclose(p) == 0;
}

bool read(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

using gpulab::text::split_lines;
using gpulab::text::trim;

// A C++ string literal of `s` (escaped, split every 4000 bytes so no compiler limit is met).
std::string literal(const std::string& s) {
  std::string out = "\"";
  size_t run = 0;
  for (unsigned char c : s) {
    if (run++ > 4000) {
      out += "\"\n    \"";
      run = 0;
    }
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        break;
      case '?':
        out += "\\?";
        break;  // no trigraphs
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// The __global__ functions a region defines: the identifier before the parameter list.
std::vector<std::string> global_kernels(const std::string& text) {
  std::vector<std::string> out;
  // "__global__ void name(" or "__global__ void __launch_bounds__(...) name(".
  static const std::regex decl(
      R"(__global__\s+void\s+(?:__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\()");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), decl); it != std::sregex_iterator(); ++it)
    if (std::find(out.begin(), out.end(), (*it)[1].str()) == out.end()) out.push_back((*it)[1].str());
  return out;
}

// The symbol names a kernel: one of the <length><name> components of its mangled (nested) name equals
// `name`. Components are read by their lengths, so a kernel in an anonymous namespace, which nvcc names
// "_GLOBAL__N__<hash>_<file>_<hash>", and a name that is the tail of a longer one never confuse it.
bool symbol_names(const std::string& symbol, const std::string& name) {
  if (symbol.rfind("_Z", 0) != 0) return false;
  size_t i = 2;
  if (i < symbol.size() && symbol[i] == 'L') ++i;  // internal linkage
  const bool nested = i < symbol.size() && symbol[i] == 'N';
  if (nested) ++i;
  while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i]))) {
    size_t len = 0;
    while (i < symbol.size() && std::isdigit(static_cast<unsigned char>(symbol[i])))
      len = len * 10 + size_t(symbol[i++] - '0');
    if (len == 0 || i + len > symbol.size()) return false;
    if (len == name.size() && symbol.compare(i, len, name) == 0) return true;
    i += len;
    if (!nested) break;
  }
  return false;
}

// cuobjdump -sass: "Function : SYMBOL" then the listing up to the next function or arch header.
std::vector<std::pair<std::string, std::string>> sass_functions(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string_view lv : split_lines(text)) {
    const std::string l(lv), t(trim(lv));
    if (t.rfind("Function : ", 0) == 0) {
      out.push_back({t.substr(11), {}});
      continue;
    }
    if (out.empty() || t.empty() || t.rfind("....", 0) == 0) continue;
    if (t.rfind("Fatbin", 0) == 0 || t.rfind("code for sm_", 0) == 0 || t.rfind("member ", 0) == 0) continue;
    // Drop the trailing /* 0x... */ encodings: the instructions are what a student reads.
    std::string line = l;
    const size_t enc = line.find("/* 0x");
    const size_t first = line.find("/*");
    if (enc != std::string::npos && first != enc)
      line = line.substr(0, enc);
    else if (enc != std::string::npos)
      continue;  // a line holding only an encoding
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    out.back().second += line + "\n";
  }
  return out;
}

// cuobjdump -res-usage: "Function SYMBOL:" then "REG:n STACK:n SHARED:n LOCAL:n ...".
void res_usage(const std::string& text, std::map<std::string, Kernel>& by_symbol) {
  std::string current;
  static const std::regex field(R"((REG|STACK|SHARED|LOCAL):(\d+))");
  for (std::string_view l : split_lines(text)) {
    const std::string t(trim(l));
    if (t.rfind("Function ", 0) == 0 && t.back() == ':') {
      current = t.substr(9, t.size() - 10);
      continue;
    }
    if (current.empty() || t.find("REG:") == std::string::npos) continue;
    Kernel& k = by_symbol[current];
    if (k.regs >= 0) continue;  // the first architecture's
    for (auto it = std::sregex_iterator(t.begin(), t.end(), field); it != std::sregex_iterator(); ++it) {
      const int v = std::stoi((*it)[2].str());
      const std::string f = (*it)[1].str();
      (f == "REG" ? k.regs : f == "STACK" ? k.stack : f == "SHARED" ? k.shared : k.local) = v;
    }
    current.clear();
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: embed_snippets OUT.cpp SOURCE_ROOT [--cuobjdump PATH --lib LIB | --no-sass REASON] "
                 "FILE...\n");
    return 2;
  }
  const std::string out_path = argv[1], root = argv[2];
  std::string cuobjdump, lib, no_sass = "no SASS: the build was not told where to find it";
  std::vector<std::string> files;
  for (int i = 3; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--cuobjdump" && i + 1 < argc)
      cuobjdump = argv[++i];
    else if (a == "--lib" && i + 1 < argc)
      lib = argv[++i];
    else if (a == "--no-sass" && i + 1 < argc)
      no_sass = argv[++i];
    else
      files.push_back(a);
  }
  std::sort(files.begin(), files.end());

  std::vector<Region> regions;
  for (const std::string& f : files) {
    std::string text;
    if (!read(f, &text)) {
      std::fprintf(stderr, "embed_snippets: cannot read %s\n", f.c_str());
      return 1;
    }
    const std::string rel =
        f.rfind(root, 0) == 0 ? f.substr(root.size() + (f.size() > root.size() && f[root.size()] == '/')) : f;
    const std::vector<std::string_view> lines = split_lines(text);
    Region* open = nullptr;  // the first of the names the open region belongs to
    size_t open_first = 0;
    int open_line = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::string t(trim(lines[i]));
      if (t.rfind("// snippet ", 0) == 0) {
        if (open) {
          std::fprintf(stderr, "%s:%zu: snippet inside snippet %s (opened at line %d)\n", f.c_str(), i + 1,
                       open->name.c_str(), open_line);
          return 1;
        }
        std::istringstream names(t.substr(11));
        std::string name;
        open_first = regions.size();
        while (names >> name) regions.push_back({name, rel, static_cast<int>(i + 2), {}});
        if (regions.size() == open_first) {
          std::fprintf(stderr, "%s:%zu: '// snippet NAME...' needs a name\n", f.c_str(), i + 1);
          return 1;
        }
        open = &regions[open_first];
        open_line = static_cast<int>(i + 1);
      } else if (t == "// end snippet") {
        if (!open) {
          std::fprintf(stderr, "%s:%zu: '// end snippet' without '// snippet NAME'\n", f.c_str(), i + 1);
          return 1;
        }
        open = nullptr;
      } else if (open) {
        for (size_t r = open_first; r < regions.size(); ++r) regions[r].text += std::string(lines[i]) + "\n";
      }
    }
    if (open) {
      std::fprintf(stderr, "%s:%d: snippet %s is not closed ('// end snippet')\n", f.c_str(), open_line,
                   open->name.c_str());
      return 1;
    }
  }

  std::map<std::string, Kernel> by_symbol;
  std::vector<std::pair<std::string, std::string>> sass;
  const bool have_sass = !cuobjdump.empty() && !lib.empty();
  if (have_sass) {
    std::string s, r;
    const std::string q = gpulab::text::shell_quote(lib), tool = gpulab::text::shell_quote(cuobjdump);
    if (!run(tool + " -sass " + q, &s) || !run(tool + " -res-usage " + q, &r)) {
      std::fprintf(stderr, "embed_snippets: %s -sass / -res-usage %s failed\n", cuobjdump.c_str(),
                   lib.c_str());
      return 1;
    }
    sass = sass_functions(s);
    res_usage(r, by_symbol);
  }

  std::ostringstream o;
  o << "// Generated at build time by tools/embed_snippets from the marked regions of the kernels'\n"
       "// sources (and cuobjdump's SASS of the kernels' library): do not edit, not committed.\n"
       "#include \"presenter/code_source.h\"\n\nnamespace gpulab::presenter {\nnamespace {\n";
  o << "const char* const kNoSass = " << literal(have_sass ? "" : no_sass) << ";\n";
  int k_index = 0;
  std::vector<std::string> region_rows;
  for (size_t r = 0; r < regions.size(); ++r) {
    const Region& g = regions[r];
    std::vector<std::string> kernel_rows;
    for (const std::string& name : global_kernels(g.text)) {
      Kernel k;
      k.symbol = {};
      for (const auto& [symbol, listing] : sass) {
        if (!symbol_names(symbol, name)) continue;
        if (++k.instances == 1) {
          k.symbol = symbol;
          k.sass = listing;
          const auto it = by_symbol.find(symbol);
          if (it != by_symbol.end()) {
            k.regs = it->second.regs;
            k.shared = it->second.shared;
            k.local = it->second.local;
            k.stack = it->second.stack;
          }
        }
      }
      kernel_rows.push_back("{" + literal(name) + ", " + literal(k.symbol) + ", " +
                            std::to_string(k.instances) + ", " + std::to_string(k.regs) + ", " +
                            std::to_string(k.shared) + ", " + std::to_string(k.local) + ", " +
                            std::to_string(k.stack) + ", " + literal(k.sass) + "}");
    }
    std::string kernels = "{}";
    if (!kernel_rows.empty()) {
      const std::string arr = "kKernels" + std::to_string(k_index++);
      o << "const KernelBuild " << arr << "[] = {\n";
      for (const std::string& row : kernel_rows) o << "    " << row << ",\n";
      o << "};\n";
      kernels = arr;
    }
    region_rows.push_back("{" + literal(g.name) + ", " + literal(g.file) + ", " + std::to_string(g.line) +
                          ", " + literal(g.text) + ", " + kernels + "}");
  }
  o << "const SourceRegion kRegions[] = {\n";
  for (const std::string& row : region_rows) o << "    " << row << ",\n";
  o << "    {}};\n}  // namespace\n\n";
  o << "std::span<const SourceRegion> source_regions() { return {kRegions, " << regions.size() << "}; }\n";
  o << "const char* sass_unavailable() { return kNoSass; }\n";
  o << "}  // namespace gpulab::presenter\n";

  // Written only when it changed, so that an unchanged build does not recompile it.
  std::string old;
  if (read(out_path, &old) && old == o.str()) return 0;
  std::ofstream out(out_path, std::ios::binary);
  out << o.str();
  if (!out) {
    std::fprintf(stderr, "embed_snippets: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::fprintf(stderr, "embed_snippets: %zu regions, %s\n", regions.size(),
               have_sass ? "with SASS" : no_sass.c_str());
  return 0;
}

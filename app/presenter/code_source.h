#pragma once
// The kernels' source for the code panel, taken at build time from the marked regions of the real
// files (tools/embed_snippets.cpp documents the markers: `// snippet NAME` ... `// end snippet`, NAME
// being a variant's VariantRecord::snippet), with what the compiler made of each __global__ kernel in
// them (cuobjdump's registers, shared / local / stack bytes and SASS) where the build had cuobjdump.
// Also the two things the panel does with them: a line diff against the previous rung, and a minimal
// C++ highlighting.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::presenter {

// One __global__ kernel defined in a region, as the build compiled it (the first instantiation and
// architecture cuobjdump listed; `instances` counts them all). -1: not known (no cuobjdump).
struct KernelBuild {
  const char* name = nullptr;    // "step_shared"
  const char* symbol = nullptr;  // mangled, "" when cuobjdump did not list it
  int instances = 0;
  int regs = -1, shared = -1, local = -1, stack = -1;  // registers a thread; bytes
  const char* sass = nullptr;                          // the instructions, "" when not known
};

struct SourceRegion {
  const char* name = nullptr;
  const char* file = nullptr;  // relative to the source root: "kernels/life/life_bytes.cu"
  int line = 0;                // first line of text
  const char* text = nullptr;
  std::span<const KernelBuild> kernels{};
};

// Generated at build time (build dir's code_snippets.cpp).
std::span<const SourceRegion> source_regions();
// "" when the build embedded SASS; else why not ("built without CUDA", "cuobjdump was not found...").
const char* sass_unavailable();

// Every region of one snippet, in the order found; empty when the name has none.
std::vector<const SourceRegion*> find_snippet(std::string_view name);
// The snippet's text: its regions joined, each after a "// FILE:LINE" line.
std::string snippet_text(std::string_view name);

// Lines of `after` not in a longest common subsequence with `before` (compared without their leading
// and trailing blanks): what a rung changed against the previous one. One flag a line of `after`.
std::vector<bool> changed_lines(const std::vector<std::string>& before,
                                const std::vector<std::string>& after);

// Minimal C++ / CUDA highlighting of one line. `in_comment` carries a /* ... */ across lines.
enum class Token { Text, Keyword, Cuda, Comment, String, Number, Preprocessor };
struct TokenSpan {
  size_t begin = 0, end = 0;
  Token kind = Token::Text;
};
std::vector<TokenSpan> highlight(std::string_view line, bool* in_comment);

}  // namespace gpulab::presenter

// cpu label: the code panel's sources. Every variant of every demo (CPU variants and every stage
// included) has its kernel's source embedded from the marked regions at build time; every GPU variant
// names the __global__ kernels it defines, with their SASS and resource usage where the build had
// cuobjdump; the line diff of two known kernels marks exactly the lines that changed; highlighting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>

#include "core/demo.h"
#include "presenter/code_panel.h"
#include "presenter/code_source.h"
#include "support/configure_demo.h"

using namespace gpulab;
using namespace gpulab::presenter;

TEST(CodeSource, EveryVariantOfEveryDemoHasItsSource) {
  size_t variants = 0;
  for (const auto& d : make_demos()) {
    const StageTables& tables = d->stage_tables();
    for (size_t si = 0; si < tables.stages.size(); ++si) {
      const StageTable& st = tables.stages[si];
      for (size_t i = 0; i < st.variants.size(); ++i) {
        const VariantChoice& v = st.variants[i];
        SCOPED_TRACE(std::string(d->name()) + " " + std::string(v.id));
        ++variants;
        ASSERT_FALSE(v.snippet.empty());
        const std::string text = snippet_text(v.snippet);
        EXPECT_GT(std::count(text.begin(), text.end(), '\n'), 2) << "no marked region named " << v.snippet;
        const CodeView view = code_view(st, Pick{si, static_cast<int>(i), 0});
        EXPECT_EQ(view.variant, v.id);
        EXPECT_GE(view.lines.size(), 3u);
        EXPECT_TRUE(view.lines.front().header);
        EXPECT_NE(view.lines.front().text.find("kernels/"), std::string::npos) << view.lines.front().text;
        if (i > 0) {
          EXPECT_EQ(view.previous, st.variants[i - 1].id);
        }
        // A GPU variant's region defines the kernel it launches, or shows the library or runtime call
        // it makes instead (a library's rung: CUB's histogram, Thrust, cuBLAS's multiply, cuRAND, NPP; the
        // transfers' cudaMemcpyAsync and their graph's capture).
        if (v.library) {
          EXPECT_TRUE(text.find("cub::") != std::string::npos || text.find("thrust::") != std::string::npos ||
                      text.find("cublas") != std::string::npos ||
                      text.find("curandGenerate") != std::string::npos ||
                      text.find("nppi") != std::string::npos)
              << v.snippet << " names no library call";
        }
        const bool library_call = v.library || text.find("cudaMemcpyAsync(") != std::string::npos ||
                                  text.find("cudaStreamBeginCapture(") != std::string::npos;
        if (v.needs_cuda && !library_call) {
          EXPECT_FALSE(view.kernels.empty()) << "no __global__ kernel in " << v.snippet;
        }
        if (!v.needs_cuda) {
          EXPECT_TRUE(view.kernels.empty()) << "a CPU variant launches no kernel";
        }
        // The kernel's own name, not a qualifier before it (__launch_bounds__).
        for (const KernelBuild* k : view.kernels) {
          EXPECT_NE(std::string(k->name).rfind("__", 0), 0u) << k->name << " in " << v.snippet;
        }
#if GPULAB_BUILD_HAS_SASS
        // The sm_90a kernels are in the library only where the architecture list has 90.
        const bool in_library = GPULAB_BUILD_HAS_SM90A || v.snippet != "gemm_wgmma";
        for (const KernelBuild* k : in_library ? view.kernels : std::vector<const KernelBuild*>{}) {
          EXPECT_GE(k->regs, 1) << k->name;
          EXPECT_NE(std::string(k->sass).find("EXIT"), std::string::npos) << k->name;
        }
#endif
      }
    }
  }
  EXPECT_GE(variants, 45u);
#if GPULAB_BUILD_HAS_SASS
  EXPECT_STREQ(sass_unavailable(), "");
#else
  EXPECT_NE(std::string(sass_unavailable()), "") << "a build without cuobjdump says why there is no SASS";
#endif
}

namespace {

// The histogram demo with `variant` chosen in its first stage (null, with a failure, when it cannot be).
std::unique_ptr<Demo> histeq_at(const std::string& variant) {
  std::unique_ptr<Demo> histeq;
  for (auto& d : make_demos())
    if (d->name() == "histeq") histeq = std::move(d);
  if (!histeq) {
    ADD_FAILURE() << "no histeq demo";
    return nullptr;
  }
  if (const std::string why = gpulab::testing::configure_demo(*histeq, {"--variant", variant.c_str()});
      !why.empty()) {
    ADD_FAILURE() << variant << ": " << why;
    return nullptr;
  }
  return histeq;
}

}  // namespace

TEST(CodeSource, TheDiffOfTwoKnownKernelsMarksWhatChanged) {
  // hist-atomic-gridstride follows hist-atomic-global in the histogram stage's table: the signature,
  // the stride, the loop and its body (the loop's own line) changed, the closing brace did not.
  const std::unique_ptr<Demo> histeq = histeq_at("hist-atomic-gridstride");
  ASSERT_TRUE(histeq);
  const CodeView v = code_view(histeq->stage_tables().stages[0], histeq->pick(0));
  ASSERT_EQ(v.previous, "hist-atomic-global");
  EXPECT_FALSE(v.same_as_previous);
  std::vector<std::string> changed, same;
  for (const CodeLine& l : v.lines)
    if (!l.header) (l.changed ? changed : same).push_back(l.text);
  ASSERT_EQ(changed.size(), 4u);
  EXPECT_NE(changed[0].find("__global__ void hist_atomic_gridstride("), std::string::npos);
  EXPECT_NE(changed[1].find("const size_t stride = size_t(gridDim.x) * blockDim.x;"), std::string::npos);
  EXPECT_NE(changed[2].find("i += stride"), std::string::npos);
  EXPECT_EQ(changed[3], "    atomicAdd(&hist[img[i]], 1u);");
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0], "}");
}

// Long lines wrap between tokens (the projected Life code cut "down" into "d" / "own"), continued rows
// hanging under the line's own indent.
TEST(CodePanel, LongLinesWrapBetweenTokensWithAHangingIndent) {
  const std::string line =
      "        up[j - 1] + up[j] + up[j + 1] + mid[j - 1] + mid[j + 1] + down[j - 1] + down[j] + down[j + "
      "1];";
  for (size_t per_row : {20u, 31u, 44u, 60u, 77u}) {
    SCOPED_TRACE(per_row);
    const auto rows = wrap_code_line(line, per_row);
    ASSERT_GE(rows.size(), 2u);
    const size_t hang = code_hang(line, per_row);
    EXPECT_EQ(hang, std::min<size_t>(12, per_row / 2));
    std::string joined;
    for (size_t r = 0; r < rows.size(); ++r) {
      const auto [b, e] = rows[r];
      ASSERT_LT(b, e);
      EXPECT_LE(e - b, r == 0 ? per_row : per_row - hang);
      if (r > 0) EXPECT_NE(line[b], ' ') << "a continued row starts at its token";
      // Never inside a name or a number.
      auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
      if (e < line.size()) EXPECT_FALSE(word(line[e - 1]) && word(line[e])) << line.substr(b, e - b);
      joined += line.substr(b, e - b);
    }
    // Only spaces at the cuts are left out.
    std::string squeezed;
    for (char c : line)
      if (c != ' ') squeezed += c;
    std::string joined_squeezed;
    for (char c : joined)
      if (c != ' ') joined_squeezed += c;
    EXPECT_EQ(joined_squeezed, squeezed);
  }
  // A short line is one row; an empty one too; a token longer than a row is cut where it must be.
  EXPECT_EQ(wrap_code_line("  x = 1;", 40), (std::vector<std::pair<size_t, size_t>>{{0, 8}}));
  EXPECT_EQ(wrap_code_line("", 40), (std::vector<std::pair<size_t, size_t>>{{0, 0}}));
  const std::string long_name(30, 'a');
  const auto cut = wrap_code_line(long_name, 12);
  ASSERT_EQ(cut.size(), 4u);  // 12, then rows of 12 - 4
  EXPECT_EQ(cut[0], (std::pair<size_t, size_t>{0, 12}));
  EXPECT_EQ(cut[1], (std::pair<size_t, size_t>{12, 20}));
  EXPECT_EQ(cut.back().second, 30u);
}

TEST(CodeSource, LineDiffIsALongestCommonSubsequence) {
  const std::vector<std::string> a = {"a", "  b", "c", "d"};
  const std::vector<std::string> b = {"a", "b", "x", "d", "e"};
  EXPECT_EQ(changed_lines(a, b), (std::vector<bool>{false, false, true, false, true}))
      << "indentation is ignored";
  EXPECT_EQ(changed_lines({}, {"a"}), (std::vector<bool>{true}));
  EXPECT_TRUE(changed_lines({"a"}, {}).empty());
}

TEST(CodeSource, RungsSharingOneKernelSaySo) {
  // hist-fused-scan runs hist-bank-private's kernel (its template's other instantiation): the panel
  // says the code is the same and marks no line.
  const std::unique_ptr<Demo> histeq = histeq_at("hist-fused-scan");
  ASSERT_TRUE(histeq);
  const CodeView v = code_view(histeq->stage_tables().stages[0], histeq->pick(0));
  ASSERT_EQ(v.previous, "hist-bank-private");
  EXPECT_TRUE(v.same_as_previous);
  ASSERT_FALSE(v.lines.empty());
  for (const CodeLine& l : v.lines) EXPECT_FALSE(l.changed) << l.text;
}

TEST(CodeSource, HighlightingFindsKeywordsCudaCommentsAndStrings) {
  bool in_comment = false;
  const std::string line = "__global__ void f(int n) { \"s\"; 42; // done";
  const auto spans = highlight(line, &in_comment);
  auto kind_of = [&](std::string_view word) {
    const size_t at = line.find(word);
    for (const TokenSpan& s : spans)
      if (s.begin <= at && at < s.end) return s.kind;
    return Token::Text;
  };
  EXPECT_EQ(kind_of("__global__"), Token::Cuda);
  EXPECT_EQ(kind_of("void"), Token::Keyword);
  EXPECT_EQ(kind_of("int"), Token::Keyword);
  EXPECT_EQ(kind_of("\"s\""), Token::String);
  EXPECT_EQ(kind_of("42"), Token::Number);
  EXPECT_EQ(kind_of("// done"), Token::Comment);
  EXPECT_EQ(kind_of("f("), Token::Text);
  // A block comment carries over to the next line.
  highlight("x = 1; /* open", &in_comment);
  EXPECT_TRUE(in_comment);
  const auto next = highlight("still */ y", &in_comment);
  EXPECT_FALSE(in_comment);
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(next.front().kind, Token::Comment);
  // Every byte is covered once, in order.
  size_t at = 0;
  for (const TokenSpan& s : spans) {
    EXPECT_EQ(s.begin, at);
    at = s.end;
  }
  EXPECT_EQ(at, line.size());
}

TEST(CodeSource, AMarkerInTheKernelNamesTheLinesALessonStepPointsAt) {
  // gpu-shared's kernel marks its tile load (`// mark tile-load` ... `// end mark`): the lesson's
  // code_mark = "tile-load" marks those lines, and nothing else.
  StageTable st;
  for (auto& d : make_demos())
    if (d->name() == "life") st = d->stage_tables().stages[0];
  int shared = -1;
  for (size_t i = 0; i < st.variants.size(); ++i)
    if (st.variants[i].id == "gpu-shared") shared = static_cast<int>(i);
  ASSERT_GE(shared, 0);
  const CodeView v = code_view(st, Pick{0, shared, 0});
  const auto [first, last] = marked_lines(v, "tile-load");
  ASSERT_GT(first, 0);
  ASSERT_GE(last, first);
  std::vector<std::string> source;
  for (const CodeLine& l : v.lines)
    if (!l.header) source.push_back(l.text);
  ASSERT_LE(static_cast<size_t>(last), source.size());
  EXPECT_NE(source[size_t(first) - 1].find("Load the tile"), std::string::npos) << source[size_t(first) - 1];
  EXPECT_NE(source[size_t(last) - 1].find("__syncthreads"), std::string::npos) << source[size_t(last) - 1];
  EXPECT_EQ(marked_lines(v, "tile"), (std::pair{0, 0})) << "a name is matched whole";
  EXPECT_EQ(marked_lines(v, "no-such-marker"), (std::pair{0, 0}));
}

// The matrix demo without GL (cpu label): its command line (the op from the options given, the
// generated inputs' shapes and kinds, the refusals), a dropped .npy file, and the stages it shows
// (transpose and multiply: the op's runs, the other's is marked as not run, switched by choosing a variant).
#include "demos/matrix/matrix_demo.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "common/file_io.h"
#include "core/cli.h"
#include "matrix/matrix.h"
#include "support/configure_demo.h"
#include "support/run_binary.h"

namespace gpulab {
namespace {

std::string configure(MatrixDemo& demo, std::vector<const char*> args) {
  return testing::configure_demo(demo, std::move(args));
}

TEST(MatrixDemo, TheOpFollowsTheOptions) {
  {
    MatrixDemo d;
    EXPECT_EQ(configure(d, {}), "");
    EXPECT_EQ(d.op(), matrix::Op::Transpose);
    EXPECT_EQ(d.stages()[d.lead_stage()].id, "transpose");
    EXPECT_FALSE(d.stages()[1].active);
  }
  {
    MatrixDemo d;
    EXPECT_EQ(configure(d, {"--m", "7", "--k", "5"}), "");
    EXPECT_EQ(d.op(), matrix::Op::Multiply);
    EXPECT_EQ(d.operands().a.rows, 7);
    EXPECT_EQ(d.operands().a.cols, 5);
    EXPECT_EQ(d.operands().b.cols, 7) << "--n defaults to the first size given";
    EXPECT_EQ(d.stages()[d.lead_stage()].id, "multiply");
    EXPECT_FALSE(d.stages()[0].active) << "the stages keep their order; the op's runs";
  }
  {
    MatrixDemo d;
    EXPECT_EQ(configure(d, {"--variant", "gemm-naive", "--m", "3", "--seed", "9"}), "");
    EXPECT_EQ(d.variant().id, "gemm-naive");
    EXPECT_EQ(d.operands().a, matrix::generate(matrix::Init::Random, 3, 3, 3, 9).a) << "--seed alone: random";
  }
  {
    MatrixDemo d;
    EXPECT_EQ(configure(d, {"--init", "identity", "--m", "4"}), "");
    EXPECT_EQ(d.operands().a, matrix::generate(matrix::Init::Identity, 4, 4, 4, 0).a);
  }
}

TEST(MatrixDemo, BadOptionsAreRefusedWithTheReason) {
  struct Case {
    std::vector<const char*> args;
    const char* says;
  };
  const Case cases[] = {
      {{"--op", "divide"}, "--op must be transpose or multiply"},
      {{"--init", "ones"}, "--init must be random, identity or pattern"},
      {{"--m", "0"}, "--m: must be from 1 to 65536, got '0'"},
      {{"--m", "70000"}, "--m: must be from 1 to 65536, got '70000'"},
      {{"--m", "65536", "--k", "65536"}, "at most 2^28 elements"},
      {{"--op", "transpose", "--k", "3"}, "belong to --op multiply"},
      {{"--op", "transpose", "--variant", "gemm-cublas"}, "is a multiply variant"},
      {{"--op", "multiply", "--image", "x.png"}, "--image belongs to --op transpose"},
      {{"--init", "identity", "--seed", "3"}, "only --init random uses it"},
      {{"--op", "transpose", "--seed", "3"}, "--seed"},
      {{"--a", "a.npy"}, "--a and --b come together"},
      {{"--steps", "3", "--m", "3"}, "--steps"},
  };
  for (const Case& c : cases) {
    std::string label;
    for (const char* a : c.args) label += std::string(a) + " ";
    SCOPED_TRACE(label);
    MatrixDemo d;
    const std::string why = configure(d, c.args);
    EXPECT_NE(why.find(c.says), std::string::npos) << why;
  }
}

TEST(MatrixDemo, ADroppedNpyIsMultipliedByTheIdentity) {
  const auto dir = testing::temp_dir("gpulab-matrix-demo");
  matrix::Matrix m(3, 5);
  for (size_t i = 0; i < m.size(); ++i) m.data[i] = float(i);
  ASSERT_EQ(matrix::write_npy(dir / "a.npy", m), "");
  MatrixDemo d;
  ASSERT_EQ(configure(d, {}), "");
  std::string err;
  ASSERT_TRUE(d.open_file(dir / "a.npy", &err)) << err;
  EXPECT_EQ(d.op(), matrix::Op::Multiply);
  EXPECT_EQ(d.operands().a, m);
  EXPECT_EQ(matrix::gemm_cpu(d.operands().a, d.operands().b), m);
  // A malformed file is refused, naming it, and the matrices stay.
  auto bytes = matrix::encode_npy(m);
  bytes[6] = 7;
  ASSERT_EQ(files::write_regular_file(dir / "bad.npy", bytes), "");
  EXPECT_FALSE(d.open_file(dir / "bad.npy", &err));
  EXPECT_NE(err.find("bad.npy"), std::string::npos) << err;
  EXPECT_NE(err.find("unsupported .npy version 7"), std::string::npos) << err;
  EXPECT_EQ(d.operands().a, m);
}

TEST(MatrixDemo, ChoosingAVariantOfTheOtherOpSwitchesTheOp) {
  MatrixDemo d;
  ASSERT_EQ(configure(d, {}), "");
  std::string why;
  ASSERT_TRUE(testing::choose_variant(d, "gemm-cpu", &why)) << why;
  EXPECT_EQ(d.op(), matrix::Op::Multiply);
  EXPECT_EQ(d.lead_stage(), 1u);
  EXPECT_EQ(d.stages()[1].id, "multiply");
  EXPECT_NE(d.stages()[0].inactive_reason.find("the op is multiply"), std::string::npos);
  ASSERT_TRUE(testing::choose_variant(d, "transpose-cpu", &why)) << why;
  EXPECT_EQ(d.op(), matrix::Op::Transpose);
  EXPECT_EQ(d.lead_stage(), 0u);
  EXPECT_FALSE(testing::choose_block(d, 0, 7, &why));
  EXPECT_NE(why.find("transpose-cpu has no block size"), std::string::npos) << why;
}

}  // namespace
}  // namespace gpulab

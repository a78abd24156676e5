// The variant record every demo's table row embeds (kernels/common/variant.h), the choice the shell
// shows made from it (core/demo.h) and the block check written once.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/demo.h"
#include "demos/common/probe_checks.h"
#include "histeq/histeq.h"
#include "life/life.h"
#include "matrix/matrix.h"
#include "nbody/nbody.h"
#include "rotate/rotate.h"
#include "transfers/transfers.h"

namespace gpulab {
namespace {

// What every table shares: ids unique in the demo, a default block among the blocks (0 without
// blocks), no blocks on the CPU.
template <class V>
void expect_sound_table(std::span<const V> table, std::set<std::string_view>& ids) {
  for (const V& v : table) {
    SCOPED_TRACE(std::string(v.id));
    EXPECT_TRUE(ids.insert(v.id).second) << "duplicate id";
    EXPECT_FALSE(v.title.empty());
    EXPECT_FALSE(v.lesson.empty());
    EXPECT_FALSE(v.snippet.empty());
    if (v.blocks.empty()) {
      EXPECT_EQ(v.default_block, 0);
    } else {
      EXPECT_NE(std::find(v.blocks.begin(), v.blocks.end(), v.default_block), v.blocks.end());
      EXPECT_TRUE(std::is_sorted(v.blocks.begin(), v.blocks.end()));
    }
    if (v.backend == decltype(v.backend)::Cpu) {
      EXPECT_TRUE(v.blocks.empty());
    }
  }
}

template <class E, class V>
std::vector<E> selectors(std::span<const V> table) {
  std::vector<E> out;
  for (const V& v : table)
    if (!v.kernel.empty()) out.push_back(v.kernel.template as<E>());
  return out;
}

template <class E>
bool distinct(std::vector<E> kinds) {
  std::sort(kinds.begin(), kinds.end());
  return std::adjacent_find(kinds.begin(), kinds.end()) == kinds.end();
}

TEST(VariantRecord, LifeTableAndGhostStage) {
  std::set<std::string_view> ids;
  expect_sound_table(life::variants(), ids);
  EXPECT_TRUE(ids.insert(life::ghost_variant().id).second);
  for (const life::Variant& v : life::variants()) EXPECT_TRUE(v.kernel.holds<life::Kernel>()) << v.id;
  EXPECT_TRUE(distinct(selectors<life::Kernel>(life::variants())));
  const VariantRecord& g = life::ghost_variant();
  EXPECT_NE(std::find(g.blocks.begin(), g.blocks.end(), g.default_block), g.blocks.end());
}

TEST(VariantRecord, NbodyTable) {
  std::set<std::string_view> ids;
  expect_sound_table(nbody::variants(), ids);
  for (const nbody::Variant& v : nbody::variants())
    EXPECT_EQ(v.kernel.holds<nbody::ForceKernel>(), v.backend == nbody::Backend::Cuda) << v.id;
  EXPECT_TRUE(distinct(selectors<nbody::ForceKernel>(nbody::variants())));
}

TEST(VariantRecord, HisteqSelectorsAreTheirStagesKindsAndDistinct) {
  std::set<std::string_view> ids;  // unique across the stages: --variant finds its stage by id
  expect_sound_table(histeq::variants(), ids);
  for (const histeq::StageInfo& si : histeq::stage_infos()) {
    SCOPED_TRACE(std::string(si.key));
    std::vector<int> kinds;
    int cpu = 0;
    for (const histeq::Variant* v : histeq::variants_of(si.id)) {
      if (v->backend == histeq::Backend::Cpu) {
        EXPECT_TRUE(v->kernel.empty()) << v->id;
        ++cpu;
        continue;
      }
      switch (si.id) {
        case histeq::StageId::Histogram:
          kinds.push_back(int(v->kind<histeq::HistKind>()));
          break;
        case histeq::StageId::Scan:
          kinds.push_back(int(v->kind<histeq::ScanKind>()));
          break;
        case histeq::StageId::Reduce:
          kinds.push_back(int(v->kind<histeq::ReduceKind>()));
          break;
        case histeq::StageId::Apply:
          kinds.push_back(int(v->kind<histeq::ApplyKind>()));
          break;
      }
    }
    EXPECT_EQ(cpu, 1);
    EXPECT_TRUE(distinct(kinds));
  }
  // Read as another stage's kind, a selector throws instead of launching the wrong kernel.
  EXPECT_THROW((void)histeq::find_variant("scan-cub")->kind<histeq::HistKind>(), std::logic_error);
}

TEST(VariantRecord, RotateTable) {
  std::set<std::string_view> ids;
  expect_sound_table(rotate::variants(), ids);
  for (const rotate::Variant& v : rotate::variants()) {
    EXPECT_TRUE(v.square_blocks) << v.id;
    EXPECT_EQ(v.kind() == rotate::Kind::Cpu, v.backend == rotate::Backend::Cpu) << v.id;
  }
}

TEST(VariantRecord, ChoiceIsTheRecord) {
  for (const life::Variant& v : life::variants()) {
    const VariantChoice c = variant_choice(v, v.backend == life::Backend::Cuda);
    EXPECT_EQ(c.id, v.id);
    EXPECT_EQ(c.title, v.title);
    EXPECT_EQ(c.lesson, v.lesson);
    EXPECT_EQ(c.snippet, v.snippet);
    EXPECT_EQ(c.blocks.data(), v.blocks.data());
    EXPECT_EQ(c.blocks.size(), v.blocks.size());
    EXPECT_EQ(c.square_blocks, v.square_blocks);
    EXPECT_EQ(c.default_block, v.default_block);
    EXPECT_EQ(c.kernel, v.kernel);
    EXPECT_EQ(c.needs_cuda, v.backend == life::Backend::Cuda);
    EXPECT_TRUE(c.available);
  }
}

// Every demo's stages (before attach) list its table's records, in table order.
TEST(VariantRecord, DemoStagesShowTheirTables) {
  for (const auto& demo : make_demos()) {
    SCOPED_TRACE(std::string(demo->name()));
    std::vector<const VariantChoice*> shown;
    const std::vector<Stage> stages = demo->stages();
    for (const Stage& st : stages)
      for (const VariantChoice& c : st.variants) shown.push_back(&c);
    auto expect_rows = [&](auto table, size_t first) {
      ASSERT_LE(first + table.size(), shown.size());
      for (size_t i = 0; i < table.size(); ++i) {
        const VariantChoice& c = *shown[first + i];
        EXPECT_EQ(c.id, table[i].id);
        EXPECT_EQ(c.lesson, table[i].lesson);
        EXPECT_EQ(c.blocks.data(), table[i].blocks.data());
        EXPECT_EQ(c.square_blocks, table[i].square_blocks);
        EXPECT_EQ(c.default_block, table[i].default_block);
        EXPECT_EQ(c.kernel, table[i].kernel);
        EXPECT_EQ(c.needs_cuda, table[i].backend == decltype(table[i].backend)::Cuda);
      }
    };
    if (demo->name() == "life") {
      ASSERT_EQ(shown.size(), life::variants().size() + 1);
      expect_rows(life::variants(), 0);
      EXPECT_EQ(shown.back()->id, life::ghost_variant().id);
      EXPECT_EQ(shown.back()->blocks.data(), life::ghost_variant().blocks.data());
    } else if (demo->name() == "nbody") {
      ASSERT_EQ(shown.size(), nbody::variants().size());
      expect_rows(nbody::variants(), 0);
    } else if (demo->name() == "histeq") {
      ASSERT_EQ(shown.size(), histeq::variants().size());  // the table is grouped by stage, in stage order
      expect_rows(histeq::variants(), 0);
    } else if (demo->name() == "rotate") {
      ASSERT_EQ(shown.size(), rotate::variants().size());
      expect_rows(rotate::variants(), 0);
    } else if (demo->name() == "matrix") {
      ASSERT_EQ(shown.size(),
                matrix::variants().size());  // the default op's stage (transpose) first, as the table
      expect_rows(matrix::variants(), 0);
    } else if (demo->name() == "transfers") {
      ASSERT_EQ(shown.size(), transfers::variants().size());  // grouped by stage, in stage order
      expect_rows(transfers::variants(), 0);
    } else {
      ADD_FAILURE() << "a demo this test does not know";
    }
  }
}

TEST(VariantRecord, BlockCheckSaysWhy) {
  std::string why;
  const life::Variant& shared = *life::find_variant("gpu-shared");
  EXPECT_TRUE(check_block(variant_choice(shared, true), 16, &why));
  EXPECT_FALSE(check_block(variant_choice(shared, true), 64, &why));
  EXPECT_EQ(why, "gpu-shared takes blocks of 8x8, 16x16, 32x32 threads");
  EXPECT_FALSE(check_block(variant_choice(*nbody::find_variant("gpu-warp-pairs"), true), 512, &why));
  EXPECT_EQ(why, "gpu-warp-pairs takes blocks of 64, 128, 256 threads");
  EXPECT_FALSE(check_block(variant_choice(*life::find_variant("cpu-lut"), false), 16, &why));
  EXPECT_EQ(why, "cpu-lut has no block size (it runs on the CPU)");
  EXPECT_FALSE(check_block(variant_choice(*histeq::find_variant("scan-cub"), true), 256, &why));
  EXPECT_EQ(why, "scan-cub has no block size (it fixes its own launch)");
  EXPECT_FALSE(check_block(variant_choice(life::ghost_variant(), true), 96, &why));
  EXPECT_EQ(why, "gpu-ghost-1d takes blocks of 32, 128, 256, 1024 threads");

  // The probe's check: 0 is the default, a variant without blocks takes whatever it is given.
  int block = 0;
  EXPECT_EQ(check_probe_block(shared, &block), "");
  EXPECT_EQ(block, 32);
  block = 7;
  EXPECT_EQ(check_probe_block(shared, &block), "gpu-shared takes blocks of 8x8, 16x16, 32x32 threads");
  block = 128;
  EXPECT_EQ(check_probe_block(*histeq::find_variant("scan-cub"), &block), "");
}

}  // namespace
}  // namespace gpulab

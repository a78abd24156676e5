// The shell's generic handling of a demo's stages and variants, through the Demo interface alone.
#include "core/demo.h"

#include <algorithm>

#include "common/text.h"

namespace gpulab {

std::string block_label(std::span<const int> blocks, bool square, int block) {
  if (blocks.empty()) return "-";
  return square ? std::to_string(block) + "x" + std::to_string(block) : std::to_string(block);
}

VariantChoice variant_choice(const VariantRecord& v, bool needs_cuda) {
  VariantChoice c;
  static_cast<VariantRecord&>(c) = v;
  c.needs_cuda = needs_cuda;
  return c;
}

bool check_block(const VariantChoice& v, int block, std::string* why) {
  if (!v.blocks.empty() && std::find(v.blocks.begin(), v.blocks.end(), block) != v.blocks.end()) return true;
  if (why) {
    if (v.blocks.empty()) {
      *why = std::string(v.id) + " has no block size (" +
             (v.needs_cuda ? "it fixes its own launch" : "it runs on the CPU") + ")";
    } else {
      std::string list;
      for (int b : v.blocks) list += (list.empty() ? "" : ", ") + block_label(v, b);
      *why = std::string(v.id) + " takes blocks of " + list + " threads";
    }
  }
  return false;
}

std::string apply_variant_options(Demo& demo, const Options& o) {
  const std::vector<Stage> stages = demo.stages();
  auto stage_of = [&](std::string_view id) -> int {
    for (size_t s = 0; s < stages.size(); ++s)
      for (const VariantChoice& v : stages[s].variants)
        if (v.id == id) return static_cast<int>(s);
    return -1;
  };
  std::vector<int> given(stages.size(), 0);
  int last_stage = 0;
  for (const std::string& id : o.variants) {
    const int s = stage_of(id);
    if (s < 0)
      return "unknown variant " + text::quote(id) + " for " + std::string(demo.name()) +
             " (gpulab --list shows the ids)";
    if (++given[s] > 1)
      return "--variant given twice for the " + std::string(stages[s].id) + " stage (once per stage)";
    std::string why;
    if (!demo.set_variant(static_cast<size_t>(s), id, &why)) return why;
    last_stage = s;
  }
  for (const std::string& b : o.blocks) {
    int s = o.variants.size() == 1 ? last_stage : 0;
    std::string number = b;
    if (const size_t eq = b.find('='); eq != std::string::npos) {
      const std::string name = b.substr(0, eq);
      auto it = std::find_if(stages.begin(), stages.end(), [&](const Stage& st) { return st.id == name; });
      if (it == stages.end()) {
        std::string list;
        for (const Stage& st : stages) list += (list.empty() ? "" : ", ") + std::string(st.id);
        return "--block " + text::escape(b) + ": " + std::string(demo.name()) + " has no stage " +
               text::quote(name) + " (stages: " + list + ")";
      }
      s = static_cast<int>(it - stages.begin());
      number = b.substr(eq + 1);
    }
    std::string why;
    if (!demo.set_block(static_cast<size_t>(s), std::stoi(number), &why)) return why;
  }
  return {};
}

}  // namespace gpulab

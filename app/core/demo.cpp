// The shell's generic handling of a demo's stages, picks and Setups, through the Demo interface alone.
#include "core/demo.h"
#include "core/cli.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>

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

bool same_input(const Setup& a, const Setup& b) {
  if (a.demo != b.demo || !(a.shared == b.shared)) return false;
  if (!a.params || !b.params) return !a.params && !b.params;
  return a.params.get()->same_input(*b.params.get());
}

const Setup& Demo::setup() const {
  if (!setup_) throw std::logic_error(std::string(name()) + ": no Setup bound (Demo::bind)");
  return *setup_;
}

std::vector<Stage> Demo::stages() const {
  const StageTables& t = stage_tables();
  std::vector<Stage> out;
  for (size_t s = 0; s < t.stages.size(); ++s) {
    const StageTable& table = t.stages[s];
    Stage st;
    st.id = table.id;
    st.title = table.title;
    st.variants = table.variants;
    for (size_t i = 0; i < st.variants.size(); ++i) {
      VariantChoice& v = st.variants[i];
      v.unavailable_reason = why_unavailable(s, static_cast<int>(i));
      v.available = v.unavailable_reason.empty();
    }
    if (setup_ && s < setup_->picks.size()) {
      st.variant = setup_->picks[s].variant;
      st.block = setup_->picks[s].block;
      st.inactive_reason = inactive_reason(s);
      st.active = st.inactive_reason.empty();
    }
    out.push_back(std::move(st));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Picks.

Pick pick_of(const StageTables& tables, size_t stage, int variant) {
  const VariantChoice& v = tables.stages.at(stage).variants.at(static_cast<size_t>(variant));
  return Pick{stage, variant, v.blocks.empty() ? 0 : v.default_block};
}

Picks default_picks(const StageTables& tables, bool device) {
  Picks picks;
  for (size_t s = 0; s < tables.stages.size(); ++s) {
    const StageTable& t = tables.stages[s];
    picks.push_back(pick_of(tables, s, device ? t.gpu_default : t.cpu_default));
  }
  return picks;
}

std::optional<Pick> find_pick(const StageTables& tables, std::string_view id) {
  for (size_t s = 0; s < tables.stages.size(); ++s) {
    const auto& vs = tables.stages[s].variants;
    for (size_t i = 0; i < vs.size(); ++i)
      if (vs[i].id == id) return pick_of(tables, s, static_cast<int>(i));
  }
  return std::nullopt;
}

const VariantChoice& variant_of(const StageTables& tables, const Pick& p) {
  return tables.stages.at(p.stage).variants.at(static_cast<size_t>(p.variant));
}

void settle(const StageTables& tables, Picks& picks, size_t changed) {
  if (!tables.one_backend || changed >= picks.size()) return;
  const bool gpu = variant_of(tables, picks[changed]).needs_cuda;
  for (size_t s = 0; s < picks.size(); ++s) {
    if (s == changed || variant_of(tables, picks[s]).needs_cuda == gpu) continue;
    const StageTable& t = tables.stages[s];
    picks[s] = pick_of(tables, s, gpu ? t.gpu_default : t.cpu_default);
  }
}

void choose(const StageTables& tables, Setup& setup, const Pick& p) {
  setup.picks.at(p.stage) = p;
  settle(tables, setup.picks, p.stage);
  setup.focus = p.stage;
}

std::vector<size_t> stage_order(const Demo& demo) {
  const size_t n = demo.stage_tables().stages.size();
  const size_t lead = demo.lead_stage() < n ? demo.lead_stage() : 0;
  std::vector<size_t> order;
  if (n > 0) order.push_back(lead);
  for (size_t s = 0; s < n; ++s)
    if (s != lead) order.push_back(s);
  return order;
}

bool change_picks(Demo& demo, Setup& setup, const Setup& next, std::string* why) {
  for (size_t st = 0; st < next.picks.size(); ++st) {
    if (next.picks[st] == setup.picks.at(st)) continue;
    if (std::string no = demo.why_unavailable(st, next.picks[st].variant); !no.empty()) {
      if (why) *why = no;
      return false;
    }
  }
  const Picks before = std::exchange(setup.picks, next.picks);
  const std::optional<size_t> focus = std::exchange(setup.focus, next.focus);
  if (!demo.picks_changed(before, why)) {
    setup.picks = before;
    setup.focus = focus;
    return false;
  }
  return true;
}

bool runnable_picks(const Demo& demo, Picks& picks) {
  const StageTables& t = demo.stage_tables();
  bool changed = false;
  for (size_t s = 0; s < picks.size() && s < t.stages.size(); ++s) {
    if (demo.why_unavailable(s, picks[s].variant).empty()) continue;
    const int cpu = t.stages[s].cpu_default;
    if (cpu == picks[s].variant || !demo.why_unavailable(s, cpu).empty()) continue;
    picks[s] = pick_of(t, s, cpu);
    settle(t, picks, s);
    changed = true;
  }
  return changed;
}

std::string apply_choices(const Demo& demo, const std::vector<std::string>& variants,
                          const std::vector<std::string>& blocks, Setup& setup) {
  const StageTables& tables = demo.stage_tables();
  const std::vector<StageTable>& stages = tables.stages;
  std::vector<int> given(stages.size(), 0);
  size_t last_stage = 0;
  std::string cpu_id, gpu_id;  // the last of each backend given (one_backend refuses both)
  for (const std::string& id : variants) {
    const std::optional<Pick> p = find_pick(tables, id);
    if (!p)
      return "unknown variant " + text::quote(id) + " for " + std::string(demo.name()) +
             " (gpulab --list shows the ids)";
    if (++given[p->stage] > 1)
      return "--variant given twice for the " + std::string(stages[p->stage].id) + " stage (once per stage)";
    choose(tables, setup, *p);
    (variant_of(tables, *p).needs_cuda ? gpu_id : cpu_id) = id;
    last_stage = p->stage;
  }
  for (const std::string& b : blocks) {
    size_t s = variants.size() == 1 ? last_stage : 0;
    std::string number = b;
    if (const size_t eq = b.find('='); eq != std::string::npos) {
      const std::string name = b.substr(0, eq);
      auto it =
          std::find_if(stages.begin(), stages.end(), [&](const StageTable& st) { return st.id == name; });
      if (it == stages.end()) {
        std::string list;
        for (const StageTable& st : stages) list += (list.empty() ? "" : ", ") + std::string(st.id);
        return "--block " + text::escape(b) + ": " + std::string(demo.name()) + " has no stage " +
               text::quote(name) + " (stages: " + list + ")";
      }
      s = static_cast<size_t>(it - stages.begin());
      number = b.substr(eq + 1);
    }
    int block = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), block);
    if (ec != std::errc() || end != number.data() + number.size() || block < 1 || block > 1024 ||
        b.find('=') == 0)
      return "--block needs N or STAGE=N with N from 1 to 1024, got " + text::quote(b);
    std::string why;
    if (!check_block(variant_of(tables, setup.picks.at(s)), block, &why)) return why;
    setup.picks[s].block = block;
  }
  if (tables.one_backend && !cpu_id.empty() && !gpu_id.empty()) {
    std::string cpu_list;
    for (const StageTable& st : stages)
      for (const VariantChoice& v : st.variants)
        if (!v.needs_cuda) cpu_list += (cpu_list.empty() ? "" : ", ") + std::string(v.id);
    return "--variant " + cpu_id + " and --variant " + gpu_id + " mix the backends: the CPU variants (" +
           cpu_list + ") run together, the GPU ones together";
  }
  return {};
}

SharedInputs shared_inputs(const Options& o) { return SharedInputs{o.image, o.seed, o.init}; }

Setup default_setup(const Demo& demo, bool device) {
  Setup s;
  s.demo = std::string(demo.name());
  s.params = Params(demo.make_params());
  s.picks = default_picks(demo.stage_tables(), device);
  return s;
}

std::string resolve_setup(const Demo& demo, const Options& o, Params params, bool device, Setup* out) {
  Setup s = default_setup(demo, device);
  s.shared = shared_inputs(o);
  if (params) s.params = std::move(params);
  if (std::string bad = apply_choices(demo, o.variants, o.blocks, s); !bad.empty()) return bad;
  *out = std::move(s);
  return {};
}

Setup bench_setup(const Demo& demo, const Options& o, Params params, bool device) {
  Setup s = default_setup(demo, device);
  s.shared = shared_inputs(o);
  if (params) s.params = std::move(params);
  return s;
}

std::string configure_for_bench(Demo& demo, const Setup& setup, const Options& o) {
  if (!o.save_image.empty())
    return "--save-image writes a run's output; the bench writes none (bench --json)";
  Setup checked = setup;
  checked.shared.seed.reset();  // the bench's own: it seeds the bench's random inputs
  demo.bind(checked);
  std::string bad = demo.configure(options_without_outputs(o.cpu));
  demo.bind(setup);
  if (bad.empty() && demo.batch_requested())
    bad = "a batch output (--save-...) goes with a run (--headless), not with bench";
  return bad;
}

std::string pinned_note(const Setup& setup) {
  std::vector<std::string> given = setup.params ? setup.params.get()->given() : std::vector<std::string>{};
  if (!setup.shared.image.empty()) given.push_back("--image " + setup.shared.image);
  if (!setup.shared.init.empty()) given.push_back("--init " + setup.shared.init);
  if (given.empty()) return {};
  std::string note = "the command line pins:";
  for (size_t i = 0; i < given.size(); ++i) note += (i ? ", " : " ") + given[i];
  return note;
}

Options options_without_outputs(bool cpu) {
  Options o;
  o.cpu = cpu;
  return o;
}

}  // namespace gpulab

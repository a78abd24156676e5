#pragma once
// A demo configured from a command line as the app configures it: `gpulab --demo NAME ARGS` parsed
// for it alone, its Setup resolved (the picks for a machine without a CUDA device unless `device`)
// and bound, then Demo::configure. The Setups live here, one per call, for as long as the tests run
// (a demo keeps a pointer to its Setup); choose_variant / choose_block change a configured demo's
// picks as the app's pickers do; and a command line parsed with every demo.
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"

namespace gpulab::testing {

// The Setup configure_demo bound `demo` to (the last one).
inline std::map<const Demo*, Setup*>& bound_setups() {
  static std::map<const Demo*, Setup*> m;
  return m;
}

// A Setup that outlives the test (a demo's binding points at it).
inline Setup& keep_setup(Setup s) {
  static std::deque<Setup> held;
  held.push_back(std::move(s));
  return held.back();
}

// "" when `demo` took `args` (after `gpulab --demo NAME`); else why not (a parse error prefixed
// "parse: ", or the refusal).
inline std::string configure_demo(Demo& demo, std::vector<const char*> args, bool device = false) {
  Demo* views[] = {&demo};
  const std::string name(demo.name());
  args.insert(args.begin(), {"gpulab", "--demo", name.c_str()});
  ParseResult r = parse_command_line(static_cast<int>(args.size()), args.data(), views);
  if (!r.options) return "parse: " + r.error;
  Setup resolved;
  if (std::string bad = resolve_setup(demo, *r.options, std::move(r.params.at(0)), device, &resolved);
      !bad.empty())
    return bad;
  Setup& s = keep_setup(std::move(resolved));
  demo.bind(s);
  bound_setups()[&demo] = &s;
  return demo.configure(*r.options);
}

// The Setup `demo` runs (configure_demo's).
inline Setup& setup_of(const Demo& demo) { return *bound_setups().at(&demo); }

// Picks variant `id` (its stage's, at its default block) as the app's picker does: true, or false
// with *why (the demo's Setup unchanged).
inline bool choose_variant(Demo& demo, std::string_view id, std::string* why) {
  const StageTables& t = demo.stage_tables();
  const std::optional<Pick> p = find_pick(t, id);
  if (!p) {
    *why = "no variant " + std::string(id);
    return false;
  }
  Setup& s = setup_of(demo);
  Setup next = s;
  choose(t, next, *p);
  return change_picks(demo, s, next, why);
}

// Sets the block of `stage` as the app's block picker does.
inline bool choose_block(Demo& demo, size_t stage, int block, std::string* why) {
  Setup& s = setup_of(demo);
  if (!check_block(variant_of(demo.stage_tables(), s.picks.at(stage)), block, why)) return false;
  Setup next = s;
  next.picks[stage].block = block;
  next.focus = stage;
  return change_picks(demo, s, next, why);
}

// `gpulab ARGS` parsed with every demo's option group registered, as gpulab_main parses it.
inline ParseResult parse_with_every_demo(std::vector<const char*> args) {
  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  std::vector<Demo*> views;
  for (const auto& d : demos) views.push_back(d.get());
  args.insert(args.begin(), "gpulab");
  return parse_command_line(static_cast<int>(args.size()), args.data(), views);
}

}  // namespace gpulab::testing

#pragma once
// A demo configured from a command line as the app configures it: `gpulab --demo NAME ARGS` parsed
// for it alone, its variant options applied, then Demo::configure; and a command line parsed with
// every demo.
#include <memory>
#include <string>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"

namespace gpulab::testing {

// "" when `demo` took `args` (after `gpulab --demo NAME`); else why not (a parse error prefixed
// "parse: ", or the demo's refusal).
inline std::string configure_demo(Demo& demo, std::vector<const char*> args) {
  Demo* views[] = {&demo};
  const std::string name(demo.name());
  args.insert(args.begin(), {"gpulab", "--demo", name.c_str()});
  const ParseResult r = parse_command_line(static_cast<int>(args.size()), args.data(), views);
  if (!r.options) return "parse: " + r.error;
  if (std::string bad = apply_variant_options(demo, *r.options); !bad.empty()) return bad;
  return demo.configure(*r.options);
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

// Fuzz target: the command line, gpulab::parse_command_line with every demo's option group
// registered as gpulab_main does, then (run mode, parsing succeeded) what App::init does before
// anything touches GL: resolve_setup and the chosen demo's configure(). The input is split
// on NUL and newline bytes into argv[1..] (argv[0] is "gpulab").
// Oracle: no message (the parser's, resolve_setup's, configure()'s) holds a raw control byte.
//
// Nothing here writes a file or opens a window: parsing only stores paths (--screenshot,
// --save-pattern, --save-bodies, --save-image, bench --json) and configure() only reads the input
// files (--pattern, --load-bodies, --image). So that it reads none, configure() is skipped whenever
// an argument (or the part of one after '=') names something that exists; the paths it is given are
// then always missing ones, and their error messages are still checked.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/cli.h"
#include "core/demo.h"
#include "fuzz_check.h"

using namespace gpulab;

namespace {

constexpr size_t kMaxArgs = 64;

bool names_existing_path(std::string_view arg) {
  if (arg.empty()) return false;
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::path(std::string(arg)), ec)) return true;
  const size_t eq = arg.find('=');
  return eq != std::string_view::npos && names_existing_path(arg.substr(eq + 1));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"gpulab"};
  std::string current;
  for (size_t i = 0; i <= size; ++i) {
    if (i == size || data[i] == '\0' || data[i] == '\n') {
      if (i < size || !current.empty()) args.push_back(std::move(current));
      current.clear();
      if (args.size() > kMaxArgs) return 0;
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());

  std::vector<std::unique_ptr<Demo>> demos = make_demos();
  std::vector<Demo*> views;
  for (const auto& d : demos) views.push_back(d.get());
  const ParseResult r = parse_command_line(static_cast<int>(argv.size()), argv.data(), views);
  if (!r.options) {
    fuzz::require(r.exit_code == 1 || r.exit_code == 2,
                  "cli: a failed parse with exit code other than 1 or 2");
    fuzz::check_message("command line", r.error);
    return 0;
  }
  const Options& o = *r.options;
  if (o.mode != Options::Mode::Run) return 0;  // help, list, bench, check-display: no configure()

  Demo* demo = nullptr;
  size_t index = 0;
  for (size_t i = 0; i < views.size(); ++i)
    if (views[i]->name() == o.demo) demo = views[i], index = i;
  if (demo == nullptr) return 0;  // parse_command_line refuses an unknown --demo; nothing to configure

  for (size_t i = 1; i < args.size(); ++i)
    if (names_existing_path(args[i])) return 0;
  if (names_existing_path(o.image) || names_existing_path(o.save_image)) return 0;

  // The Setup as the app resolves it (no device: the fuzzer runs on the CPU), then configure().
  Setup setup;
  std::string bad = resolve_setup(*demo, o, r.params.at(index), false, &setup);
  if (bad.empty()) {
    demo->bind(setup);
    bad = demo->configure(o);
  }
  fuzz::check_message("command line (resolve_setup / configure)", bad);
  return 0;
}

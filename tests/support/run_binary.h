#pragma once
// Runs the gpulab binary (GPULAB_BINARY, a compile definition of every test executable) with its
// output captured, and per-process scratch folders. Names carry a prefix and the process id: ctest
// runs every test in its own process, so parallel tests never share a file.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "support/test_paths.h"

namespace gpulab::testing {

struct ProcessResult {
  int status = -1;     // exit status, -1 when the process did not exit normally
  std::string output;  // stdout and stderr together
};

// The status of a run that `limit_s` ended (coreutils' timeout with SIGKILL: 128 + 9).
inline constexpr int kKilledAtLimit = 137;

// `GPULAB_BINARY args`, its output going through temp_directory_path()/<log_prefix>-<pid>.log. With
// `limit_s` > 0 the process is killed after that many seconds (status kKilledAtLimit), so that a hang
// ends inside the test rather than outliving it.
inline ProcessResult run_gpulab(const std::string& args, const std::string& log_prefix, int limit_s = 0) {
  namespace fs = std::filesystem;
  const fs::path log = fs::temp_directory_path() / (log_prefix + "-" + std::to_string(::getpid()) + ".log");
  const std::string limit = limit_s > 0 ? "timeout -s KILL " + std::to_string(limit_s) + " " : std::string();
  const std::string cmd = limit + std::string(GPULAB_BINARY) + " " + args + " >" + log.string() + " 2>&1";
  const int rc = std::system(cmd.c_str());
  ProcessResult r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  r.output = ss.str();
  fs::remove(log);
  return r;
}

// `GPULAB_BINARY args` as run_gpulab does, with its settings in DIR/config (XDG_CONFIG_HOME), never
// the user's.
inline ProcessResult run_gpulab_in(const std::string& args, const std::filesystem::path& dir,
                                   const std::string& log_prefix, int limit_s = 0) {
  std::filesystem::create_directories(dir / "config");
  ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  return run_gpulab(args, log_prefix, limit_s);
}

// temp_directory_path()/<prefix>-<pid>, created if missing.
inline std::filesystem::path temp_dir(const std::string& prefix) {
  std::filesystem::path d =
      std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace gpulab::testing

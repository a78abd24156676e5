#pragma once
// A test that needs a program this machine lacks (ffmpeg, Xorg's dummy driver: the GPU machine has
// neither) is skipped, naming what is missing and the package that brings it. Where the packages were
// installed by scripts/test, which sets GPULAB_REQUIRE_TOOLS=1, it fails instead: there a missing tool
// is a broken set-up, and CI must not pass by skipping.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/gpu_skip.h"

namespace gpulab::testing {

// `tool` is on PATH.
inline bool have(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}
inline bool tools_required() { return env_flag("GPULAB_REQUIRE_TOOLS"); }

// "TOOL (package PACKAGE)" where `tool` is not on PATH, else "".
inline std::string missing_program(const char* tool, const char* package) {
  return have(tool) ? std::string() : std::string(tool) + " (package " + package + ")";
}

// What is missing of ffmpeg and ffprobe (the clip tests'), "" when both are there.
inline std::string missing_ffmpeg() {
  const std::string m = missing_program("ffmpeg", "ffmpeg");
  return m.empty() ? missing_program("ffprobe", "ffmpeg") : m;
}

// What is missing of Xorg with its dummy driver, xrandr and xwininfo (the two-monitor test's).
inline std::string missing_xorg_dummy() {
  if (std::string m = missing_program("Xorg", "xserver-xorg-core"); !m.empty()) return m;
  bool dummy = false;
  for (const char* dir : {"/usr/lib/xorg/modules/drivers", "/usr/lib/x86_64-linux-gnu/xorg/modules/drivers",
                          "/usr/lib/aarch64-linux-gnu/xorg/modules/drivers"})
    dummy = dummy || std::filesystem::exists(std::filesystem::path(dir) / "dummy_drv.so");
  if (!dummy) return "Xorg's dummy driver dummy_drv.so (package xserver-xorg-video-dummy)";
  if (std::string m = missing_program("xrandr", "x11-xserver-utils"); !m.empty()) return m;
  return missing_program("xwininfo", "x11-utils");
}

}  // namespace gpulab::testing

// Skips the test where `missing` (a description of what is missing, "" when nothing is) is not empty;
// fails it there under GPULAB_REQUIRE_TOOLS=1.
#define GPULAB_SKIP_WITHOUT_TOOL(missing)                                                  \
  do {                                                                                     \
    const std::string gpulab_missing_ = (missing);                                         \
    if (!gpulab_missing_.empty()) {                                                        \
      if (::gpulab::testing::tools_required())                                             \
        FAIL() << "GPULAB_REQUIRE_TOOLS is set but this machine lacks " << gpulab_missing_ \
               << " (scripts/debian-packages.txt lists it)";                               \
      GTEST_SKIP() << "needs " << gpulab_missing_ << ", which this machine lacks";         \
    }                                                                                      \
  } while (0)

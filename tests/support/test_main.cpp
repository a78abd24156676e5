#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // No test, and no gpulab a test starts, may read or write the real user's settings: the process
  // (and its children) keep theirs in a scratch folder; a test that needs another sets its own.
  const std::filesystem::path config =
      std::filesystem::temp_directory_path() / ("gpulab-test-config-" + std::to_string(::getpid()));
  std::filesystem::create_directories(config);
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  const int rc = RUN_ALL_TESTS();
  std::error_code ec;
  std::filesystem::remove_all(config, ec);
  return rc;
}

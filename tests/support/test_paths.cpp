#include "support/test_paths.h"

// GPULAB_TEST_ASSETS_DIR, GPULAB_TEST_DATA_DIR and GPULAB_BINARY_PATH are this file's compile
// definitions only (tests/CMakeLists.txt).
namespace gpulab::test_paths {
const char* const kAssets = GPULAB_TEST_ASSETS_DIR;
const char* const kData = GPULAB_TEST_DATA_DIR;
const char* const kBinary = GPULAB_BINARY_PATH;
}  // namespace gpulab::test_paths

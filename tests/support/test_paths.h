#pragma once
// Where the tests find the repository's assets and test data, and the gpulab binary of this build:
// absolute paths, compiled into test_paths.cpp alone, so that no other test source changes with the
// folder of the checkout and a compiler cache serves them to a clone anywhere.
namespace gpulab::test_paths {
extern const char* const kAssets;  // <source>/assets
extern const char* const kData;    // <source>/tests/data
extern const char* const kBinary;  // the gpulab executable
}  // namespace gpulab::test_paths

#define GPULAB_TEST_ASSETS (::gpulab::test_paths::kAssets)
#define GPULAB_TEST_DATA (::gpulab::test_paths::kData)
#define GPULAB_BINARY (::gpulab::test_paths::kBinary)

// The frame loop's non-blocking population on the CUDA engine equals the blocking count.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "cuda/raii.h"
#include "life/life_cuda.h"
#include "support/gpu_skip.h"

namespace gpulab::life {
namespace {

TEST(PopulationAsyncGpu, PollEventuallyReturnsTheCount) {
  GPULAB_SKIP_WITHOUT_CUDA();
  cuda::Stream stream = cuda::Stream::create_non_blocking();
  auto gpu = CudaEngine::create(stream.get());
  for (auto [w, h] : {std::pair{1000, 777}, std::pair{65, 3}}) {
    for (const char* id : {"gpu-shared", "gpu-bitpacked"}) {  // both layouts
      gpu->resize(w, h);
      gpu->randomize(0.3, 11);
      gpu->step(*find_variant(id), find_variant(id)->default_block, 3);
      const uint64_t want = gpu->population();
      EXPECT_FALSE(gpu->poll_population().has_value());
      gpu->request_population();
      std::optional<uint64_t> got;
      const auto t0 = std::chrono::steady_clock::now();
      while (!(got = gpu->poll_population()) &&
             std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10))
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      ASSERT_TRUE(got.has_value()) << id << ": the count never arrived";
      EXPECT_EQ(*got, want) << id << " " << w << "x" << h;
      EXPECT_FALSE(gpu->poll_population().has_value());
    }
  }
}

}  // namespace
}  // namespace gpulab::life

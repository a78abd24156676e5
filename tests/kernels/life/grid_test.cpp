// The host grid helpers: population, first_difference, check_size.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

#include "life/life.h"

namespace gpulab::life {
namespace {

TEST(Grid, PopulationCountsLiveCells) {
  Grid g(7, 5);
  EXPECT_EQ(g.population(), 0u);
  g.at(0, 0) = 1;
  g.at(6, 4) = 1;
  g.at(3, 2) = 1;
  EXPECT_EQ(g.population(), 3u);
  Grid full(13, 11);
  std::fill(full.cells.begin(), full.cells.end(), uint8_t{1});
  EXPECT_EQ(full.population(), 13u * 11u);
}

TEST(Grid, FirstDifferenceFindsTheFirstCellInRowMajorOrder) {
  Grid a(9, 4), b(9, 4);
  EXPECT_FALSE(first_difference(a, b).has_value());
  b.at(5, 3) = 1;
  b.at(7, 1) = 1;
  auto d = first_difference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->x, 7);
  EXPECT_EQ(d->y, 1);
  a.at(7, 1) = 1;
  d = first_difference(a, b);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->x, 5);
  EXPECT_EQ(d->y, 3);
  a.at(5, 3) = 1;
  EXPECT_FALSE(first_difference(a, b).has_value());
  EXPECT_EQ(a, b);
}

TEST(Grid, GridsOfDifferentSizesDiffer) {
  EXPECT_TRUE(first_difference(Grid(3, 4), Grid(4, 3)).has_value());
  EXPECT_TRUE(first_difference(Grid(3, 4), Grid(3, 5)).has_value());
}

TEST(Grid, CheckSizeAcceptsTheWholeRange) {
  EXPECT_EQ(check_size(1, 1), "");
  EXPECT_EQ(check_size(kMinEdge, kMaxEdge), "");
  EXPECT_EQ(check_size(kMaxEdge, kMaxEdge), "");  // exactly 2^32 cells
  EXPECT_EQ(check_size(1920, 1080), "");
}

TEST(Grid, CheckSizeNamesTheSizeAndTheLimit) {
  for (auto [w, h] : {std::pair<long long, long long>{0, 10},
                      {10, 0},
                      {-5, 10},
                      {kMaxEdge + 1ll, 1},
                      {1, kMaxEdge + 1ll},
                      {100000, 100000}}) {
    const std::string msg = check_size(w, h);
    ASSERT_FALSE(msg.empty()) << w << "x" << h;
    EXPECT_NE(msg.find(std::to_string(w) + "x" + std::to_string(h)), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(kMaxEdge)), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace gpulab::life

// The host grid's helpers: population, comparison and the size check every engine runs before it
// allocates anything.
#include <algorithm>

#include "life/life.h"

namespace gpulab::life {

uint64_t Grid::population() const {
  // Cells hold 0 or 1; count non-zero bytes anyway so a stray 255 from a caller counts once.
  return static_cast<uint64_t>(std::count_if(cells.begin(), cells.end(), [](uint8_t c) { return c != 0; }));
}

std::optional<Cell> first_difference(const Grid& a, const Grid& b) {
  // Grids of different sizes have no common cell to compare; report the origin so that callers who
  // only ask "are they equal?" get a clear no.
  if (a.width != b.width || a.height != b.height || a.cells.size() != b.cells.size()) return Cell{0, 0};
  const auto [ia, ib] = std::mismatch(a.cells.begin(), a.cells.end(), b.cells.begin());
  if (ia == a.cells.end()) return std::nullopt;
  const auto index = static_cast<long long>(ia - a.cells.begin());
  return Cell{static_cast<int>(index % a.width), static_cast<int>(index / a.width)};
}

std::string check_size(long long width, long long height) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width < kMinEdge || height < kMinEdge || width > kMaxEdge || height > kMaxEdge)
    return "grid size " + size + " is not allowed: each edge must be between " + std::to_string(kMinEdge) +
           " and " + std::to_string(kMaxEdge) + " cells";
  constexpr long long kMaxCells = 1ll << 32;
  if (width * height > kMaxCells)
    return "grid size " + size + " has " + std::to_string(width * height) +
           " cells, more than the limit of " + std::to_string(kMaxCells) + " (2^32)";
  return {};
}

}  // namespace gpulab::life

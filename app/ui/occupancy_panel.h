#pragma once
// The occupancy panel: per kernel, its resources (registers, shared memory, spills), how many of
// its blocks and warps fit on an SM, which resource binds and why, and occupancy over every block
// size with the current one marked. Takes the plain OccupancyReport structs, so it builds without
// CUDA; the reports come from cuda::analyze_occupancy (CUDA builds only).
#include <span>

#include "cuda/occupancy.h"

namespace gpulab::ui {

// Draws into the current ImGui window; the first kernel is expanded, the others collapsed.
void occupancy_panel(std::span<const cuda::OccupancyReport> reports);
// One kernel's report without the collapsing header.
void occupancy_report(const cuda::OccupancyReport& report);

}  // namespace gpulab::ui

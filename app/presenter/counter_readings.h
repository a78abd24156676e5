#pragma once
// What the GPU's counters mean for one step (cuda/counters.h measures them): the figures per item
// against the demo's ideal (Probe / Throughput: items and the fewest bytes a step moves), and each
// number with its one-line plain-language reading ("3.94 bytes read per cell update: 3.9× the ideal
// 1 byte: data is fetched more than once"). Pure arithmetic and text, CUDA-free, tested on the CPU.
#include <string>
#include <vector>

#include "cuda/counters.h"

namespace gpulab::presenter {

// What one step should do, and the device's roofs: from the probe and the app's peaks.
struct StepIdeal {
  double items_per_step = 0;          // "cell updates" a step
  std::string item_unit;              // plural, as the bench prints it ("cell updates")
  double bytes_per_step = 0;          // the fewest DRAM bytes a step moves, read + written (0: unknown)
  double flops_per_step = 0;          // FP32 operations a step (0: the demo counts none)
  double theoretical_occupancy = -1;  // the occupancy panel's figure for the kernel, % (-1: unknown)
  double peak_bandwidth_gbps = 0;     // the device's DRAM peak (0: unknown)
  double peak_fp32_gflops = 0;        // the device's FP32 peak (0: unknown)
};

// The derived figures (0 where a divisor is missing).
struct CounterFigures {
  double ms = 0;                                                                     // the kernels' own time
  double read_per_item = 0, write_per_item = 0, dram_per_item = 0, l2_per_item = 0;  // bytes
  double ideal_per_item = 0;  // bytes_per_step / items_per_step
  double dram_vs_ideal = 0;   // DRAM bytes / the ideal bytes
  double l2_vs_dram = 0;      // L2 bytes / DRAM bytes
  double conflicts_per_shared_load = 0;
  double achieved_gbps = 0;    // DRAM bytes / kernel time
  double achieved_gflops = 0;  // flops_per_step / kernel time (0: no FLOP count)
  double intensity = 0;        // FLOP per DRAM byte (0: no FLOP count or no DRAM bytes)
};
CounterFigures counter_figures(const cuda::KernelCounters& k, const StepIdeal& ideal);

// One number and its reading.
struct Reading {
  std::string name;     // "DRAM read"
  std::string value;    // "33.6 MB · 3.94 B per cell update"
  std::string meaning;  // the one-line reading
};
std::vector<Reading> counter_readings(const cuda::KernelCounters& k, const StepIdeal& ideal);

// "cell update" from "cell updates" (the last word's plural s dropped; "" stays "").
std::string singular_unit(const std::string& plural);
// SI bytes: "512 B", "33.6 MB", "1.20 GB".
std::string format_bytes(double bytes);
// Three significant figures, no exponent for everyday sizes: "3.94", "0.0123", "1234", "1.23e+09".
std::string format_sig3(double v);

}  // namespace gpulab::presenter

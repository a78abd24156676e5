#pragma once
// The record every demo's variant table row starts with: what the shell, the CLI, the bench and the
// tests know of a variant without knowing the demo (its id, words, source marker, block sizes), and
// the selector the demo's engines launch by. A demo's Variant derives from it and adds its own columns
// (backend, stage, layout...), so a table row reads
//   {{"gpu-shared", "title", "lesson", "snippet", kBlocks, true, 32, Kernel::Shared}, Backend::Cuda, ...}
// Free of CUDA and GL headers; a literal type, so the tables stay constexpr.
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>

namespace gpulab {

namespace detail {
template <class E>
inline constexpr char kKernelTag = 0;  // its address names the enum type E
}  // namespace detail

// Which kernel (or CPU routine) a variant runs: a value of the demo's own enum (life::Kernel,
// histeq::HistKind...), kept in the table row so that the launch and the occupancy list read one map
// and never look at the id. It remembers the enum's type: reading it as another enum throws rather
// than launching the wrong kernel. Empty for a variant its engine runs without choosing (a stage's
// one CPU reference).
class KernelSelector {
 public:
  constexpr KernelSelector() = default;
  template <class E>
  requires std::is_enum_v<E>
  constexpr KernelSelector(E e)  // implicit: a table row names the enum value
      : value_(static_cast<int>(e)), tag_(&detail::kKernelTag<E>) {}

  template <class E>
  requires std::is_enum_v<E>
  constexpr bool holds() const { return tag_ == &detail::kKernelTag<E>; }
  template <class E>
  requires std::is_enum_v<E>
  constexpr E as() const {
    if (!holds<E>()) throw std::logic_error("a variant's kernel selector read as another enum, or empty");
    return static_cast<E>(value_);
  }
  constexpr bool empty() const { return tag_ == nullptr; }
  friend constexpr bool operator==(const KernelSelector&, const KernelSelector&) = default;

 private:
  int value_ = 0;
  const void* tag_ = nullptr;
};

struct VariantRecord {
  std::string_view id;       // stable: CLI, tests, bench, screenshots
  std::string_view title;    // shown in the variant picker
  std::string_view lesson;   // one line: what this variant teaches
  std::string_view snippet;  // source marker: the snippet of its kernel the code panel shows
  // Allowed block sizes; empty: none (a CPU variant, or one that fixes its own launch).
  std::span<const int> blocks{};
  bool square_blocks = false;  // true: blocks[i] × blocks[i] (a square block or tile); false: blocks[i]
  int default_block = 0;       // one of blocks (0 when blocks is empty)
  KernelSelector kernel{};     // what its engine launches
  // A library's rung (CUB's device-wide histogram, Thrust): the time is the library call's, its kernels are
  // the library's (no occupancy of ours to show), and the ladder tags the row "library".
  bool library = false;
};

// The row of a variant table whose id is `id`; null when there is none. Every demo's find_variant.
template <class V>
const V* find_by_id(std::span<const V> table, std::string_view id) {
  for (const V& v : table)
    if (v.id == id) return &v;
  return nullptr;
}

}  // namespace gpulab

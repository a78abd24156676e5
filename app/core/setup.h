#pragma once
// What runs is one value: a Setup is a demo's parameters and one Pick per stage of its pipeline. The
// shell owns the Setup of the running demo and hands it to the demo (Demo::bind); the demo reads its
// parameters and picks from it and keeps no copy of what was chosen. A/B copies a Setup and changes
// one pick (`b = a; b.picks[s] = p`), a lesson step is a Setup, the bench runs the Setup it is given.
// Variant ids are strings only at the edges (command line, TOML, CSV, JSON); inside the app a pick
// is typed: indices into the demo's own stage tables (Demo::stage_tables).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace gpulab {

// One stage's choice: the index of its variant in the stage's table, and the block size (0: the
// variant has none).
struct Pick {
  size_t stage = 0;
  int variant = 0;
  int block = 0;
  friend bool operator==(const Pick&, const Pick&) = default;
};
using Picks = std::vector<Pick>;  // one per stage, in stage order (picks[s].stage == s)

// The same variant of the same stage, whatever the block.
inline bool same_variant(const Pick& a, const Pick& b) {
  return a.stage == b.stage && a.variant == b.variant;
}

// A demo's own parameters: the values of its command-line option group, a copyable value. Each demo
// derives its parameters from this (LifeParams, NbodyParams...); what the command line gives lands in
// the value add_options bound, and the demo reads it when configured.
class DemoParams {
 public:
  virtual ~DemoParams() = default;
  virtual std::unique_ptr<DemoParams> clone() const = 0;
  // The demo's option group of `cli`, bound to this value (shown under the demo's heading in --help).
  virtual void add_options(CLI::App& cli) = 0;
  // Whether `other` (the same demo's) describes the same input: every parameter that shapes what is
  // computed is equal; outputs (--save-...) and display-only settings do not count.
  virtual bool same_input(const DemoParams& other) const = 0;
  // The options given on the command line that change what is measured, as "--NAME VALUE" (for the
  // bench's note that they pin its sweep); outputs are left out.
  virtual std::vector<std::string> given() const { return {}; }
};

// A number as a --NAME VALUE of DemoParams::given writes it ("0.3", "1e-05").
inline std::string option_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A DemoParams held by value: copying copies the parameters (clone), so that Setups copy whole.
class Params {
 public:
  Params() = default;
  explicit Params(std::unique_ptr<DemoParams> p) : p_(std::move(p)) {}
  Params(const Params& o) : p_(o.p_ ? o.p_->clone() : nullptr) {}
  Params& operator=(const Params& o) {
    if (this != &o) p_ = o.p_ ? o.p_->clone() : nullptr;
    return *this;
  }
  Params(Params&&) noexcept = default;
  Params& operator=(Params&&) noexcept = default;

  explicit operator bool() const { return p_ != nullptr; }
  DemoParams* get() const { return p_.get(); }
  // The demo's own type (the demo made it: Demo::make_params).
  template <class P>
  const P& as() const {
    return dynamic_cast<const P&>(*p_);
  }
  template <class P>
  P& as() {
    return dynamic_cast<P&>(*p_);
  }

 private:
  std::unique_ptr<DemoParams> p_;
};

// The inputs the shell's options give every demo that takes them (--image, --seed, --init): shared so
// that the demos' option groups do not clash in CLI11; a demo that takes none refuses them.
struct SharedInputs {
  std::string image;             // --image PATH
  std::optional<uint64_t> seed;  // --seed S
  std::string init;              // --init NAME ("": the demo's default)
  friend bool operator==(const SharedInputs&, const SharedInputs&) = default;
};

struct Setup {
  std::string demo;  // the demo's name ("life")
  SharedInputs shared;
  Params params;
  Picks picks;
  // The stage picked last (a --variant, a lesson step's variant, a variant or block chosen in the
  // panel); none while every pick is a default. The matrix demo's op follows it.
  std::optional<size_t> focus;
};

// Whether a and b describe the same case: the same demo on the same input (shared inputs and the
// demo's own parameters, DemoParams::same_input). The picks may differ: that is what is compared.
bool same_input(const Setup& a, const Setup& b);

}  // namespace gpulab

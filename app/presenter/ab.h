#pragma once
// A/B (F8; a lesson step with two variants): two variants of one demo side by side on identical
// input. Both halves are fresh instances of the demo running one Setup, B's a copy of A's with one
// pick changed (b = a; b.picks[s] = p), so they start from the same grid / bodies / image; every frame
// both get the same Frame (steps, dt, keys, mouse), so they stay in step (same generation, step,
// angle) and one camera moves both. Each is drawn into its own half-width framebuffer, labelled
// with its variant and live time; the ratio of the two times is shown large. The B half has its own
// Context and Timings, so the two times never mix. Reaches the demo only through the Demo interface.
#include <memory>
#include <string>

#include "core/demo.h"
#include "core/timings.h"
#include "gl/gl.h"

struct ImFont;

namespace gpulab::presenter {

// How many times faster B runs than A (a_ms / b_ms); 0 when either time is missing or not positive.
double ab_ratio(double a_ms, double b_ms);
// "cpu-lut is 3.2× faster than cpu-naive", "... 1.8× slower than ...", "... as fast as ..." (within 2%),
// or "" when the ratio is unknown.
std::string ab_ratio_text(const std::string& a, const std::string& b, double ratio);

// The halves of an A/B of `stage` on `running` (the Setup the app runs): A is `running` with variant
// `a` picked there, B is A with variant `b` picked (b = a; b.picks[stage] = p): the same parameters
// and inputs, the other stages as they are (settled by the demo's rules).
struct AbSetups {
  Setup a, b;
};
AbSetups ab_setups(const StageTables& tables, const Setup& running, size_t stage, int a, int b);

class AbCompare {
 public:
  // B: `demo`, a fresh instance of the demo, runs `setup` (A's with one pick changed); A is the app's.
  AbCompare(Setup setup, std::unique_ptr<Demo> demo);
  ~AbCompare();
  AbCompare(const AbCompare&) = delete;
  AbCompare& operator=(const AbCompare&) = delete;

  // Configures B for a run that writes nothing (`options`: Demo::configure's): "" or why not.
  std::string configure(const Options& options);
  // Attaches B with a copy of the app's context whose timings are B's own; a pick that cannot run
  // here becomes its stage's CPU one (runnable_picks). Throws what attach throws (after detaching
  // what B made before failing).
  void attach(const Context& app);
  Demo& b() { return *b_; }
  const Setup& setup() const { return setup_; }  // what B runs
  Timings& timings() { return timings_; }

  // The half framebuffers, re-made when the halves change size.
  void size_halves(int w, int h);
  const gl::Framebuffer& half(int i) const { return halves_[i]; }

 private:
  Setup setup_;  // declared before b_, which is bound to it
  std::unique_ptr<Demo> b_;
  bool attached_ = false;
  Context ctx_;
  Timings timings_;
  gl::Framebuffer halves_[2];
};

// What was drawn, for the layout report (window points).
struct AbShown {
  bool shown = false;
  std::string variant_a, variant_b, ratio_text, time_a, time_b;
  double ratio = 0;
  float split_x = 0, x0 = 0, x1 = 0, label_y1 = 0;  // the halves' border, the view, below the labels
  float ratio_y1 = 0;                               // below the ratio's box
  float label_x1[2] = {0, 0};                       // where each half's label box ends on the right
  float ratio_x0 = 0, ratio_x1 = 0;                 // the ratio's box
};

// Labels each half (variant, live time) at its top, the ratio large under the labels, and the
// border between the halves down to `y1`.
AbShown draw_ab_overlay(const std::string& a, double a_ms, const std::string& b, double b_ms, float x0,
                        float x1, float y1, ImFont* big, ImFont* small, bool light_theme);

}  // namespace gpulab::presenter

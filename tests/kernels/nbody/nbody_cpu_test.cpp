// The CPU engine against physics it must reproduce (a Kepler orbit, conservation laws), against a
// plain double-precision transcription of nbody.h's definitions, and against its own contract
// (upload/download, step counts, thread counts, parameter checks, diagnostics).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "common/cpu_info.h"
#include "nbody/nbody.h"

namespace gpulab::nbody {
namespace {

const Variant& cpu_variant() {
  const Variant* v = find_variant("cpu");
  EXPECT_NE(v, nullptr);
  return *v;
}

System run(const System& start, const Params& p, int steps, unsigned threads = 0) {
  auto engine = make_cpu_engine(threads);
  engine->set_params(p);
  engine->upload(start);
  engine->step(cpu_variant(), 0, steps);
  return engine->download();
}

System two_bodies(float m1, float m2, std::array<float, 3> r1, std::array<float, 3> r2,
                  std::array<float, 3> v1, std::array<float, 3> v2) {
  System s;
  s.resize(2);
  for (size_t i = 0; i < 2; ++i) {
    const auto& r = i == 0 ? r1 : r2;
    const auto& v = i == 0 ? v1 : v2;
    s.x[i] = r[0], s.y[i] = r[1], s.z[i] = r[2];
    s.vx[i] = v[0], s.vy[i] = v[1], s.vz[i] = v[2];
    s.m[i] = i == 0 ? m1 : m2;
  }
  return s;
}

double norm(const std::array<double, 3>& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

// Σ m |v|: the scale against which a total momentum of "zero" is measured.
double momentum_scale(const System& s) {
  double sum = 0;
  for (size_t i = 0; i < s.size(); ++i)
    sum +=
        s.m[i] * std::sqrt(double(s.vx[i]) * s.vx[i] + double(s.vy[i]) * s.vy[i] + double(s.vz[i]) * s.vz[i]);
  return sum;
}

TEST(NbodyCpu, CircularBinaryReturnsToItsStartAfterOnePeriod) {
  // Masses 3/4 and 1/4 at separation 1 about their centre of mass, G = 1, no softening: relative
  // speed sqrt(G M / a) = 1 and period 2π.
  const double period = 2 * std::numbers::pi;
  const int steps = 2000;
  const Params p{1.0f, 0.0f, static_cast<float>(period / steps)};
  const System start = two_bodies(0.75f, 0.25f, {-0.25f, 0, 0}, {0.75f, 0, 0}, {0, -0.25f, 0}, {0, 0.75f, 0});

  // Half a period: both on the far side of their circles (1.5 from where the light body began).
  EXPECT_NEAR(max_position_difference(start, run(start, p, steps / 2)), 1.5, 1e-3);
  // One period. Leapfrog lags in phase ∝ dt²: measured 8e-5 at 1000 steps, 2.3e-5 at 2000. Rounding
  // the positions to float each step (2^-24 of 0.75 ≈ 4.5e-8, 2000 times) sets a floor near 2e-5
  // (5000 steps: 1.7e-5). 1e-4 of the separation is 4× what this test measures and still far below
  // any real error in the forces or the step.
  const System end = run(start, p, steps);
  EXPECT_LT(max_position_difference(start, end), 1e-4);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(end.vx[i], start.vx[i], 1e-4);
    EXPECT_NEAR(end.vy[i], start.vy[i], 1e-4);
  }
}

TEST(NbodyCpu, TotalMomentumIsConservedToRounding) {
  const Params p;  // ε = 0.05, dt = 0.005
  const System start = make_initial(InitKind::Plummer, 256, 7, p);
  const double scale = momentum_scale(start);
  auto engine = make_cpu_engine(4);
  engine->set_params(p);
  engine->upload(start);
  const std::array<double, 3> p0 = engine->diagnostics().momentum;
  for (int chunk = 0; chunk < 10; ++chunk) {
    engine->step(cpu_variant(), 0, 100);
    const std::array<double, 3> pt = engine->diagnostics().momentum;
    // The forces cancel pairwise in exact arithmetic; what is left is the float rounding of each
    // a and v (2^-24 ≈ 6e-8 relative) every step, random in sign: measured 1e-7 of Σ m|v| after
    // 1000 steps. 1e-6 gives 10× room; a force that is not antisymmetric breaks it at once.
    EXPECT_LT(norm({pt[0] - p0[0], pt[1] - p0[1], pt[2] - p0[2]}), 1e-6 * scale)
        << "after " << (chunk + 1) * 100;
  }
}

TEST(NbodyCpu, PlummerSphereEnergyDriftIsSmall) {
  const Params p;  // the defaults the demo starts with
  auto engine = make_cpu_engine();
  engine->set_params(p);
  engine->upload(make_initial(InitKind::Plummer, 512, 1, p));
  const double e0 = engine->diagnostics().energy();
  ASSERT_LT(e0, 0);
  engine->step(cpu_variant(), 0, 1000);
  const double e1 = engine->diagnostics().energy();
  // Leapfrog is symplectic: its energy error oscillates and stays bounded instead of growing.
  // Measured over these 5 time units: 5.7e-7, 4.8e-7 and 4.8e-8 for seeds 1, 2, 3, near the
  // ~1e-7 noise of an energy computed from float positions. 1e-5 allows 20×.
  EXPECT_LT(std::abs(e1 - e0) / std::abs(e0), 1e-5);
}

// The header's definitions in double, straight from the formulas: one kick-drift-kick step.
System reference_step(const System& s, const Params& p) {
  const size_t n = s.size();
  auto accelerations = [&](const std::vector<double>& x, const std::vector<double>& y,
                           const std::vector<double>& z) {
    std::vector<std::array<double, 3>> a(n);
    const double eps2 = double(p.softening) * p.softening;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        const double dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        const double d2 = dx * dx + dy * dy + dz * dz + eps2;
        const double w = p.G * s.m[j] / (d2 * std::sqrt(d2));
        a[i][0] += w * dx, a[i][1] += w * dy, a[i][2] += w * dz;
      }
    return a;
  };
  std::vector<double> x(s.x.begin(), s.x.end()), y(s.y.begin(), s.y.end()), z(s.z.begin(), s.z.end());
  std::vector<double> vx(s.vx.begin(), s.vx.end()), vy(s.vy.begin(), s.vy.end()),
      vz(s.vz.begin(), s.vz.end());
  const double dt = p.dt;
  auto a = accelerations(x, y, z);
  for (size_t i = 0; i < n; ++i) {
    vx[i] += a[i][0] * dt / 2, vy[i] += a[i][1] * dt / 2, vz[i] += a[i][2] * dt / 2;
    x[i] += vx[i] * dt, y[i] += vy[i] * dt, z[i] += vz[i] * dt;
  }
  a = accelerations(x, y, z);
  System out = s;
  for (size_t i = 0; i < n; ++i) {
    out.x[i] = float(x[i]), out.y[i] = float(y[i]), out.z[i] = float(z[i]);
    out.vx[i] = float(vx[i] + a[i][0] * dt / 2), out.vy[i] = float(vy[i] + a[i][1] * dt / 2),
    out.vz[i] = float(vz[i] + a[i][2] * dt / 2);
  }
  return out;
}

TEST(NbodyCpu, OneStepMatchesTheDefinitionsInDouble) {
  for (float softening : {0.0f, 0.05f}) {
    // A larger step than the default, so that the velocity change is well above float rounding.
    const Params p{1.5f, softening, 0.05f};
    const System start = make_initial(InitKind::Plummer, 37, 11, p);
    const System engine = run(start, p, 1);
    const System reference = reference_step(start, p);
    // The engine keeps r and v in float between the half steps: differences of a few float ulps
    // of values ~1 (6e-8 each), amplified by the tidal field over one step. Measured: positions
    // 4e-9 and 3e-8, velocities 1.2e-7 (ε = 0, 0.05); 1e-6 leaves ~8×.
    EXPECT_LT(max_position_difference(engine, reference), 1e-6) << "softening " << softening;
    double worst_dv = 0, largest_dv = 0;
    for (size_t i = 0; i < start.size(); ++i) {
      worst_dv = std::max({worst_dv, std::abs(double(engine.vx[i]) - reference.vx[i]),
                           std::abs(double(engine.vy[i]) - reference.vy[i]),
                           std::abs(double(engine.vz[i]) - reference.vz[i])});
      largest_dv = std::max({largest_dv, std::abs(double(reference.vx[i]) - start.vx[i]),
                             std::abs(double(reference.vy[i]) - start.vy[i])});
    }
    EXPECT_LT(worst_dv, 1e-6) << "softening " << softening;
    EXPECT_GT(largest_dv, 1e-3) << "the step must actually change the velocities";
  }
}

TEST(NbodyCpu, ALoneBodyWithoutSofteningStaysPut) {
  // The j = i term is zero also at ε = 0: no 0/0 turning the body into NaNs.
  System s;
  s.resize(1);
  s.m[0] = 1;
  s.x[0] = 0.5f;
  EXPECT_EQ(run(s, {1.0f, 0.0f, 0.01f}, 10), s);
}

TEST(NbodyCpu, UploadDownloadRoundTrip) {
  const System s = make_initial(InitKind::Disk, 300, 3, Params{});
  auto engine = make_cpu_engine(2);
  EXPECT_EQ(engine->size(), 0u);
  engine->upload(s);
  EXPECT_EQ(engine->size(), 300u);
  EXPECT_EQ(engine->download(), s);
}

TEST(NbodyCpu, UploadRefusesEmptyOrRaggedSystems) {
  auto engine = make_cpu_engine(2);
  EXPECT_THROW(engine->upload(System{}), std::invalid_argument);
  System ragged = make_initial(InitKind::Plummer, 10, 1, Params{});
  ragged.vz.pop_back();
  EXPECT_THROW(engine->upload(ragged), std::invalid_argument);
}

TEST(NbodyCpu, ZeroStepsLeaveTheStateUnchanged) {
  const System s = make_initial(InitKind::Plummer, 100, 5, Params{});
  auto engine = make_cpu_engine(2);
  engine->upload(s);
  engine->step(cpu_variant(), 0, 0);
  EXPECT_EQ(engine->download(), s);
  engine->step(cpu_variant(), 0, 3);
  const System after = engine->download();
  EXPECT_NE(after, s);
  engine->step(cpu_variant(), 0, 0);
  EXPECT_EQ(engine->download(), after);
}

TEST(NbodyCpu, SplitStepCallsEqualOneCall) {
  // The accelerations are kept between calls, so 3 + 4 steps are bit for bit 7 steps.
  const Params p;
  const System s = make_initial(InitKind::Galaxies, 200, 9, p);
  auto engine = make_cpu_engine(3);
  engine->set_params(p);
  engine->upload(s);
  engine->step(cpu_variant(), 0, 3);
  engine->step(cpu_variant(), 0, 4);
  EXPECT_EQ(engine->download(), run(s, p, 7));
}

TEST(NbodyCpu, ThreadCountDoesNotChangeTheResult) {
  // 1000 bodies: not a multiple of the 64-body force block, so the partial block is exercised too.
  const Params p;
  const System s = make_initial(InitKind::Plummer, 1000, 2, p);
  const System one = run(s, p, 5, 1);
  EXPECT_EQ(run(s, p, 5, 4), one);
  EXPECT_EQ(run(s, p, 5, 3), one);

  auto single = make_cpu_engine(1), quad = make_cpu_engine(4);
  single->upload(one);
  quad->upload(one);
  const Diagnostics a = single->diagnostics(), b = quad->diagnostics();
  EXPECT_EQ(a.potential, b.potential);
  EXPECT_EQ(a.kinetic, b.kinetic);
  EXPECT_EQ(a.radius, b.radius);
}

TEST(NbodyCpu, NewGOrSofteningOrStateRecomputesTheAccelerations) {
  const Params p1;
  const System s0 = make_initial(InitKind::Plummer, 120, 4, p1);
  auto engine = make_cpu_engine(2);
  engine->set_params(p1);
  engine->upload(s0);
  engine->step(cpu_variant(), 0, 2);
  const System s1 = engine->download();

  // Stale accelerations (from G = 1) would make the next step differ from a fresh engine's.
  Params p2 = p1;
  p2.G = 2.0f;
  engine->set_params(p2);
  engine->step(cpu_variant(), 0, 1);
  EXPECT_EQ(engine->download(), run(s1, p2, 1));

  Params p3 = p2;
  p3.softening = 0.2f;
  const System s2 = engine->download();
  engine->set_params(p3);
  engine->step(cpu_variant(), 0, 1);
  EXPECT_EQ(engine->download(), run(s2, p3, 1));

  const System other = make_initial(InitKind::Disk, 120, 4, p3);
  engine->upload(other);
  engine->step(cpu_variant(), 0, 2);
  EXPECT_EQ(engine->download(), run(other, p3, 2));
}

TEST(NbodyCpu, RefusesCudaVariantsNegativeStepsAndBadParams) {
  auto engine = make_cpu_engine(1);
  engine->upload(make_initial(InitKind::Plummer, 8, 1, Params{}));
  for (const Variant& v : variants()) {
    if (v.backend == Backend::Cuda) {
      EXPECT_THROW(engine->step(v, v.default_block, 1), std::invalid_argument) << v.id;
    }
  }
  EXPECT_THROW(engine->step(cpu_variant(), 0, -1), std::invalid_argument);

  const Params good{2.0f, 0.1f, 0.01f};
  engine->set_params(good);
  EXPECT_THROW(engine->set_params(Params{1.0f, 0.05f, 0.0f}), std::invalid_argument);
  EXPECT_EQ(engine->params(), good);
}

TEST(NbodyCpu, CheckParams) {
  EXPECT_EQ(check_params(Params{}), "");
  EXPECT_EQ(check_params(Params{1.0f, 0.0f, 10.0f}), "") << "ε = 0 and the largest dt are allowed";
  const float nan = std::nanf(""), inf = INFINITY;
  const struct {
    Params p;
    const char* name;  // the parameter the message must name
  } refused[] = {
      {{1, 0.05f, 0}, "dt"},           {{1, 0.05f, -0.01f}, "dt"},         {{1, 0.05f, 11}, "dt"},
      {{1, 0.05f, nan}, "dt"},         {{1, -0.01f, 0.005f}, "softening"}, {{1, 2000, 0.005f}, "softening"},
      {{1, inf, 0.005f}, "softening"}, {{0, 0.05f, 0.005f}, "G"},          {{-1, 0.05f, 0.005f}, "G"},
      {{inf, 0.05f, 0.005f}, "G"},     {{2e6f, 0.05f, 0.005f}, "G"},
  };
  for (const auto& [p, name] : refused) {
    const std::string why = check_params(p);
    EXPECT_NE(why.find(name), std::string::npos)
        << "G=" << p.G << " softening=" << p.softening << " dt=" << p.dt << ": '" << why << "'";
  }
}

TEST(NbodyCpu, DeviceNameCountsThreads) {
  // The one CPU label of every engine: the model (where /proc/cpuinfo names it) and the threads.
  EXPECT_EQ(make_cpu_engine(1)->device_name(), gpulab::cpu_label(1));
  EXPECT_EQ(make_cpu_engine(3)->device_name(), gpulab::cpu_label(3));
  const std::string one(make_cpu_engine(1)->device_name()), three(make_cpu_engine(3)->device_name());
  EXPECT_EQ(one.rfind("CPU (", 0), 0u);
  EXPECT_EQ(one.substr(one.size() - 9), "1 thread)");
  EXPECT_EQ(three.substr(three.size() - 10), "3 threads)");
  EXPECT_EQ(make_cpu_engine(3)->backend(), Backend::Cpu);
}

TEST(NbodyCpu, DiagnosticsOfAKnownSystem) {
  // Masses 1 and 3 at (1,0,0) and (-1,2,0), velocities (0,1,0) and (1,0,-1); G = 2, ε = 0.5.
  const System s = two_bodies(1, 3, {1, 0, 0}, {-1, 2, 0}, {0, 1, 0}, {1, 0, -1});
  const Params p{2.0f, 0.5f, 0.01f};
  const Diagnostics d = diagnostics_cpu(s, p);
  // Sums of a few terms in double: 1e-12 leaves room for rounding only.
  EXPECT_NEAR(d.kinetic, 0.5 * 1 * 1 + 0.5 * 3 * 2, 1e-12);
  EXPECT_NEAR(d.potential, -2.0 * 1 * 3 / std::sqrt(4 + 4 + 0.25), 1e-12);
  EXPECT_NEAR(d.momentum[0], 3, 1e-12);
  EXPECT_NEAR(d.momentum[1], 1, 1e-12);
  EXPECT_NEAR(d.momentum[2], -3, 1e-12);
  // Σ m r × v: 1·(1,0,0)×(0,1,0) = (0,0,1); 3·(-1,2,0)×(1,0,-1) = 3·(-2,-1,-2).
  EXPECT_NEAR(d.angular_momentum[0], -6, 1e-12);
  EXPECT_NEAR(d.angular_momentum[1], -3, 1e-12);
  EXPECT_NEAR(d.angular_momentum[2], 1 - 6, 1e-12);
  EXPECT_NEAR(d.centre_of_mass[0], -0.5, 1e-12);
  EXPECT_NEAR(d.centre_of_mass[1], 1.5, 1e-12);
  EXPECT_EQ(d.total_mass, 4);
  EXPECT_NEAR(d.energy(), d.kinetic + d.potential, 0);
}

TEST(NbodyCpu, RadiusHoldsNinetyPercentOfTheMass) {
  // Ten bodies of mass 1 at ±1 … ±5 on the x axis: 9 of them lie within 5, only 8 within 4.
  System s;
  s.resize(10);
  for (size_t i = 0; i < 10; ++i) {
    s.x[i] = static_cast<float>(i / 2 + 1) * (i % 2 ? 1.0f : -1.0f);
    s.m[i] = 1;
  }
  EXPECT_EQ(diagnostics_cpu(s, Params{}).radius, 5.0);
}

TEST(NbodyCpu, DiagnosticsRequestedThenPolled) {
  auto engine = make_cpu_engine(2);
  engine->upload(make_initial(InitKind::Plummer, 64, 1, Params{}));
  EXPECT_FALSE(engine->poll_diagnostics().has_value()) << "nothing requested yet";
  engine->request_diagnostics();
  const std::optional<Diagnostics> polled = engine->poll_diagnostics();
  ASSERT_TRUE(polled.has_value());
  EXPECT_EQ(polled->potential, engine->diagnostics().potential);
  EXPECT_FALSE(engine->poll_diagnostics().has_value()) << "one request, one answer";
}

TEST(NbodyCpu, VerticesCarryPositionMassAndSpeed) {
  const System s = two_bodies(0.25f, 0.75f, {1, 2, 3}, {-1, 0, 0.5f}, {3, 4, 0}, {0, 0, -2});
  auto engine = make_cpu_engine(1);
  engine->upload(s);
  Vertex v[2];
  engine->write_vertices(v);
  EXPECT_EQ(v[0].x, 1);
  EXPECT_EQ(v[0].y, 2);
  EXPECT_EQ(v[0].z, 3);
  EXPECT_EQ(v[0].mass, 0.25f);
  EXPECT_FLOAT_EQ(v[0].speed, 5);
  EXPECT_EQ(v[1].mass, 0.75f);
  EXPECT_FLOAT_EQ(v[1].speed, 2);
}

TEST(NbodyCpu, MaxPositionDifference) {
  const System a = two_bodies(1, 1, {0, 0, 0}, {1, 1, 1}, {}, {});
  System b = a;
  EXPECT_EQ(max_position_difference(a, b), 0);
  b.y[1] += 2;
  b.x[0] -= 1;
  EXPECT_EQ(max_position_difference(a, b), 2);
  b.z[0] = std::nanf("");
  EXPECT_TRUE(std::isnan(max_position_difference(a, b))) << "a NaN must not hide behind the maximum";
  b.resize(3);
  EXPECT_THROW(max_position_difference(a, b), std::invalid_argument);
}

// Bad input, second round (issue 30): a state that blows up is found, so --save-bodies can stop with
// "the state is not finite after step K" instead of writing -nan into every field with exit 0.
TEST(NbodyFinite, ABlownUpStateIsFoundAndNamed) {
  System s;
  s.resize(3);
  for (size_t i = 0; i < 3; ++i) {
    s.x[i] = s.y[i] = s.z[i] = 0;
    s.vx[i] = s.vy[i] = s.vz[i] = 0;
    s.m[i] = 1;
  }
  s.x[1] = 1e-30f;  // all but coincident: without softening, an acceleration of ~1e60 (inf as a float)
  Params p;
  p.softening = 0;
  ASSERT_EQ(check_params(p), "");
  auto engine = make_cpu_engine();
  engine->set_params(p);
  engine->upload(s);
  EXPECT_EQ(check_finite(engine->download(), 0), "");
  engine->step(*find_variant("cpu"), 0, 2);
  const std::string why = check_finite(engine->download(), 2);
  EXPECT_EQ(why.rfind("the state is not finite after step 2 (body 0", 0), 0u) << why;
  // Softened, the same bodies stay finite.
  p.softening = 0.05f;
  engine->set_params(p);
  engine->upload(s);
  engine->step(*find_variant("cpu"), 0, 2);
  EXPECT_EQ(check_finite(engine->download(), 2), "");
  // Huge values overflow to inf.
  s.x[1] = 3.4e38f;  // one step of v dt more passes FLT_MAX
  s.vx[1] = 3.4e38f;
  engine->upload(s);
  engine->step(*find_variant("cpu"), 0, 1);
  EXPECT_NE(check_finite(engine->download(), 1), "");
}

// Issue 30: a CPU run's time is estimated before its first step, from a sample scaled by N^2 (one
// step of 16Mi bodies takes days). The scaling exactly; the timing only for being there.
TEST(NbodyEstimate, ScalesASampleByTheSquareOfTheBodies) {
  EXPECT_DOUBLE_EQ(scale_cpu_seconds(0.004, 2048, 16777216, 10), 0.004 * 8192.0 * 8192.0 * 10);
  EXPECT_DOUBLE_EQ(scale_cpu_seconds(0.004, 2048, 2048, 3), 0.012);
  EXPECT_EQ(scale_cpu_seconds(0.004, 2048, 4096, 0), 0);
  const System s = make_initial(InitKind::Plummer, 4096, 1, Params{});
  const double t = estimate_cpu_seconds(s, Params{}, *find_variant("cpu"), 5, 512);
  EXPECT_GT(t, 0);
  EXPECT_TRUE(std::isfinite(t));
  // Fewer bodies than the sample: the system itself is timed.
  EXPECT_GT(estimate_cpu_seconds(s, Params{}, *find_variant("cpu"), 1, 1 << 20), 0);
}

}  // namespace
}  // namespace gpulab::nbody

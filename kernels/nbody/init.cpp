// Initial conditions of the N-body demo, in N-body units (G = 1, total mass 1, the Plummer sphere's
// energy −1/4), with velocities scaled for the G in use.
//
//   plummer   the Plummer sphere in virial equilibrium (Aarseth, Hénon & Wielen 1974)
//   sphere    a uniform sphere of radius 1 at rest: the cold collapse
//   disk      a rotating disk galaxy: a central mass and a thin disk on near-circular orbits
//   galaxies  two such disks, one tilted, falling towards each other on a parabolic orbit
//
// The random numbers come from our own xoshiro256** (seeded by splitmix64) and are turned into
// doubles by our own code: std:: distributions give different numbers in each standard library.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numbers>
#include <vector>

#include "common/random.h"
#include "nbody/nbody.h"

namespace gpulab::nbody {
namespace {

constexpr InitInfo kInits[] = {
    {InitKind::Plummer, "plummer", "Plummer sphere in equilibrium"},
    {InitKind::UniformSphere, "sphere", "uniform sphere at rest (cold collapse)"},
    {InitKind::Disk, "disk", "rotating disk galaxy"},
    {InitKind::Galaxies, "galaxies", "two colliding disk galaxies"},
};

constexpr double kPi = std::numbers::pi;

// xoshiro256** (Blackman & Vigna).
class Random {
 public:
  explicit Random(uint64_t seed) {
    for (uint64_t& word : s_) word = splitmix64(seed);
  }

  uint64_t next() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1), on a grid of 2^-53.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal (Box–Muller; 1 − u keeps the logarithm's argument in (0, 1]).
  double gaussian() {
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
    return radius * std::cos(2.0 * kPi * uniform());
  }

  // A point uniform on the unit sphere.
  std::array<double, 3> direction() {
    const double z = 2.0 * uniform() - 1.0, phi = 2.0 * kPi * uniform();
    const double rho = std::sqrt(std::max(0.0, 1.0 - z * z));
    return {rho * std::cos(phi), rho * std::sin(phi), z};
  }

 private:
  uint64_t s_[4];
};

// Bodies are made in double and rounded to float once, after the centre-of-mass correction.
struct Body {
  std::array<double, 3> r{}, v{};
  double m = 0;
};

std::array<double, 3> scaled(const std::array<double, 3>& a, double f) {
  return {a[0] * f, a[1] * f, a[2] * f};
}

// Aarseth, Hénon & Wielen (1974): radius from the inverted cumulative mass, speed by rejection
// from the isotropic distribution function g(q) = q²(1 − q²)^{7/2}, q = v / v_escape.
void add_plummer(std::vector<Body>& out, Random& rng, size_t n, double G) {
  // From the model's own units (scale radius 1) to N-body units, where E = −1/4: a = 3π/16.
  const double a = 3.0 * kPi / 16.0;
  const double velocity_unit = std::sqrt(G / a);
  for (size_t i = 0; i < n; ++i) {
    // The outermost 0.1% of the mass would lie at radii up to infinity: leave it out, as is usual.
    double mass_fraction;
    do {
      mass_fraction = rng.uniform();
    } while (mass_fraction == 0.0 || mass_fraction > 0.999);
    const double r = 1.0 / std::sqrt(std::pow(mass_fraction, -2.0 / 3.0) - 1.0);

    double q, g;
    do {
      q = rng.uniform();
      g = 0.1 * rng.uniform();  // 0.1 > max g ≈ 0.092
    } while (g > q * q * std::pow(1.0 - q * q, 3.5));
    const double speed = q * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);

    out.push_back({scaled(rng.direction(), r * a), scaled(rng.direction(), speed * velocity_unit), 1.0 / n});
  }
}

// Uniform in the unit ball (radius u^{1/3}), at rest.
void add_uniform_sphere(std::vector<Body>& out, Random& rng, size_t n) {
  for (size_t i = 0; i < n; ++i)
    out.push_back({scaled(rng.direction(), std::cbrt(rng.uniform())), {}, 1.0 / n});
}

// Where a disk sits: centre, velocity, and the tilt of its plane about the x axis.
struct Placement {
  std::array<double, 3> centre{}, velocity{};
  double tilt = 0;  // radians
};

// A central body holding a quarter of the mass, and a disk from radius 0.1 to 1 with surface
// density ∝ 1/R (a Mestel disk: uniform in R, so its enclosed mass grows linearly). Each disk body
// gets the circular speed of the mass inside its radius, with the forces' softening, plus 5%
// random motion; thickness 0.02. With count == 1 the disk is only its central body.
void add_disk(std::vector<Body>& out, Random& rng, size_t count, double mass, double G, double eps,
              const Placement& at) {
  constexpr double kCentralFraction = 0.25, kInner = 0.1, kOuter = 1.0, kThickness = 0.02,
                   kRandomMotion = 0.05;
  const double central = count == 1 ? mass : kCentralFraction * mass;
  const double disk_mass = mass - central;
  const double c = std::cos(at.tilt), s = std::sin(at.tilt);
  auto place = [&](const std::array<double, 3>& r, const std::array<double, 3>& v, double m) {
    // Rotate about x by the tilt, then move to the disk's centre and velocity.
    out.push_back(
        {{at.centre[0] + r[0], at.centre[1] + c * r[1] - s * r[2], at.centre[2] + s * r[1] + c * r[2]},
         {at.velocity[0] + v[0], at.velocity[1] + c * v[1] - s * v[2], at.velocity[2] + s * v[1] + c * v[2]},
         m});
  };

  place({}, {}, central);
  for (size_t i = 1; i < count; ++i) {
    const double R = kInner + (kOuter - kInner) * rng.uniform();
    const double angle = 2.0 * kPi * rng.uniform();
    const double enclosed = central + disk_mass * (R - kInner) / (kOuter - kInner);
    // v²/R = G M(<R) R / (R² + ε²)^{3/2}: the enclosed mass taken as a point at the centre.
    const double v_circular = R * std::sqrt(G * enclosed / std::pow(R * R + eps * eps, 1.5));
    const double sigma = kRandomMotion * v_circular;
    const double cos_a = std::cos(angle), sin_a = std::sin(angle);
    place({R * cos_a, R * sin_a, kThickness * rng.gaussian()},
          {-v_circular * sin_a + sigma * rng.gaussian(), v_circular * cos_a + sigma * rng.gaussian(),
           sigma * rng.gaussian()},
          disk_mass / static_cast<double>(count - 1));
  }
}

// Two disks 4 apart along x with an impact parameter of 1 along y, the second tilted by 60°, each
// with the mass of its bodies, approaching on a parabolic orbit (zero orbital energy).
void add_galaxies(std::vector<Body>& out, Random& rng, size_t n, double G, double eps) {
  const size_t first = (n + 1) / 2, second = n - first;
  const double dx = 4.0, dy = 1.0;
  const double relative_speed = std::sqrt(2.0 * G / std::hypot(dx, dy));  // total mass 1
  const double m1 = static_cast<double>(first) / n, m2 = 1.0 - m1;
  // Each moves opposite the other with its share of the relative speed: zero total momentum.
  add_disk(out, rng, first, m1, G, eps, {{-dx * m2, -dy * m2, 0}, {relative_speed * m2, 0, 0}, 0});
  add_disk(out, rng, second, m2, G, eps, {{dx * m1, dy * m1, 0}, {-relative_speed * m1, 0, 0}, kPi / 3});
}

}  // namespace

std::span<const InitInfo> init_kinds() { return kInits; }

const InitInfo* find_init(std::string_view id) {
  for (const InitInfo& info : kInits)
    if (info.id == id) return &info;
  return nullptr;
}

System make_initial(InitKind kind, size_t n, uint64_t seed, const Params& p) {
  std::vector<Body> bodies;
  bodies.reserve(n);
  Random rng(seed);
  const double G = p.G, eps = p.softening;
  if (n == 1) {
    bodies.push_back({{}, {}, 1.0});  // every kind: one body at rest at the origin
  } else if (n > 1) {
    switch (kind) {
      case InitKind::Plummer:
        add_plummer(bodies, rng, n, G);
        break;
      case InitKind::UniformSphere:
        add_uniform_sphere(bodies, rng, n);
        break;
      case InitKind::Disk:
        add_disk(bodies, rng, n, 1.0, G, eps, {});
        break;
      case InitKind::Galaxies:
        add_galaxies(bodies, rng, n, G, eps);
        break;
    }
  }

  // Sampling leaves the centre of mass and the momentum off zero by ~1/sqrt(n): remove both.
  double total_mass = 0;
  std::array<double, 3> weighted_r{}, weighted_v{};
  for (const Body& b : bodies) {
    total_mass += b.m;
    for (int k = 0; k < 3; ++k) {
      weighted_r[k] += b.m * b.r[k];
      weighted_v[k] += b.m * b.v[k];
    }
  }
  System s;
  s.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const Body& b = bodies[i];
    s.x[i] = static_cast<float>(b.r[0] - weighted_r[0] / total_mass);
    s.y[i] = static_cast<float>(b.r[1] - weighted_r[1] / total_mass);
    s.z[i] = static_cast<float>(b.r[2] - weighted_r[2] / total_mass);
    s.vx[i] = static_cast<float>(b.v[0] - weighted_v[0] / total_mass);
    s.vy[i] = static_cast<float>(b.v[1] - weighted_v[1] / total_mass);
    s.vz[i] = static_cast<float>(b.v[2] - weighted_v[2] / total_mass);
    s.m[i] = static_cast<float>(b.m);
  }
  return s;
}

}  // namespace gpulab::nbody

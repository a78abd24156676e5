// Body files: exact round trips through CSV and tipsy, the tipsy layout of NVIDIA's nbody sample,
// and malformed files rejected with the file and the line or byte offset named.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "nbody/nbody.h"
#include "support/test_paths.h"

namespace gpulab::nbody {
namespace {

const std::string kData = std::string(GPULAB_TEST_DATA) + "/nbody/";

// The error of a parse that must fail (and a readable failure where it succeeds instead).
std::string error_of(const LoadResult& r) {
  EXPECT_FALSE(r.file.has_value()) << "parsed, expected an error";
  return r.error;
}

std::string csv_error(std::string_view text) { return error_of(parse_csv(text, "bodies.csv")); }

// --- CSV ------------------------------------------------------------------------------------------

TEST(NbodyCsv, RoundTripIsExact) {
  // Values that need all 9 significant digits, negative zero, tiny and huge magnitudes.
  System s = make_initial(InitKind::Galaxies, 500, 17, Params{});
  s.x[0] = -0.0f;
  s.y[0] = 1.17549435e-38f;
  s.z[0] = -3.40282347e38f;
  s.vx[0] = 0.1f;
  const Params p{0.667f, 0.0125f, 0.00390625f};
  const LoadResult r = parse_csv(write_csv(s, p, 123456789012ull), "x.csv");
  ASSERT_TRUE(r.file.has_value()) << r.error;
  EXPECT_EQ(r.file->system, s);
  EXPECT_EQ(r.file->params, p);
  EXPECT_EQ(r.file->step, 123456789012ull);
  EXPECT_TRUE(std::signbit(r.file->system.x[0]));
}

TEST(NbodyCsv, WritesTheDocumentedHeader) {
  System s;
  s.resize(1);
  s.m[0] = 1;
  EXPECT_EQ(write_csv(s, Params{1.0f, 0.05f, 0.005f}, 7),
            "# gpulab nbody G=1 softening=0.05 dt=0.005 step=7\n"
            "x,y,z,vx,vy,vz,m\n"
            "0,0,0,0,0,0,1\n");
}

TEST(NbodyCsv, HeaderLineIsOptional) {
  const LoadResult r = parse_csv("x,y,z,vx,vy,vz,m\n1,2,3,4,5,6,0.5\n", "b.csv");
  ASSERT_TRUE(r.file.has_value()) << r.error;
  EXPECT_FALSE(r.file->params.has_value());
  EXPECT_EQ(r.file->step, 0u);
  ASSERT_EQ(r.file->system.size(), 1u);
  EXPECT_EQ(r.file->system.vz[0], 6);
  EXPECT_EQ(r.file->system.m[0], 0.5f);
}

TEST(NbodyCsv, ReadsCrlfWithTrailingBlankLines) {
  const LoadResult r = load_bodies(kData + "three_bodies_crlf.csv");
  ASSERT_TRUE(r.file.has_value()) << r.error;
  EXPECT_EQ(r.file->params, (Params{1.0f, 0.05f, 0.005f}));
  EXPECT_EQ(r.file->step, 42u);
  const System& s = r.file->system;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.x[0], -0.5f);
  EXPECT_EQ(s.vy[1], 0.5f);
  EXPECT_EQ(s.z[2], -3e-2f);
  EXPECT_EQ(s.m[2], 0.0f) << "a massless body is allowed when another has mass";
}

TEST(NbodyCsv, MalformedTextNamesTheLine) {
  const std::string cols = "x,y,z,vx,vy,vz,m\n";
  const struct {
    std::string text, error;
  } cases[] = {
      {cols + "1,2,3,4,5,6,1\n1,2,3,4,5,6\n", "bodies.csv: line 3: expected 7 numbers, found 6"},
      {cols + "1,2,3,4,5,6,1,8\n", "bodies.csv: line 2: expected 7 numbers, found 8"},
      {cols + "1,2,abc,4,5,6,1\n", "bodies.csv: line 2: 'abc' is not a number"},
      {cols + "1,2,3,4,5,,1\n", "bodies.csv: line 2: a number is missing (empty field)"},
      {cols + "1,2,3.5.1,4,5,6,1\n", "bodies.csv: line 2: '3.5.1' is not a number"},
      {cols + "1,2,3,nan,5,6,1\n", "bodies.csv: line 2: 'nan' is not a finite number"},
      {cols + "1,2,3,4,inf,6,1\n", "bodies.csv: line 2: 'inf' is not a finite number"},
      {cols + "1e39,2,3,4,5,6,1\n", "bodies.csv: line 2: '1e39' is out of the range of a float"},
      {cols + "1,2,3,4,5,6,-0.5\n", "bodies.csv: line 2: mass -0.5 is negative"},
      {cols + "1,2,3,4,5,6,0\n0,0,0,0,0,0,0\n",
       "bodies.csv: all masses are 0 (at least one must be positive)"},
      {cols + "1,2,3,4,5,6,1\n\n1,2,3,4,5,6,1\n", "bodies.csv: line 3: empty line"},
      {cols, "bodies.csv: no bodies"},
      {"", "bodies.csv: empty file"},
      {"\n\r\n", "bodies.csv: empty file"},
      {"x,y,z,m\n1,2,3,1\n",
       "bodies.csv: line 1: expected the column line 'x,y,z,vx,vy,vz,m', found 'x,y,z,m'"},
      {"# gpulab nbody G=1 softening=0.05 dt=0.005 step=0\n",
       "bodies.csv: line 2: expected the column line 'x,y,z,vx,vy,vz,m'"},
      {"# gpulab nbody G=1 softening=0.05 dt=0 step=0\n" + cols + "0,0,0,0,0,0,1\n",
       "bodies.csv: line 1: dt must be > 0, got 0"},
      {"# gpulab nbody G=1 softening=0.05 dt=0.005\n" + cols + "0,0,0,0,0,0,1\n",
       "bodies.csv: line 1: expected '# gpulab nbody G=<g> softening=<eps> dt=<dt> step=<k>', found "
       "'# gpulab nbody G=1 softening=0.05 dt=0.005'"},
      {"# gpulab nbody G=1 softening=0.05 dt=0.005 step=-1\n" + cols + "0,0,0,0,0,0,1\n",
       "bodies.csv: line 1: step=-1 is not a whole number of steps"},
      {"# gpulab nbody G=1 softening=0.05 dt=0.005 step=0 theta=0.5\n" + cols + "0,0,0,0,0,0,1\n",
       "bodies.csv: line 1: unknown key 'theta'; expected '# gpulab nbody G=<g> softening=<eps> dt=<dt> "
       "step=<k>'"},
      {"# gpulab nbody G=x softening=0.05 dt=0.005 step=0\n" + cols + "0,0,0,0,0,0,1\n",
       "bodies.csv: line 1: G: 'x' is not a number"},
      {"# made by hand\n" + cols + "0,0,0,0,0,0,1\n",
       "bodies.csv: line 1: expected '# gpulab nbody G=<g> softening=<eps> dt=<dt> step=<k>', found '# made "
       "by hand'"},
  };
  for (const auto& c : cases) EXPECT_EQ(csv_error(c.text), c.error) << c.text;
}

// Found by fuzzing (tests/fuzz/regressions/nbody_bodies/): the header's step value was quoted raw, so
// a control byte in it reached the terminal.
TEST(NbodyCsv, ControlBytesInTheHeadersStepAreEscaped) {
  EXPECT_EQ(
      csv_error(
          "# gpulab nbody G=1 softening=0.05 dt=0.005 step=7\x1b[2J\x1c\nx,y,z,vx,vy,vz,m\n0,0,0,0,0,0,1\n"),
      "bodies.csv: line 1: step=7\\x1B[2J\\x1C is not a whole number of steps");
}

TEST(NbodyCsv, MalformedFilesNameFileAndLine) {
  const struct {
    const char* file;
    const char* error;  // after "<path>: "
  } cases[] = {
      {"bad_field_count.csv", "line 5: expected 7 numbers, found 6"},
      {"bad_number.csv", "line 3: 'abc' is not a number"},
      {"negative_mass.csv", "line 3: mass -1 is negative"},
      {"no_bodies.csv", "no bodies"},
      {"bad_params.csv", "line 1: dt must be > 0, got 0"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(error_of(load_bodies(kData + c.file)), kData + c.file + ": " + c.error);
}

// --- tipsy ----------------------------------------------------------------------------------------

// The structs of cuda-samples' tipsy.h, to build files here the way that sample's writers do.
struct TipsyHeader {
  double time;
  int nbodies, ndim, nsph, ndark, nstar;
};
struct GasParticle {
  float mass, pos[3], vel[3], rho, temp, hsmooth, metals, phi;
};
struct DarkParticle {
  float mass, pos[3], vel[3], eps;
  int phi;
};
struct StarParticle {
  float mass, pos[3], vel[3], metals, tform, eps;
  int phi;
};
static_assert(sizeof(TipsyHeader) == 32 && sizeof(GasParticle) == 48 && sizeof(DarkParticle) == 36 &&
              sizeof(StarParticle) == 44);

template <class T>
void append(std::vector<uint8_t>& bytes, const T& value) {
  const size_t at = bytes.size();
  bytes.resize(at + sizeof value);
  std::memcpy(bytes.data() + at, &value, sizeof value);
}

template <class T>
void poke(std::vector<uint8_t>& bytes, size_t offset, T value) {
  std::memcpy(bytes.data() + offset, &value, sizeof value);
}

std::string tipsy_error(const std::vector<uint8_t>& bytes) { return error_of(parse_tipsy(bytes, "b.tipsy")); }

TEST(NbodyTipsy, RoundTripIsExact) {
  const System s = make_initial(InitKind::Plummer, 777, 5, Params{});
  const std::vector<uint8_t> bytes = write_tipsy(s, 2.5);
  EXPECT_EQ(bytes.size(), 32u + 777u * 36u);
  TipsyHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  EXPECT_EQ(h.time, 2.5);
  EXPECT_EQ(h.nbodies, 777);
  EXPECT_EQ(h.ndim, 3);
  EXPECT_EQ(h.nsph, 0);
  EXPECT_EQ(h.ndark, 777);
  EXPECT_EQ(h.nstar, 0);

  const LoadResult r = parse_tipsy(bytes, "x.tipsy");
  ASSERT_TRUE(r.file.has_value()) << r.error;
  EXPECT_EQ(r.file->system, s);
  EXPECT_FALSE(r.file->params.has_value());
}

TEST(NbodyTipsy, ReadsDarkAndStarParticlesAndSkipsGas) {
  std::vector<uint8_t> bytes;
  append(bytes, TipsyHeader{1.0, 6, 3, 2, 3, 1});
  for (int i = 0; i < 2; ++i) append(bytes, GasParticle{9, {9, 9, 9}, {9, 9, 9}, 1, 2, 3, 4, 5});
  for (int i = 0; i < 3; ++i) {
    const float f = static_cast<float>(i);
    append(bytes, DarkParticle{0.25f, {f, 2 * f, 3 * f}, {-f, 0.5f, 0}, 0.01f, i});
  }
  append(bytes, StarParticle{0.125f, {7, 8, 9}, {1, 2, 3}, 0.02f, 0.5f, 0.01f, 3});

  const LoadResult r = parse_tipsy(bytes, "mixed.tipsy");
  ASSERT_TRUE(r.file.has_value()) << r.error;
  const System& s = r.file->system;
  ASSERT_EQ(s.size(), 4u) << "3 dark + 1 star; the 2 gas particles are skipped";
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(s.m[i], 0.25f);
    EXPECT_EQ(s.z[i], 3.0f * i);
    EXPECT_EQ(s.vx[i], -float(i));
  }
  EXPECT_EQ(s.m[3], 0.125f);
  EXPECT_EQ(s.x[3], 7);
  EXPECT_EQ(s.y[3], 8);
  EXPECT_EQ(s.z[3], 9);
  EXPECT_EQ(s.vz[3], 3);
}

TEST(NbodyTipsy, MalformedBytesNameTheOffset) {
  System two;
  two.resize(2);
  two.m = {0.5f, 0.5f};
  two.x = {-1, 1};
  const std::vector<uint8_t> good = write_tipsy(two, 0);  // 32 + 2 × 36 = 104 bytes
  auto edited = [&](auto&& edit) {
    std::vector<uint8_t> b = good;
    edit(b);
    return b;
  };
  EXPECT_EQ(tipsy_error(std::vector<uint8_t>(good.begin(), good.begin() + 20)),
            "b.tipsy: offset 20: the file ends inside the 32-byte tipsy header");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<int>(b, 12, 2); })),
            "b.tipsy: offset 12: ndim = 2, expected 3");
  // A big-endian file: ndim's 3 reads byte-swapped, and the message says so.
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<int>(b, 12, 0x03000000); })),
            "b.tipsy: offset 12: ndim = 50331648, expected 3 (the file looks big-endian: its ndim reads 3 "
            "byte-swapped; gpulab reads little-endian tipsy: swap its bytes first, e.g. numpy's byteswap)");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<int>(b, 16, -1); })),
            "b.tipsy: offset 16: nsph = -1 is negative");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<int>(b, 8, 3); })),
            "b.tipsy: offset 8: nbodies = 3, but nsph + ndark + nstar = 2");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { b.pop_back(); })),
            "b.tipsy: offset 103: the file ends early: its counts need 104 bytes, it has 103");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { b.push_back(0); })),
            "b.tipsy: offset 104: 1 bytes after the last particle");
  // Second dark particle (at 68): vel[1] at 68 + 4 × 5.
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<float>(b, 88, std::nanf("")); })),
            "b.tipsy: offset 88: dark particle 1: vel[1] is not finite");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<float>(b, 32, -1.0f); })),
            "b.tipsy: offset 32: dark particle 0: negative mass");
  EXPECT_EQ(tipsy_error(edited([](auto& b) { poke<float>(b, 32, 0.0f), poke<float>(b, 68, 0.0f); })),
            "b.tipsy: all masses are 0 (at least one must be positive)");

  std::vector<uint8_t> gas_only;
  append(gas_only, TipsyHeader{0.0, 1, 3, 1, 0, 0});
  append(gas_only, GasParticle{});
  EXPECT_EQ(tipsy_error(gas_only), "b.tipsy: no bodies (only 1 gas particles, which are not read)");
}

TEST(NbodyTipsy, FilesFromDisk) {
  const LoadResult r = load_bodies(kData + "two_bodies.tipsy");
  ASSERT_TRUE(r.file.has_value()) << r.error;
  ASSERT_EQ(r.file->system.size(), 2u);
  EXPECT_EQ(r.file->system.x[1], 0.5f);
  EXPECT_EQ(r.file->system.vy[0], -0.5f);

  const struct {
    const char* file;
    const char* error;  // after "<path>: "
  } cases[] = {
      {"truncated.tipsy", "offset 104: the file ends early: its counts need 140 bytes, it has 104"},
      {"bad_ndim.tipsy", "offset 12: ndim = 2, expected 3"},
      {"short_header.tipsy", "offset 20: the file ends inside the 32-byte tipsy header"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(error_of(load_bodies(kData + c.file)), kData + c.file + ": " + c.error);
}

// --- load_bodies ----------------------------------------------------------------------------------

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(NbodyLoad, ChoosesTheFormatByExtensionThenByContent) {
  System s;
  s.resize(2);
  s.m = {1, 2};
  s.x = {3, 4};
  const std::vector<uint8_t> tipsy = write_tipsy(s, 0);
  const std::string tipsy_bytes(tipsy.begin(), tipsy.end()), csv = write_csv(s, Params{}, 0);
  const std::string dir = testing::TempDir();
  // Both formats under names that do not say which: the content decides.
  for (const auto& [name, bytes] : {std::pair{"bodies.txt", csv}, std::pair{"bodies", tipsy_bytes},
                                    std::pair{"bodies.DAT", tipsy_bytes}, std::pair{"bodies.CSV", csv}}) {
    write_file(dir + name, bytes);
    const LoadResult r = load_bodies(dir + name);
    ASSERT_TRUE(r.file.has_value()) << name << ": " << r.error;
    EXPECT_EQ(r.file->system, s) << name;
  }
  // A .bin name is tipsy whatever it holds.
  write_file(dir + "bodies.bin", csv);
  EXPECT_NE(error_of(load_bodies(dir + "bodies.bin")).find("offset"), std::string::npos);
}

TEST(NbodyLoad, MissingOrUnreadableFilesNameThePathAndReason) {
  const std::string missing = kData + "no_such_file.csv";
  EXPECT_EQ(error_of(load_bodies(missing)), missing + ": " + std::strerror(ENOENT));
  EXPECT_EQ(error_of(load_bodies(kData)), kData + ": it is a folder, not a regular file");
}

}  // namespace
}  // namespace gpulab::nbody

#pragma once
// Histogram equalization and contrast stretch of 8-bit images: the definitions, the CPU reference,
// the colour handling, the variant table (four stages, each with its variants) and the engines (CPU
// reference and CUDA) behind one interface. No GL, no ImGui, no CUDA headers here.
//
// The definitions every variant, test and outside check relies on (8-bit grey, N pixels):
//   equalize (byte for byte OpenCV's cv::equalizeHist): h the histogram, i0 the first non-empty bin.
//     h[i0] = N: the image is unchanged. Otherwise, in single precision, scale = 255.f / (N − h[i0]);
//     lut[i0] = 0 and for i > i0 lut[i] = rint((cdf[i] − h[i0]) · scale) (ties to even), saturated to
//     0..255, cdf inclusive; bins below i0 (never used) map to 0. out = lut[in].
//   stretch: out = round((v − min) · 255 / (max − min)), computed exactly in integers with ties
//     rounded up; unchanged when max = min.
//   colour: by default the luminance is equalized: Y, Cr, Cb of BT.601 exactly as OpenCV's
//     COLOR_RGB2YCrCb for 8-bit (14-bit fixed point), Y processed, back with COLOR_YCrCb2RGB;
//     per channel on request (R, G and B each processed on its own). Alpha is kept.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <cmath>

#include "common/hd.h"
#include "common/kernel_info.h"
#include "common/variant.h"
#include "image/image.h"

namespace gpulab::histeq {

inline constexpr int kBins = 256;
using Histogram = std::array<uint32_t, kBins>;
using Lut = std::array<uint8_t, kBins>;
struct MinMax {
  uint8_t min = 0, max = 0;
  bool operator==(const MinMax&) const = default;
};

// ---------------------------------------------------------------------------------------------
// The arithmetic shared by the CPU reference and the kernels (written once, so they agree bit for bit).

// scale = 255.f / (N − h[i0]) in single precision (IEEE division on the GPU too: no fast math).
GPULAB_HD float equalize_scale(uint32_t n, uint32_t h_i0) { return 255.0f / float(n - h_i0); }
// lut[i] for i > i0, from sum = cdf[i] − h[i0]: the product rounded in float, then to nearest even.
GPULAB_HD uint8_t equalize_value(uint32_t sum, float scale) {
  const float v = rintf(float(sum) * scale);
  return v <= 0.0f ? uint8_t(0) : v >= 255.0f ? uint8_t(255) : uint8_t(v);
}
// (v − min) · 255 / (max − min) rounded, ties up, exactly; v itself when max = min. Values outside
// [min, max] (in no pixel of the plane) saturate to 0 and 255, so every LUT entry is defined.
GPULAB_HD uint8_t stretch_value(uint32_t v, uint32_t mn, uint32_t mx) {
  if (mx <= mn) return uint8_t(v);
  if (v <= mn) return uint8_t(0);
  if (v >= mx) return uint8_t(255);
  const uint32_t d = mx - mn;
  return uint8_t(((v - mn) * 510u + d) / (2u * d));
}

// OpenCV's 8-bit RGB <-> YCrCb (imgproc color_yuv: yuv_shift 14, CV_DESCALE rounding, saturation).
GPULAB_HD uint8_t saturate_u8(int v) { return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v); }
GPULAB_HD int descale14(int x) { return (x + (1 << 13)) >> 14; }
GPULAB_HD void rgb_to_ycrcb(int r, int g, int b, uint8_t* y, uint8_t* cr, uint8_t* cb) {
  const int yy = descale14(r * 4899 + g * 9617 + b * 1868);
  *y = saturate_u8(yy);
  *cr = saturate_u8(descale14((r - yy) * 11682 + (128 << 14)));
  *cb = saturate_u8(descale14((b - yy) * 9241 + (128 << 14)));
}
GPULAB_HD void ycrcb_to_rgb(int y, int cr, int cb, uint8_t* r, uint8_t* g, uint8_t* b) {
  cr -= 128;
  cb -= 128;
  *b = saturate_u8(y + descale14(cb * 29049));
  *g = saturate_u8(y + descale14(cb * -5636 + cr * -11698));
  *r = saturate_u8(y + descale14(cr * 22987));
}

// ---------------------------------------------------------------------------------------------
// The planes the pipeline works on, split from an image.
enum class Mode : uint8_t { Equalize, Stretch };
enum class Colour : uint8_t { Luminance, PerChannel };
enum class Layout : uint8_t {
  Grey,   // planes {grey}; processed 1
  YCrCb,  // planes {Y, Cr, Cb}; processed 1 (Y)
  Rgb,    // planes {R, G, B}; processed 3
};
struct Planes {
  int width = 0, height = 0;
  int source_channels = 1;  // of the image (1..4); the output has the same
  Layout layout = Layout::Grey;
  std::vector<std::vector<uint8_t>> planes;  // width*height bytes each, row 0 at the top
  std::vector<uint8_t> alpha;                // when the image has alpha, else empty
  int processed() const { return layout == Layout::Rgb ? 3 : 1; }
  size_t pixel_count() const { return size_t(width) * size_t(height); }
};
Planes split(const image::Image& img, Colour colour);
// The image with `out` in place of the processed planes (out.size() == p.processed()), the other
// planes and alpha from p, converted back for YCrCb; channels as the source.
image::Image merge(const Planes& p, std::span<const std::vector<uint8_t>> out);
// One display pixel (RGBA) from the pipeline's output planes: a[] holds the layout's three values
// (grey: a[0]), alpha 255 when absent. Shared by merge, the CPU display and the compose kernel.
GPULAB_HD void compose_rgba(Layout layout, uint8_t a0, uint8_t a1, uint8_t a2, uint8_t alpha,
                            uint8_t out[4]) {
  if (layout == Layout::Grey) {
    out[0] = out[1] = out[2] = a0;
  } else if (layout == Layout::YCrCb) {
    ycrcb_to_rgb(a0, a1, a2, &out[0], &out[1], &out[2]);
  } else {
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
  }
  out[3] = alpha;
}

// ---------------------------------------------------------------------------------------------
// CPU reference (single plane).
Histogram histogram_cpu(std::span<const uint8_t> plane);
Lut equalize_lut(const Histogram& h);  // N = the histogram's sum; identity when one bin holds all
MinMax minmax_cpu(std::span<const uint8_t> plane);  // of a non-empty plane
Lut stretch_lut(MinMax m);
void apply_lut_cpu(std::span<const uint8_t> in, std::span<uint8_t> out, const Lut& lut);
// The whole reference: the image equalized or stretched (the test oracle and the batch check).
image::Image process_cpu(const image::Image& img, Mode mode, Colour colour);
// The histogram after applying a LUT (out = lut[in]), without reading the output.
Histogram remap_histogram(const Histogram& h, const Lut& lut);

// ---------------------------------------------------------------------------------------------
// Stages and variants are data: one table, shared by the UI, the CLI, the tests and the bench.
enum class StageId : uint8_t { Histogram, Scan, Reduce, Apply };
inline constexpr int kStageCount = 4;
struct StageInfo {
  StageId id;
  std::string_view key;    // "histogram", "scan", "reduce", "apply" (--block KEY=N)
  std::string_view title;  // "histogram", "scan to CDF and LUT", ...
};
std::span<const StageInfo> stage_infos();  // in pipeline order
// Equalize runs histogram, scan, apply; stretch runs reduce, apply.
bool stage_runs(StageId s, Mode m);
// The fewest DRAM bytes one run of a stage moves over `pixels` bytes of a plane (the bench's and the
// ladder's bandwidth figure): histogram and reduce read the plane, apply reads it and writes the
// output, scan touches only 256 bins.
inline double stage_bytes(StageId s, double pixels) {
  switch (s) {
    case StageId::Histogram:
      return pixels;
    case StageId::Scan:
      return 0;
    case StageId::Reduce:
      return pixels;
    case StageId::Apply:
      return 2 * pixels;
  }
  return 0;
}

enum class Backend : uint8_t { Cpu, Cuda };
// The kernels a CUDA variant of each stage launches (CUB keeps its algorithm choice behind an enum
// too); a stage's CPU reference has none.
enum class HistKind : uint8_t {
  NaiveRace,
  AtomicGlobal,
  AtomicGridStride,
  SharedPrivate,
  WarpPrivate,
  Cub,
  SharedVec,
  FusedScan,
  BankPrivate,
  LanePrivate,
  ThrustSort,
  Npp  // the library lecture's: nppiHistogramEven (npp/histeq_npp.cu)
};
enum class ScanKind : uint8_t { Serial, Block, Cub, Thrust };
enum class ReduceKind : uint8_t {
  Divergent,
  StridedIndex,
  Sequential,
  AddOnLoad,
  UnrollLastWarp,
  WarpShuffle,
  ThrustReduce,
  ThrustTransformReduce
};
enum class ApplyKind : uint8_t { Global, Constant, Shared, Npp };  // Npp: nppiLUTPalette

// The record (blocks: 1D block sizes, empty where the variant fixes its own launch; kernel: the
// stage's kind above) and the stage's columns.
struct Variant : VariantRecord {
  StageId stage;
  Backend backend;
  bool exact = true;        // false for the deliberately racy histogram
  bool writes_lut = false;  // a histogram variant that also writes the LUT: the scan stage has nothing to do
  template <class Kind>
  Kind kind() const {
    return kernel.as<Kind>();
  }
};
std::span<const Variant> variants();  // grouped by stage, in stage order
std::vector<const Variant*> variants_of(StageId s);
const Variant* find_variant(std::string_view id);

// ---------------------------------------------------------------------------------------------
// An engine holds one image's planes and every plane's histogram, LUT, min/max and output on its
// backend, and runs any stage variant of its backend on one processed plane.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual Backend backend() const = 0;
  virtual std::string_view device_name() const = 0;

  // Replaces the planes. Throws GpuError (out of memory; the previous planes stay) or
  // std::invalid_argument (an empty plane set).
  virtual void upload(const Planes& p) = 0;
  virtual int width() const = 0;
  virtual int height() const = 0;

  // Runs one stage on processed plane `plane` (< planes.processed()) at `block` threads (one of
  // v.blocks; ignored where v.blocks is empty). histogram: plane -> histogram; scan: histogram ->
  // LUT; reduce: plane -> min/max and the stretch LUT; apply: plane and LUT -> output plane. Never
  // synchronises on the GPU.
  virtual void run(const Variant& v, int block, int plane) = 0;

  // Results (wait for the GPU): tests, the panel's plots, verify and batch.
  virtual Histogram histogram(int plane) = 0;
  virtual Lut lut(int plane) = 0;
  virtual MinMax minmax(int plane) = 0;
  virtual std::vector<uint8_t> output(int plane) = 0;

  // The displayed image: every pixel composed (compose_rgba) from the output planes (the source
  // planes for planes not processed) into host RGBA8, row 0 at the top.
  virtual void compose(uint8_t* h_rgba) = 0;
};

std::unique_ptr<Engine> make_cpu_engine();

}  // namespace gpulab::histeq

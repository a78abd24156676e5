// The CPU reference of histogram equalization and contrast stretch: the definitions of histeq.h
// written the plainest way that is still quick, the colour split and merge, and the CPU engine
// (the hist-cpu, scan-cpu, reduce-cpu and apply-cpu variants) behind the Engine interface.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/cpu_info.h"
#include "histeq/histeq.h"

namespace gpulab::histeq {
namespace {

void check_image(const image::Image& img) {
  if (img.channels < 1 || img.channels > 4)
    throw std::invalid_argument("histeq: an image needs 1 to 4 channels, not " +
                                std::to_string(img.channels));
  if (img.width < 0 || img.height < 0 || img.pixels.size() != img.pixel_count() * size_t(img.channels))
    throw std::invalid_argument("histeq: the image's pixel bytes do not match " + std::to_string(img.width) +
                                "x" + std::to_string(img.height) + "x" + std::to_string(img.channels));
}

int layout_planes(Layout l) { return l == Layout::Grey ? 1 : 3; }

// "" when p is a plane set an engine or merge can work on, else what is wrong with it.
std::string check_planes(const Planes& p) {
  if (p.width <= 0 || p.height <= 0) return "histeq: an empty image has no planes to process";
  if (p.source_channels < 1 || p.source_channels > 4) return "histeq: source channels must be 1 to 4";
  if (int(p.planes.size()) != layout_planes(p.layout))
    return "histeq: the layout needs " + std::to_string(layout_planes(p.layout)) + " planes, not " +
           std::to_string(p.planes.size());
  const size_t n = p.pixel_count();
  for (const auto& plane : p.planes)
    if (plane.size() != n) return "histeq: a plane's size does not match width x height";
  if (!p.alpha.empty() && p.alpha.size() != n)
    return "histeq: the alpha plane's size does not match width x height";
  return "";
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Colour split and merge.

Planes split(const image::Image& img, Colour colour) {
  check_image(img);
  Planes p;
  p.width = img.width;
  p.height = img.height;
  p.source_channels = img.channels;
  const size_t n = img.pixel_count();
  const int c = img.channels;
  const uint8_t* src = img.pixels.data();
  if (img.has_alpha()) {
    p.alpha.resize(n);
    for (size_t i = 0; i < n; ++i) p.alpha[i] = src[i * c + c - 1];
  }
  if (!img.is_colour()) {
    p.layout = Layout::Grey;
    p.planes.assign(1, std::vector<uint8_t>(n));
    for (size_t i = 0; i < n; ++i) p.planes[0][i] = src[i * c];
    return p;
  }
  p.layout = colour == Colour::Luminance ? Layout::YCrCb : Layout::Rgb;
  p.planes.assign(3, std::vector<uint8_t>(n));
  uint8_t* a = p.planes[0].data();
  uint8_t* b = p.planes[1].data();
  uint8_t* d = p.planes[2].data();
  if (p.layout == Layout::YCrCb) {
    for (size_t i = 0; i < n; ++i)
      rgb_to_ycrcb(src[i * c], src[i * c + 1], src[i * c + 2], &a[i], &b[i], &d[i]);
  } else {
    for (size_t i = 0; i < n; ++i) {
      a[i] = src[i * c];
      b[i] = src[i * c + 1];
      d[i] = src[i * c + 2];
    }
  }
  return p;
}

image::Image merge(const Planes& p, std::span<const std::vector<uint8_t>> out) {
  image::Image img;
  img.width = p.width;
  img.height = p.height;
  img.channels = p.source_channels;
  if (p.pixel_count() == 0 && p.width >= 0 && p.height >= 0) return img;
  if (const std::string problem = check_planes(p); !problem.empty()) throw std::invalid_argument(problem);
  if (int(out.size()) != p.processed())
    throw std::invalid_argument("histeq: merge needs " + std::to_string(p.processed()) +
                                " output planes, not " + std::to_string(out.size()));
  const size_t n = p.pixel_count();
  for (const auto& o : out)
    if (o.size() != n)
      throw std::invalid_argument("histeq: an output plane's size does not match width x height");

  const uint8_t* a0 = out[0].data();
  const uint8_t* a1 = p.layout == Layout::Rgb     ? out[1].data()
                      : p.layout == Layout::YCrCb ? p.planes[1].data()
                                                  : a0;
  const uint8_t* a2 = p.layout == Layout::Rgb     ? out[2].data()
                      : p.layout == Layout::YCrCb ? p.planes[2].data()
                                                  : a0;
  const bool alpha = !p.alpha.empty();
  const int c = img.channels;
  img.pixels.resize(n * size_t(c));
  uint8_t* dst = img.pixels.data();
  for (size_t i = 0; i < n; ++i) {
    uint8_t rgba[4];
    compose_rgba(p.layout, a0[i], a1[i], a2[i], alpha ? p.alpha[i] : uint8_t(255), rgba);
    uint8_t* px = dst + i * c;
    switch (c) {
      case 1:
        px[0] = rgba[0];
        break;
      case 2:
        px[0] = rgba[0];
        px[1] = rgba[3];
        break;
      case 3:
        std::memcpy(px, rgba, 3);
        break;
      default:
        std::memcpy(px, rgba, 4);
        break;
    }
  }
  return img;
}

// ---------------------------------------------------------------------------------------------
// The single-plane reference.

// snippet histogram_cpu
Histogram histogram_cpu(std::span<const uint8_t> plane) {
  // Four sub-histograms, one per byte position: a run of equal pixels (common in real images) then
  // increments four different counters instead of making each increment wait for the previous
  // store to the same bin.
  uint32_t sub[4][kBins] = {};
  const uint8_t* p = plane.data();
  const size_t n = plane.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    ++sub[0][w & 0xff];
    ++sub[1][(w >> 8) & 0xff];
    ++sub[2][(w >> 16) & 0xff];
    ++sub[3][(w >> 24) & 0xff];
    ++sub[0][(w >> 32) & 0xff];
    ++sub[1][(w >> 40) & 0xff];
    ++sub[2][(w >> 48) & 0xff];
    ++sub[3][w >> 56];
  }
  for (; i < n; ++i) ++sub[i & 3][p[i]];
  Histogram h;
  for (int b = 0; b < kBins; ++b) h[b] = sub[0][b] + sub[1][b] + sub[2][b] + sub[3][b];
  return h;
}
// end snippet

// snippet equalize_lut
Lut equalize_lut(const Histogram& h) {
  Lut lut;
  uint32_t n = 0;
  for (uint32_t c : h) n += c;
  int i0 = 0;
  while (i0 < kBins && h[i0] == 0) ++i0;
  if (i0 == kBins || h[i0] == n) {  // empty, or one level only: the image stays as it is
    for (int i = 0; i < kBins; ++i) lut[i] = uint8_t(i);
    return lut;
  }
  const float scale = equalize_scale(n, h[i0]);
  for (int i = 0; i < i0; ++i) lut[i] = 0;
  lut[i0] = 0;
  uint32_t sum = 0;
  for (int i = i0 + 1; i < kBins; ++i) {
    sum += h[i];
    lut[i] = equalize_value(sum, scale);
  }
  return lut;
}
// end snippet

// snippet minmax_cpu
MinMax minmax_cpu(std::span<const uint8_t> plane) {
  if (plane.empty()) throw std::invalid_argument("histeq: min and max of an empty plane");
  uint8_t mn = 255, mx = 0;
  for (uint8_t v : plane) {
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  return {mn, mx};
}
// end snippet

Lut stretch_lut(MinMax m) {
  Lut lut;
  for (int i = 0; i < kBins; ++i) lut[i] = stretch_value(uint32_t(i), m.min, m.max);
  return lut;
}

// snippet apply_lut_cpu
void apply_lut_cpu(std::span<const uint8_t> in, std::span<uint8_t> out, const Lut& lut) {
  if (in.size() != out.size()) throw std::invalid_argument("histeq: apply_lut_cpu needs planes of one size");
  const uint8_t* src = in.data();
  uint8_t* dst = out.data();
  for (size_t i = 0, n = in.size(); i < n; ++i) dst[i] = lut[src[i]];
}
// end snippet

image::Image process_cpu(const image::Image& img, Mode mode, Colour colour) {
  check_image(img);
  if (img.pixel_count() == 0) return img;
  const Planes p = split(img, colour);
  std::vector<std::vector<uint8_t>> out(size_t(p.processed()));
  for (int k = 0; k < p.processed(); ++k) {
    const std::vector<uint8_t>& plane = p.planes[size_t(k)];
    const Lut lut =
        mode == Mode::Equalize ? equalize_lut(histogram_cpu(plane)) : stretch_lut(minmax_cpu(plane));
    out[size_t(k)].resize(plane.size());
    apply_lut_cpu(plane, out[size_t(k)], lut);
  }
  return merge(p, out);
}

Histogram remap_histogram(const Histogram& h, const Lut& lut) {
  Histogram out{};
  for (int i = 0; i < kBins; ++i) out[lut[i]] += h[i];
  return out;
}

// ---------------------------------------------------------------------------------------------
// The CPU engine.

namespace {

class CpuEngine final : public Engine {
 public:
  CpuEngine() : device_name_(cpu_label(1)) {}  // one core

  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return device_name_; }

  void upload(const Planes& p) override {
    if (const std::string problem = check_planes(p); !problem.empty()) throw std::invalid_argument(problem);
    // Built aside and swapped in, so that a failed allocation keeps the previous image.
    Planes planes = p;
    std::vector<PlaneState> state(size_t(p.processed()));
    for (int k = 0; k < p.processed(); ++k) {
      PlaneState& s = state[size_t(k)];
      s.histogram.fill(0);
      for (int i = 0; i < kBins; ++i) s.lut[i] = uint8_t(i);
      s.output = p.planes[size_t(k)];  // the source until apply runs
    }
    planes_ = std::move(planes);
    state_ = std::move(state);
  }
  int width() const override { return planes_.width; }
  int height() const override { return planes_.height; }

  void run(const Variant& v, int /*block*/, int plane) override {
    if (v.backend != Backend::Cpu)
      throw std::invalid_argument("histeq: the CPU engine cannot run the CUDA variant " + std::string(v.id));
    PlaneState& s = at(plane);
    const std::vector<uint8_t>& src = planes_.planes[size_t(plane)];
    switch (v.stage) {
      case StageId::Histogram:
        s.histogram = histogram_cpu(src);
        break;
      case StageId::Scan:
        s.lut = equalize_lut(s.histogram);
        break;
      case StageId::Reduce:
        s.minmax = minmax_cpu(src);
        s.lut = stretch_lut(s.minmax);
        break;
      case StageId::Apply:
        apply_lut_cpu(src, s.output, s.lut);
        break;
    }
  }

  Histogram histogram(int plane) override { return at(plane).histogram; }
  Lut lut(int plane) override { return at(plane).lut; }
  MinMax minmax(int plane) override { return at(plane).minmax; }
  std::vector<uint8_t> output(int plane) override { return at(plane).output; }

  void compose(uint8_t* h_rgba) override {
    if (state_.empty()) throw std::logic_error("histeq: compose before upload");
    const size_t n = planes_.pixel_count();
    const Layout layout = planes_.layout;
    const uint8_t* a0 = state_[0].output.data();
    const uint8_t* a1 = layout == Layout::Rgb     ? state_[1].output.data()
                        : layout == Layout::YCrCb ? planes_.planes[1].data()
                                                  : a0;
    const uint8_t* a2 = layout == Layout::Rgb     ? state_[2].output.data()
                        : layout == Layout::YCrCb ? planes_.planes[2].data()
                                                  : a0;
    const uint8_t* alpha = planes_.alpha.empty() ? nullptr : planes_.alpha.data();
    for (size_t i = 0; i < n; ++i)
      compose_rgba(layout, a0[i], a1[i], a2[i], alpha ? alpha[i] : uint8_t(255), h_rgba + 4 * i);
  }

 private:
  struct PlaneState {
    Histogram histogram{};
    Lut lut{};
    MinMax minmax{};
    std::vector<uint8_t> output;
  };

  PlaneState& at(int plane) {
    if (state_.empty()) throw std::logic_error("histeq: no image uploaded");
    if (plane < 0 || plane >= int(state_.size()))
      throw std::out_of_range("histeq: plane " + std::to_string(plane) + " of " +
                              std::to_string(state_.size()));
    return state_[size_t(plane)];
  }

  std::string device_name_;
  Planes planes_;
  std::vector<PlaneState> state_;  // one per processed plane
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

}  // namespace gpulab::histeq

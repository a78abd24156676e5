// The CPU reference of texture rotation: rotate.h's definition with its arithmetic (source_coord or
// lecture_source_coord, point_tap / linear_taps, blend, to_byte), and rotate_unit_cpu, the texture
// unit's model on the host (the functions the `global` kernel calls); every channel the same way, rows
// shared among threads for large images. Each output pixel depends only on its
// own coordinates, so the result is the same for any thread count.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/cpu_info.h"
#include "rotate/rotate.h"

namespace gpulab::rotate {
namespace {

void check_image(const image::Image& img) {
  if (img.channels < 1 || img.channels > 4)
    throw std::invalid_argument("rotate: an image needs 1 to 4 channels, not " +
                                std::to_string(img.channels));
  if (img.width < 0 || img.height < 0 || img.pixels.size() != img.pixel_count() * size_t(img.channels))
    throw std::invalid_argument("rotate: the image's pixel bytes do not match " + std::to_string(img.width) +
                                "x" + std::to_string(img.height) + "x" + std::to_string(img.channels));
}

std::string number_text(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", double(v));
  return buf;
}

// The output image of src's size and channels with every pixel from pixel(x, y, out) (out: its
// channels), rows shared among threads for large images. Checks p and src first.
template <class Pixel>
image::Image for_each_pixel(const image::Image& src, const Params& p, Pixel pixel) {
  if (std::string why = check_params(p); !why.empty()) throw std::invalid_argument(why);
  check_image(src);
  image::Image out;
  out.width = src.width;
  out.height = src.height;
  out.channels = src.channels;
  out.pixels.resize(src.pixels.size());
  if (out.pixels.empty()) return out;
  const size_t c = size_t(src.channels);
  auto rows = [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      uint8_t* row = &out.pixels[size_t(y) * size_t(src.width) * c];
      for (int x = 0; x < src.width; ++x) pixel(x, y, row + size_t(x) * c);
    }
  };
  // Threads pay off from about a quarter megapixel; below that one thread does it all.
  constexpr size_t kPixelsPerThread = size_t(1) << 18;
  const unsigned hw = std::max(std::thread::hardware_concurrency(), 1u);
  const int threads =
      int(std::min<size_t>({size_t(hw), src.pixel_count() / kPixelsPerThread + 1, size_t(src.height)}));
  if (threads <= 1) {
    rows(0, src.height);
    return out;
  }
  std::vector<std::thread> pool;
  pool.reserve(size_t(threads));
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(rows, int(int64_t(src.height) * t / threads),
                      int(int64_t(src.height) * (t + 1) / threads));
  for (std::thread& t : pool) t.join();
  return out;
}

// A texel's value in one channel, 0 for a border texel (index −1).
struct Texels {
  const image::Image& img;
  int operator()(int i, int j, int ch) const {
    return i < 0 || j < 0
               ? 0
               : img.pixels[(size_t(j) * size_t(img.width) + size_t(i)) * size_t(img.channels) + size_t(ch)];
  }
};

// The float definition at the coordinates coord(x, y, w, h, k) gives.
// snippet rotate_cpu
template <class SourceCoord>
image::Image rotate_with(const image::Image& src, const Params& p, SourceCoord coord) {
  const Coefficients k = coefficients(p);
  const Texels texel{src};
  const int w = src.width, h = src.height, c = src.channels;
  return for_each_pixel(src, p, [&](int x, int y, uint8_t* o) {
    const Coord s = coord(x, y, w, h, k);
    if (p.filter == Filter::Point) {
      const PointTap t = point_tap(s, w, h, p.address);
      for (int ch = 0; ch < c; ++ch) o[ch] = uint8_t(texel(t.i, t.j, ch));
    } else {
      const LinearTaps t = linear_taps(s, w, h, p.address);
      for (int ch = 0; ch < c; ++ch)
        o[ch] = to_byte(blend(t, float(texel(t.i0, t.j0, ch)), float(texel(t.i1, t.j0, ch)),
                              float(texel(t.i0, t.j1, ch)), float(texel(t.i1, t.j1, ch))));
    }
  });
}
// end snippet

}  // namespace

std::string check_params(const Params& p) {
  if (!std::isfinite(p.angle_deg))
    return "rotate: the angle must be a finite number of degrees, not " + number_text(p.angle_deg);
  if (!std::isfinite(p.scale))
    return "rotate: the scale must be a finite number, not " + number_text(p.scale);
  if (!(p.scale >= kMinScale && p.scale <= kMaxScale))
    return "rotate: the scale must be between 1/64 and 64, not " + number_text(p.scale);
  if (p.filter != Filter::Point && p.filter != Filter::Linear) return "rotate: unknown filter";
  if (p.address != Address::Wrap && p.address != Address::Clamp && p.address != Address::Mirror &&
      p.address != Address::Border)
    return "rotate: unknown address mode";
  return "";
}

image::Image rotate_cpu(const image::Image& src, const Params& p) {
  return rotate_with(src, p,
                     [](int x, int y, int w, int h, Coefficients k) { return source_coord(x, y, w, h, k); });
}

image::Image rotate_lecture_cpu(const image::Image& src, const Params& p) {
  return rotate_with(
      src, p, [](int x, int y, int w, int h, Coefficients k) { return lecture_source_coord(x, y, w, h, k); });
}

image::Image rotate_unit_cpu(const image::Image& src, const Settings& s, bool lecture) {
  const Params& p = s.params;
  const Coefficients k = coefficients(p);
  const Texels texel{src};
  const int w = src.width, h = src.height, c = src.channels;
  return for_each_pixel(src, p, [&](int x, int y, uint8_t* o) {
    const Coord tc = texture_coord(
        lecture ? lecture_source_coord(x, y, w, h, k) : source_coord(x, y, w, h, k), w, h, s.normalized);
    if (p.filter == Filter::Point) {
      const PointTap t = unit_point_tap(tc, w, h, s.normalized, p.address);
      for (int ch = 0; ch < c; ++ch) o[ch] = uint8_t(texel(t.i, t.j, ch));
    } else {
      const UnitTaps t = unit_linear_taps(tc, w, h, s.normalized, p.address);
      for (int ch = 0; ch < c; ++ch)
        o[ch] = unit_blend(t, texel(t.i0, t.j0, ch), texel(t.i1, t.j0, ch), texel(t.i0, t.j1, ch),
                           texel(t.i1, t.j1, ch));
    }
  });
}

int unit_linear_bound(int w, int h, const Settings& s) {
  const Coefficients k = coefficients(s.params);
  double dx = 1.0 / 512, dy = 1.0 / 512;
  if (s.normalized) {
    // |sx| <= w/2 + (|dx| + |dy|)(|cos t| + |sin t|)/s with |dx| <= w/2, |dy| <= h/2 (the lecture's
    // rotation in normalized coordinates stretches one axis by the aspect ratio)
    const double aspect = std::max({1.0, double(w) / h, double(h) / w});  // the lecture's coordinates
    const double reach =
        (0.5 * w + 0.5 * h) * aspect * (std::fabs(double(k.cos_s)) + std::fabs(double(k.sin_s))) + 1;
    dx += double(w) / 2097152.0 + (0.5 * w + reach) / 16777216.0;
    dy += double(h) / 2097152.0 + (0.5 * h + reach) / 16777216.0;
  }
  const double e = 255.0 * (dx + dy) + 510.0 / 512.0 + 1e-3;  // + the definition's own float rounding
  return int(std::ceil(e));
}

namespace {

// The CPU engine: the reference (or the lecture's formula) into a host image.
class CpuEngine final : public Engine {
 public:
  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return name_; }
  void upload(const image::Image& src) override {
    check_upload(src);
    src_ = src;
    out_ = src;  // shown until the first run
  }
  int width() const override { return src_.width; }
  int height() const override { return src_.height; }
  void run(const Variant& v, int, const Settings& s) override {
    if (v.backend != Backend::Cpu)
      throw std::invalid_argument("rotate: " + std::string(v.id) + " is not a CPU variant");
    if (src_.empty()) throw std::logic_error("rotate: no image uploaded");
    out_ = rotate_cpu(src_, effective(v, s).params);
  }
  image::Image output() override { return out_; }

 private:
  std::string name_ = cpu_label(std::max(std::thread::hardware_concurrency(), 1u));  // (large images)
  image::Image src_, out_;
};

}  // namespace

void check_upload(const image::Image& src) {
  if (src.empty() || src.width <= 0 || src.height <= 0)
    throw std::invalid_argument("rotate: cannot upload an empty image");
  if (src.channels < 1 || src.channels > 4)
    throw std::invalid_argument("rotate: images have 1 to 4 channels, not " + std::to_string(src.channels));
  if (src.pixels.size() != src.pixel_count() * size_t(src.channels))
    throw std::invalid_argument("rotate: the image's pixels do not match its size");
}

void Engine::compose(uint8_t* h_rgba) {
  const image::Image rgba = image::convert_channels(output(), 4);
  std::copy(rgba.pixels.begin(), rgba.pixels.end(), h_rgba);
}

std::unique_ptr<Engine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

}  // namespace gpulab::rotate

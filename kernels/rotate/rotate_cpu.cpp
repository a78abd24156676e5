// The CPU reference of texture rotation: rotate.h's definition with its shared arithmetic
// (source_coord or lecture_source_coord, point_tap / linear_taps, blend, to_byte), every channel
// the same way, rows shared among threads for large images. Each output pixel depends only on its
// own coordinates, so the result is the same for any thread count.
#include <algorithm>
#include <memory>
#include <cmath>
#include <cstdint>
#include <cstdio>
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

// Rows [y0, y1) of the output; Coord(x, y, w, h, k) gives the source coordinate.
template <class SourceCoord>
void rotate_rows(const image::Image& src, image::Image& out, const Params& p, Coefficients k, int y0, int y1,
                 SourceCoord coord) {
  const int w = src.width, h = src.height, c = src.channels;
  const uint8_t* in = src.pixels.data();
  auto texel = [&](int i, int j, int ch) -> float {  // 0 for a border texel
    return i < 0 || j < 0 ? 0.0f : float(in[(size_t(j) * size_t(w) + size_t(i)) * size_t(c) + size_t(ch)]);
  };
  for (int y = y0; y < y1; ++y) {
    uint8_t* row = &out.pixels[size_t(y) * size_t(w) * size_t(c)];
    for (int x = 0; x < w; ++x) {
      const Coord s = coord(x, y, w, h, k);
      uint8_t* o = row + size_t(x) * size_t(c);
      if (p.filter == Filter::Point) {
        const PointTap t = point_tap(s, w, h, p.address);
        for (int ch = 0; ch < c; ++ch) o[ch] = to_byte(texel(t.i, t.j, ch));
      } else {
        const LinearTaps t = linear_taps(s, w, h, p.address);
        for (int ch = 0; ch < c; ++ch)
          o[ch] = to_byte(blend(t, texel(t.i0, t.j0, ch), texel(t.i1, t.j0, ch), texel(t.i0, t.j1, ch),
                                texel(t.i1, t.j1, ch)));
      }
    }
  }
}

template <class SourceCoord>
image::Image rotate_with(const image::Image& src, const Params& p, SourceCoord coord) {
  if (std::string why = check_params(p); !why.empty()) throw std::invalid_argument(why);
  check_image(src);
  image::Image out;
  out.width = src.width;
  out.height = src.height;
  out.channels = src.channels;
  out.pixels.resize(src.pixels.size());
  if (out.pixels.empty()) return out;

  const Coefficients k = coefficients(p);
  // Threads pay off from about a quarter megapixel; below that one thread does it all.
  constexpr size_t kPixelsPerThread = size_t(1) << 18;
  const unsigned hw = std::max(std::thread::hardware_concurrency(), 1u);
  const int threads =
      int(std::min<size_t>({size_t(hw), src.pixel_count() / kPixelsPerThread + 1, size_t(src.height)}));
  if (threads <= 1) {
    rotate_rows(src, out, p, k, 0, src.height, coord);
    return out;
  }
  std::vector<std::thread> pool;
  pool.reserve(size_t(threads));
  for (int t = 0; t < threads; ++t) {
    const int y0 = int(int64_t(src.height) * t / threads), y1 = int(int64_t(src.height) * (t + 1) / threads);
    pool.emplace_back([&, y0, y1] { rotate_rows(src, out, p, k, y0, y1, coord); });
  }
  for (std::thread& t : pool) t.join();
  return out;
}

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

namespace {

// The CPU engine: the reference (or the lecture's formula) into a host image.
class CpuEngine final : public Engine {
 public:
  Backend backend() const override { return Backend::Cpu; }
  std::string_view device_name() const override { return name_; }
  void upload(const image::Image& src) override {
    if (src.empty() || src.width <= 0 || src.height <= 0)
      throw std::invalid_argument("rotate: cannot upload an empty image");
    if (src.channels < 1 || src.channels > 4)
      throw std::invalid_argument("rotate: images have 1 to 4 channels, not " + std::to_string(src.channels));
    if (src.pixels.size() != src.pixel_count() * size_t(src.channels))
      throw std::invalid_argument("rotate: the image's pixels do not match its size");
    src_ = src;
    out_ = src;  // shown until the first run
  }
  int width() const override { return src_.width; }
  int height() const override { return src_.height; }
  void run(const Variant& v, int, const Settings& s) override {
    if (v.backend != Backend::Cpu) throw std::invalid_argument("rotate: " + std::string(v.id) + " is not a CPU variant");
    if (src_.empty()) throw std::logic_error("rotate: no image uploaded");
    out_ = rotate_cpu(src_, effective(v, s).params);
  }
  image::Image output() override { return out_; }
  void compose(uint8_t* h_rgba) override {
    const image::Image rgba = image::convert_channels(out_, 4);
    std::copy(rgba.pixels.begin(), rgba.pixels.end(), h_rgba);
  }

 private:
  std::string name_ = cpu_model_name();
  image::Image src_, out_;
};

}  // namespace

std::unique_ptr<Engine> make_cpu_engine() { return std::make_unique<CpuEngine>(); }

}  // namespace gpulab::rotate

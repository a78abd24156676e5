#include "demos/rotate/rotate_verify.h"

#include <algorithm>
#include <cstdio>

#include "demos/common/image_source.h"

namespace gpulab {
namespace {
using rotate::Backend;
using rotate::Filter;
}  // namespace

RotateVerdict verify_rotation(const image::Image& got, const image::Image& source,
                              const rotate::Variant& variant, const rotate::Settings& settings,
                              const std::string& settings_text) {
  RotateVerdict verdict;
  const rotate::Settings e = rotate::effective(variant, settings);
  const bool lecture = variant.kind() == rotate::Kind::Lecture;
  const image::Image want =
      lecture ? rotate::rotate_lecture_cpu(source, e.params) : rotate::rotate_cpu(source, e.params);
  const char* reference = lecture ? "rotate_lecture_cpu" : "rotate_cpu";
  const std::string id(variant.id);
  if (std::string bad = shape_mismatch(got, want, std::string(reference) + "'s"); !bad.empty()) {
    verdict.text = id + ": " + bad;
    return verdict;
  }
  const size_t n = got.pixel_count();
  const int w = got.width, h = got.height;
  char buf[512];
  if (variant.backend == Backend::Cpu) {
    const size_t differ = diff_pixels(got, want).differ;
    verdict.ok = differ == 0;
    if (verdict.ok)
      std::snprintf(buf, sizeof buf, "%s matches %s byte for byte (%s, %s)", id.c_str(), reference,
                    settings_text.c_str(), image_label(source).c_str());
    else
      std::snprintf(buf, sizeof buf, "%s: %zu of %zu pixels differ from %s", id.c_str(), differ, n,
                    reference);
    verdict.text = buf;
    return verdict;
  }
  // A GPU variant does what the texture unit does (rotate.h's unit model; global by hand): against
  // the float definition, point filtering is exact but where the unit's fixed-point coordinate falls
  // in another texel (a tie at a texel edge), linear filtering within the bound derived from its
  // 8-bit weights. Against the unit model itself, byte for byte.
  const image::Image unit = rotate::rotate_unit_cpu(source, e, lecture);
  const bool point = e.params.filter == Filter::Point;
  const int bound = point ? 0 : rotate::unit_linear_bound(w, h, e);
  const rotate::Coefficients k = rotate::coefficients(e.params);
  size_t differ = 0, outside = 0, ties = 0, unit_differ = 0;
  int largest = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = size_t(y) * size_t(w) + size_t(x);
      unit_differ += pixel_difference(got, unit, i) > 0;
      const int d = pixel_difference(got, want, i);
      if (d == 0) continue;
      if (point) {
        const rotate::Coord sc =
            lecture ? rotate::lecture_source_coord(x, y, w, h, k) : rotate::source_coord(x, y, w, h, k);
        const rotate::PointTap u = rotate::unit_point_tap(rotate::texture_coord(sc, w, h, e.normalized), w, h,
                                                          e.normalized, e.params.address),
                               def = rotate::point_tap(sc, w, h, e.params.address);
        if (u.i != def.i || u.j != def.j) {
          ++ties;
          continue;
        }
      }
      ++differ;
      outside += d > bound;
      largest = std::max(largest, d);
    }
  verdict.ok = outside == 0;
  const std::string unit_text =
      unit_differ == 0 ? "; the texture-unit model (rotate.h, measured on the H100): byte for byte"
                       : "; the texture-unit model (rotate.h, measured on the H100) differs in " +
                             std::to_string(unit_differ) + " pixels on this GPU";
  const std::string tie_text =
      ties == 0 ? ""
                : "; " + std::to_string(ties) +
                      " at texel-edge ties, where the unit's fixed-point coordinate picks the next texel";
  if (!verdict.ok) {
    std::snprintf(buf, sizeof buf,
                  "%s: %zu of %zu pixels differ from %s by more than %d (largest difference %d)%s",
                  id.c_str(), outside, n, reference, bound, largest, unit_text.c_str());
  } else if (differ == 0) {
    std::snprintf(buf, sizeof buf, "%s matches %s byte for byte%s (%s, %s)%s", id.c_str(), reference,
                  ties ? " away from texel-edge ties" : "", settings_text.c_str(),
                  image_label(source).c_str(), (tie_text + unit_text).c_str());
  } else {
    std::snprintf(
        buf, sizeof buf,
        "%s matches %s within %d level%s: %zu of %zu pixels differ, largest %d (the texture unit's 8-bit "
        "weights; the bound is derived in rotate.h)%s",
        id.c_str(), reference, bound, bound == 1 ? "" : "s", differ, n, largest,
        (tie_text + unit_text).c_str());
  }
  verdict.text = buf;
  return verdict;
}

}  // namespace gpulab

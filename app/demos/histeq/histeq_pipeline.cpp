// Histogram equalization: the pipeline and what it runs on. The image split into planes (for the
// mode and colour handling chosen), the stages run over them with their timing sections, the output,
// verify, and the read-back of the histograms and LUTs the plots show.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "core/timings.h"
#include "demos/common/image_source.h"
#include "demos/histeq/histeq_demo.h"
#include "demos/histeq/histeq_demo_internal.h"
#include "demos/histeq/histeq_display.h"

#include "histeq/histeq_cuda.h"

namespace gpulab {
namespace {

using histeq::Colour;
using histeq::Mode;
using histeq_internal::section_name;

constexpr int kMaxTimedRuns = 64;  // per-stage GPU sections cost two events a run: only this many a frame

}  // namespace

// ---------------------------------------------------------------------------------------------
// Images.

bool HisteqDemo::set_image(image::Image img, const std::string& name, std::string* error) {
  if (std::string refused = image_refusal(img, name, ctx_ ? max_texture_ : 0); !refused.empty()) {
    *error = std::move(refused);
    return false;
  }
  const std::string dims = size_text(img.width, img.height);
  histeq::Planes p;
  try {
    p = histeq::split(img, colour_);
  } catch (const std::exception& e) {
    *error = name + ": " + e.what();
    return false;
  }
  const uint64_t serial = planes_serial_ + 1;
  if (ctx_) {
    const size_t idx = on_gpu() ? 1 : 0;
    *error = replace_image(
        name, dims, "processed",
        [&] {
          active_->upload(p);
          engine_serial_[idx] = serial;
        },
        [&] { display_->set_source(img); },
        [&] {
          if (image_.empty()) return;  // none yet, or the one attach gave up on
          active_->upload(planes_);
          engine_serial_[idx] = planes_serial_;
          display_->set_source(image_);
        });
    if (!error->empty()) return false;
  }
  image_ = std::move(img);
  planes_ = std::move(p);
  planes_serial_ = serial;
  origin_ = {name, {}, {}};
  compute_before();
  channel_ = 0;
  dirty_ = true;
  output_current_ = false;
  display_stale_ = true;
  view_.fitted = false;
  verify_result_.clear();
  return true;
}

bool HisteqDemo::load_path(const std::filesystem::path& path, std::string* error) {
  if (!open_image_file(path, set_image_fn(), &origin_, error, max_texture_)) return false;
  status_ = "loaded " + origin_.name + ": " + size_label();
  return true;
}

bool HisteqDemo::load_generated(const image::Generated& g, std::string* error) {
  // The PNG tools/make_images wrote, when it is there; else the same image made in memory.
  if (!open_generated_image(g, ctx_ ? ctx_->assets : std::filesystem::path(), set_image_fn(), &origin_,
                            error))
    return false;
  status_.clear();
  return true;
}

SetImage HisteqDemo::set_image_fn() {
  return [this](image::Image img, const std::string& name, std::string* error) {
    return set_image(std::move(img), name, error);
  };
}

bool HisteqDemo::open_file(const std::filesystem::path& path, std::string* error) {
  return load_path(path, error);
}

void HisteqDemo::resplit() {
  histeq::Planes p = histeq::split(image_, colour_);
  const uint64_t serial = planes_serial_ + 1;
  if (ctx_) {
    active_->upload(p);
    engine_serial_[on_gpu() ? 1 : 0] = serial;
  }
  planes_ = std::move(p);
  planes_serial_ = serial;
  compute_before();
  channel_ = std::min(channel_, planes_.processed() - 1);
}

void HisteqDemo::set_mode(Mode m) {
  if (m == mode_) return;
  mode_ = m;
  dirty_ = true;
  output_current_ = false;
  verify_result_.clear();
}

void HisteqDemo::set_colour(Colour c) {
  if (c == colour_) return;
  const Colour keep = colour_;
  colour_ = c;
  try {
    if (!image_.empty()) resplit();
  } catch (const std::exception& e) {
    colour_ = keep;
    notify(std::string("cannot switch the colour handling: ") + e.what());
    return;
  }
  dirty_ = true;
  output_current_ = false;
  verify_result_.clear();
}

void HisteqDemo::compute_before() {
  before_.clear();
  for (int p = 0; p < planes_.processed(); ++p) before_.push_back(histeq::histogram_cpu(planes_.planes[p]));
  after_fresh_ = false;
}

// ---------------------------------------------------------------------------------------------
// The pipeline.

void HisteqDemo::run_pipeline(int times, bool timed) {
  if (times <= 0 || planes_.planes.empty()) return;
  if (!ctx_) throw std::logic_error("histeq: the pipeline runs once the demo is attached");
  const bool gpu = on_gpu();
  const int planes = planes_.processed();
  Timings* t = timed && ctx_ ? ctx_->timings : nullptr;
  const bool stage_sections = t && times * planes <= kMaxTimedRuns;
  std::vector<size_t> active;
  for (size_t s = 0; s < histeq::kStageCount; ++s)
    if (stage_active(s)) active.push_back(s);

  auto run_all = [&](auto&& begin, auto&& end) {
    for (int i = 0; i < times; ++i)
      for (int p = 0; p < planes; ++p)
        for (size_t s : active) {
          if (stage_sections) begin(s);
          active_->run(variant(s), block(s), p);
          if (stage_sections) end(s);
        }
  };
  output_current_ = false;
  if (gpu) {
    Stream stream = ctx_->stream;
    stream = static_cast<histeq::CudaEngine*>(active_)->stream();
    if (t) t->gpu_begin(pipeline_key(), "pipeline", stream);
    run_all([&](size_t s) { t->gpu_begin(TimingKey{pick(s)}, std::string(info(s).key), stream); },
            [&](size_t s) { t->gpu_end(TimingKey{pick(s)}, std::string(info(s).key), stream); });
    if (t) t->gpu_end(pipeline_key(), "pipeline", stream);
  } else {
    KeyedCpuSection pipeline(t, pipeline_key(), section_name("pipeline", false));
    std::optional<KeyedCpuSection> stage;
    run_all([&](size_t s) { stage.emplace(t, TimingKey{pick(s)}, section_name(info(s).key, false)); },
            [&](size_t) { stage.reset(); });
  }
  last_timed_stages_ = stage_sections;
  output_current_ = true;
  display_stale_ = true;
  // The plots read the histogram and LUT back, which waits for the GPU. A deterministic pipeline
  // gives the same ones every run, so they are read once per change, not once a frame; the racy
  // histogram differs from run to run.
  bool exact = true;
  for (size_t s : active) exact = exact && variant(s).exact;
  if (dirty_ || !exact) after_fresh_ = false;
  dirty_ = false;
}

image::Image HisteqDemo::output_image() {
  if (dirty_ || !output_current_) run_pipeline(1, false);
  std::vector<std::vector<uint8_t>> out;
  for (int p = 0; p < planes_.processed(); ++p) out.push_back(active_->output(p));
  return histeq::merge(planes_, out);
}

std::string HisteqDemo::verify() {
  const image::Image got = output_image();
  const image::Image want = histeq::process_cpu(image_, mode_, colour_);
  std::string id;
  for (size_t s = 0; s < histeq::kStageCount; ++s)
    if (stage_active(s) && !variant(s).exact) id = std::string(variant(s).id);
  if (std::string bad = shape_mismatch(got, want, "the CPU reference"); !bad.empty()) {
    verify_ok_ = false;
    return bad;
  }
  const auto [differ, largest] = diff_pixels(got, want);
  verify_ok_ = differ == 0;
  if (differ == 0) {
    std::string s = pipeline_label() + " matches the CPU reference byte for byte (" + size_label() + ")";
    if (!id.empty()) s += " (this time: " + id + " lost no counts that mattered)";
    return s;
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "%zu pixels differ (largest difference %d) of %zu", differ, largest,
                got.pixel_count());
  std::string s = buf;
  if (!id.empty()) s += ": expected, " + id + " loses counts, so its CDF and LUT are off";
  return s;
}

void HisteqDemo::read_after() {
  const int planes = planes_.processed();
  engine_hist_.assign(planes, {});
  after_.assign(planes, {});
  luts_.assign(planes, {});
  minmax_.assign(planes, {});
  for (int p = 0; p < planes; ++p) {
    luts_[p] = active_->lut(p);
    if (mode_ == Mode::Equalize) {
      engine_hist_[p] = active_->histogram(p);
      after_[p] = histeq::remap_histogram(engine_hist_[p], luts_[p]);
    } else {
      minmax_[p] = active_->minmax(p);
      after_[p] = histeq::remap_histogram(before_[p], luts_[p]);
    }
  }
  after_fresh_ = true;
}

}  // namespace gpulab

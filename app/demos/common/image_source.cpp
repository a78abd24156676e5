// The image demos' shared input handling. See image_source.h.
#include "demos/common/image_source.h"

#include "common/error.h"
#include "common/text.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <system_error>

namespace gpulab {

std::vector<std::filesystem::path> list_image_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string ext = entry.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".tga" || ext == ".pgm" ||
        ext == ".ppm" || ext == ".gif")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool read_image_file(const std::filesystem::path& path, SourceImage* out, std::string* error,
                     int max_texture) {
  image::SizeCheck refuse;
  if (max_texture > 0)
    refuse = [max_texture](int w, int h) -> std::string {
      if (w <= max_texture && h <= max_texture) return {};
      return size_text(w, h) + " is larger than the largest GL texture here (" + std::to_string(max_texture) +
             " pixels a side), so it cannot be shown (--save-image processes it without showing it)";
    };
  image::LoadResult r = image::load(path, refuse);
  if (!r.error.empty() || r.image.empty()) {
    *error = r.error.empty() ? "cannot read " + path.string() + ": no pixels" : r.error;
    return false;
  }
  out->image = std::move(r.image);
  out->name = path.filename().string();
  out->path = path;
  out->generated_id.clear();
  return true;
}

bool make_generated_image(const image::Generated& g, const std::filesystem::path& assets, SourceImage* out,
                          std::string* error) {
  image::Image img;
  std::filesystem::path file;
  if (!assets.empty()) {
    file = assets / "images" / (std::string(g.id) + ".png");
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) {
      image::LoadResult r = image::load(file);
      if (r.error.empty())
        img = std::move(r.image);
      else
        file.clear();
    } else {
      file.clear();
    }
  }
  if (img.empty()) {
    try {
      img = image::generate(g);
    } catch (const std::exception& e) {
      *error = "cannot make the " + std::string(g.id) + " image: " + e.what();
      return false;
    }
  }
  out->image = std::move(img);
  out->name = std::string(g.title);
  out->path = file;
  out->generated_id = std::string(g.id);
  return true;
}

bool open_image_file(const std::filesystem::path& path, const SetImage& set, ImageOrigin* origin,
                     std::string* error, int max_texture) {
  SourceImage src;
  if (!read_image_file(path, &src, error, max_texture)) return false;
  if (!set(std::move(src.image), path.string(), error)) return false;
  *origin = {src.name, path, {}};
  return true;
}

bool open_generated_image(const image::Generated& g, const std::filesystem::path& assets, const SetImage& set,
                          ImageOrigin* origin, std::string* error) {
  SourceImage src;
  if (!make_generated_image(g, assets, &src, error)) return false;
  if (!set(std::move(src.image), src.name, error)) return false;
  *origin = {src.name, src.path, src.generated_id};
  return true;
}

BenchSize image_bench_size(BenchSize size) {
  if (size.height == 0) size.height = size.width;
  if (size.width < 1 || size.height < 1 || size.width > image::kMaxSide || size.height > image::kMaxSide)
    throw std::invalid_argument("--size " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                                ": from 1 to " + std::to_string(image::kMaxSide) + " pixels a side");
  return size;
}

std::string size_text(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

std::string shape_mismatch(const image::Image& got, const image::Image& want, const std::string& reference) {
  if (got.width == want.width && got.height == want.height && got.channels == want.channels) return {};
  return "the output is " + size_text(got.width, got.height) + " with " + std::to_string(got.channels) +
         " channels, " + reference + " " + size_text(want.width, want.height) + " with " +
         std::to_string(want.channels);
}

int pixel_difference(const image::Image& a, const image::Image& b, size_t i) {
  const size_t c = size_t(a.channels);
  int d = 0;
  for (size_t k = 0; k < c; ++k)
    d = std::max(d, std::abs(int(a.pixels[i * c + k]) - int(b.pixels[i * c + k])));
  return d;
}

PixelDiff diff_pixels(const image::Image& a, const image::Image& b) {
  PixelDiff r;
  for (size_t i = 0, n = a.pixel_count(); i < n; ++i) {
    const int d = pixel_difference(a, b, i);
    r.differ += d > 0;
    r.largest = std::max(r.largest, d);
  }
  return r;
}

std::string channels_label(int channels) {
  switch (channels) {
    case 1:
      return "grey";
    case 2:
      return "grey+alpha";
    case 3:
      return "RGB";
    default:
      return "RGBA";
  }
}

std::string image_label(const image::Image& img) {
  return size_text(img.width, img.height) + " " + channels_label(img.channels);
}

std::string gl_texture_limit_error(const std::string& name, int width, int height, int max_texture) {
  if (max_texture <= 0 || (width <= max_texture && height <= max_texture)) return {};
  return name + ": " + size_text(width, height) + " is larger than the largest GL texture (" +
         std::to_string(max_texture) + " pixels a side)";
}

std::string image_refusal(const image::Image& img, const std::string& name, int max_texture) {
  if (img.empty() || img.width <= 0 || img.height <= 0) return name + ": the image is empty";
  if (img.channels < 1 || img.channels > 4 || img.pixels.size() != img.pixel_count() * size_t(img.channels))
    return name + ": " + std::to_string(img.channels) + " channels of " + std::to_string(img.pixels.size()) +
           " bytes do not make a " + size_text(img.width, img.height) + " image";
  return gl_texture_limit_error(name, img.width, img.height, max_texture);
}

std::string replace_image(const std::string& name, const std::string& dims, const char* what,
                          const std::function<void()>& upload, const std::function<void()>& show,
                          const std::function<void()>& restore) {
  try {
    upload();
  } catch (const GpuError& e) {
    return name + ": " + dims +
           (e.out_of_memory() ? " does not fit in GPU memory (" : " cannot go to the GPU (") + e.what() +
           "); the current image stays";
  } catch (const std::exception& e) {
    return name + ": " + dims + " cannot be " + what + " (" + e.what() + "); the current image stays";
  }
  try {
    show();
  } catch (const std::exception& e) {
    std::string error = name + ": " + dims + " cannot be shown (" + e.what() + "); the current image stays";
    try {
      restore();
    } catch (const std::exception& e2) {
      error += "; restoring it failed too: " + std::string(e2.what());
    }
    return error;
  }
  return {};
}

void start_with_image(const image::Image& img, const std::string& name, int max_texture, bool batch,
                      bool headless, const char* what, const std::function<void()>& upload,
                      const std::function<void()>& show, const image::Generated* fallback,
                      const std::function<bool(const image::Generated&, std::string*)>& load_fallback,
                      const std::function<void(std::string)>& notify) {
  auto fall_back = [&] {
    if (!fallback) throw std::runtime_error("no generated images to start with");
    std::string err;
    if (!load_fallback(*fallback, &err)) throw std::runtime_error(err);
  };
  if (img.empty()) {
    fall_back();
    return;
  }
  const std::string too_large = gl_texture_limit_error(name, img.width, img.height, max_texture);
  std::string problem;
  if (!too_large.empty() && !batch) {
    problem = too_large;
  } else {
    try {
      upload();
      if (too_large.empty()) show();
    } catch (const std::exception& e) {
      problem = name + ": " + size_text(img.width, img.height) + " cannot be " + what + " here: " + e.what();
    }
  }
  if (problem.empty()) return;
  if (batch || headless) throw std::runtime_error(problem);
  notify(problem + "; showing a generated image instead");
  fall_back();
}

void pick_and_open(ImagePicker& picker, float width, const ImageOrigin& current,
                   const std::function<bool(const image::Generated&, std::string*)>& load_generated,
                   const std::function<bool(const std::filesystem::path&, std::string*)>& load_path,
                   const std::function<void(std::string)>& notify) {
  const auto pick = picker.draw(width, current);
  if (!pick) return;
  std::string err;
  if (pick->generated) {
    if (!load_generated(*pick->generated, &err)) notify(err);
  } else if (load_path(pick->path, &err)) {
    if (pick->typed) notify("opened " + pick->path.string());
  } else {
    notify(err);
  }
}

std::optional<ImagePicker::Pick> ImagePicker::draw(float width, const ImageOrigin& current) {
  std::optional<Pick> pick;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo("image", current.name.c_str())) {
    for (const image::Generated& g : image::generated_images()) {
      const std::string label = std::string(g.title) + "  (" + size_text(g.width, g.height) + ")";
      if (ImGui::Selectable(label.c_str(), current.generated_id == g.id)) pick = Pick{&g, {}, false};
    }
    bool separated = false;
    for (const auto& p : files_) {
      if (image::find_generated(p.stem().string()) && p.extension() == ".png") continue;  // listed above
      if (!separated) {
        ImGui::Separator();
        separated = true;
      }
      if (ImGui::Selectable(p.filename().string().c_str(), p == current.path)) pick = Pick{nullptr, p, false};
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(width);
  if (ImGui::InputTextWithHint("##path", "photo.png, scan.jpg, x-ray.pgm ...", path_input_,
                               sizeof path_input_, ImGuiInputTextFlags_EnterReturnsTrue))
    pick = Pick{nullptr, std::filesystem::path(path_input_), true};
  ImGui::SameLine();
  ImGui::TextDisabled("open (Enter), or drop a file");
  return pick;
}

std::string save_batch_image(const std::string& path, const std::function<image::Image()>& produce,
                             const std::function<std::string()>& done) {
  if (path.empty()) return {};
  try {
    const std::string err = image::save_png(path, produce());
    if (!err.empty()) return err;  // names the file
    std::fprintf(stderr, "gpulab: %s, written to %s\n", done().c_str(), text::escape(path, 4096).c_str());
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

bool move_image_to_engine(const std::function<void()>& sync, bool gpu, std::string* why) {
  try {
    sync();
  } catch (const std::exception& e) {
    if (why) *why = "cannot move the image to the " + std::string(gpu ? "GPU" : "CPU") + ": " + e.what();
    return false;
  }
  return true;
}

}  // namespace gpulab

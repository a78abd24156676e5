#pragma once
// What the image demos (histogram equalization, texture rotation) share about their input image:
// the files in assets/images, reading a file or a generated image (the PNG tools/make_images wrote
// when it is there, else made in memory) with messages that name it, the labels, and the picker in
// the panel (generated images, other files there, a typed path), and the checks every source image
// passes (image_refusal). Each demo keeps its own set_image: where an image goes differs.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cli.h"
#include "image/image.h"

namespace gpulab {

// A loaded image and where it came from.
struct SourceImage {
  image::Image image;
  std::string name;            // the file's name, or the generated image's title
  std::filesystem::path path;  // the file read (empty for an image made in memory)
  std::string generated_id;    // the generated image's id, when it is one
};

// Where the image a demo shows came from (the picker marks it).
struct ImageOrigin {
  std::string name;            // file name or generated title
  std::filesystem::path path;  // the file read (empty for an image set directly or made in memory)
  std::string generated_id;    // the generated image shown, if one is
};

// A demo's set_image: takes the image (named in its messages) or says why not.
using SetImage = std::function<bool(image::Image, const std::string& name, std::string* error)>;
// Reads the file at `path` (open_image_file) or makes the generated image `g` (open_generated_image,
// see make_generated_image) and hands it to `set`; on success *origin says where it came from. False
// with the message, which names the image, when it cannot be read or set_image refuses it.
// max_texture > 0: a file whose header gives a side over it (the GL texture limit of a run that shows
// the image) is refused before it is decoded.
bool open_image_file(const std::filesystem::path& path, const SetImage& set, ImageOrigin* origin,
                     std::string* error, int max_texture = 0);
bool open_generated_image(const image::Generated& g, const std::filesystem::path& assets, const SetImage& set,
                          ImageOrigin* origin, std::string* error);

// The image files (PNG, JPEG, BMP, TGA, PGM/PPM, GIF) in `dir`, sorted; none when it is missing.
std::vector<std::filesystem::path> list_image_files(const std::filesystem::path& dir);

// Reads `path` into `out` (name: the file's name). False with image::load's message, which names
// the file, when it cannot be read.
bool read_image_file(const std::filesystem::path& path, SourceImage* out, std::string* error,
                     int max_texture = 0);

// The generated image `g`: assets/images/<id>.png when it is there and reads, else made in memory
// (`assets` may be empty: always made). False with the reason when it cannot be made.
bool make_generated_image(const image::Generated& g, const std::filesystem::path& assets, SourceImage* out,
                          std::string* error);

// Moves the image to the engine a new pick runs on (`sync`, the demo's): true, or false with *why
// ("cannot move the image to the GPU: out of memory") when it throws. The image demos' picks_changed.
bool move_image_to_engine(const std::function<void()>& sync, bool gpu, std::string* why);

std::string size_text(int width, int height);      // "640x400"
std::string channels_label(int channels);          // "grey", "grey+alpha", "RGB", "RGBA"
std::string image_label(const image::Image& img);  // "640x400 grey"

// Verify's comparison of a demo's output with its CPU reference. shape_mismatch: "" when both have the
// same size and channels, else "the output is WxH with C channels, <reference> WxH with C".
// pixel_difference: the largest difference over the channels of pixel i (same shapes).
// diff_pixels: how many pixels differ and by how much at most.
std::string shape_mismatch(const image::Image& got, const image::Image& want, const std::string& reference);
int pixel_difference(const image::Image& a, const image::Image& b, size_t i);
struct PixelDiff {
  size_t differ = 0;
  int largest = 0;
};
PixelDiff diff_pixels(const image::Image& a, const image::Image& b);

// An image bench's --size: the height defaults to the width; throws std::invalid_argument for a side
// outside 1..image::kMaxSide.
BenchSize image_bench_size(BenchSize size);

// "" when `img` can be an image demo's source, else why not, naming it `name`: it is empty, its pixels
// do not match its size and 1..4 channels, or it is larger than a GL texture (gl_texture_limit_error;
// max_texture 0: not known, no limit). The check both demos' set_image make first.
std::string image_refusal(const image::Image& img, const std::string& name, int max_texture);

// "" when a width x height image fits a GL texture of at most `max_texture` pixels a side (0: not
// known yet), else "<name>: WxH is larger than the largest GL texture (N pixels a side)".
std::string gl_texture_limit_error(const std::string& name, int width, int height, int max_texture);

// Puts a new image in place: upload() gives it to the demo's engine (which keeps its previous image
// when it throws), show() to the display. When show() fails after the upload, restore() puts the
// previous image back on the engine and the display (nothing to do when there was none). Returns ""
// or the message, naming the image, its size and the reason, ending in "the current image stays".
// `what` is the demo's word for its work: "processed", "rotated".
std::string replace_image(const std::string& name, const std::string& dims, const char* what,
                          const std::function<void()>& upload, const std::function<void()>& show,
                          const std::function<void()>& restore);

// At attach: the image configure() read (--image) goes to the demo's engine (upload) and display
// (show, skipped when it is larger than a GL texture, which batch mode does not need). When that
// fails, batch mode and a headless run (whose picture is the output: exit 1, as the README says)
// throw the reason; a window says why and falls back to the generated image `fallback` through
// load_fallback (which throws what it says when it cannot, as does a null fallback). Only the
// fallback runs when there is no image yet. `what` is the demo's word: "processed".
void start_with_image(const image::Image& img, const std::string& name, int max_texture, bool batch,
                      bool headless, const char* what, const std::function<void()>& upload,
                      const std::function<void()>& show, const image::Generated* fallback,
                      const std::function<bool(const image::Generated&, std::string*)>& load_fallback,
                      const std::function<void(std::string)>& notify);

// Batch mode's end in an image demo (--save-image): writes produce()'s image to `path` as PNG and
// prints "gpulab: <done()>, written to <path>" on stderr. "" when done or when `path` is empty, else
// the message: what produce() threw, or save_png's, which names the file.
std::string save_batch_image(const std::string& path, const std::function<image::Image()>& produce,
                             const std::function<std::string()>& done);

class ImagePicker;
// Draws `picker` and opens what it picks through the demo's loaders (a generated image, or a file); a
// typed path that opened is noted, a failure's message goes to `notify`.
void pick_and_open(ImagePicker& picker, float width, const ImageOrigin& current,
                   const std::function<bool(const image::Generated&, std::string*)>& load_generated,
                   const std::function<bool(const std::filesystem::path&, std::string*)>& load_path,
                   const std::function<void(std::string)>& notify);

// The panel's image picker: a combo of the generated images and the other files of assets/images,
// and a field for a typed path (Enter opens it). It only says what was picked; the demo loads it.
class ImagePicker {
 public:
  struct Pick {
    const image::Generated* generated = nullptr;  // a generated image, or
    std::filesystem::path path;                   // a file
    bool typed = false;                           // the path came from the text field
  };
  void set_files(std::vector<std::filesystem::path> files) { files_ = std::move(files); }
  // Draws the picker (ImGui) `width` wide; `current_*` mark the image shown.
  std::optional<Pick> draw(float width, const ImageOrigin& current);

 private:
  std::vector<std::filesystem::path> files_;
  char path_input_[512] = "";
};

}  // namespace gpulab

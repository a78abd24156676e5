// make_images OUTDIR: writes every image the repo generates (gpulab::image::generated_images) as
// OUTDIR/<id>.png. Run by the build into <gpulab dir>/assets/images/.
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "image/image.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  namespace image = gpulab::image;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\nwrites the generated images as OUTDIR/<id>.png\n", argv[0]);
    return 2;
  }
  const fs::path dir = argv[1];
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "make_images: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  try {
    for (const image::Generated& g : image::generated_images()) {
      const std::string error = image::save_png(dir / (std::string(g.id) + ".png"), image::generate(g));
      if (!error.empty()) {
        std::fprintf(stderr, "make_images: %s\n", error.c_str());
        return 1;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_images: %s\n", e.what());
    return 1;
  }
  return 0;
}

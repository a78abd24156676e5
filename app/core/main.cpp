// gpulab: GPU programming lessons, live and measurable.
#include "core/app.h"

int main(int argc, char** argv) { return gpulab::gpulab_main(argc, argv); }

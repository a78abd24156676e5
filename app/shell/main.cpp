// gpulab: GPU programming lessons, live and measurable.
#include "shell/app.h"

int main(int argc, char** argv) { return gpulab::gpulab_main(argc, argv); }

#pragma once
// kernels/ must not include GL headers.
#include <GLFW/glfw3.h>

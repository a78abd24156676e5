#pragma once
// What both platforms record about a fresh GL context, and the GL 4.5 check they share.
#include <string>

#include "platform/platform.h"

namespace gpulab::platform {

// Fills the GL strings and the software-renderer flag of `info` from the current context; returns
// an error when glad's `gl_version` (from gladLoadGL) is below 4.5, else an empty string.
std::string describe_gl_context(int gl_version, ContextInfo& info);

}  // namespace gpulab::platform

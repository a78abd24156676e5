#pragma once
// The shell may include core.
#include "core/up.h"

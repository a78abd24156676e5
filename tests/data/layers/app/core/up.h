#pragma once
// A core header that reaches up into the shell: the layer check must refuse it.
#include "shell/app.h"

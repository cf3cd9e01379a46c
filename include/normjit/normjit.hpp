// Umbrella header of the C++ API.
#pragma once
#include "normjit/dtype.hpp"
#include "normjit/errors.hpp"
#include "normjit/ops.hpp"
#include "normjit/runtime.hpp"
#include "normjit/version.hpp"

// The compiled-model comparison of model_compile_test.cc, shared with the other reference tests
// that compile models (composite_test.cc).
#pragma once

#include <string>

#include <mujoco/mujoco.h>

#include "gauss/model.h"

namespace gauss::test {

// Compares every compiled array Gauss has with MuJoCo's (reals to 1e-9 relative, floats to
// 1e-7, integers and names exactly, quaternions up to sign, inertias as tensors). Returns the
// first mismatch ("" if none) and prints the largest relative difference seen.
std::string CompareModels(const Model& g, const mjModel* mj);

}  // namespace gauss::test

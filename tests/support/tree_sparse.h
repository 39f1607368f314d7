// For tests of the tree-sparse algorithms (M's pattern, velocity derivatives, their
// factorizations): random kinematic trees as MJCF text, and dense views of tree-sparse matrices.
#pragma once

#include <string>
#include <vector>

#include "gauss/model.h"

namespace gauss::test {

// A contact-free model of `nbody` bodies in one or more trees, reproducible from `seed`: each body
// hangs from a random earlier body or from the world; a root carries a free joint half of the
// time, any other body 0-3 joints (hinge, slide, ball in random order, only slides after a
// ball; random axes and anchors, some damping and armature), so some bodies are welded to their
// parent. Geoms are random boxes and capsules with mass. With `couplings`, damped fixed tendons
// and velocity actuators on fixed tendons join scalar joints of different branches (pairs
// outside M's sparsity pattern), and a velocity actuator drives one joint.
std::string RandomTreeXml(unsigned seed, int nbody, bool couplings);

// The nv x nv matrix (row-major) stored as two arrays in M's layout (gauss/derivative.h):
// lower[dof_Madr[i] + a] = A(i, a-th ancestor of i), upper[dof_Madr[i] + a] = A(that ancestor, i).
// Entries outside M's pattern are NaN.
std::vector<double> DenseFromTreeSparse(const Model& m, const double* lower, const double* upper);

}  // namespace gauss::test

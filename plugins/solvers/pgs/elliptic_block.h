// Exact minimization of the dual cost over one elliptic-cone contact block (PGS's block step).
#pragma once

#include <cstddef>

#include "dual.h"
#include "gauss/contact.h"

namespace gauss {

// Cholesky solve of the k x k SPD system S x = r (S row-major, destroyed; pivots clamped at
// 1e-300).
void SolveSpd(double* S, int k, double* x, const double* r);

// Given the dual problem and the current forces f, replaces the rows a .. a+c.dim-1 of f by
// the exact minimizer of the dual cost over c's friction cone
// {f_n >= 0, sum_j f_j^2 / mu_j^2 <= f_n^2}, the other rows held fixed. Returns the change
// of the dual cost (<= 0), computed from the step rather than from two costs.
double MinimizeEllipticBlock(const DualProblem& dual, double* f, int a, const Contact& c);

}  // namespace gauss

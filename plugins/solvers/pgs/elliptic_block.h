// Exact minimization of the dual cost over one elliptic-cone contact block (PGS's block step).
#pragma once

#include <cstddef>

#include "gauss/arena.h"
#include "gauss/contact.h"

namespace gauss {

inline constexpr std::size_t kEllipticBlockScratch = 0;  // works on stack arrays (dim <= 6)

// Cholesky solve of the k x k SPD system S x = r (S row-major, destroyed; pivots clamped at
// 1e-300).
void SolveSpd(double* S, int k, double* x, const double* r);

// Given the dual problem (AR n x n, b) and the current forces f, replaces the rows
// a .. a+c.dim-1 of f by the exact minimizer of the dual cost over c's friction cone
// {f_n >= 0, sum_j f_j^2 / mu_j^2 <= f_n^2}, the other rows held fixed. Returns the change
// of the dual cost (<= 0), computed from the step rather than from two costs.
double MinimizeEllipticBlock(const double* AR, const double* b, double* f, int n, int a,
                           const Contact& c, Arena& arena);

}  // namespace gauss

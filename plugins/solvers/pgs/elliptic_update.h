// The spec's PGS update of one elliptic-cone contact ("PGS", elliptic cones), the default of
// the `pgs` plugin and what MuJoCo 2.2.2 does:
//  1. along the ray from the cone's tip through the current force, move to the minimum of the
//     dual cost (keeping the normal force >= 0); at the tip itself, a normal-only update;
//  2. with the normal force now fixed, minimize over the friction forces inside the ellipse
//     sum_j f_j^2 / mu_j^2 <= f_n^2, a small QCQP solved by Newton's method on its one
//     Lagrange multiplier (EllipseQP).
// An update that would raise the dual cost by more than 1e-10 is undone.
#pragma once

#include "dual.h"
#include "gauss/contact.h"

namespace gauss {

// min 1/2 x'Ax + x'b over sum_j (x_j / d_j)^2 <= r^2 for n <= 5 (A SPD, n x n row-major).
// Works in the coordinates y_j = x_j / d_j, where the constraint is a ball, and finds the
// multiplier lambda >= 0 with |(A_y + lambda I)^-1 b_y| = r by Newton steps (at most 20,
// stopping when |y|^2 - r^2 or the step is below 1e-10). Writes x; returns whether the
// constraint is active. A (numerically) indefinite A_y + lambda I gives x = 0.
bool EllipseQP(const double* A, const double* b, const double* d, double r, int n, double* x);

// The update above for contact c whose rows start at a, in the dual problem at forces f.
// Returns the change of the dual cost (<= 1e-10; 0 when undone). Throws gauss::Error for a
// contact dimension outside 1..6.
double UpdateEllipticContact(const DualProblem& dual, double* f, int a, const Contact& c);

}  // namespace gauss

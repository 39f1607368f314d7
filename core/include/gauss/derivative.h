// Analytic velocity derivatives of the smooth forces, for implicit-in-velocity integrators
// (spec "Numerical integration"):
//   D = d(qfrc_passive + qfrc_actuator - qfrc_bias) / d qvel
// restricted to the sparsity of M (entries between a dof and its ancestors). D is not symmetric
// when it includes the RNE term; it is stored in two arrays in M's tree-sparse layout:
//   lower[dof_Madr[i] + a] = D(i, a-th ancestor of i)     (a = 0: the diagonal)
//   upper[dof_Madr[i] + a] = D(a-th ancestor of i, i)     (upper[dof_Madr[i]] unused)
#pragma once

#include "gauss/arena.h"

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

class Engine;

// Which terms D includes.
struct DerivativeTerms {
  bool passive = true;   // dof damping, tendon damping, fluid forces
  bool actuator = true;  // actuator force through its velocity dependence
  bool rne = true;       // Coriolis and centrifugal forces (-dc/dv)
};

// (qpos-stage and velocity-stage data, actuator derivatives from the engine's plugins) =>
// lower, upper (nM each). Temporaries from d.arena.
void SmoothVelocityDerivative(const Engine& engine, Data& d, const DerivativeTerms& terms,
                              double* lower, double* upper);

// The arena scratch SmoothVelocityDerivative takes (and releases) for model m.
ArenaPlan SmoothVelocityDerivativePlan(const Model& m);

// In-place LU factorization, without fill, of a matrix with the sparsity of M stored as above,
// eliminating leaves first. Returns the first dof with a zero pivot, or -1.
int FactorTreeLU(const Model& m, double* lower, double* upper);

// x <- A^-1 x with the factors of FactorTreeLU.
void SolveTreeLU(const Model& m, const double* lower, const double* upper, double* x);

}  // namespace gauss

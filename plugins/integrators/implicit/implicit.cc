// `implicit` and `implicitfast`: implicit-in-velocity Euler (spec "Numerical integration",
// "Integrators"):
//   (M - h D) v' = (M - h D) v + h M a,   i.e.  v' = v + h (M - h D)^-1 (qfrc_smooth + qfrc_constraint)
// with D the analytic derivative of the smooth forces with respect to velocity (constraint forces
// excluded, as in the spec), restricted to the sparsity of M.
//   implicit:     D includes the Coriolis/centrifugal derivative of RNE; it is not symmetric and
//                 M - hD is factored by a leaves-first LU without fill.
//   implicitfast: D without the RNE term, symmetrized (D + D')/2, factored by the L'DL of M.
// Positions then follow the new velocity, activations integrate as in the other integrators.
#include <algorithm>

#include "gauss/actuator.h"
#include "gauss/derivative.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/integrator.h"
#include "gauss/sparse_inertia.h"

namespace gauss {
namespace {

// The integrator's arrays: D's two triangles in M's layout, and the accelerations.
struct Work {
  double* lower = nullptr;  // (nM)
  double* upper = nullptr;  // (nM)
  double* qacc = nullptr;   // (nv)
  template <class Take>
  void Blocks(Take& take, const Model& m) {
    take(&lower, m.nM, "D lower");
    take(&upper, m.nM, "D upper");
    take(&qacc, m.nv, "qacc");
  }
};

class ImplicitIntegrator : public Integrator {
 public:
  explicit ImplicitIntegrator(bool fast) : fast_(fast) {}

  // D (two nM arrays, factored in place into M - hD) and the right-hand side, held; the
  // derivative's own scratch on top. DoIntegrate and DoContinuousAcceleration carve the same
  // blocks.
  std::size_t ScratchDoubles(const Model& m) const override {
    ArenaPlan plan;
    Work().Blocks(plan, m);
    plan.Within("smooth velocity derivative", SmoothVelocityDerivativePlan(m));
    return plan.doubles();
  }


 protected:
  // (qM, qfrc_smooth, qfrc_constraint, velocity-dependent forces) => (qpos, qvel, act, time)
  void DoIntegrate(const Engine& engine, Data& d) const override {
    const Model& m = engine.model();
    ArenaScope scope(d.arena);
    ArenaCarve carve(d.arena);
    Work w;
    w.Blocks(carve, m);
    StepMatrix(engine, d, w.lower, w.upper);
    double* qacc = w.qacc;
    for (int i = 0; i < m.nv; ++i) qacc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i];
    if (fast_) {
      double* diag_inv = w.upper;  // the upper triangle is not needed
      FactorLTDL(m, w.lower, diag_inv);
      SolveLTDL(m, w.lower, diag_inv, qacc);
    } else {
      FactorTreeLU(m, w.lower, w.upper);
      SolveTreeLU(m, w.lower, w.upper, qacc);
    }
    engine.Advance(d, d.act_dot.data(), qacc, nullptr);
  }

  // (qM, qLD, qLDiagInv, velocity-dependent forces; qacc = the step's a~) =>
  // qacc = M^-1 (M - h D) a~, the continuous-time acceleration of the forces that produced a~
  bool DoContinuousAcceleration(const Engine& engine, Data& d, double* qacc) const override {
    const Model& m = engine.model();
    ArenaScope scope(d.arena);
    ArenaCarve carve(d.arena);
    Work w;
    w.Blocks(carve, m);
    StepMatrix(engine, d, w.lower, w.upper);
    double* force = w.qacc;
    if (fast_) {
      MulTreeSparse(m, w.lower, qacc, force);
    } else {
      // both triangles: row i holds (i, ancestors of i) in lower, (ancestors of i, i) in upper
      std::fill(force, force + m.nv, 0.0);
      for (int i = 0; i < m.nv; ++i) {
        const int adr = m.dof_Madr[i];
        force[i] += w.lower[adr] * qacc[i];
        int a = 1;
        for (int p = m.dof_parentid[i]; p >= 0; p = m.dof_parentid[p], ++a) {
          force[i] += w.lower[adr + a] * qacc[p];
          force[p] += w.upper[adr + a] * qacc[i];
        }
      }
    }
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), force);
    std::copy(force, force + m.nv, qacc);
    return true;
  }

 private:
  // (qM, velocity-dependent forces) => the matrix the step solves with, in M's layout: lower
  // (and upper, implicit only) = M - h D; implicitfast: lower = M - h (D + D')/2, upper scratch
  void StepMatrix(const Engine& engine, Data& d, double* lower, double* upper) const {
    const Model& m = engine.model();
    const double h = m.opt.timestep;
    DerivativeTerms terms;
    terms.rne = !fast_;
    SmoothVelocityDerivative(engine, d, terms, lower, upper);
    if (fast_) {
      // M - h (D + D')/2: same storage and factorization as M
      for (int i = 0; i < m.nv; ++i) {
        const int adr = m.dof_Madr[i];
        const int len = (i + 1 < m.nv ? m.dof_Madr[i + 1] : m.nM) - adr;
        lower[adr] = d.qM[adr] - h * lower[adr];
        for (int a = 1; a < len; ++a) {
          lower[adr + a] = d.qM[adr + a] - h * 0.5 * (lower[adr + a] + upper[adr + a]);
        }
      }
    } else {
      // M - h D, both triangles (M is symmetric: M(j,i) = M(i,j))
      for (int k = 0; k < m.nM; ++k) {
        lower[k] = d.qM[k] - h * lower[k];
        upper[k] = d.qM[k] - h * upper[k];
      }
    }
  }

  bool fast_;
};

class Implicit : public ImplicitIntegrator {
 public:
  Implicit() : ImplicitIntegrator(false) {}
};
class ImplicitFast : public ImplicitIntegrator {
 public:
  ImplicitFast() : ImplicitIntegrator(true) {}
};

}  // namespace
}  // namespace gauss

GAUSS_INTEGRATOR_PLUGIN(gauss::Implicit, implicit, "1.0.0",
                        "implicit-in-velocity Euler with the full velocity derivative (incl. RNE), LU",
                        gauss::kCapSingleStep | gauss::kCapNeedsVelocityDerivative, gauss::kNoParams)
GAUSS_INTEGRATOR_PLUGIN(gauss::ImplicitFast, implicitfast, "1.0.0",
                        "implicit-in-velocity Euler, symmetrized derivative without RNE, L'DL",
                        gauss::kCapSingleStep | gauss::kCapNeedsVelocityDerivative, gauss::kNoParams)

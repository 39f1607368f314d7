// `euler`: semi-implicit Euler with implicit joint damping (the spec's "euler" integrator).
//
//   v' = v + h a~,   q' = q + h v'   (positions use the new velocity)
//
// where a~ = (M + h diag(damping))^-1 (qfrc_smooth + qfrc_constraint) when any dof has damping:
// the damping force -b v is integrated implicitly, which keeps strongly damped joints stable
// at large timesteps. Without damping a~ = qacc and no second factorization is needed.
//
// Parameters: implicit_damping (bool, default true) — false gives the plain semi-implicit
// update with qacc, for comparisons; the model's disable flag `eulerdamp` (MuJoCo 3.x) does
// the same.
#include <algorithm>

#include "gauss/engine.h"
#include "gauss/integrator.h"
#include "gauss/sparse_inertia.h"

namespace gauss {
namespace {

// Implicit dof damping: the accelerations (the factor of M + h diag(damping) is kept in Data).
struct DampedWork {
  double* qacc = nullptr;  // (nv)
  template <class Take>
  void Blocks(Take& take, const Model& m) {
    take(&qacc, m.nv, "qacc");
  }
};

class EulerIntegrator : public Integrator {
 public:
  void Configure(const Params& params) override {
    implicit_damping_ = params.GetBool("implicit_damping");
  }

  // DoIntegrate and DoContinuousAcceleration carve the same blocks.
  std::size_t ScratchDoubles(const Model& m) const override {
    ArenaPlan plan;
    DampedWork().Blocks(plan, m);
    return plan.doubles();
  }

 protected:
  // (qacc or (qM, qLD_damped, qLD_damped_current), qfrc_smooth, qfrc_constraint, act_dot) =>
  // (qpos, qvel, act, time; qLD_damped, qLDiagInv_damped, qLD_damped_current = 1 when damped)
  void DoIntegrate(const Engine& engine, Data& d) const override {
    const Model& m = engine.model();
    if (!DampsImplicitly(m)) {
      engine.Advance(d, d.act_dot.data(), d.qacc.data(), nullptr);
      return;
    }

    // M + h diag(damping): same sparsity as M, so the same no-fill-in factorization applies.
    // Factored only when qM changed since the last factorization (the position stage ran): a
    // step that reuses the position stage (Engine::StepSkip, finite differences) reuses it too.
    if (!d.qLD_damped_current) {
      const double h = m.opt.timestep;
      double* mat = d.qLD_damped.data();
      for (int i = 0; i < m.nM; ++i) mat[i] = d.qM[i];
      for (int i = 0; i < m.nv; ++i) mat[m.dof_Madr[i]] += h * m.dof_damping[i];
      // (a diagonal added to M keeps its simple rows diagonal: InertiaLayoutOf's skips hold)
      FactorLTDL(InertiaLayoutOf(m), mat, d.qLDiagInv_damped.data(), 0, m.nv);
      d.qLD_damped_current = 1;
    }
    ArenaScope scope(d.arena);
    ArenaCarve carve(d.arena);
    DampedWork w;
    w.Blocks(carve, m);
    double* qacc = w.qacc;
    for (int i = 0; i < m.nv; ++i) qacc[i] = d.qfrc_smooth[i] + d.qfrc_constraint[i];
    SolveLTDL(InertiaLayoutOf(m), d.qLD_damped.data(), d.qLDiagInv_damped.data(), qacc);
    engine.Advance(d, d.act_dot.data(), qacc, nullptr);
  }

  // (qM, qLD, qLDiagInv; qacc = the step's a~) => qacc = M^-1 (M + h diag(damping)) a~, the
  // continuous-time acceleration of the forces that produced a~ (a~ itself without damping)
  bool DoContinuousAcceleration(const Engine& engine, Data& d, double* qacc) const override {
    const Model& m = engine.model();
    if (!DampsImplicitly(m)) return true;
    ArenaScope scope(d.arena);
    ArenaCarve carve(d.arena);
    DampedWork w;
    w.Blocks(carve, m);
    double* force = w.qacc;
    const TreeSparseLayout layout = InertiaLayoutOf(m);
    MulTreeSparse(layout, d.qM.data(), qacc, force);
    for (int i = 0; i < m.nv; ++i) force[i] += m.opt.timestep * m.dof_damping[i] * qacc[i];
    SolveLTDL(layout, d.qLD.data(), d.qLDiagInv.data(), force);
    std::copy(force, force + m.nv, qacc);
    return true;
  }

 private:
  // (model, parameter) => whether the step solves with M + h diag(damping): some dof is damped,
  // and neither the parameter nor MuJoCo 3.x's <flag eulerdamp="disable"/> turns it off, nor
  // 3.x's damper flag (no damping at all). The damper bit itself, not DampersDisabled(): 2.2.2's
  // passive flag removes the damping force but keeps this damped step, as MuJoCo 2.2.2 does.
  bool DampsImplicitly(const Model& m) const {
    if (!implicit_damping_ || m.opt.Disabled(kDisableEulerdamp) ||
        m.opt.Disabled(kDisableDamper)) {
      return false;
    }
    for (int i = 0; i < m.nv; ++i) {
      if (m.dof_damping[i] > 0) return true;
    }
    return false;
  }

  bool implicit_damping_ = true;
};

}  // namespace
}  // namespace gauss

namespace {
constexpr gauss::ParamSpec kEulerParams[] = {
    {"implicit_damping", gauss::ParamType::kBool, "true",
     "treat joint damping implicitly (M + h diag(damping)); false: explicit update with qacc"}};
}  // namespace

GAUSS_INTEGRATOR_PLUGIN(gauss::EulerIntegrator, euler, "1.0.0",
                        "semi-implicit Euler with implicit joint damping",
                        gauss::kCapSingleStep, kEulerParams)

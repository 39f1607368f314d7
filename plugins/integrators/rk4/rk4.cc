// `rk4`: the classical fixed-step 4th-order Runge-Kutta method on the state (qpos, qvel, act).
//
// Stage 1 is the forward evaluation the engine already made at the current state. Stages 2-4
// evaluate Forward (sensors skipped) at the intermediate states
//   q_i = q "+" h sum_j A_ij v_j,  v_i = v + h sum_j A_ij a_j,  w_i = w + h sum_j A_ij wdot_j,
// at time t + c_i h, and the step combines the four slopes with the weights b. Positions on
// quaternions are advanced with the quaternion-correct IntegratePosition, never by adding
// quaternion components. After the step, qacc, qacc_warmstart and the constraint data describe
// the 4th stage (as in MuJoCo).
//
// The constraint solver of each stage starts from the warmstart acceleration qacc_warmstart.
// MuJoCo 2.2.2 saves it after every solve, so stage s + 1 starts from stage s's acceleration;
// MuJoCo 3.12 saves it once per step, when the state advances, so stages 2-4 start from the
// same acceleration as stage 1 (the previous step's last). The result differs only where the
// solver stops before converging (pgs, cg; Newton is exact to round-off). Parameter `warmstart`:
// `stage` (2.2.2), `step` (3.12) or `auto` (step when flags.island is on, as in a MuJoCo 3.x
// file, whose other 3.x defaults go with it: docs/mjcf.md "3.x defaults").
#include <string>

#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/integrate.h"
#include "gauss/integrator.h"

namespace gauss {
namespace {

constexpr int kStages = 4;
// Butcher tableau: A (below the diagonal, row i = stage i+1), c and b
constexpr double kA[kStages - 1][kStages - 1] = {{0.5, 0, 0}, {0, 0.5, 0}, {0, 0, 1}};
constexpr double kC[kStages - 1] = {0.5, 0.5, 1};
constexpr double kB[kStages] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};

// The saved start state, the slopes (qvel, qacc, act_dot) of each stage, their combination.
struct Work {
  double *qpos0, *qvel0, *act0, *warmstart0;
  double* vel[kStages];
  double* acc[kStages];
  double* act_dot[kStages];
  double *dvel, *dacc, *dact;
  template <class Take>
  void Blocks(Take& take, const Model& m) {
    take(&qpos0, m.nq, "qpos0");
    take(&qvel0, m.nv, "qvel0");
    take(&act0, m.na, "act0");
    take(&warmstart0, m.nv, "warmstart0");
    for (int s = 0; s < kStages; ++s) {
      take(&vel[s], m.nv, "stage qvel");
      take(&acc[s], m.nv, "stage qacc");
      take(&act_dot[s], m.na, "stage act_dot");
    }
    take(&dvel, m.nv, "dvel");
    take(&dacc, m.nv, "dacc");
    take(&dact, m.na, "dact");
  }
};

class Rk4Integrator : public Integrator {
 public:
  void Configure(const Params& params) override {
    warmstart_ = static_cast<Warmstart>(params.GetChoice("warmstart", {"auto", "stage", "step"}));
  }

  // DoIntegrate carves the same blocks (the stages' forward passes take the kernel's and the
  // solver's scratch on top, which those declare).
  std::size_t ScratchDoubles(const Model& m) const override {
    ArenaPlan plan;
    Work().Blocks(plan, m);
    return plan.doubles();
  }

 protected:
  // (qpos, qvel, act, time, qacc, act_dot, qacc_warmstart) => (qpos, qvel, act, time) after one
  // step, qacc_warmstart the 4th stage's acceleration
  void DoIntegrate(const Engine& engine, Data& d) const override {
    const Model& m = engine.model();
    const int nq = m.nq, nv = m.nv, na = m.na;
    const double h = m.opt.timestep;
    ArenaScope scope(d.arena);

    // saved start state and the slopes of each stage
    ArenaCarve carve(d.arena);
    Work w;
    w.Blocks(carve, m);
    double* qpos0 = w.qpos0;
    double* qvel0 = w.qvel0;
    double* act0 = w.act0;
    double** vel = w.vel;
    double** acc = w.acc;
    double** act_dot = w.act_dot;
    double* dvel = w.dvel;
    double* dacc = w.dacc;
    double* dact = w.dact;
    const double time0 = d.time;
    std::copy(d.qpos.begin(), d.qpos.end(), qpos0);
    std::copy(d.qvel.begin(), d.qvel.end(), qvel0);
    std::copy(d.act.begin(), d.act.end(), act0);
    const bool warm_from_step = warmstart_ == Warmstart::kStep ||
                                (warmstart_ == Warmstart::kAuto && m.opt.Enabled(kEnableIsland));
    if (warm_from_step) {
      std::copy(d.qacc_warmstart.begin(), d.qacc_warmstart.end(), w.warmstart0);
    }

    // stage 1: the evaluation at the current state
    std::copy(d.qvel.begin(), d.qvel.end(), vel[0]);
    std::copy(d.qacc.begin(), d.qacc.end(), acc[0]);
    std::copy(d.act_dot.begin(), d.act_dot.end(), act_dot[0]);

    for (int s = 1; s < kStages; ++s) {
      Combine(kA[s - 1], s, vel, acc, act_dot, nv, na, dvel, dacc, dact);
      // intermediate state
      std::copy(qpos0, qpos0 + nq, d.qpos.begin());
      IntegratePosition(m, d.qpos.data(), dvel, h);
      for (int i = 0; i < nv; ++i) d.qvel[i] = qvel0[i] + h * dacc[i];
      for (int i = 0; i < na; ++i) d.act[i] = act0[i] + h * dact[i];
      d.time = time0 + kC[s - 1] * h;
      if (warm_from_step) std::copy(w.warmstart0, w.warmstart0 + nv, d.qacc_warmstart.begin());
      engine.ForwardSkip(d, Stage::kNone, /*skip_sensors=*/true);
      std::copy(d.qvel.begin(), d.qvel.end(), vel[s]);
      std::copy(d.qacc.begin(), d.qacc.end(), acc[s]);
      std::copy(d.act_dot.begin(), d.act_dot.end(), act_dot[s]);
    }

    // final combination from the start state
    Combine(kB, kStages, vel, acc, act_dot, nv, na, dvel, dacc, dact);
    std::copy(qpos0, qpos0 + nq, d.qpos.begin());
    std::copy(qvel0, qvel0 + nv, d.qvel.begin());
    std::copy(act0, act0 + na, d.act.begin());
    d.time = time0;
    engine.Advance(d, dact, dacc, dvel);
  }

 private:
  enum class Warmstart { kAuto, kStage, kStep };
  Warmstart warmstart_ = Warmstart::kAuto;

  // (dvel, dacc, dact) = sum over the first n stages of weight[j] * (vel, acc, act_dot)[j]
  static void Combine(const double* weight, int n, double* const* vel, double* const* acc,
                      double* const* act_dot, int nv, int na, double* dvel, double* dacc,
                      double* dact) {
    for (int i = 0; i < nv; ++i) dvel[i] = dacc[i] = 0;
    for (int i = 0; i < na; ++i) dact[i] = 0;
    for (int j = 0; j < n; ++j) {
      const double w = weight[j];
      if (w == 0) continue;
      for (int i = 0; i < nv; ++i) {
        dvel[i] += w * vel[j][i];
        dacc[i] += w * acc[j][i];
      }
      for (int i = 0; i < na; ++i) dact[i] += w * act_dot[j][i];
    }
  }
};

}  // namespace
}  // namespace gauss

namespace {
constexpr gauss::ParamSpec kRk4Params[] = {
    {"warmstart", gauss::ParamType::kString, "auto",
     "where stages 2-4 start the constraint solver: stage (the previous stage's acceleration, "
     "MuJoCo 2.2.2), step (the step's warmstart, MuJoCo 3.12) or auto (step when flags.island "
     "is on)"}};
}  // namespace

GAUSS_INTEGRATOR_PLUGIN(gauss::Rk4Integrator, rk4, "1.0.0",
                        "classical 4th-order Runge-Kutta on (qpos, qvel, act)", gauss::kCapNone,
                        kRk4Params)

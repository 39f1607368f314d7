// Actuator constants of the compiled model: length and acceleration scale at qpos0, and the
// simulation-based length range of muscles (MuJoCo 2.2.2's mj_setLengthRange, measured as a
// black box: its ranges are the reference to the solver's tolerance).
//
// The length range is found by pushing: from qpos0, a generalized force along the actuator's
// moment arms, scaled so that the resulting acceleration has norm `accel`, drives the actuator
// to one end of its travel, where joint and tendon limits (soft constraints) stop it; the
// velocity is damped every step (factor e^(-h/timeconst)) so the motion settles. The extreme
// length over the final `inteval` seconds is that end of the range. Gravity, contacts, passive
// forces, friction loss and actuation are off during these simulations, and the integrator is
// semi-implicit Euler (MuJoCo's mj_step2 uses Euler for RK4 models).
#include "lengthrange.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "actuation.h"
#include "data_alloc.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/sparse_inertia.h"
#include "pipeline.h"

namespace gauss {
namespace {

// Does opt.mode (and useexisting/uselimit) ask for actuator a's range to be simulated? May set
// the range from a limit instead. (actuator types, lengthrange, jnt/tendon limits) =>
// (lengthrange of a when copied from a limit)
bool NeedsSimulation(Model& m, int a, const LengthRangeOptions& opt) {
  const bool muscle =
      m.actuator_gaintype[a] == GainType::kMuscle || m.actuator_biastype[a] == BiasType::kMuscle;
  const bool user =
      m.actuator_gaintype[a] == GainType::kUser || m.actuator_biastype[a] == BiasType::kUser;
  switch (opt.mode) {
    case LengthRangeMode::kNone: return false;
    case LengthRangeMode::kMuscle: if (!muscle) return false; break;
    case LengthRangeMode::kMuscleUser: if (!muscle && !user) return false; break;
    case LengthRangeMode::kAll: break;
  }
  double* range = m.actuator_lengthrange.data() + 2 * a;
  if (opt.useexisting && range[0] < range[1]) return false;
  if (opt.uselimit) {
    const int id = m.actuator_trnid[2 * a];
    const TrnType trn = m.actuator_trntype[a];
    const bool joint = trn == TrnType::kJoint || trn == TrnType::kJointInParent;
    if (joint && m.jnt_limited[id]) {
      range[0] = m.jnt_range[2 * id];
      range[1] = m.jnt_range[2 * id + 1];
      return false;
    }
    if (trn == TrnType::kTendon && m.tendon_limited[id]) {
      range[0] = m.tendon_range[2 * id];
      range[1] = m.tendon_range[2 * id + 1];
      return false;
    }
  }
  return true;
}

// The model the length-range simulations run on: what MuJoCo 2.2.2 switches off, and nothing
// that needs plugins the simulation does not use (actuation is off, so every actuator is a
// plain builtin one; sensors are dropped).
std::shared_ptr<Model> SimulationModel(const Model& m, const LengthRangeOptions& opt) {
  auto sim = std::make_shared<Model>(m);
  Options& o = sim->opt;
  o.disableflags = kDisableFrictionloss | kDisableContact | kDisablePassive | kDisableGravity |
                   kDisableActuation | kDisableSensor;
  o.enableflags = 0;
  if (opt.timestep > 0) o.timestep = opt.timestep;
  if (o.integrator != "implicit") o.integrator = "euler";
  for (int a = 0; a < sim->nu; ++a) {
    sim->actuator_plugin[a] = "builtin";
    sim->actuator_dyntype[a] = DynType::kNone;
    sim->actuator_gaintype[a] = GainType::kFixed;
    sim->actuator_biastype[a] = BiasType::kNone;
  }
  sim->nsensor = 0;
  return sim;
}

// One step of a length-range simulation: damp the velocity, push actuator a towards its
// shorter (side 0) or longer (side 1) end, advance. (qpos, qvel) => (qpos, qvel,
// qfrc_applied); returns the actuator length at the start of the step.
double PushStep(const Engine& engine, Data& d, int a, int side, const LengthRangeOptions& opt,
                double* minv_moment) {
  const Model& m = engine.model();
  const int nv = m.nv;
  const double decay = std::exp(-m.opt.timestep / std::max(0.01, opt.timeconst));
  for (int i = 0; i < nv; ++i) d.qvel[i] *= decay;
  engine.Step1(d);

  // force along the moment arms whose acceleration M^-1 f has norm `accel`
  const double* moment = d.actuator_moment.data() + a * nv;
  std::copy(moment, moment + nv, minv_moment);
  SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), minv_moment);
  double norm = 0;
  for (int i = 0; i < nv; ++i) norm += minv_moment[i] * minv_moment[i];
  const double scale = (2 * side - 1) * opt.accel / std::max(kMinVal, std::sqrt(norm));
  double force_norm = 0;
  for (int i = 0; i < nv; ++i) {
    d.qfrc_applied[i] = scale * moment[i];
    force_norm += d.qfrc_applied[i] * d.qfrc_applied[i];
  }
  force_norm = std::sqrt(force_norm);
  if (opt.maxforce > 0 && force_norm > opt.maxforce) {
    const double shrink = opt.maxforce / std::max(kMinVal, force_norm);
    for (int i = 0; i < nv; ++i) d.qfrc_applied[i] *= shrink;
  }
  engine.Step2(d);
  return d.actuator_length[a];
}

std::string ActuatorLabel(const Model& m, int a) {
  const std::string name = m.actuator_name[a].empty() ? "" : " '" + m.actuator_name[a] + "'";
  return "actuator" + name + " (#" + std::to_string(a) + ")";
}

}  // namespace

// Model (qpos0) => (actuator_length0, actuator_acc0)
void SetActuatorConstants(Model& m) {
  m.actuator_length0.assign(m.nu, 0.0);
  m.actuator_acc0.assign(m.nu, 0.0);
  if (m.nu == 0) return;
  Data d;
  AllocateData(m, d);  // at qpos0, no contacts: a body (adhesion) transmission has no moment
  Kinematics(m, d);
  ComPosition(m, d);
  Tendons(m, d);
  CompositeInertia(m, d);
  FactorInertia(m, d);
  Transmission(m, d);
  std::vector<double> x(m.nv);
  for (int a = 0; a < m.nu; ++a) {
    m.actuator_length0[a] = d.actuator_length[a];
    if (m.nv == 0) continue;
    const double* moment = d.actuator_moment.data() + a * m.nv;
    std::copy(moment, moment + m.nv, x.begin());
    SolveLTDL(m, d.qLD.data(), d.qLDiagInv.data(), x.data());
    double norm = 0;
    for (double v : x) norm += v * v;
    m.actuator_acc0[a] = std::sqrt(norm);
  }
}

// (model, options) => actuator_lengthrange
void SetLengthRanges(Model& m, const LengthRangeOptions& opt) {
  std::vector<int> pending;
  for (int a = 0; a < m.nu; ++a) {
    if (NeedsSimulation(m, a, opt)) pending.push_back(a);
  }
  if (pending.empty()) return;

  const Engine engine(SimulationModel(m, opt));
  Data d = engine.MakeData();
  std::vector<double> minv_moment(m.nv);
  for (int a : pending) {
    double range[2] = {0, 0};
    double spread[2] = {0, 0};  // max - min length over the evaluation interval, per side
    for (int side = 0; side < 2; ++side) {
      engine.Reset(d);
      double lmin = 0, lmax = 0;
      bool seen = false;
      while (d.time < opt.inttotal) {
        const double length = PushStep(engine, d, a, side, opt, minv_moment.data());
        if (d.time == 0) {
          throw LengthRangeError(a, ActuatorLabel(m, a) + ": the length-range simulation is "
                                 "unstable (it diverged and was reset); adjust <compiler>"
                                 "<lengthrange> or give the actuator a lengthrange");
        }
        if (d.time > opt.inttotal - opt.inteval) {
          if (!seen || length < lmin) lmin = length;
          if (!seen || length > lmax) lmax = length;
          seen = true;
        }
      }
      range[side] = side == 0 ? lmin : lmax;
      spread[side] = lmax - lmin;
    }
    const double width = range[1] - range[0];
    m.actuator_lengthrange[2 * a] = range[0];
    m.actuator_lengthrange[2 * a + 1] = range[1];
    if (width <= 0) {
      throw LengthRangeError(a, ActuatorLabel(m, a) + ": invalid computed lengthrange (" +
                                    std::to_string(range[0]) + ", " + std::to_string(range[1]) +
                                    "); give the actuator a lengthrange");
    }
    for (int side = 0; side < 2; ++side) {
      if (spread[side] > opt.tolrange * width) {
        throw LengthRangeError(
            a, ActuatorLabel(m, a) + ": the length-range computation did not converge at the " +
                   (side == 0 ? "lower" : "upper") + " end (the length still varies by " +
                   std::to_string(spread[side]) + " in the last inteval seconds); adjust "
                   "<compiler><lengthrange> or give the actuator a lengthrange");
      }
    }
  }
}

}  // namespace gauss

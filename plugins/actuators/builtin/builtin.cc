// `builtin` actuator dynamics: the activation dynamics and force laws of MJCF <general> and its
// shortcuts (motor, position, velocity, ..., muscle), per the spec's "Actuation model":
//
//   activation:  none: no state; integrator: w' = u; filter / filterexact: w' = (u - w) / tau;
//                muscle: w' = (u - w) / tau(u, w) (below)
//   force:       p = gain * (w, or u without activation) + bias
//                gain = g0 (fixed), g0 + g1 l + g2 l' (affine), or the muscle FLV curve
//                bias = 0 (none), b0 + b1 l + b2 l' (affine), or the muscle passive force
//
// As in MuJoCo 2.2.2, u is the control clamped to ctrlrange (the kernel passes it), the force
// uses the activation as it is (actrange clamps only the integrated activation), and a muscle's
// force scale may come from actuator_acc0 (below). With MuJoCo 3.x's actearly the force uses
// the next activation instead (ForceActivation).
//
// filterexact integrates its linear dynamics exactly over a step, so it is stable for any
// tau > 0 (explicit Euler on `filter` diverges when tau < h/2).
//
// Muscles (spec "Muscles"), as MuJoCo 2.2.2 implements them: activation dynamics with separate
// activation and deactivation time constants, and the force-length-velocity (FLV) curves of
// the active force and the passive (parallel elastic) force.
//
// The parameters are the MJCF <muscle> attributes, stored identically in gainprm and biasprm:
//   prm = (range0, range1, force, scale, lmin, lmax, vmax, fpmax, fvmax)
// `range` is the operating range of the normalized length L, mapped linearly onto the
// actuator's lengthrange; the optimal length L0 (where L = 1) is lengthrange width / range
// width, and velocities are normalized by L0 * vmax. A negative `force` means
// F = scale / acc0: the peak force that gives the actuator's joint space the acceleration
// `scale` at qpos0.
//
// Every muscle curve is made of half quadratics, continuous with a continuous slope; the
// constants that guard the divisions are MuJoCo's (kMinVal), so degenerate parameters give the
// same numbers.
#include <algorithm>
#include <cmath>
#include <string>

#include "gauss/actuator.h"
#include "gauss/error.h"
#include "gauss/types.h"

namespace gauss::muscle {
namespace {

double Guard(double x) { return std::max(kMinVal, x); }

// Optimal length L0 and normalized length L for an actuator length.
double OptimalLength(const double* lengthrange, const double* prm) {
  return (lengthrange[1] - lengthrange[0]) / Guard(prm[1] - prm[0]);
}
double NormalizedLength(double length, const double* lengthrange, const double* prm) {
  return prm[0] + (length - lengthrange[0]) / Guard(OptimalLength(lengthrange, prm));
}

// Peak active force F: `force`, or scale / acc0 when force is negative.
double PeakForce(const double* prm, double acc0) {
  return prm[2] < 0 ? prm[3] / Guard(acc0) : prm[2];
}

// FL: rises from 0 at lmin to 1 at L = 1 and falls back to 0 at lmax, with inflection points
// at the mid-ranges a = (lmin + 1) / 2 and b = (1 + lmax) / 2. MuJoCo 2.2.2 tests the lower
// bound only in the first branch: below lmin the second branch's quadratic continues
// (FL < 0, so the "active" force pushes); this is kept because it is the reference behaviour.
double LengthCurve(double L, double lmin, double lmax) {
  const double a = 0.5 * (lmin + 1), b = 0.5 * (1 + lmax);
  if (L >= lmin && L <= a) {
    const double x = (L - lmin) / Guard(a - lmin);
    return 0.5 * x * x;
  }
  if (L <= 1) {
    const double x = (1 - L) / Guard(1 - a);
    return 1 - 0.5 * x * x;
  }
  if (L <= b) {
    const double x = (L - 1) / Guard(b - 1);
    return 1 - 0.5 * x * x;
  }
  if (L <= lmax) {
    const double x = (lmax - L) / Guard(lmax - b);
    return 0.5 * x * x;
  }
  return 0;
}

// FV: zero when shortening at the maximal velocity (V <= -1), 1 at rest, saturating at fvmax
// when lengthening faster than fvmax - 1.
double VelocityCurve(double V, double fvmax) {
  const double y = fvmax - 1;
  if (V <= -1) return 0;
  if (V <= 0) return (V + 1) * (V + 1);
  if (V <= y) return fvmax - (y - V) * (y - V) / Guard(y);
  return fvmax;
}

// dFV / dV.
double VelocityCurveSlope(double V, double fvmax) {
  const double y = fvmax - 1;
  if (V <= -1) return 0;
  if (V <= 0) return 2 * (V + 1);
  if (V <= y) return 2 * (y - V) / Guard(y);
  return 0;
}

// FP: zero up to the optimal length, half quadratic to b = (1 + lmax) / 2, then linear with
// the slope it reached there.
double PassiveCurve(double L, double lmax) {
  const double b = 0.5 * (1 + lmax);
  if (L <= 1) return 0;
  if (L <= b) {
    const double x = (L - 1) / Guard(b - 1);
    return 0.5 * x * x;
  }
  const double x = (L - b) / Guard(b - 1);
  return 0.5 + x;
}

// Active force per unit activation: -F FL(L) FV(V) (negative: muscles pull).
double Gain(double length, double velocity, const double* lengthrange, double acc0,
            const double* prm) {
  const double L = NormalizedLength(length, lengthrange, prm);
  const double V = velocity / Guard(OptimalLength(lengthrange, prm) * prm[6]);
  return -PeakForce(prm, acc0) * LengthCurve(L, prm[4], prm[5]) * VelocityCurve(V, prm[8]);
}

// d Gain / d velocity: -F FL(L) FV'(V) / (L0 vmax), for implicit integrators.
double GainVelocityDerivative(double length, double velocity, const double* lengthrange,
                              double acc0, const double* prm) {
  const double L = NormalizedLength(length, lengthrange, prm);
  const double scale = Guard(OptimalLength(lengthrange, prm) * prm[6]);
  return -PeakForce(prm, acc0) * LengthCurve(L, prm[4], prm[5]) *
         VelocityCurveSlope(velocity / scale, prm[8]) / scale;
}

// Passive force: -F fpmax FP(L).
double Bias(double length, const double* lengthrange, double acc0, const double* prm) {
  const double L = NormalizedLength(length, lengthrange, prm);
  return -PeakForce(prm, acc0) * prm[7] * PassiveCurve(L, prm[5]);
}

// Activation derivative (u - act) / tau, u = ctrl clamped to [0, 1]; with a = act clamped to
// [0, 1], tau_act' = tau_act (0.5 + 1.5 a) and tau_deact' = tau_deact / (0.5 + 1.5 a) (Millard
// et al. 2013): activation is faster at low activation, deactivation faster at high
// activation. dynprm = (tau_act, tau_deact, tausmooth). Without tausmooth (0, MuJoCo 2.2.2)
// tau switches at u = act: tau_act' when u > act, else tau_deact'. MuJoCo 3.x's tausmooth w > 0
// blends them across u - act in [-w/2, w/2] with the quintic smoothstep S(x) = x^3 (6x^2 -
// 15x + 10) of x = (u - act) / w + 1/2: tau = tau_deact' + (tau_act' - tau_deact') S(x)
// (measured against MuJoCo 3.12.1's mju_muscleDynamics: equal to 4e-14 on a grid of ctrl, act
// and widths).
double ActivationRate(double ctrl, double act, const double* dynprm) {
  const double u = std::clamp(ctrl, 0.0, 1.0);
  const double a = std::clamp(act, 0.0, 1.0);
  const double tau_act = dynprm[0] * (0.5 + 1.5 * a), tau_deact = dynprm[1] / (0.5 + 1.5 * a);
  const double width = dynprm[2];
  double tau;
  if (width < kMinVal) {
    tau = u > act ? tau_act : tau_deact;
  } else {
    const double x = std::clamp((u - act) / width + 0.5, 0.0, 1.0);
    tau = tau_deact + (tau_act - tau_deact) * x * x * x * (x * (6 * x - 15) + 10);
  }
  return (u - act) / Guard(tau);
}

}  // namespace
}  // namespace gauss::muscle

namespace gauss {
namespace {

double TimeConstant(const Model& m, int a) { return std::max(kMinVal, m.actuator_dynprm[kNDyn * a]); }

class BuiltinActuators : public ActuatorDynamics {
 public:
  // The force is affine in the velocity for affine gains and biases and follows the muscle
  // FV curve for muscle gains: both derivatives are available.

  // (ctrl clamped, act, actuator_length, actuator_velocity) => dfdv[k] = d actuator_force /
  // d actuator_velocity of actuator ids[k], before forcerange: gain' * input + bias'
  void ForceVelocityDerivative(const Model& m, const Data& d, const int* ids, int n,
                               double* dfdv) const override {
    const bool clamp = !m.opt.Disabled(kDisableClampctrl);
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const int adr = m.actuator_actadr[a];
      double input = d.ctrl[a];
      if (m.actuator_dyntype[a] != DynType::kNone && adr >= 0) {
        input = ForceActivation(m, d, a, d.act[adr], d.act_dot[adr]);
      } else if (clamp && m.actuator_ctrllimited[a]) {
        input = std::clamp(input, m.actuator_ctrlrange[2 * a], m.actuator_ctrlrange[2 * a + 1]);
      }
      const double* gp = m.actuator_gainprm.data() + kNGain * a;
      double gain_v = 0, bias_v = 0;
      if (m.actuator_gaintype[a] == GainType::kAffine) gain_v = gp[2];
      if (m.actuator_gaintype[a] == GainType::kMuscle) {
        gain_v = muscle::GainVelocityDerivative(d.actuator_length[a], d.actuator_velocity[a],
                                                m.actuator_lengthrange.data() + 2 * a,
                                                m.actuator_acc0[a], gp);
      }
      if (m.actuator_biastype[a] == BiasType::kAffine) {
        bias_v = m.actuator_biasprm[kNBias * a + 2];
      }
      dfdv[k] = gain_v * input + bias_v;
    }
  }

  // "user" types name MuJoCo callbacks, which Gauss replaces by plugins: refuse them here
  void Check(const Model& m, const int* ids, int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const std::string what = "actuator '" + m.actuator_name[a] + "' (#" + std::to_string(a) + ")";
      const char* hint = " (name an ActuatorDynamics plugin as its dyntype instead)";
      if (m.actuator_dyntype[a] == DynType::kUser) {
        throw Error(what + " uses user activation dynamics, which the builtin plugin does not "
                           "provide" + hint);
      }
      if (m.actuator_gaintype[a] == GainType::kUser) {
        throw Error(what + " uses a user gain, which the builtin plugin does not provide" + hint);
      }
      if (m.actuator_biastype[a] == BiasType::kUser) {
        throw Error(what + " uses a user bias, which the builtin plugin does not provide" + hint);
      }
    }
  }

 private:
  // The activation the force of stateful actuator a uses: its activation w, or with the 3.x
  // actearly the activation after this step, w integrated with act_dot over one timestep and
  // clamped to actrange (the spec: one step less delay from control to acceleration).
  double ForceActivation(const Model& m, const Data& d, int a, double w, double act_dot) const {
    if (!m.actuator_actearly[a]) return w;
    const double next = DoNextActivation(m, d, a, w, act_dot, m.opt.timestep);
    if (!m.actuator_actlimited[a]) return next;
    return std::clamp(next, m.actuator_actrange[2 * a], m.actuator_actrange[2 * a + 1]);
  }

 protected:
  // (ctrl, act, actuator_length, actuator_velocity, actuator_lengthrange, actuator_acc0) =>
  // (act_dot, actuator_force)
  void DoCompute(const Model& m, Data& d, const double* ctrl, const int* ids,
                 int n) const override {
    for (int k = 0; k < n; ++k) {
      const int a = ids[k];
      const double u = ctrl[a];
      const double* dp = m.actuator_dynprm.data() + kNDyn * a;
      double input = u;
      const int adr = m.actuator_actadr[a];
      if (m.actuator_dyntype[a] != DynType::kNone && adr >= 0) {
        const double w = d.act[adr];
        switch (m.actuator_dyntype[a]) {
          case DynType::kIntegrator:
            d.act_dot[adr] = u;
            break;
          case DynType::kFilter:
          case DynType::kFilterExact:
            d.act_dot[adr] = (u - w) / TimeConstant(m, a);
            break;
          case DynType::kMuscle:
            d.act_dot[adr] = muscle::ActivationRate(u, w, dp);
            break;
          default:
            break;  // refused in Check
        }
        input = ForceActivation(m, d, a, w, d.act_dot[adr]);
      }

      const double* gp = m.actuator_gainprm.data() + kNGain * a;
      const double* bp = m.actuator_biasprm.data() + kNBias * a;
      const double* range = m.actuator_lengthrange.data() + 2 * a;
      const double acc0 = m.actuator_acc0[a];
      const double len = d.actuator_length[a];
      const double vel = d.actuator_velocity[a];
      double gain = gp[0];
      if (m.actuator_gaintype[a] == GainType::kAffine) gain += gp[1] * len + gp[2] * vel;
      if (m.actuator_gaintype[a] == GainType::kMuscle) gain = muscle::Gain(len, vel, range, acc0, gp);
      double bias = 0;
      if (m.actuator_biastype[a] == BiasType::kAffine) bias = bp[0] + bp[1] * len + bp[2] * vel;
      if (m.actuator_biastype[a] == BiasType::kMuscle) bias = muscle::Bias(len, range, acc0, bp);
      d.actuator_force[a] = gain * input + bias;
    }
  }

  // filterexact: w(t+h) = u + (w - u) e^(-h/tau), written with w' = (u - w)/tau
  double DoNextActivation(const Model& m, const Data&, int a, double act, double act_dot,
                          double h) const override {
    if (m.actuator_dyntype[a] == DynType::kFilterExact) {
      const double tau = TimeConstant(m, a);
      return act + act_dot * tau * (1 - std::exp(-h / tau));
    }
    return act + h * act_dot;
  }
};

}  // namespace
}  // namespace gauss

GAUSS_ACTUATOR_PLUGIN(gauss::BuiltinActuators, builtin, "1.1.0",
                      "MJCF general actuators: none/integrator/filter/filterexact/muscle "
                      "dynamics, fixed/affine/muscle gain, none/affine/muscle bias",
                      gauss::kCapVelocityDerivative, gauss::kNoParams)

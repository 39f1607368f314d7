// Soft-constraint parameters (spec "Parameters"): the approximate diagonal of J M^-1 J' from
// the inverse weights at qpos0, the impedance d(r) from solimp, R = (1-d)/d * diagApprox, and
// the reference-acceleration stiffness/damping from solref.
//
// MuJoCo 2.2.2 details reproduced here (measured): weld rows all use the bodies'
// translational weights; pyramidal edges share one R, 2 mu^2 R_normal with
// mu = friction[0] / sqrt(impratio), where R_normal is built from (1 + friction[0]^2) times the
// translational weight; elliptic friction rows use R_1 = R_0 / impratio and
// R_j mu_j^2 = R_1 mu_1^2 (the coupling that makes the cone penalty and the inverse dynamics
// analytic). Equality impedances use the norm of the whole residual (3 or 6 rows).
#include <algorithm>
#include <cmath>

#include "constraint_assembly.h"

namespace gauss {

namespace {

// Translational and rotational inverse weights of a contact: sum over its two bodies.
void ContactWeights(const Model& m, const Contact& c, double* tran, double* rot) {
  const int b1 = m.geom_bodyid[c.geom1], b2 = m.geom_bodyid[c.geom2];
  *tran = m.body_invweight0[2 * b1] + m.body_invweight0[2 * b2];
  *rot = m.body_invweight0[2 * b1 + 1] + m.body_invweight0[2 * b2 + 1];
}

// Row i's diagApprox.
double DiagApprox(const Model& m, const Data& d, int i) {
  const int id = d.efc_id[i];
  switch (d.efc_type[i]) {
    case ConstraintType::kEquality:
      switch (m.eq_type[id]) {
        case EqType::kConnect:
        case EqType::kWeld: {
          const int b1 = m.eq_obj1id[id], b2 = std::max(m.eq_obj2id[id], 0);
          // MuJoCo 3.12 (kEnableEqJdotv): a weld's rotation rows (its rows 3..5) use the
          // rotational weights; 2.2.2 gives every row the translational ones
          int k = 0;  // the row's index within its constraint
          while (i - k > 0 && d.efc_type[i - k - 1] == ConstraintType::kEquality &&
                 d.efc_id[i - k - 1] == id) {
            ++k;
          }
          const int rot = m.eq_type[id] == EqType::kWeld && k >= 3 &&
                                  m.opt.Enabled(kEnableEqJdotv)
                              ? 1
                              : 0;
          return m.body_invweight0[2 * b1 + rot] + m.body_invweight0[2 * b2 + rot];
        }
        case EqType::kJoint:
        case EqType::kTendon: {
          const bool joint = m.eq_type[id] == EqType::kJoint;
          auto weight = [&](int obj) {
            return joint ? m.dof_invweight0[m.jnt_dofadr[obj]] : m.tendon_invweight0[obj];
          };
          double w = weight(m.eq_obj1id[id]);
          if (m.eq_obj2id[id] >= 0) w += weight(m.eq_obj2id[id]);
          return w;
        }
        case EqType::kDistance:
          return 0;
      }
      return 0;
    case ConstraintType::kFrictionDof:
      return m.dof_invweight0[id];
    case ConstraintType::kLimitJoint:
      return m.dof_invweight0[m.jnt_dofadr[id]];
    case ConstraintType::kFrictionTendon:
    case ConstraintType::kLimitTendon:
      return m.tendon_invweight0[id];
    case ConstraintType::kContactFrictionless:
    case ConstraintType::kContactPyramidal:
    case ConstraintType::kContactElliptic: {
      const Contact& c = d.contact[id];
      double tran, rot;
      ContactWeights(m, c, &tran, &rot);
      const int row = i - c.efc_address;
      if (d.efc_type[i] == ConstraintType::kContactElliptic) {
        return row < 3 ? tran : rot;
      }
      if (d.efc_type[i] == ConstraintType::kContactPyramidal) {
        const int k = row / 2;  // friction direction of this edge pair
        const double mu = c.friction[k];
        return tran + mu * mu * (k < 2 ? tran : rot);
      }
      return tran;
    }
  }
  return 0;
}

// solref => solref sanitized as MuJoCo does
void SanitizeSolref(const Model& m, double* solref) {
  // the standard (timeconst, dampratio) and direct (-stiffness, -damping) forms cannot mix
  if ((solref[0] > 0) != (solref[1] > 0)) {
    solref[0] = 0.02;
    solref[1] = 1;
  }
  // refsafe: a time constant below two timesteps cannot be integrated stably
  if (!m.opt.Disabled(kDisableRefsafe) && solref[0] > 0) {
    solref[0] = std::max(solref[0], 2 * m.opt.timestep);
  }
}

// solref and solimp of row i, sanitized as MuJoCo does.
void SolverParams(const Model& m, const Data& d, int i, double* solref, double* solimp) {
  const int id = d.efc_id[i];
  const double* ref = nullptr;
  const double* imp = nullptr;
  switch (d.efc_type[i]) {
    case ConstraintType::kEquality:
      ref = m.eq_solref.data() + kNRef * id;
      imp = m.eq_solimp.data() + kNImp * id;
      break;
    case ConstraintType::kFrictionDof:
      ref = m.dof_solref.data() + kNRef * id;
      imp = m.dof_solimp.data() + kNImp * id;
      break;
    case ConstraintType::kFrictionTendon:
      ref = m.tendon_solref_fri.data() + kNRef * id;
      imp = m.tendon_solimp_fri.data() + kNImp * id;
      break;
    case ConstraintType::kLimitJoint:
      ref = m.jnt_solref.data() + kNRef * id;
      imp = m.jnt_solimp.data() + kNImp * id;
      break;
    case ConstraintType::kLimitTendon:
      ref = m.tendon_solref_lim.data() + kNRef * id;
      imp = m.tendon_solimp_lim.data() + kNImp * id;
      break;
    default:
      ref = d.contact[id].solref;
      imp = d.contact[id].solimp;
      break;
  }
  std::copy(ref, ref + kNRef, solref);
  std::copy(imp, imp + kNImp, solimp);
  SanitizeSolref(m, solref);
  solimp[0] = std::clamp(solimp[0], kMinImp, kMaxImp);
  solimp[1] = std::clamp(solimp[1], kMinImp, kMaxImp);
  solimp[2] = std::max(0.0, solimp[2]);
  solimp[3] = std::clamp(solimp[3], kMinImp, kMaxImp);
  solimp[4] = std::max(1.0, solimp[4]);
}

// 1 / base^(power - 1), the constant factor of one of the impedance's power curves, taken
// again only when base or power differ from the last call's: a model's rows mostly share one
// solimp, so a step then takes this pow once instead of once per row group (the same value).
class PowerCurveScale {
 public:
  double Of(double base, double power) {
    if (!(base == base_ && power == power_)) {
      base_ = base;
      power_ = power;
      value_ = 1 / std::pow(base, power - 1);
    }
    return value_;
  }

 private:
  double base_ = std::nan(""), power_ = std::nan(""), value_ = 0;
};

// The two curves' factors, below and above the midpoint.
struct ImpedanceScales {
  PowerCurveScale below, above;
};

// Impedance d(r) and its derivative, from solimp = (dmin, dmax, width, midpoint, power): a
// sigmoid from dmin at r = 0 to dmax at |r| >= width, made of two power curves meeting at
// the midpoint.
void Impedance(const double* solimp, double r, ImpedanceScales& scales, double* imp,
               double* imp_deriv) {
  const double dmin = solimp[0], dmax = solimp[1], width = solimp[2];
  const double mid = solimp[3], power = solimp[4];
  if (dmin == dmax || width <= kMinVal) {
    *imp = 0.5 * (dmin + dmax);
    *imp_deriv = 0;
    return;
  }
  double x = r / width;
  const double sign = x < 0 ? -1 : 1;
  x = std::fabs(x);
  if (x >= 1 || x <= 0) {
    *imp = x >= 1 ? dmax : dmin;
    *imp_deriv = 0;
    return;
  }
  double y, dy;
  if (power == 1) {
    y = x;
    dy = 1;
  } else if (x <= mid) {
    const double a = scales.below.Of(mid, power);
    y = a * std::pow(x, power);
    dy = power * a * std::pow(x, power - 1);
  } else {
    const double b = scales.above.Of(1 - mid, power);
    y = 1 - b * std::pow(1 - x, power);
    dy = power * b * std::pow(1 - x, power - 1);
  }
  *imp = dmin + y * (dmax - dmin);
  *imp_deriv = dy * sign * (dmax - dmin) / width;
}

// Rows sharing one impedance: a contact's rows, or an equality's 3 / 6 rows (the norm of
// their residuals is the distance); otherwise 1. `r` receives the distance used.
int ImpedanceGroup(const Model& m, const Data& d, int i, double* r) {
  const ConstraintType type = d.efc_type[i];
  const int id = d.efc_id[i];
  int n = 1;
  if (type == ConstraintType::kContactElliptic) {
    n = d.contact[id].dim;
  } else if (type == ConstraintType::kContactPyramidal) {
    n = 2 * (d.contact[id].dim - 1);
  } else if (type == ConstraintType::kEquality &&
             (m.eq_type[id] == EqType::kConnect || m.eq_type[id] == EqType::kWeld)) {
    n = m.eq_type[id] == EqType::kWeld ? 6 : 3;
    double sum = 0;
    for (int k = 0; k < n; ++k) sum += d.efc_pos[i + k] * d.efc_pos[i + k];
    *r = std::sqrt(sum);
    return n;
  }
  *r = d.efc_pos[i] - d.efc_margin[i];
  return n;
}

}  // namespace

void ConstraintParameters(const Model& m, Data& d) {
  for (int i = 0; i < d.nefc; ++i) d.efc_diagApprox[i] = DiagApprox(m, d, i);

  // impedance, R, stiffness and damping, group by group
  ImpedanceScales scales;
  for (int i = 0; i < d.nefc;) {
    double solref[kNRef], solimp[kNImp], r, imp, imp_deriv;
    SolverParams(m, d, i, solref, solimp);
    const int n = ImpedanceGroup(m, d, i, &r);
    Impedance(solimp, r, scales, &imp, &imp_deriv);
    const double dmax = solimp[1];
    // 3.x pair solreffriction: the friction rows of an elliptic contact take their damping
    // from it when it is nonzero (measured on 3.12.1: pyramidal contacts ignore it)
    double solref_friction[kNRef] = {solref[0], solref[1]};
    if (d.efc_type[i] == ConstraintType::kContactElliptic) {
      const double* own = d.contact[d.efc_id[i]].solreffriction;
      if (own[0] != 0 || own[1] != 0) {
        std::copy(own, own + kNRef, solref_friction);
        SanitizeSolref(m, solref_friction);
      }
    }
    // standard form: critically damped spring of time constant solref[0] at impedance dmax;
    // direct form: stiffness and damping given (negated), scaled by dmax. The same for every
    // row of the group, so computed once (friction rows: no stiffness, and an elliptic
    // contact's friction rows take solref_friction's damping).
    const double stiffness =
        solref[0] > 0
            ? 1 / std::max(kMinVal, dmax * dmax * solref[0] * solref[0] * solref[1] * solref[1])
            : -solref[0] / std::max(kMinVal, dmax * dmax);
    auto damping_of = [dmax](const double* ref) {
      return ref[1] > 0 ? 2 / std::max(kMinVal, dmax * ref[0]) : -ref[1] / std::max(kMinVal, dmax);
    };
    const double damping = damping_of(solref);
    const bool elliptic = d.efc_type[i] == ConstraintType::kContactElliptic;
    const double friction_damping = elliptic ? damping_of(solref_friction) : damping;
    for (int k = i; k < i + n; ++k) {
      d.efc_R[k] = std::max(kMinVal, (1 - imp) * d.efc_diagApprox[k] / imp);
      double* kbip = d.efc_KBIP.data() + 4 * k;
      const bool friction_loss = IsFrictionLossRow(d.efc_type[k]);
      const bool cone_friction = elliptic && k > i;
      kbip[0] = friction_loss || cone_friction ? 0 : stiffness;
      kbip[1] = cone_friction ? friction_damping : damping;
      kbip[2] = imp;
      kbip[3] = imp_deriv;
    }
    i += n;
  }

  // frictional contacts: friction rows' R from the normal's (see the file comment)
  for (int k = 0; k < d.ncon; ++k) {
    const Contact& c = d.contact[k];
    const int a = c.efc_address;
    if (a < 0 || c.dim == 1) continue;
    const double r1 = d.efc_R[a] / std::max(kMinVal, m.opt.impratio);
    if (d.efc_type[a] == ConstraintType::kContactElliptic) {
      d.efc_R[a + 1] = r1;
      for (int j = 1; j < c.dim - 1; ++j) {
        d.efc_R[a + j + 1] = r1 * c.friction[0] * c.friction[0] / (c.friction[j] * c.friction[j]);
      }
    } else {
      const double mu2 = c.friction[0] * c.friction[0] * r1 / d.efc_R[a];
      const double r_pyramid = 2 * mu2 * d.efc_R[a];
      for (int j = 0; j < 2 * (c.dim - 1); ++j) d.efc_R[a + j] = r_pyramid;
    }
  }

  for (int i = 0; i < d.nefc; ++i) {
    d.efc_D[i] = 1 / d.efc_R[i];
    // diagApprox consistent with the final R (as MuJoCo reports it)
    const double imp = d.efc_KBIP[4 * i + 2];
    d.efc_diagApprox[i] = d.efc_R[i] * imp / (1 - imp);
  }
}

}  // namespace gauss

// Transmissions (spec "Actuation model: Transmission") and the joint-space mapping of actuator
// forces. Each transmission gives the actuator a scalar length l(q) and its gradient, the
// moment arms (one row of actuator_moment); semantics measured against MuJoCo 2.2.2:
//
//  joint, hinge/slide   l = gear0 q, moment gear0 on the dof.
//  joint, ball          l = rotation vector of the joint quaternion . gear[0:3]; moment
//                       gear[0:3] on the three (local-frame) rotation dofs.
//  jointinparent, ball  as joint, with gear[0:3] given in the parent frame: rotated into the
//                       child frame by the inverse joint quaternion.
//  joint, free          l = 0; moment gear[0:3] on the (world-frame) translation dofs and
//                       gear[3:6] on the (local-frame) rotation dofs; jointinparent rotates
//                       gear[3:6] from the world frame into the local frame.
//  tendon               l = gear0 ten_length, moment gear0 ten_J.
//  slidercrank          the slider moves along the z axis of slidersite; a rod of length
//                       `cranklength` joins it to cranksite. l = gear0 (a.v - sqrt(det)),
//                       v = crank - slider, a = slider axis, det = (a.v)^2 + r^2 - v.v; when
//                       det <= 0 (the rod cannot reach) l = gear0 a.v, with the moment of a
//                       rigid rod.
//  site                 without refsite: l = 0, the moment maps the wrench gear (expressed in
//                       the site frame) to joint space. With refsite: l is the site's position
//                       (and orientation, as a rotation vector) relative to refsite, in
//                       refsite's frame, projected on gear; the wrench acts in refsite's frame.
//  body (adhesion)      l = 0; moment = minus the mean of the normal Jacobians of the contacts
//                       that involve the body (also those in the margin-gap layer that produce
//                       no contact force), so a positive force pulls the surfaces together.
#include "actuation.h"

#include <algorithm>
#include <cmath>

#include "gauss/crash_report.h"
#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "jacobian.h"
#include "pipeline.h"
#include "profile_timer.h"
#include "sleep.h"

namespace gauss {

using namespace math;

namespace {

// moment (nv) += jac' v for a (3 x nv) Jacobian
void AddJacTVec(int nv, const double* jac, const double* v, double* moment) {
  for (int i = 0; i < nv; ++i) {
    moment[i] += jac[i] * v[0] + jac[nv + i] * v[1] + jac[2 * nv + i] * v[2];
  }
}

// Ball and free joints: (qpos) => (length, moment row)
double MultiDofJoint(const Model& m, const Data& d, int a, double* moment) {
  const int j = m.actuator_trnid[2 * a];
  const double* gear = m.actuator_gear.data() + 6 * a;
  const bool in_parent = m.actuator_trntype[a] == TrnType::kJointInParent;
  const int dof = m.jnt_dofadr[j];
  const double* q = d.qpos.data() + m.jnt_qposadr[j];
  const double identity[4] = {1, 0, 0, 0};
  double inverse[4];
  if (m.jnt_type[j] == JointType::kBall) {
    double axis[3], gear_axis[3];
    SubQuat(axis, q, identity);  // rotation vector of the joint quaternion
    Copy3(gear_axis, gear);
    if (in_parent) {
      NegQuat(inverse, q);
      RotVecQuat(gear_axis, gear, inverse);
    }
    Copy3(moment + dof, gear_axis);
    return Dot3(axis, gear_axis);
  }
  // free joint: no meaningful scalar length
  double gear_axis[3];
  Copy3(gear_axis, gear + 3);
  if (in_parent) {
    NegQuat(inverse, q + 3);
    RotVecQuat(gear_axis, gear + 3, inverse);
  }
  Copy3(moment + dof, gear);
  Copy3(moment + dof + 3, gear_axis);
  return 0;
}

// Slider-crank: (site_xpos, site_xmat, cdof) => (length, moment row). scratch: 12 nv.
double SliderCrank(const Model& m, const Data& d, int a, double* moment, double* scratch) {
  const int nv = m.nv;
  const int crank = m.actuator_trnid[2 * a], slider = m.actuator_trnid[2 * a + 1];
  const double rod = m.actuator_cranklength[a];
  const double* smat = d.site_xmat.data() + 9 * slider;
  const double axis[3] = {smat[2], smat[5], smat[8]};
  double vec[3];
  Sub3(vec, d.site_xpos.data() + 3 * crank, d.site_xpos.data() + 3 * slider);
  const double av = Dot3(vec, axis);
  const double det = av * av + rod * rod - Dot3(vec, vec);

  // derivatives of the length with respect to vec and to the slider axis
  double length, dl_dv[3], dl_da[3];
  if (det <= 0) {
    length = av;
    Copy3(dl_da, vec);
    Copy3(dl_dv, axis);
  } else {
    const double root = std::sqrt(det);
    length = av - root;
    for (int c = 0; c < 3; ++c) {
      dl_dv[c] = axis[c] * (1 - av / root) + vec[c] / root;
      dl_da[c] = vec[c] * (1 - av / root);
    }
  }

  // Jacobians of vec (crank point minus slider point) and of the slider axis (w x axis)
  double* jac_slider = scratch;
  double* jac_rot = scratch + 3 * nv;
  double* jac_crank = scratch + 6 * nv;
  const double* spos = d.site_xpos.data() + 3 * slider;
  PointJacobian(m, d, m.site_bodyid[slider], spos, jac_slider, jac_rot);
  PointJacobian(m, d, m.site_bodyid[crank], d.site_xpos.data() + 3 * crank, jac_crank, nullptr);
  for (int i = 0; i < nv; ++i) {
    const double w[3] = {jac_rot[i], jac_rot[nv + i], jac_rot[2 * nv + i]};
    double w_x_axis[3];
    Cross3(w_x_axis, w, axis);
    double v = 0;
    for (int c = 0; c < 3; ++c) {
      v += dl_da[c] * w_x_axis[c] + dl_dv[c] * (jac_crank[c * nv + i] - jac_slider[c * nv + i]);
    }
    moment[i] = v;
  }
  const double gear = m.actuator_gear[6 * a];
  for (int i = 0; i < nv; ++i) moment[i] *= gear;
  return gear * length;
}

// Site, with or without a reference site: (site_xpos, site_xmat, xquat, cdof) => (length,
// moment row). scratch: 12 nv.
double SiteTransmission(const Model& m, const Data& d, int a, double* moment, double* scratch) {
  const int nv = m.nv;
  const int site = m.actuator_trnid[2 * a], ref = m.actuator_trnid[2 * a + 1];
  const double* gear = m.actuator_gear.data() + 6 * a;
  double* jacp = scratch;
  double* jacr = scratch + 3 * nv;
  double* ref_jacp = scratch + 6 * nv;
  double* ref_jacr = scratch + 9 * nv;
  PointJacobian(m, d, m.site_bodyid[site], d.site_xpos.data() + 3 * site, jacp, jacr);
  double wrench[6];
  if (ref < 0) {
    // a wrench fixed to the site frame (jets, propellers): no meaningful length
    const double* smat = d.site_xmat.data() + 9 * site;
    MulMatVec3(wrench, smat, gear);
    MulMatVec3(wrench + 3, smat, gear + 3);
    AddJacTVec(nv, jacp, wrench, moment);
    AddJacTVec(nv, jacr, wrench + 3, moment);
    return 0;
  }
  const double* rmat = d.site_xmat.data() + 9 * ref;
  PointJacobian(m, d, m.site_bodyid[ref], d.site_xpos.data() + 3 * ref, ref_jacp, ref_jacr);
  double length = 0;
  if (gear[0] != 0 || gear[1] != 0 || gear[2] != 0) {
    // position of the site in the reference frame, along the translational gear
    double dif[3], local[3];
    Sub3(dif, d.site_xpos.data() + 3 * site, d.site_xpos.data() + 3 * ref);
    MulMatTVec3(local, rmat, dif);
    length += Dot3(local, gear);
    for (int i = 0; i < 3 * nv; ++i) jacp[i] -= ref_jacp[i];
    MulMatVec3(wrench, rmat, gear);
    AddJacTVec(nv, jacp, wrench, moment);
    if (m.opt.Enabled(kEnableRefsiteRot)) {
      // the reference frame turns too: d(R' dif) = R' (v_site - v_ref - w_ref x dif), so the
      // reference's rotation adds (R gear) x dif through its rotational Jacobian, and a rigid
      // rotation of both sites leaves the length unchanged (MuJoCo 3.12; 2.2.2 omits it)
      double turn[3];
      Cross3(turn, wrench, dif);
      AddJacTVec(nv, ref_jacr, turn, moment);
    }
  }
  if (gear[3] != 0 || gear[4] != 0 || gear[5] != 0) {
    // orientation of the site relative to the reference, as a rotation vector; the frame
    // quaternions are composed from the bodies' (MuJoCo 2.2.2 composes site_quat * xquat)
    double quat[4], ref_quat[4], rotvec[3];
    MulQuat(quat, m.site_quat.data() + 4 * site, d.xquat.data() + 4 * m.site_bodyid[site]);
    MulQuat(ref_quat, m.site_quat.data() + 4 * ref, d.xquat.data() + 4 * m.site_bodyid[ref]);
    SubQuat(rotvec, quat, ref_quat);
    length += Dot3(rotvec, gear + 3);
    for (int i = 0; i < 3 * nv; ++i) jacr[i] -= ref_jacr[i];
    MulMatVec3(wrench + 3, rmat, gear + 3);
    AddJacTVec(nv, jacr, wrench + 3, moment);
  }
  return length;
}

// Adhesion: (contact, cdof) => moment row = -(mean normal Jacobian of the body's contacts).
// scratch: 6 nv.
void BodyTransmission(const Model& m, const Data& d, int a, double* moment, double* scratch) {
  const int nv = m.nv;
  const int body = m.actuator_trnid[2 * a];
  double* jac1 = scratch;
  double* jac2 = scratch + 3 * nv;
  int count = 0;
  for (int c = 0; c < d.ncon; ++c) {
    const Contact& con = d.contact[c];
    const int b1 = m.geom_bodyid[con.geom1], b2 = m.geom_bodyid[con.geom2];
    if (b1 != body && b2 != body) continue;
    if (con.exclude != 0 && con.exclude != 1) continue;
    ++count;
    // normal Jacobian n' (J(b2, pos) - J(b1, pos)), the first row of the contact's constraint
    PointJacobian(m, d, b1, con.pos, jac1, nullptr);
    PointJacobian(m, d, b2, con.pos, jac2, nullptr);
    for (int i = 0; i < 3 * nv; ++i) jac2[i] -= jac1[i];
    AddJacTVec(nv, jac2, con.frame, moment);
  }
  if (count == 0) return;
  for (int i = 0; i < nv; ++i) moment[i] *= -1.0 / count;
}

}  // namespace

// (qpos, ten_length, ten_J, site and body frames, cdof, contact) => (actuator_length,
// actuator_moment)
void Transmission(const Model& m, Data& d) {
  if (m.nu == 0) return;
  ArenaScope scope(d.arena);
  double* scratch = nullptr;  // 12 nv, taken by the first transmission that needs Jacobians
  auto jacobians = [&]() {
    if (!scratch) scratch = d.arena.Doubles(12 * static_cast<std::size_t>(m.nv));
    return scratch;
  };
  for (int a = 0; a < m.nu; ++a) {
    const double gear = m.actuator_gear[6 * a];
    const int id = m.actuator_trnid[2 * a];
    double* moment = d.actuator_moment.data() + a * m.nv;
    double& length = d.actuator_length[a];
    // clear what the previous evaluation may have written, then record what this one may write:
    // a joint's own dofs, or (Jacobian-based transmissions) every column
    int* span = d.actuator_moment_span.data() + 2 * a;
    std::fill(moment + span[0], moment + span[1], 0.0);
    const TrnType trn = m.actuator_trntype[a];
    if (trn == TrnType::kJoint || trn == TrnType::kJointInParent) {
      span[0] = m.jnt_dofadr[id];
      span[1] = span[0] + JointNv(m.jnt_type[id]);
    } else {
      span[0] = 0;
      span[1] = m.nv;
    }
    switch (m.actuator_trntype[a]) {
      case TrnType::kJoint:
      case TrnType::kJointInParent:
        if (m.jnt_type[id] == JointType::kHinge || m.jnt_type[id] == JointType::kSlide) {
          length = gear * d.qpos[m.jnt_qposadr[id]];
          moment[m.jnt_dofadr[id]] = gear;
        } else {
          length = MultiDofJoint(m, d, a, moment);
        }
        break;
      case TrnType::kTendon: {
        length = gear * d.ten_length[id];
        const double* row = d.ten_J.data() + id * m.nv;
        for (int i = 0; i < m.nv; ++i) moment[i] = gear * row[i];
        break;
      }
      case TrnType::kSliderCrank:
        length = SliderCrank(m, d, a, moment, jacobians());
        break;
      case TrnType::kSite:
        length = SiteTransmission(m, d, a, moment, jacobians());
        break;
      case TrnType::kBody:
        length = 0;
        BodyTransmission(m, d, a, moment, jacobians());
        break;
    }
  }
}

// (actuator_moment, qvel) => actuator_velocity
void ActuatorVelocity(const Model& m, Data& d) {
  for (int a = 0; a < m.nu; ++a) {
    const double* moment = d.actuator_moment.data() + a * m.nv;
    const int* span = d.actuator_moment_span.data() + 2 * a;
    double v = 0;
    for (int i = span[0]; i < span[1]; ++i) v += moment[i] * d.qvel[i];
    d.actuator_velocity[a] = v;
  }
}

// ctrl => out: MuJoCo 2.2.2 clamps a copy; d.ctrl keeps what the user wrote
bool ZeroBadControls(const Model& m, Data& d) {
  for (int a = 0; a < m.nu; ++a) {
    const double u = d.ctrl[a];
    if (std::isfinite(u) && std::fabs(u) <= kMaxVal) continue;
    std::fill(d.ctrl.begin(), d.ctrl.end(), 0.0);
    ++d.warning_count[static_cast<int>(Warning::kBadCtrl)];
    d.warning_index[static_cast<int>(Warning::kBadCtrl)] = a;
    return true;
  }
  return false;
}

void ClampControls(const Model& m, const Data& d, double* out) {
  const bool clamp = !m.opt.Disabled(kDisableClampctrl);
  for (int a = 0; a < m.nu; ++a) {
    double u = d.ctrl[a];
    if (clamp && m.actuator_ctrllimited[a]) {
      u = std::clamp(u, m.actuator_ctrlrange[2 * a], m.actuator_ctrlrange[2 * a + 1]);
    }
    out[a] = u;
  }
}

namespace {

// MuJoCo 3.x tendon actuatorfrcrange (measured on 3.12.1): when the sum of actuator_force over
// the actuators with a tendon transmission on a limited tendon (gears not applied, forceranges
// not yet applied) leaves the range, each of those forces is scaled by clamped sum / sum, so
// they keep their proportions and the sum lands on the bound (a forcerange applied afterwards
// may leave it inside). The compiler requires the range to contain 0, so a sum outside it is
// never 0.
// (actuator_force, tendon_actfrcrange) => (actuator_force); sums in d.arena
void ClampTendonActuatorForces(const Model& m, Data& d) {
  ArenaScope scope(d.arena);
  double* total = d.arena.Doubles(m.ntendon);
  std::fill(total, total + m.ntendon, 0.0);
  auto limited_tendon = [&](int a) {
    if (m.actuator_trntype[a] != TrnType::kTendon) return -1;
    const int t = m.actuator_trnid[2 * a];
    return m.tendon_actfrclimited[t] ? t : -1;
  };
  for (int a = 0; a < m.nu; ++a) {
    if (const int t = limited_tendon(a); t >= 0) total[t] += d.actuator_force[a];
  }
  for (int a = 0; a < m.nu; ++a) {
    const int t = limited_tendon(a);
    if (t < 0) continue;
    const double clamped =
        std::clamp(total[t], m.tendon_actfrcrange[2 * t], m.tendon_actfrcrange[2 * t + 1]);
    if (clamped != total[t]) d.actuator_force[a] *= clamped / total[t];
  }
}

}  // namespace

// (actuator_force, actuator_moment, qfrc_gravcomp) => (actuator_force scaled to the tendons'
// actuatorfrcrange, then clamped to forcerange; qfrc_actuator)
void ActuatorToJointForces(const Model& m, Data& d) {
  std::fill(d.qfrc_actuator.begin(), d.qfrc_actuator.end(), 0.0);
  // the tendons' scaling sees the forces before each actuator's own forcerange (MuJoCo 3.12.1,
  // measured: a motor clamped by its forcerange still counts with its unclamped force)
  if (!m.tendon_actfrclimited.empty()) ClampTendonActuatorForces(m, d);
  for (int a = 0; a < m.nu; ++a) {
    double& force = d.actuator_force[a];
    if (m.actuator_forcelimited[a]) {
      force = std::clamp(force, m.actuator_forcerange[2 * a], m.actuator_forcerange[2 * a + 1]);
    }
    if (force == 0) continue;
    const double* moment = d.actuator_moment.data() + a * m.nv;
    const int* span = d.actuator_moment_span.data() + 2 * a;
    for (int i = span[0]; i < span[1]; ++i) d.qfrc_actuator[i] += moment[i] * force;
  }
  // MuJoCo 3.x actuatorgravcomp: the joint's gravity compensation is an actuator force, and
  // counts in its actuatorfrcrange; none without actuators or with actuation disabled (MuJoCo
  // 3.12.1, measured: the force is then lost, not moved back to qfrc_passive)
  if (!m.jnt_actgravcomp.empty() && m.nu > 0 && !m.opt.Disabled(kDisableActuation)) {
    for (int i = 0; i < m.nv; ++i) {
      if (m.jnt_actgravcomp[m.dof_jntid[i]]) d.qfrc_actuator[i] += d.qfrc_gravcomp[i];
    }
  }
  // MuJoCo 3.x joint actuatorfrcrange: the sum of all actuators' forces on a hinge or slide
  // joint is clamped; on ball and free joints the range has no effect (MuJoCo 3.12.1, measured)
  const int limited_joints = static_cast<int>(m.jnt_actfrclimited.size());  // 0: none written
  for (int j = 0; j < limited_joints; ++j) {
    if (!m.jnt_actfrclimited[j]) continue;
    if (m.jnt_type[j] != JointType::kHinge && m.jnt_type[j] != JointType::kSlide) continue;
    double& f = d.qfrc_actuator[m.jnt_dofadr[j]];
    f = std::clamp(f, m.jnt_actfrcrange[2 * j], m.jnt_actfrcrange[2 * j + 1]);
  }
}

// (ctrl, act, actuator_length, actuator_velocity, actuator_moment) => (act_dot, actuator_force,
// qfrc_actuator); the clamped controls live in d.arena for the duration of the call
void Actuation(const Model& m, Data& d, const std::vector<ActuatorGroup>& groups) {
  const ScopedTimer timer(StageStat(d, Timer::kActuation));
  std::fill(d.act_dot.begin(), d.act_dot.end(), 0.0);
  std::fill(d.actuator_force.begin(), d.actuator_force.end(), 0.0);
  if (m.nu > 0 && !m.opt.Disabled(kDisableActuation)) {
    ArenaScope scope(d.arena);
    double* ctrl = d.arena.Doubles(m.nu);
    ClampControls(m, d, ctrl);
    for (const ActuatorGroup& group : groups) {
      const PluginCallScope mark("actuator", nullptr, "actuation");
      const ScopedTimer plugin_timer(PluginStat(d, group.profile_slot));
      group.plugin->Compute(m, d, ctrl, group.ids.data(), static_cast<int>(group.ids.size()));
    }
    // 3.x actuatorgroupdisable: a disabled actuator has no force and a constant activation
    for (int a = 0; a < m.nu; ++a) {
      if (!ActuatorDisabled(m, a)) continue;
      d.actuator_force[a] = 0;
      const int adr = m.actuator_actadr[a];
      if (adr >= 0) std::fill_n(d.act_dot.begin() + adr, m.actuator_actnum[a], 0.0);
    }
  }
  ActuatorToJointForces(m, d);
}

// (qfrc_passive, qfrc_bias, qfrc_applied, qfrc_actuator, xfrc_applied, qLD) =>
// (qfrc_smooth, qacc_smooth)
void SmoothAcceleration(const Model& m, Data& d) {
  const ScopedTimer timer(StageStat(d, Timer::kAcceleration));
  for (int i = 0; i < m.nv; ++i) {
    d.qfrc_smooth[i] = d.qfrc_passive[i] - d.qfrc_bias[i] + d.qfrc_applied[i] + d.qfrc_actuator[i];
  }
  AddCartesianForces(m, d, d.xfrc_applied.data(), d.qfrc_smooth.data());
  // frozen sleeping trees keep their qacc_smooth (sleep.h); M is block-diagonal over trees
  const TreeSparseLayout layout = InertiaLayoutOf(m);
  ForEachLiveDofRun(m, d, SkipFrozen(m, d), [&](int begin, int end) {
    std::copy(d.qfrc_smooth.begin() + begin, d.qfrc_smooth.begin() + end,
              d.qacc_smooth.begin() + begin);
    SolveLTDL(layout, d.qLD.data(), d.qLDiagInv.data(), d.qacc_smooth.data(), begin, end);
  });
}

}  // namespace gauss

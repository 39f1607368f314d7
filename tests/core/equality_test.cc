// The MuJoCo 3.12 velocity term of connect and weld constraints (equality.cc,
// SubtractEqualityJdotv, enabled by the eqjdotv flag): the reference acceleration loses exactly
// (dJ/dt) qvel, which is checked against a central finite difference of J qvel along the motion,
// on rotating, ball-jointed and free bodies, for body- and site-form constraints and welds with
// torquescale. Without the flag the reference acceleration is 2.2.2's spring-damper alone.
// A 3.x weld between sites measures its rotation in site2's frame (eq_frame2quat): its residual
// is checked against Im((q2 s2)^-1 q1 s1) and its Jacobian against the residual's rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "gauss/engine.h"
#include "gauss/integrate.h"
#include "gauss/math.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

const char* kModel = R"(<mujoco><option gravity="0 0 -9.81"><flag contact="disable"/></option>
  <worldbody>
    <body name="a" pos="0 0 1"><joint type="ball"/>
      <geom type="capsule" fromto="0 0 0 0.5 0.2 0" size="0.05"/>
      <site name="sa" pos="0.5 0.2 0" euler="10 20 30"/>
      <body name="b" pos="0.5 0.2 0"><joint axis="0.3 1 0.2"/><joint type="slide" axis="1 0 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.04"/></body></body>
    <body name="c" pos="0.5 0.2 1.3"><freejoint/><geom type="box" size="0.1 0.2 0.05"/>
      <site name="sc" pos="0.05 0 0.1" euler="30 -20 50"/></body>
    <body name="d" pos="-1 0 1"><freejoint/><geom type="sphere" size="0.1" pos="0.1 0 0"/></body>
  </worldbody>
  <equality>
    <connect body1="b" body2="c" anchor="0 0 -0.4"/>
    <weld site1="sa" site2="sc" torquescale="0.3"/>
    <weld body1="d" body2="a" relpose="0.2 0.1 -0.3 0.9 0.1 0.2 0.3" torquescale="2"/>
    <connect body1="d" anchor="0.1 0.2 0"/>
  </equality></mujoco>)";

// The equality rows at (qpos, qvel): efc_vel = J qvel and the velocity term the reference
// acceleration carries beyond its spring-damper part, -(aref + B vel + K I (pos - margin)).
struct Rows {
  std::vector<double> vel, term;
};

Rows EqualityRows(const Model& base, bool jdotv, const std::vector<double>& qpos,
                  const std::vector<double>& qvel) {
  auto model = std::make_shared<Model>(base);
  if (jdotv) model->opt.enableflags |= kEnableEqJdotv;
  else model->opt.enableflags &= ~kEnableEqJdotv;
  const Engine engine(model);
  Data d = engine.MakeData();
  d.qpos = qpos;
  d.qvel = qvel;
  engine.Forward(d);
  Rows r;
  for (int i = 0; i < d.nefc; ++i) {
    if (d.efc_type[i] != ConstraintType::kEquality) continue;
    const double* kbip = d.efc_KBIP.data() + 4 * i;
    r.vel.push_back(d.efc_vel[i]);
    r.term.push_back(-(d.efc_aref[i] + kbip[1] * d.efc_vel[i] +
                       kbip[0] * kbip[2] * (d.efc_pos[i] - d.efc_margin[i])));
  }
  return r;
}

TEST(EqualityJdotv, ReferenceAccelerationLosesTheTimeDerivativeOfTheJacobianTimesQvel) {
  const auto m = LoadModelFromString(kModel);
  EXPECT_TRUE(m->opt.Enabled(kEnableEqJdotv));  // site welds: a 3.x file
  std::vector<double> qpos = m->qpos0, qvel(m->nv);
  // a generic state: every dof moving, the ball and free bodies turned
  for (int i = 0; i < m->nv; ++i) qvel[i] = 0.7 * std::sin(1.3 * i + 0.4) + 0.2;
  IntegratePosition(*m, qpos.data(), qvel.data(), 0.6);
  const Rows on = EqualityRows(*m, true, qpos, qvel);
  const Rows off = EqualityRows(*m, false, qpos, qvel);
  ASSERT_EQ(on.term.size(), 3u + 6u + 6u + 3u);
  // (dJ/dt) qvel by a central difference of J qvel (efc_vel) along qpos(t +- h)
  const double h = 1e-6;
  std::vector<double> plus = qpos, minus = qpos;
  IntegratePosition(*m, plus.data(), qvel.data(), h);
  IntegratePosition(*m, minus.data(), qvel.data(), -h);
  const Rows ahead = EqualityRows(*m, true, plus, qvel);
  const Rows behind = EqualityRows(*m, true, minus, qvel);
  double largest = 0;
  for (std::size_t i = 0; i < on.term.size(); ++i) {
    const double jdotv = (ahead.vel[i] - behind.vel[i]) / (2 * h);
    largest = std::max(largest, std::fabs(jdotv));
    EXPECT_NEAR(on.term[i], jdotv, 1e-7 * (1 + std::fabs(jdotv))) << "row " << i;
    EXPECT_NEAR(off.term[i], 0, 1e-12) << "row " << i;  // 2.2.2: no velocity term
    EXPECT_EQ(on.vel[i], off.vel[i]);  // J qvel is the same in both versions
  }
  EXPECT_GT(largest, 0.1);  // the term is not trivially zero here
}

// The weld rows of kModel's site weld (rows 3..8 of the equality rows) at (qpos, qvel).
struct WeldRows {
  double pos[6], vel[6];
};

WeldRows SiteWeldRows(const Model& m, const std::vector<double>& qpos,
                      const std::vector<double>& qvel, Data* out = nullptr) {
  const Engine engine(std::make_shared<Model>(m));
  Data d = engine.MakeData();
  d.qpos = qpos;
  d.qvel = qvel;
  engine.Forward(d);
  WeldRows w;
  for (int k = 0; k < 6; ++k) {
    w.pos[k] = d.efc_pos[3 + k];
    w.vel[k] = d.efc_vel[3 + k];
  }
  if (out) *out = d;
  return w;
}

TEST(SiteWeld, RotationIsMeasuredInTheFrameOfSite2) {
  const auto m = LoadModelFromString(kModel);
  const int s1 = 0, s2 = 1;  // sa on a, sc (rotated in its body) on c
  ASSERT_EQ(m->eq_frame2quat.size(), 4u * m->neq);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(m->eq_frame2quat[4 + k], m->site_quat[4 * s2 + k]);
  EXPECT_EQ(m->eq_frame2quat[0], 1);  // the connect: identity
  std::vector<double> qpos = m->qpos0, qvel(m->nv);
  for (int i = 0; i < m->nv; ++i) qvel[i] = 0.5 * std::cos(0.9 * i + 0.1) - 0.1;
  IntegratePosition(*m, qpos.data(), qvel.data(), 0.8);  // a violated weld
  Data d;
  const WeldRows w = SiteWeldRows(*m, qpos, qvel, &d);
  // 3.x's residual: torquescale Im((q2 s2)^-1 (q1 s1)), from the body and site frames
  double f1[4], f2[4], inv2[4], dif[4];
  math::MulQuat(f1, d.xquat.data() + 4 * m->site_bodyid[s1], m->site_quat.data() + 4 * s1);
  math::MulQuat(f2, d.xquat.data() + 4 * m->site_bodyid[s2], m->site_quat.data() + 4 * s2);
  math::NegQuat(inv2, f2);
  math::MulQuat(dif, inv2, f1);
  double size = 0;
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(w.pos[3 + c], 0.3 * dif[1 + c], 1e-14) << c;
    size += std::fabs(dif[1 + c]);
  }
  EXPECT_GT(size, 0.1);  // far from satisfied: a wrong frame would show
  // the Jacobian rows are the residual's rate: J qvel = d(pos)/dt (central difference)
  const double h = 1e-6;
  std::vector<double> plus = qpos, minus = qpos;
  IntegratePosition(*m, plus.data(), qvel.data(), h);
  IntegratePosition(*m, minus.data(), qvel.data(), -h);
  const WeldRows ahead = SiteWeldRows(*m, plus, qvel), behind = SiteWeldRows(*m, minus, qvel);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(w.vel[k], (ahead.pos[k] - behind.pos[k]) / (2 * h), 1e-8) << "row " << k;
  }
}

TEST(EqualityJdotv, OffByDefaultForFilesWithoutMujoco3Features) {
  const auto m = LoadModelFromString(R"(<mujoco><worldbody><body name="a"><freejoint/>
    <geom size="0.1"/></body></worldbody><equality><connect body1="a" anchor="0 0 1"/>
    </equality></mujoco>)");
  EXPECT_FALSE(m->opt.Enabled(kEnableEqJdotv));
}

}  // namespace
}  // namespace gauss::test

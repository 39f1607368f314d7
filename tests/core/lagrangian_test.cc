// lagrangian.h: the configuration gradient dL/dq (kinetic and gravity terms) against central
// finite differences of L = 1/2 v'M(q)v - V_gravity(q) along q "+" eps e_i, on a floating
// chain with every joint type (free, ball, hinge, slide) and full inertias.
#include "gauss/lagrangian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gauss/engine.h"
#include "gauss/integrate.h"
#include "gauss/mjcf.h"
#include "gauss/sparse_inertia.h"

namespace gauss {
namespace {

const char* kFloatingChain = R"(
  <mujoco>
    <option gravity="0.5 -1 -9.81"/>
    <worldbody>
      <body pos="0.1 0.2 1" euler="10 20 30">
        <freejoint/>
        <inertial pos="0.05 0.02 -0.1" mass="1.3" fullinertia="0.02 0.03 0.015 0.002 -0.001 0.003"/>
        <body pos="0.1 0 -0.2" euler="5 -10 40">
          <joint type="ball" pos="0 0 0.1" armature="0.01"/>
          <inertial pos="0 0.03 0" quat="0.9 0.1 0.3 0.2" mass="0.7" diaginertia="0.004 0.006 0.009"/>
          <body pos="0 0 -0.15">
            <joint type="hinge" axis="0.3 1 0" pos="0 0 0.05"/>
            <joint type="slide" axis="1 0.5 0.2"/>
            <inertial pos="0.1 0 0" mass="0.5" fullinertia="0.003 0.004 0.002 0.0005 0.0002 -0.0003"/>
          </body>
        </body>
      </body>
      <body pos="1 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <inertial pos="0.2 0 0" mass="0.4" diaginertia="0.01 0.01 0.01"/>
      </body>
    </worldbody>
  </mujoco>)";

// L at (qpos, qvel) of d, from the kernel's qM and body positions.
double Lagrangian(const Model& m, Data& d) {
  EvaluateSmoothTerms(m, d);
  std::vector<double> mv(m.nv);
  MulTreeSparse(m, d.qM.data(), d.qvel.data(), mv.data());
  double kinetic = 0, potential = 0;
  for (int i = 0; i < m.nv; ++i) kinetic += 0.5 * d.qvel[i] * mv[i];
  for (int b = 1; b < m.nbody; ++b) {
    for (int c = 0; c < 3; ++c) potential -= m.body_mass[b] * m.opt.gravity[c] * d.xipos[3 * b + c];
  }
  return kinetic - potential;
}

TEST(Lagrangian, PositionGradientMatchesFiniteDifferences) {
  Engine engine(LoadModelFromString(kFloatingChain));
  const Model& m = engine.model();
  Data d = engine.MakeData();
  const double vel[] = {0.3, -0.2, 0.5, 1.1, -0.7, 0.4, 2.0, -1.5, 0.8, 1.3, -0.6, 0.9};
  ASSERT_EQ(m.nv, 12);
  for (int i = 0; i < m.nv; ++i) d.qvel[i] = vel[i];
  d.qpos[m.nq - 1] = 0.4;  // the second tree's hinge
  const std::vector<double> qpos0 = d.qpos;

  std::vector<double> grad(m.nv);
  EvaluateSmoothTerms(m, d);
  LagrangianPositionGradient(m, d, grad.data());

  const double eps = 1e-6;
  for (int i = 0; i < m.nv; ++i) {
    std::vector<double> dir(m.nv, 0.0);
    dir[i] = 1;
    d.qpos = qpos0;
    IntegratePosition(m, d.qpos.data(), dir.data(), eps);
    const double plus = Lagrangian(m, d);
    d.qpos = qpos0;
    IntegratePosition(m, d.qpos.data(), dir.data(), -eps);
    const double minus = Lagrangian(m, d);
    const double fd = (plus - minus) / (2 * eps);
    EXPECT_NEAR(grad[i], fd, 1e-7 * (1 + std::fabs(fd))) << "dof " << i;
  }
}

}  // namespace
}  // namespace gauss

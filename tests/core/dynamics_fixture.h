// A model in a random state with the position and velocity stages evaluated, shared by the
// tests of the individual pipeline stages; and the random joint positions it uses.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <string>

#include "data_alloc.h"
#include "gauss/integrate.h"
#include "gauss/math.h"
#include "gauss/sparse_inertia.h"
#include "gauss/mjcf.h"
#include "pipeline.h"
#include "support/test_support.h"

namespace gauss::test {

// Random joint positions around qpos0: free-body positions + translation N(0,1), random unit
// quaternions for ball and free joints, hinges and slides + spread N(0,1). Draws from the
// caller's `nd`, which the caller may go on drawing from (it keeps a second value between
// draws, so sharing it is part of the sequence of states).
inline void RandomJointPositions(const Model& m, Data& d, std::mt19937_64& gen,
                                 std::normal_distribution<double>& nd, double translation,
                                 double spread) {
  for (int j = 0; j < m.njnt; ++j) {
    double* q = d.qpos.data() + m.jnt_qposadr[j];
    const double* q0 = m.qpos0.data() + m.jnt_qposadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
        for (int c = 0; c < 3; ++c) q[c] = q0[c] + translation * nd(gen);
        q += 3;
        [[fallthrough]];
      case JointType::kBall:
        for (int c = 0; c < 4; ++c) q[c] = nd(gen);
        math::NormalizeQuat(q);
        break;
      default:
        q[0] = q0[0] + spread * nd(gen);
    }
  }
}

class DynamicsFixture : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    model_ = LoadModel(TestModel(GetParam()));
    AllocateData(*model_, d_);
    RandomState(11);
  }

  const Model& m() const { return *model_; }

  // Random qpos around qpos0 (unit quaternions), random qvel, then position + velocity stages.
  void RandomState(unsigned seed) {
    std::mt19937_64 gen(seed);
    std::normal_distribution<double> nd(0, 1);
    RandomJointPositions(m(), d_, gen, nd, 0.5, 0.7);
    for (int i = 0; i < m().nv; ++i) d_.qvel[i] = 1.5 * nd(gen);
    Evaluate();
  }

  void Evaluate() { Evaluate(d_); }
  void Evaluate(Data& d) const {
    Kinematics(m(), d);
    ComPosition(m(), d);
    CompositeInertia(m(), d);
    FactorInertia(m(), d);
    ComVelocity(m(), d);
    PassiveForces(m(), d);
    RecursiveNewtonEuler(m(), d, false, d.qfrc_bias.data());
  }

  // Dense M from the tree-sparse qM.
  Eigen::MatrixXd DenseM(const Data& d) const {
    Eigen::MatrixXd out = Eigen::MatrixXd::Zero(m().nv, m().nv);
    for (int i = 0; i < m().nv; ++i) {
      int adr = m().dof_Madr[i];
      for (int j = i; j >= 0; j = m().dof_parentid[j]) out(i, j) = out(j, i) = d.qM[adr++];
    }
    return out;
  }

  // A copy of the current data moved along qvel for time h (positions only) and re-evaluated.
  Data Moved(double h) const {
    Data moved = d_;
    IntegratePosition(m(), moved.qpos.data(), d_.qvel.data(), h);
    Evaluate(moved);
    return moved;
  }

  std::shared_ptr<const Model> model_;
  Data d_;
};

}  // namespace gauss::test

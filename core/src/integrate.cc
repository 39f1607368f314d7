// Quaternion-correct position integration (used by every integrator).
#include "gauss/integrate.h"

#include "gauss/math.h"

namespace gauss {

void IntegratePosition(const Model& m, double* qpos, const double* qvel, double h) {
  for (int j = 0; j < m.njnt; ++j) {
    double* q = qpos + m.jnt_qposadr[j];
    const double* v = qvel + m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
        for (int c = 0; c < 3; ++c) q[c] += h * v[c];
        math::QuatIntegrate(q + 3, v + 3, h);
        break;
      case JointType::kBall:
        math::QuatIntegrate(q, v, h);
        break;
      case JointType::kSlide:
      case JointType::kHinge:
        q[0] += h * v[0];
        break;
    }
  }
}

}  // namespace gauss

// Records the contacts MuJoCo 3.12 computes for random poses of the two free bodies of a model
// (tests/models/mjcf3/convex_*.xml), for tests/reference/native_ccd_reference_test.cc (built and
// run by regen.sh; not part of the CMake build).
// Poses: body 1 keeps its initial position and gets a random orientation; body 2 is placed at
// body 1's position plus a random offset of length `reach` x uniform(0.3, 1) in a random
// direction, with a random orientation. Random numbers: one std::mt19937_64(seed),
// uniform(-1, 1), drawn in program order.
// Output: CSV `pose,index,ncon,qpos0..qpos13` rows followed by
// `contact,pose,dist,pos0..2,normal0..2` rows (%.17g), the contacts in MuJoCo's order.
// Usage: convex_contacts MODEL.xml COUNT SEED REACH > out.csv
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

#include <mujoco/mujoco.h>

#include "contact_record.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s MODEL.xml COUNT SEED REACH\n", argv[0]);
    return 2;
  }
  mjData* d = nullptr;
  mjModel* m = LoadTwoFreeBodies(argv[1], &d);
  if (!m) return 1;
  const int count = std::atoi(argv[2]);
  const double reach = std::atof(argv[4]);
  std::mt19937_64 gen(std::strtoull(argv[3], nullptr, 10));
  std::uniform_real_distribution<double> u(-1, 1);
  PrintContactHeader();
  for (int pose = 0; pose < count; ++pose) {
    mj_resetData(m, d);
    double dir[3] = {u(gen), u(gen), u(gen)};
    mju_normalize3(dir);
    const double len = reach * (0.65 + 0.35 * u(gen));
    for (int i = 0; i < 3; ++i) d->qpos[7 + i] = d->qpos[i] + len * dir[i];
    for (int b = 0; b < 2; ++b) {
      double q[4];
      for (double& c : q) c = u(gen);
      mju_normalize4(q);
      for (int i = 0; i < 4; ++i) d->qpos[7 * b + 3 + i] = q[i];
    }
    mj_kinematics(m, d);
    mj_collision(m, d);
    PrintPoseContacts(m, d, pose);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}

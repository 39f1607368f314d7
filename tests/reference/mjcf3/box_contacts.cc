// Records the box-box contacts MuJoCo 3.12 computes for random poses of the two boxes of
// tests/models/mjcf3/box_pair.xml, for tests/reference/box_clip_reference_test.cc (built and run
// by regen.sh; not part of the CMake build).
// Poses: the lower box stays at its initial pose; the upper box gets a random offset (+-0.12 in
// x and y, 0.16..0.2 above the lower box's centre) and a random orientation of one of three
// kinds, `count` poses each: 0 any orientation (corner, edge and tilted face contacts), 1 a turn
// about the vertical only (resting face on face), 2 a turn about the vertical plus a small tilt.
// Random numbers: one std::mt19937_64(7), uniform(-1, 1), drawn in program order.
// Output: CSV `pose,ncon,qpos0..qpos13` rows followed by `contact,pose,dist,pos0..2,normal0..2`
// rows (%.17g), the contacts in MuJoCo's order.
// Usage: box_contacts MODEL.xml COUNT > out.csv
#include <cstdio>
#include <cstdlib>
#include <random>

#include <mujoco/mujoco.h>

#include "contact_record.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s MODEL.xml COUNT\n", argv[0]);
    return 2;
  }
  mjData* d = nullptr;
  mjModel* m = LoadTwoFreeBodies(argv[1], &d);
  if (!m) return 1;
  const int count = std::atoi(argv[2]);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  PrintContactHeader();
  int pose = 0;
  for (int kind = 0; kind < 3; ++kind) {
    for (int k = 0; k < count; ++k, ++pose) {
      mj_resetData(m, d);
      d->qpos[7] = d->qpos[0] + 0.12 * u(gen);
      d->qpos[8] = d->qpos[1] + 0.12 * u(gen);
      d->qpos[9] = d->qpos[2] + 0.18 + 0.02 * u(gen);
      double q[4] = {1, 0, 0, 0};
      if (kind == 0) {
        for (double& c : q) c = u(gen);
      } else {
        q[3] = u(gen);
        if (kind == 2) {
          q[1] = 0.05 * u(gen);
          q[2] = 0.05 * u(gen);
        }
      }
      mju_normalize4(q);
      for (int i = 0; i < 4; ++i) d->qpos[10 + i] = q[i];
      mj_kinematics(m, d);
      mj_collision(m, d);
      PrintPoseContacts(m, d, pose);
    }
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}

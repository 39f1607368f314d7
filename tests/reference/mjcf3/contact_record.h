// Shared by box_contacts.cc and convex_contacts.cc (regen.sh's recorders of MuJoCo 3.12's
// contact lists at random poses of a two-free-body model): loading the model and writing the
// CSV that tests/reference/recorded_contacts.h reads.
#pragma once

#include <cstdio>

#include <mujoco/mujoco.h>

// (path) => the model with its data, or null after a message when it is not two free bodies
inline mjModel* LoadTwoFreeBodies(const char* path, mjData** d) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path, nullptr, error, sizeof error);
  if (!m || m->nq != 14) {
    std::fprintf(stderr, "%s: %s (expected two free bodies)\n", path, error);
    return nullptr;
  }
  *d = mj_makeData(m);
  return m;
}

// The CSV header line.
inline void PrintContactHeader() {
  std::printf("kind,pose,ncon,qpos0..13 | kind,pose,dist,pos0,pos1,pos2,normal0,normal1,normal2\n");
}

// (m, d after mj_collision) => one `pose,index,ncon,qpos...` row and a
// `contact,index,dist,pos0..2,normal0..2` row per contact (%.17g), in MuJoCo's order
inline void PrintPoseContacts(const mjModel* m, const mjData* d, int pose) {
  std::printf("pose,%d,%d", pose, d->ncon);
  for (int i = 0; i < m->nq; ++i) std::printf(",%.17g", d->qpos[i]);
  std::printf("\n");
  for (int c = 0; c < d->ncon; ++c) {
    const mjContact& con = d->contact[c];
    std::printf("contact,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", pose, con.dist,
                con.pos[0], con.pos[1], con.pos[2], con.frame[0], con.frame[1], con.frame[2]);
  }
}

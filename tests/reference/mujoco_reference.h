// MuJoCo 2.2.2 as a reference: RAII ownership of mjModel/mjData, a model held by both MuJoCo and
// Gauss, and the helpers shared by the reference tests: MuJoCo's forward inputs into Gauss, and
// the random states they sample. Only tests/reference may include MuJoCo.
#pragma once

#include <memory>
#include <random>
#include <string>

#include <mujoco/mujoco.h>

#include "gauss/data.h"
#include "gauss/engine.h"

namespace gauss::test {

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

// Loads an MJCF file with MuJoCo; fails the current test (and returns null) on error.
MjModelPtr LoadMujoco(const std::string& path);
MjDataPtr MakeMujocoData(const mjModel* m);

// MuJoCo's inputs of forward dynamics into Gauss: time, qpos, qvel, act, ctrl, qfrc_applied,
// xfrc_applied and, when `warmstart`, qacc_warmstart (then call it before mj_forward, which
// overwrites qacc_warmstart with the solution it finds).
void CopyForwardInputs(const mjModel* m, const mjData* mjd, Data& d, bool warmstart);

// One model file held by MuJoCo and by Gauss. Each test's pair derives from it and sets the
// options of both sides in its constructor (mj stays null when MuJoCo cannot load the file).
struct ReferencePair {
  MjModelPtr mj;
  MjDataPtr mjd;
  std::unique_ptr<Engine> engine;
  Data d;

  // CopyForwardInputs from mjd into d.
  void CopyInputs(bool warmstart) { CopyForwardInputs(mj.get(), mjd.get(), d, warmstart); }
};

// What RandomState samples. The defaults are the smooth-dynamics states.
struct RandomStateOptions {
  double spread = 0.5;       // hinge and slide joints: qpos0 + spread N(0,1)
  double translation = 0.5;  // free bodies: position qpos0 + translation N(0,1), then ...
  double free_z = -1;        // ... when >= 0, the height redrawn as free_z + translation N(0,1)
  double turn = -1;          // ball and free: qpos0's quaternion + turn N(0,1), normalized
                             // (< 0: uniformly random, N(0,1) components normalized)
  double speed = 2;          // qvel: speed N(0,1)
  bool act = false;          // act: N(0,1)
  bool controls = true;      // ctrl: uniform in ctrlrange when limited, else N(0,1)
  bool time = false;         // time: uniform in [0, 10)
  bool forces = false;       // qfrc_applied and xfrc_applied (bodies but the world): N(0,1)
};

// A random state into MuJoCo's data (reset first), drawn in the order of the fields above
// (joints in order, then qvel, act, ctrl, time, forces).
void RandomState(const mjModel* m, mjData* d, std::mt19937_64& gen, const RandomStateOptions& o);

// Controls uniform within their ranges, N(0,1) when unlimited.
void RandomControls(const mjModel* m, mjData* d, std::mt19937_64& gen);

// A state in which many geoms touch (reset first): free joints at random horizontal offsets
// 0.3 N(0,1), heights between -0.1 and 1.5 times the initial one, random orientations; vertical
// root slides of the planar models dropped by up to 1.5; other joints uniform in their range
// when limited, else qpos0 + 0.5 N(0,1). With `motion`, then qvel N(0,1) and RandomControls.
void PlacedState(const mjModel* m, mjData* d, std::mt19937_64& gen, bool motion);

// A state reached by simulating MuJoCo without controls: `sim` reset, its qvel drawn sigma nd(gen) per dof, then
// steps(gen) calls of mj_step; `out` reset and given sim's qpos, qvel and qacc_warmstart.
void FreeRunState(const mjModel* m, mjData* sim, mjData* out, std::mt19937_64& gen,
                  std::normal_distribution<double>& nd, double sigma,
                  std::uniform_int_distribution<int>& steps);

// Both sides' contacts, one per line (index, geoms, distance), for a failure message.
std::string ContactList(const Data& d, const mjData* md);

}  // namespace gauss::test

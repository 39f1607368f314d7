// The simulation state and workspace of one model instance.
//
// Every array is sized once, when the Data is made from a Model (Engine::MakeData); a time step
// writes into them and takes temporaries from `arena`, never from the heap. One Data per thread;
// the Model and the Engine are shared read-only.
#pragma once

#include <array>
#include <vector>

#include "gauss/arena.h"
#include "gauss/types.h"

namespace gauss {

struct Data {
  // ---------------------------------------------------------------- integration state
  double time = 0;
  std::vector<double> qpos;            // (nq)
  std::vector<double> qvel;            // (nv)
  std::vector<double> act;             // (na)
  std::vector<double> qacc_warmstart;  // (nv) warmstart for the constraint solver

  // ---------------------------------------------------------------- user inputs
  std::vector<double> ctrl;            // (nu)
  std::vector<double> qfrc_applied;    // (nv) generalized forces
  std::vector<double> xfrc_applied;    // (nbody x 6) force (3), torque (3) at each body's com
  std::vector<double> mocap_pos;       // (nmocap x 3)
  std::vector<double> mocap_quat;      // (nmocap x 4)
  std::vector<unsigned char> eq_active;  // (neq)

  // ---------------------------------------------------------------- outputs of forward dynamics
  std::vector<double> qacc;            // (nv)
  std::vector<double> act_dot;         // (na)
  std::vector<double> sensordata;      // (nsensordata)

  // ---------------------------------------------------------------- position stage
  std::vector<double> xpos;            // (nbody x 3) body frame position
  std::vector<double> xquat;           // (nbody x 4) body frame orientation
  std::vector<double> xmat;            // (nbody x 9) body frame orientation, row-major
  std::vector<double> xipos;           // (nbody x 3) body com position
  std::vector<double> ximat;           // (nbody x 9) body principal inertia axes
  std::vector<double> xanchor;         // (njnt x 3) joint anchor in world
  std::vector<double> xaxis;           // (njnt x 3) joint axis in world
  std::vector<double> geom_xpos;       // (ngeom x 3)
  std::vector<double> geom_xmat;       // (ngeom x 9)
  std::vector<double> site_xpos;       // (nsite x 3)
  std::vector<double> site_xmat;       // (nsite x 9)
  std::vector<double> subtree_com;     // (nbody x 3) center of mass of each subtree
  std::vector<double> cdof;            // (nv x 6) dof motion axes [rot, lin], com-based
  std::vector<double> cinert;          // (nbody x 10) body inertia, com-based (see inertia.h)
  std::vector<double> crb;             // (nbody x 10) composite rigid-body inertia
  std::vector<double> qM;              // (nM) joint-space inertia, tree-sparse
  std::vector<double> qLD;             // (nM) L'DL factor of qM (L stored off-diagonal)
  std::vector<double> qLDiagInv;       // (nv) 1/D
  std::vector<double> qLDiagSqrtInv;   // (nv) 1/sqrt(D)
  std::vector<double> ten_length;      // (ntendon) tendon lengths
  std::vector<double> ten_J;           // (ntendon x nv) tendon Jacobians (moment arms)

  // ---------------------------------------------------------------- velocity stage
  std::vector<double> cvel;            // (nbody x 6) com-based body velocity [rot, lin]
  std::vector<double> cdof_dot;        // (nv x 6) time derivative of cdof
  std::vector<double> qfrc_bias;       // (nv) Coriolis, centrifugal and gravity forces
  std::vector<double> qfrc_passive;    // (nv) springs, dampers, fluid
  std::vector<double> ten_velocity;    // (ntendon)

  // ---------------------------------------------------------------- actuation and acceleration
  std::vector<double> actuator_length;    // (nu)
  std::vector<double> actuator_velocity;  // (nu)
  std::vector<double> actuator_moment;    // (nu x nv) moment arms
  std::vector<double> actuator_force;     // (nu)
  std::vector<double> qfrc_actuator;      // (nv)
  std::vector<double> qfrc_smooth;        // (nv) passive - bias + applied + actuator
  std::vector<double> qacc_smooth;        // (nv) M^-1 qfrc_smooth
  std::vector<double> qfrc_constraint;    // (nv) J' f
  std::vector<double> qfrc_inverse;       // (nv) output of inverse dynamics
  std::vector<double> cacc;               // (nbody x 6) com-based acceleration
  std::vector<double> cfrc_int;           // (nbody x 6) interaction force with the parent
  std::vector<double> cfrc_ext;           // (nbody x 6) external force

  // ---------------------------------------------------------------- diagnostics
  std::array<double, 2> energy{0, 0};  // potential, kinetic (when kEnableEnergy is set)
  std::array<int, kNumWarnings> warning_count{};  // times each Warning was raised
  std::array<int, kNumWarnings> warning_index{};  // last index (dof, etc.) involved
  int solver_iter = 0;                 // constraint solver iterations of the last forward
  int ncon = 0;                        // number of contacts
  int nefc = 0;                        // number of scalar constraint rows

  // ---------------------------------------------------------------- scratch memory
  Arena arena;
};

}  // namespace gauss

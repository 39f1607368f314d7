// The simulation state and workspace of one model instance.
//
// Every array is sized once, when the Data is made from a Model (Engine::MakeData); a time step
// writes into them and takes temporaries from `arena`, never from the heap. One Data per thread;
// the Model and the Engine are shared read-only.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gauss/arena.h"
#include "gauss/constraint.h"
#include "gauss/contact.h"
#include "gauss/profile.h"
#include "gauss/types.h"

namespace gauss {

// The value ResetData gives Data::sensor_noise_state.
inline constexpr std::uint64_t kSensorNoiseSeed = 0x5EED5EED5EED5EEDull;

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
  std::vector<double> cam_xpos;        // (ncam x 3) camera position (CameraPoses, camera.cc)
  std::vector<double> cam_xmat;        // (ncam x 9) camera orientation, row-major
  std::vector<double> subtree_com;     // (nbody x 3) center of mass of each subtree
  std::vector<double> cdof;            // (nv x 6) dof motion axes [rot, lin], com-based
  std::vector<double> cinert;          // (nbody x 10) body inertia, com-based (see inertia.h)
  std::vector<double> crb;             // (nbody x 10) composite rigid-body inertia
  std::vector<double> qM;              // (nM) joint-space inertia, tree-sparse
  std::vector<double> qLD;             // (nM) L'DL factor of qM (L stored off-diagonal)
  std::vector<double> qLDiagInv;       // (nv) 1/D
  std::vector<double> qLDiagSqrtInv;   // (nv) 1/sqrt(D)
  // The euler integrator's factor of qM + h diag(dof_damping) (implicit joint damping), kept so
  // that a step whose positions did not change (a finite-difference column perturbing only
  // controls or velocities) reuses it instead of factoring again.
  std::vector<double> qLD_damped;        // (nM) its L'DL factor, qLD's layout
  std::vector<double> qLDiagInv_damped;  // (nv) its 1/D
  int qLD_damped_current = 0;  // 1: qLD_damped factors the present qM (CompositeInertia,
                               // which writes qM, sets 0; the euler integrator sets 1)
  std::vector<double> ten_length;      // (ntendon) tendon lengths
  std::vector<double> ten_J;           // (ntendon x nv) tendon Jacobians (moment arms)

  std::vector<Contact> contact;        // (nconmax) contacts found by collision detection; the
                                       // first `ncon` are valid

  // ---------------------------------------------------------------- constraints (njmax rows)
  // Rows ordered equality, friction loss, limit, contact; the first `nefc` are valid.
  std::vector<ConstraintType> efc_type;  // (njmax) kind of each row
  std::vector<int> efc_id;             // (njmax) equality / dof / tendon / joint / contact id
  std::vector<double> efc_J;           // Jacobian: dense (njmax x nv, row-major), or the values
                                       // of the sparse rows (see efc_J_rowadr) when sparse
  std::vector<int> efc_J_rownnz;       // (njmax) sparse: nonzeros of each row
  std::vector<int> efc_J_rowadr;       // (njmax) sparse: first value of each row in efc_J
  std::vector<int> efc_J_colind;       // sparse: column of each value (increasing in a row)
  // Dense J only (empty when sparse): the columns each row was built over, increasing; row i
  // of efc_J is zero outside columns efc_J_dense_colind[efc_J_dense_rowadr[i] .. +
  // efc_J_dense_rownnz[i]) (ConstraintProblem::J_dense_colind: products skip the zeros)
  std::vector<int> efc_J_dense_rownnz;  // (njmax)
  std::vector<int> efc_J_dense_rowadr;  // (njmax)
  std::vector<int> efc_J_dense_colind;  // (njmax x nv)
  std::vector<double> efc_pos;         // (njmax) residual r(q) (contact: distance)
  std::vector<double> efc_margin;      // (njmax) limit margin / contact includemargin
  std::vector<double> efc_frictionloss;  // (njmax) friction-loss bound, 0 for other rows
  std::vector<double> efc_diagApprox;  // (njmax) approximate diagonal of J M^-1 J'
  std::vector<double> efc_KBIP;        // (njmax x 4) stiffness, damping, impedance, d imp/d r
  std::vector<double> efc_R;           // (njmax) regularizer
  std::vector<double> efc_D;           // (njmax) 1/R
  std::vector<double> efc_vel;         // (njmax) J qvel
  std::vector<double> efc_aref;        // (njmax) reference acceleration -b J v - k imp (r - margin)
  std::vector<double> efc_force;       // (njmax) constraint force
  std::vector<int> efc_state;          // (njmax) a ConstraintState value at the solution
  // The id of the present qM and rows (ConstraintProblem::matrices_id): a new one, unique in
  // the process, whenever CompositeInertia or MakeConstraints writes them, so a solver reuses
  // what it kept in `solver_memory` (ConstraintSolver::MemoryDoubles; empty: keep nothing)
  // only for the same matrices. A copy of a Data copies both.
  std::uint64_t matrices_id = 0;
  std::vector<double> solver_memory;

  // ---------------------------------------------------------------- velocity stage
  std::vector<double> cvel;            // (nbody x 6) com-based body velocity [rot, lin]
  std::vector<double> cdof_dot;        // (nv x 6) time derivative of cdof
  std::vector<double> qfrc_bias;       // (nv) Coriolis, centrifugal and gravity forces
  std::vector<double> qfrc_passive;    // (nv) springs, dampers, fluid
  std::vector<double> qfrc_gravcomp;   // (nv) MuJoCo 3.x body gravcomp force, all joints
  std::vector<double> ten_velocity;    // (ntendon)

  // ---------------------------------------------------------------- actuation and acceleration
  std::vector<double> actuator_length;    // (nu)
  std::vector<double> actuator_velocity;  // (nu)
  std::vector<double> actuator_moment;    // (nu x nv) moment arms
  std::vector<int> actuator_moment_span;  // (nu x 2) columns [begin, end) of each row that may be
                                          // nonzero (the rest is zero)
  std::vector<double> actuator_force;     // (nu)
  std::vector<double> qfrc_actuator;      // (nv)
  std::vector<double> qfrc_smooth;        // (nv) passive - bias + applied + actuator
  std::vector<double> qacc_smooth;        // (nv) M^-1 qfrc_smooth
  std::vector<double> qfrc_constraint;    // (nv) J' f
  std::vector<double> qfrc_inverse;       // (nv) output of inverse dynamics
  std::vector<double> cacc;               // (nbody x 6) com-based acceleration
  std::vector<double> cfrc_int;           // (nbody x 6) interaction force with the parent
  std::vector<double> cfrc_ext;           // (nbody x 6) external force

  // ---------------------------------------------------------------- sensor support (on demand)
  // Written by SubtreeVelocity (gauss/sensor_support.h) when a sensor needs them.
  std::vector<double> subtree_linvel;     // (nbody x 3) linear velocity of each subtree's com
  std::vector<double> subtree_angmom;     // (nbody x 3) angular momentum about each subtree's com
  // State of the sensor-noise generator (splitmix64; see core/src/sensors.cc). ResetData sets it
  // to kSensorNoiseSeed; assign another value after a reset to draw a different noise stream.
  std::uint64_t sensor_noise_state = 0;

  // ---------------------------------------------------------------- diagnostics
  std::array<double, 2> energy{0, 0};  // potential, kinetic (when kEnableEnergy is set)
  std::array<int, kNumWarnings> warning_count{};  // times each Warning was raised
  std::array<int, kNumWarnings> warning_index{};  // last index (dof, etc.) involved
  int solver_iter = 0;                 // constraint solver iterations of the last forward
                                       // (with islands: the largest island count)
  // statistics of each iteration: without islands the first solver_iter entries; with islands
  // (capacity opt.iterations * ntree) island k's island_iter[k] entries start at
  // k * opt.iterations. FinalSolverIteration (gauss/solver.h) combines the islands' last ones.
  std::vector<SolverIteration> solver_trace;
  std::array<double, 2> solver_fwdinv{0, 0};  // |qfrc_constraint|, |efc_force| difference
                                              // between forward and inverse (fwdinv flag)
  Profile profile;                     // stage timers, off unless profile.enabled (profile.h)
  int ne = 0;                          // number of equality rows
  int nf = 0;                          // number of friction-loss rows
  int ncon = 0;                        // number of contacts
  int nefc = 0;                        // number of scalar constraint rows

  // ---------------------------------------------------------------- constraint islands
  // Trees coupled by constraint rows (docs/islands.md); found every position stage when the
  // island or sleep flag is on (nisland stays 0 otherwise). Trees without rows belong to no
  // island (-1). Islands are numbered by their first tree. Capacities: ntree islands.
  int nisland = 0;
  std::vector<int> tree_island;        // (ntree) island of each tree, -1: none
  std::vector<int> dof_island;         // (nv) island of each dof, -1: none
  std::vector<int> efc_island;         // (njmax) island of each row, -1: none
  std::vector<int> island_ntree;       // (ntree) trees of each island
  std::vector<int> island_nv;          // (ntree) dofs of each island
  std::vector<int> island_nefc;        // (ntree) rows of each island
  std::vector<int> island_dofadr;      // (ntree) first entry of each island in island_dofind
  std::vector<int> island_dofind;      // (nv) dofs grouped by island, increasing in each
  std::vector<int> island_efcadr;      // (ntree) first entry of each island in island_efcind
  std::vector<int> island_efcind;      // (njmax) rows grouped by island, increasing in each
  std::vector<int> island_iter;        // (ntree) solver iterations of each island
  std::vector<Contact> island_contact; // (nconmax) scratch: one island's contacts, renumbered

  // ---------------------------------------------------------------- sleeping
  // tree_asleep < 0: awake, counting up from -(1 + kMinAwake) while the tree is at rest, -1:
  // ready to sleep; >= 0: asleep, the next tree of its sleeping island (a cycle).
  std::vector<int> tree_asleep;        // (ntree)
  std::vector<int> body_awake;         // (nbody) 1: its tree is awake, or a mocap body that moved
                                       // this step; 0: asleep or static
  int ntree_awake = 0;                 // trees awake (counted when sleep is on)
  std::vector<int> tree_frozen;        // (ntree) 1: asleep and evaluated once at rest (qvel = 0)
                                       // since: every stage skips it, its values stay
  std::vector<double> qpos_sleep;      // (nq) qpos of each sleeping tree as it fell asleep: a
                                       // user write that changes it wakes the tree

  // ---------------------------------------------------------------- scratch memory
  Arena arena;
};

}  // namespace gauss

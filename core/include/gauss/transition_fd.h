// Finite-difference Jacobians of one time step (the spec's mjd_transitionFD; "Forward dynamics"
// and "Multi-threading" in the Simulation chapter):
//
//   x' = step(x, u),  s = sensordata(x, u)      x = (dq, qvel, act), nx = 2 nv + na
//   A = dx'/dx (nx x nx)   B = dx'/du (nx x nu)   C = ds/dx (ns x nx)   D = ds/du (ns x nu)
//
// dq is the nv-dimensional position tangent: quaternions are perturbed by a rotation in their
// local frame (IntegratePosition) and differenced back (DifferentiatePosition). Every matrix is
// row-major.
//
//   gauss::TransitionFD fd(engine);                  // or TransitionFD(engine, &pool)
//   fd.Compute(data, {1e-6, /*centered=*/false}, A, B, C, D);
//
// How the differences stay clean and cheap:
// - every perturbed step starts from the nominal point's full integration state, and every
//   constraint solve from the same warmstart (the input's, or with newton the nominal step's
//   solution: TransitionFDOptions::warmstart), so the differences are not solver noise;
// - a control or activation perturbation reuses the nominal position and velocity stages, a
//   velocity perturbation reuses the position stage (Engine::StepSkip). This needs an integrator
//   that evaluates the dynamics once per step and leaves the stage results of the start state in
//   Data (euler, implicit, implicitfast); with any other integrator (rk4, third-party plugins)
//   every perturbation runs the full step, which gives the same Jacobians, only slower;
// - no heap allocation after construction: buffers and one Data per worker are made once;
// - with a ThreadPool the columns are spread over its workers, each with its own Data. A column's
//   result depends only on the nominal state, so the matrices are bit-identical to the serial
//   ones. The nominal step is itself one of the pool's tasks: while it runs, the other workers
//   already evaluate the position and velocity stages of their first column (which do not
//   depend on the nominal solution), then wait for it at a spinning flag.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/model.h"
#include "gauss/thread_pool.h"

namespace gauss {

// Where the constraint solver of every perturbed step starts (all of them from the same point,
// so that the differences are not solver noise).
enum class FDWarmstart {
  kAuto,     // kNominal with the newton solver, kInput with any other
  kInput,    // the input's qacc_warmstart, like the nominal step (MuJoCo's mjd_transitionFD)
  kNominal,  // the nominal step's last solution: a perturbed solve then needs about one Newton
             // iteration instead of two or three. Only for a solver that converges to its
             // minimizer whatever the start (newton); an iterative solver stopped after a fixed
             // number of sweeps (pgs, cg) gives a different, start-dependent answer
};

struct TransitionFDOptions {
  double eps = 1e-6;      // perturbation size (position tangent, qvel, act, ctrl alike)
  bool centered = false;  // central differences (2 steps per column) instead of forward ones
  FDWarmstart warmstart = FDWarmstart::kAuto;
};

class TransitionFD {
 public:
  // Sizes every buffer for `engine` (one Data per worker of `pool`; serial when pool is null).
  // The engine and the pool must outlive this object.
  explicit TransitionFD(const Engine& engine, ThreadPool* pool = nullptr);

  int nx() const { return nx_; }
  int nu() const { return nu_; }
  int ns() const { return ns_; }

  // (d's integration state: time, qpos, qvel, act, ctrl, applied forces, mocap, warmstart) =>
  // A (nx*nx), B (nx*nu), C (ns*nx), D (ns*nu), row-major; any of them may be null (C and D both
  // null: sensors are skipped). `d` itself is only read. Also records the nominal step's result
  // (next_state(), sensordata()).
  void Compute(const Data& d, const TransitionFDOptions& options, double* A, double* B,
               double* C, double* D);

  // The nominal step of the last Compute: (qpos, qvel, act) after it (nq + nv + na) and the
  // sensordata at the start state (empty when sensors were skipped).
  const std::vector<double>& next_state() const { return next_; }
  const std::vector<double>& sensordata() const { return sensor_; }

  // Whether perturbed steps reuse the nominal stages with this engine's integrator.
  bool reuses_stages() const { return reuse_stages_; }

 private:
  static constexpr int kStagedNone = 0, kStagedPosition = 1, kStagedVelocity = 2;
  struct Worker {
    Data data;
    std::vector<double> plus, minus;          // next states (nq + nv + na)
    std::vector<double> sens_plus, sens_minus;  // sensordata (ns)
    std::vector<double> unit;                 // a unit tangent vector (nv)
    std::vector<double> tangent;              // DifferentiatePosition's output (nv)
    // which of the nominal point's stages data holds: kStagedNone, kStagedPosition (the
    // position stage), kStagedVelocity (position and velocity stages)
    int staged = kStagedNone;
    bool prepared = false;  // data holds the stages of a perturbed position (PrepareColumn)
  };
  // Which input a column perturbs.
  enum class Input { kCtrl, kAct, kQvel, kQpos };

  // The nominal step in `w` (which is then staged): next_, sensor_, warmstart_.
  void NominalStep(Worker& w, const double* input_warmstart);
  // Every column (ncolumn_ctrl_ control columns, then ncolumn_state_ state columns) serially,
  // after the nominal step; each writes one column of A or B (and of C or D).
  void RunColumnsSerial(const double* input_warmstart);
  // The same over the pool: task 0 runs the nominal step, then takes columns from the front of
  // that order; every other task takes them from the back (RunTask).
  void RunColumnsPooled(const double* input_warmstart);
  void RunTask(int task, const double* input_warmstart);
  // Claims the next column from the front (front = true) or the back; -1 when none is left.
  int ClaimColumn(bool front);
  // What column number `column` perturbs.
  void ColumnInput(int column, Input* input, int* index) const;
  // Column number `column`; `input`, `index`: what it perturbs.
  void Column(Worker& w, int column, Input input, int index);
  // Before the nominal solution is known: the stages of `column` that do not need it (a
  // position column's perturbed position and velocity stages, or the nominal stages).
  void PrepareColumn(Worker& w, Input input, int index);
  // Waits (spinning) until task 0 has published the nominal step; false if it failed.
  bool WaitForNominal() const;
  // The pooled pass's `count` contiguous columns (columns_) into A..D.
  void PlaceColumns(int count);
  // One perturbed step from the nominal state: input `index` moved by `delta`; the next state
  // into `next`, the sensordata into `sens`.
  void PerturbedStep(Worker& w, Input input, int index, double delta, double* next, double* sens);
  // d_state (nx entries, `stride` apart) = (b - a) / h for next states a, b (nq + nv + na), in
  // the position tangent space; `tangent` is nv scratch.
  void StateDifference(const double* a, const double* b, double h, double* tangent,
                       double* d_state, int stride) const;

  const Engine& engine_;
  const Model& m_;
  ThreadPool* pool_;
  int nx_, nu_, ns_;
  bool reuse_stages_;
  std::vector<Worker> workers_;
  std::vector<double> nominal_;  // the input integration state
  std::vector<double> nominal_ctrl_;  // its controls (nu)
  std::vector<double> warmstart_;  // the perturbed steps' qacc_warmstart (nv)
  std::uint64_t noise_state_ = 0;  // the input's sensor-noise generator state
  std::vector<double> next_, sensor_;
  // With the pool, each column is written contiguously here ((nx + ns) per column, in the
  // columns' order) and copied into A..D after the pass: written in place, two threads' columns
  // would share every cache line of the row-major matrices.
  std::vector<double> columns_;
  TransitionFDOptions options_;
  bool skip_sensors_ = false;
  int ncolumn_ctrl_ = 0, ncolumn_state_ = 0;
  // The pooled pass's hand-out: `taken_` counts claimed columns (a claim is valid while it is
  // below the count), `front_` / `back_` the next column from either end.
  std::atomic<int> taken_{0}, front_{0}, back_{0};
  std::atomic<int> nominal_ready_{0};  // 0 running, 1 published, -1 failed
  double* A_ = nullptr;
  double* B_ = nullptr;
  double* C_ = nullptr;
  double* D_ = nullptr;
};

// qvel (nv) = the velocity that IntegratePosition turns qpos1 into qpos2 with in time h:
// differences for hinge and slide joints and free-joint positions, the rotation qpos1^-1 qpos2
// (in qpos1's frame) for quaternions.
void DifferentiatePosition(const Model& m, double* qvel, double h, const double* qpos1,
                           const double* qpos2);

// Whether integrator `name` evaluates the dynamics once, at the start state, and leaves that
// evaluation's position and velocity stages in Data (euler, implicit, implicitfast): only then
// may perturbed steps reuse the stages (TransitionFD, TransitionImplicit).
bool SingleEvaluationIntegrator(const std::string& name);

}  // namespace gauss

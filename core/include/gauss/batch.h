// Many simulations at once on a persistent ThreadPool: batch rollouts and batches of forward and
// inverse dynamics. One shared, read-only Engine; one Data per pool worker, made once on that
// worker's thread and reused by every call (the spec's "Multi-threading": parallel over samples,
// never inside a step).
//
//   gauss::ThreadPool pool(4);
//   gauss::Batch batch(engine, pool);
//   gauss::RolloutRequest r;
//   r.nroll = 64; r.nstep = 500;
//   r.initial_state = states.data();             // 64 x StateSize(m, kStateIntegration)
//   r.control = controls.data();                 // 64 x 500 x nu
//   r.state = out.data();                        // 64 x 500 x StateSize(m, r.output_bits)
//   batch.Rollout(r);
//
// Determinism: rollout i is Reset + SetState(initial_state i) + nstep x (controls, Step) on
// whichever worker's Data, and nothing else of that Data is read, so the outputs are
// bit-identical to the same loop run serially, whatever the thread count and scheduling.
// A step allocates nothing: the outputs go to caller-provided buffers.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/state.h"
#include "gauss/thread_pool.h"

namespace gauss {

// Diagnostics of one step of a rollout.
struct StepStats {
  int ncon = 0;           // contacts found
  int nefc = 0;           // constraint rows
  int solver_iter = 0;    // constraint solver iterations
  double solver_cost = 0;      // cost and scaled gradient at the solver's last iteration
  double solver_gradient = 0;  //   (0 when the step had no constraint rows)
  int warnings = 0;       // warnings raised during this step (all kinds)
  unsigned warning_bits = 0;  // bit w set when Warning w was raised during this step
};

// Sets d.ctrl (and qfrc_applied, xfrc_applied, ...) before step `step` of rollout `rollout`,
// from the state in `d` (the Data of the worker running it). Called from pool threads, several
// at once: it must only read shared data, or write per-rollout data.
using RolloutControl = std::function<void(int rollout, int step, const Model& m, Data& d)>;

// One batch of rollouts. Inputs are row-major arrays the caller owns; any output may be null.
struct RolloutRequest {
  int nroll = 0;
  int nstep = 0;
  // nroll x StateSize(m, initial_bits): the state each rollout starts from. Components not in
  // initial_bits keep the values Reset gives them.
  const double* initial_state = nullptr;
  unsigned initial_bits = kStateIntegration;
  // nroll x nstep x nu: d.ctrl before each step. Null: the controls of the initial state are
  // held (unless control_fn sets them). control_fn, when set, is called after `control` is
  // applied.
  const double* control = nullptr;
  RolloutControl control_fn;
  // nroll x nstep x StateSize(m, output_bits): the state after each step.
  double* state = nullptr;
  unsigned output_bits = kStateFullPhysics;
  // nroll x nstep x nsensordata: the sensors the step computed (at the state it started from).
  double* sensordata = nullptr;
  // nroll x nstep.
  StepStats* stats = nullptr;
};

class Batch {
 public:
  // Binds `engine` and `pool` (both must outlive the Batch) and makes one Data per pool worker,
  // each on its own worker thread (its memory comes from that thread's allocator arena and sits
  // apart from the other workers' Data: no false sharing between workers).
  Batch(const Engine& engine, ThreadPool& pool);
  ~Batch();
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  const Engine& engine() const { return engine_; }
  int workers() const { return static_cast<int>(slots_.size()); }

  // Runs the request's rollouts on the pool. Throws gauss::Error for a malformed request (no
  // initial state, negative sizes). An exception thrown by control_fn is rethrown here.
  void Rollout(const RolloutRequest& request);

  // Forward dynamics of n states (n x StateSize(m, bits), each after Reset): qacc (n x nv) and,
  // when not null, sensordata (n x nsensordata).
  void Forward(int n, unsigned bits, const double* state, double* qacc, double* sensordata);

  // Inverse dynamics of n (state, qacc) pairs: qfrc_inverse (n x nv).
  void Inverse(int n, unsigned bits, const double* state, const double* qacc,
               double* qfrc_inverse);

  // The general form: fn(d, i) for i in [0, n), d the Data of the worker running index i (not
  // reset: fn starts with Engine::Reset when it needs a clean state). fn must write only
  // per-index outputs.
  void ForEach(int n, const std::function<void(Data& d, int i)>& fn);

 private:
  struct Slot;
  const Engine& engine_;
  ThreadPool& pool_;
  std::vector<std::unique_ptr<Slot>> slots_;  // one per pool worker
};

// Runs fn(worker) exactly once on each worker of `pool` (worker 0 on the calling thread), all
// at the same time: used to make per-worker data on the thread that will use it.
void RunOnEachWorker(ThreadPool& pool, const std::function<void(int worker)>& fn);

}  // namespace gauss

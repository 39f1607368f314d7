// Batch rollouts and batches of forward/inverse dynamics on a ThreadPool (gauss/batch.h).
//
// What keeps the workers from serializing each other: the Engine and Model are only read; each
// worker owns one Slot (its Data), made on the worker's own thread so that glibc serves it from
// that thread's arena, and aligned to a cache line so that no two workers write the same line;
// every output index is written by exactly one worker; a step allocates nothing, so there is no
// allocator lock to contend for. The pool's mutex is taken once per rollout (index hand-out).
#include "gauss/batch.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "gauss/error.h"

namespace gauss {

// 64 bytes: the cache line of x86-64 and most ARM cores.
struct alignas(64) Batch::Slot {
  explicit Slot(const Engine& engine) : data(engine.MakeData()) {}
  Data data;
};

void RunOnEachWorker(ThreadPool& pool, const std::function<void(int)>& fn) {
  const int n = pool.size();
  // Each index waits until all n indices are taken before doing its work. A worker holds one
  // index at a time, so n indices held at once are held by n different workers.
  std::atomic<int> arrived{0};
  pool.ParallelFor(n, [&](int worker, int) {
    arrived.fetch_add(1);
    while (arrived.load() < n) std::this_thread::yield();
    fn(worker);
  });
}

Batch::Batch(const Engine& engine, ThreadPool& pool) : engine_(engine), pool_(pool) {
  slots_.resize(pool.size());
  RunOnEachWorker(pool, [this](int worker) { slots_[worker] = std::make_unique<Slot>(engine_); });
}

Batch::~Batch() = default;

void Batch::ForEach(int n, const std::function<void(Data&, int)>& fn) {
  pool_.ParallelFor(n, [&](int worker, int i) { fn(slots_[worker]->data, i); });
}

namespace {

// (d before and after a step) => the step's statistics.
void RecordStats(const Model& m, const Data& d,
                 const std::array<int, kNumWarnings>& warnings_before, StepStats& s) {
  s.ncon = d.ncon;
  s.nefc = d.nefc;
  s.solver_iter = d.solver_iter;
  const SolverIteration last = FinalSolverIteration(m, d);  // over islands (engine.h)
  const bool solved = d.nefc > 0 && d.solver_iter > 0;
  s.solver_cost = solved ? last.cost : 0;
  s.solver_gradient = solved ? last.gradient : 0;
  s.warnings = 0;
  s.warning_bits = 0;
  for (int w = 0; w < kNumWarnings; ++w) {
    const int raised = d.warning_count[w] - warnings_before[w];
    s.warnings += raised;
    if (raised > 0) s.warning_bits |= 1u << w;
  }
}

void CheckSizes(int n, const char* what, const void* required, const char* name) {
  if (n < 0) throw Error(std::string("Batch: ") + what + " must be >= 0");
  if (n > 0 && required == nullptr) throw Error(std::string("Batch: ") + name + " is null");
}

}  // namespace

void Batch::Rollout(const RolloutRequest& r) {
  CheckSizes(r.nroll, "nroll", r.initial_state, "initial_state");
  if (r.nstep < 0) throw Error("Batch: nstep must be >= 0");
  const Model& m = engine_.model();
  const int nin = StateSize(m, r.initial_bits);
  const int nout = StateSize(m, r.output_bits);
  const long nstep = r.nstep;
  ForEach(r.nroll, [&](Data& d, int roll) {
    engine_.Reset(d);
    SetState(m, d, r.initial_bits, r.initial_state + static_cast<long>(roll) * nin);
    const long first = roll * nstep;  // row of step 0 of this rollout in the outputs
    for (long t = 0; t < nstep; ++t) {
      const long row = first + t;
      if (r.control) std::copy_n(r.control + row * m.nu, m.nu, d.ctrl.data());
      if (r.control_fn) r.control_fn(roll, static_cast<int>(t), m, d);
      const std::array<int, kNumWarnings> warnings_before = d.warning_count;
      engine_.Step(d);
      if (r.state) GetState(m, d, r.output_bits, r.state + row * nout);
      if (r.sensordata) {
        std::copy(d.sensordata.begin(), d.sensordata.end(), r.sensordata + row * m.nsensordata);
      }
      if (r.stats) RecordStats(m, d, warnings_before, r.stats[row]);
    }
  });
}

void Batch::Forward(int n, unsigned bits, const double* state, double* qacc,
                    double* sensordata) {
  CheckSizes(n, "n", state, "state");
  const Model& m = engine_.model();
  const int nin = StateSize(m, bits);
  ForEach(n, [&](Data& d, int i) {
    engine_.Reset(d);
    SetState(m, d, bits, state + static_cast<long>(i) * nin);
    engine_.Forward(d);
    if (qacc) std::copy(d.qacc.begin(), d.qacc.end(), qacc + static_cast<long>(i) * m.nv);
    if (sensordata) {
      std::copy(d.sensordata.begin(), d.sensordata.end(),
                sensordata + static_cast<long>(i) * m.nsensordata);
    }
  });
}

void Batch::Inverse(int n, unsigned bits, const double* state, const double* qacc,
                    double* qfrc_inverse) {
  CheckSizes(n, "n", state, "state");
  CheckSizes(n, "n", qacc, "qacc");
  const Model& m = engine_.model();
  const int nin = StateSize(m, bits);
  ForEach(n, [&](Data& d, int i) {
    engine_.Reset(d);
    SetState(m, d, bits, state + static_cast<long>(i) * nin);
    std::copy_n(qacc + static_cast<long>(i) * m.nv, m.nv, d.qacc.data());
    engine_.Inverse(d);
    if (qfrc_inverse) {
      std::copy(d.qfrc_inverse.begin(), d.qfrc_inverse.end(),
                qfrc_inverse + static_cast<long>(i) * m.nv);
    }
  });
}

}  // namespace gauss

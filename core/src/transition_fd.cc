// Finite-difference transition Jacobians (gauss/transition_fd.h).
//
// The serial pass runs the columns in the order controls and activations (reuse position and
// velocity stages), velocities (reuse the position stage), positions (full steps), so the
// stages a column skips are still valid in its Data. A worker whose Data does not hold the
// nominal point's position and velocity stages (not yet evaluated in this Compute, or
// overwritten by a position column) evaluates them before its next column that reuses them
// ("staging").
#include "gauss/transition_fd.h"

#include <algorithm>
#include <thread>

#include "cpu_relax.h"
#include "gauss/integrate.h"
#include "gauss/math.h"
#include "gauss/state.h"

namespace gauss {
namespace {

constexpr unsigned kInputState = kStateIntegration;

}  // namespace

bool SingleEvaluationIntegrator(const std::string& name) {
  return name == "euler" || name == "implicit" || name == "implicitfast";
}

void DifferentiatePosition(const Model& m, double* qvel, double h, const double* qpos1,
                           const double* qpos2) {
  const double inv_h = 1.0 / h;
  for (int j = 0; j < m.njnt; ++j) {
    const int qa = m.jnt_qposadr[j];
    double* v = qvel + m.jnt_dofadr[j];
    switch (m.jnt_type[j]) {
      case JointType::kFree:
        for (int c = 0; c < 3; ++c) v[c] = inv_h * (qpos2[qa + c] - qpos1[qa + c]);
        math::SubQuat(v + 3, qpos2 + qa + 3, qpos1 + qa + 3);
        for (int c = 3; c < 6; ++c) v[c] *= inv_h;
        break;
      case JointType::kBall:
        math::SubQuat(v, qpos2 + qa, qpos1 + qa);
        for (int c = 0; c < 3; ++c) v[c] *= inv_h;
        break;
      case JointType::kSlide:
      case JointType::kHinge:
        v[0] = inv_h * (qpos2[qa] - qpos1[qa]);
        break;
    }
  }
}

TransitionFD::TransitionFD(const Engine& engine, ThreadPool* pool)
    : engine_(engine),
      m_(engine.model()),
      pool_(pool),
      nx_(2 * engine.model().nv + engine.model().na),
      nu_(engine.model().nu),
      ns_(engine.model().nsensordata),
      reuse_stages_(SingleEvaluationIntegrator(engine.options().integrator)) {
  const int nstate = m_.nq + m_.nv + m_.na;
  const int nworkers = pool_ ? pool_->size() : 1;
  workers_.reserve(nworkers);
  for (int w = 0; w < nworkers; ++w) {
    Worker worker{engine.MakeData(), std::vector<double>(nstate), std::vector<double>(nstate),
                  std::vector<double>(ns_), std::vector<double>(ns_),
                  std::vector<double>(m_.nv, 0.0), std::vector<double>(m_.nv), kStagedNone, false};
    workers_.push_back(std::move(worker));
  }
  nominal_.resize(StateSize(m_, kInputState));
  nominal_ctrl_.resize(nu_);
  warmstart_.resize(m_.nv);
  next_.resize(nstate);
  sensor_.resize(ns_);
  if (nworkers > 1) columns_.resize(static_cast<size_t>(nu_ + nx_) * (nx_ + ns_));
}

void TransitionFD::Compute(const Data& d, const TransitionFDOptions& options, double* A,
                           double* B, double* C, double* D) {
  options_ = options;
  A_ = A;
  B_ = B;
  C_ = C;
  D_ = D;
  skip_sensors_ = (C == nullptr && D == nullptr);
  GetState(m_, d, kInputState, nominal_.data());
  std::copy(d.ctrl.begin(), d.ctrl.end(), nominal_ctrl_.begin());
  noise_state_ = d.sensor_noise_state;
  for (Worker& w : workers_) {
    w.staged = kStagedNone;
    w.prepared = false;
  }
  // the columns in the order controls, activations, velocities, positions (see RunColumnsSerial)
  ncolumn_ctrl_ = (B_ || D_) ? nu_ : 0;
  ncolumn_state_ = (A_ || C_) ? nx_ : 0;
  if (columns_.empty() || ncolumn_ctrl_ + ncolumn_state_ == 0) {
    RunColumnsSerial(d.qacc_warmstart.data());
  } else {
    RunColumnsPooled(d.qacc_warmstart.data());
  }
}

void TransitionFD::NominalStep(Worker& w, const double* input_warmstart) {
  SetState(m_, w.data, kInputState, nominal_.data());
  w.data.sensor_noise_state = noise_state_;
  engine_.StepSkip(w.data, Stage::kNone, skip_sensors_);
  GetState(m_, w.data, kStatePhysics, next_.data());
  const bool nominal_warmstart =
      options_.warmstart == FDWarmstart::kNominal ||
      (options_.warmstart == FDWarmstart::kAuto && m_.opt.solver == "newton");
  const double* warmstart = nominal_warmstart ? w.data.qacc.data() : input_warmstart;
  std::copy_n(warmstart, m_.nv, warmstart_.begin());
  if (skip_sensors_) {
    sensor_.clear();
  } else {
    sensor_.assign(w.data.sensordata.begin(), w.data.sensordata.end());
  }
  w.staged = kStagedVelocity;
}

void TransitionFD::ColumnInput(int column, Input* input, int* index) const {
  int i = column;
  if (i < ncolumn_ctrl_) {
    *input = Input::kCtrl;
  } else if ((i -= ncolumn_ctrl_) < m_.na) {
    *input = Input::kAct;
  } else if ((i -= m_.na) < m_.nv) {
    *input = Input::kQvel;
  } else {
    *input = Input::kQpos;
    i -= m_.nv;
  }
  *index = i;
}

void TransitionFD::RunColumnsSerial(const double* input_warmstart) {
  Worker& w = workers_[0];
  NominalStep(w, input_warmstart);
  // One pass in the order controls, activations, velocities, positions: each kind only
  // overwrites stages that no later kind reuses.
  for (int column = 0; column < ncolumn_ctrl_ + ncolumn_state_; ++column) {
    Input input;
    int index;
    ColumnInput(column, &input, &index);
    Column(w, column, input, index);
  }
}

// Task 0 (the nominal step, then columns from the front: controls first, reusing the nominal
// stages) and tasks 1.. (columns from the back: positions first, full steps that need no
// staging). Both ends meet wherever the work balances; a task crossing from position columns to
// the others stages the nominal point again (Column). Each task has its own Data, whichever
// thread runs it, and every column one slot of columns_, so the result does not depend on the
// split.
void TransitionFD::RunColumnsPooled(const double* input_warmstart) {
  const int count = ncolumn_ctrl_ + ncolumn_state_;
  taken_.store(0, std::memory_order_relaxed);
  front_.store(0, std::memory_order_relaxed);
  back_.store(count, std::memory_order_relaxed);
  nominal_ready_.store(0, std::memory_order_relaxed);
  pool_->ParallelFor(static_cast<int>(workers_.size()),
                     [this, input_warmstart](int, int task) { RunTask(task, input_warmstart); });
  PlaceColumns(count);
}

void TransitionFD::RunTask(int task, const double* input_warmstart) {
  Worker& w = workers_[task];
  const bool front = task == 0;
  if (front) {
    try {
      NominalStep(w, input_warmstart);
    } catch (...) {
      nominal_ready_.store(-1, std::memory_order_release);
      throw;
    }
    nominal_ready_.store(1, std::memory_order_release);
  }
  int column = ClaimColumn(front);
  if (column < 0) return;
  Input input;
  int index;
  ColumnInput(column, &input, &index);
  if (!front) {
    // the stages that do not need the nominal solution, while task 0 computes it
    PrepareColumn(w, input, index);
    if (!WaitForNominal()) return;
  }
  for (;;) {
    Column(w, column, input, index);
    if ((column = ClaimColumn(front)) < 0) return;
    ColumnInput(column, &input, &index);
  }
}

int TransitionFD::ClaimColumn(bool front) {
  const int count = ncolumn_ctrl_ + ncolumn_state_;
  // a ticket below `count` guarantees one unclaimed column: the front claims take the lowest,
  // the back claims the highest, and together they are at most `count`
  if (taken_.fetch_add(1, std::memory_order_relaxed) >= count) return -1;
  return front ? front_.fetch_add(1, std::memory_order_relaxed)
               : back_.fetch_sub(1, std::memory_order_relaxed) - 1;
}

bool TransitionFD::WaitForNominal() const {
  for (int k = 1;; ++k) {
    const int state = nominal_ready_.load(std::memory_order_acquire);
    if (state != 0) return state > 0;
    CpuRelax();
    if (k % 1024 == 0) std::this_thread::yield();  // task 0's thread may have lost its core
  }
}

void TransitionFD::PrepareColumn(Worker& w, Input input, int index) {
  if (!reuse_stages_) return;  // every perturbation runs the full step
  if (input != Input::kQpos) {
    Column(w, -1, input, index);  // stages only (see Column)
    return;
  }
  Data& d = w.data;
  SetState(m_, d, kInputState, nominal_.data());
  w.unit[index] = 1;
  IntegratePosition(m_, d.qpos.data(), w.unit.data(), options_.eps);
  w.unit[index] = 0;
  d.sensor_noise_state = noise_state_;
  engine_.PositionVelocityStages(d, skip_sensors_);
  w.staged = kStagedNone;
  w.prepared = true;
}

void TransitionFD::PlaceColumns(int count) {
  // the contiguous columns into A..D (the same numbers: results equal the serial ones bit for bit)
  for (int column = 0; column < count; ++column) {
    const bool ctrl = column < ncolumn_ctrl_;
    // x's order is (position tangent, qvel, act); the state columns run act, qvel, positions
    int col = column - ncolumn_ctrl_;
    if (ctrl) {
      col = column;
    } else if (col < m_.na) {
      col += 2 * m_.nv;
    } else if (col < m_.na + m_.nv) {
      col += m_.nv - m_.na;
    } else {
      col -= m_.na + m_.nv;
    }
    const int stride = ctrl ? nu_ : nx_;
    double* jac_state = ctrl ? B_ : A_;
    double* jac_sensor = ctrl ? D_ : C_;
    const double* from = columns_.data() + static_cast<size_t>(column) * (nx_ + ns_);
    if (jac_state) {
      for (int i = 0; i < nx_; ++i) jac_state[i * stride + col] = from[i];
    }
    if (jac_sensor) {
      for (int i = 0; i < ns_; ++i) jac_sensor[i * stride + col] = from[nx_ + i];
    }
  }
}

void TransitionFD::Column(Worker& w, int column, Input input, int index) {
  // controls and activations reuse the nominal position and velocity stages, velocities the
  // position stage
  const int needed = input == Input::kQpos   ? kStagedNone
                     : input == Input::kQvel ? kStagedPosition
                                             : kStagedVelocity;
  if (reuse_stages_ && w.staged < needed) {
    SetState(m_, w.data, kInputState, nominal_.data());
    w.data.sensor_noise_state = noise_state_;
    engine_.PositionVelocityStages(w.data, skip_sensors_);
    w.staged = kStagedVelocity;
  }
  if (column < 0) return;  // PrepareColumn: the stages only
  // A control is nudged only within its range (beyond it, the clamp would flatten the
  // difference): forward if ctrl and ctrl + eps are in range, else backward; centered needs both.
  // A control outside its range gets a zero column.
  const double eps = options_.eps;
  bool forward = true, backward = options_.centered;
  if (input == Input::kCtrl && m_.actuator_ctrllimited[index]) {
    const double lo = m_.actuator_ctrlrange[2 * index], hi = m_.actuator_ctrlrange[2 * index + 1];
    const double u = nominal_ctrl_[index];
    auto in_range = [&](double a, double b) { return a >= lo && a <= hi && b >= lo && b <= hi; };
    forward = in_range(u, u + eps);
    backward = (options_.centered || !forward) && in_range(u - eps, u);
  }
  if (forward) PerturbedStep(w, input, index, eps, w.plus.data(), w.sens_plus.data());
  if (backward) PerturbedStep(w, input, index, -eps, w.minus.data(), w.sens_minus.data());
  // the difference (hi - lo) / h: forward (plus - nominal), backward (nominal - minus), centered
  const double* hi_state = forward ? w.plus.data() : next_.data();
  const double* lo_state = backward ? w.minus.data() : next_.data();
  const double* hi_sens = forward ? w.sens_plus.data() : sensor_.data();
  const double* lo_sens = backward ? w.sens_minus.data() : sensor_.data();
  const double h = (forward && backward) ? 2 * eps : eps;
  const bool none = !forward && !backward;

  // where the column goes: B/D for controls, A/C at the input's offset in x otherwise; with the
  // pool, its contiguous slot in columns_ (PlaceColumns copies it over)
  const bool ctrl = input == Input::kCtrl;
  int col = index;
  if (input == Input::kQvel) col = m_.nv + index;
  if (input == Input::kAct) col = 2 * m_.nv + index;
  double* jac_state = ctrl ? B_ : A_;
  double* jac_sensor = ctrl ? D_ : C_;
  int stride = ctrl ? nu_ : nx_;
  if (jac_state) jac_state += col;
  if (jac_sensor) jac_sensor += col;
  if (!columns_.empty()) {
    double* slot = columns_.data() + static_cast<size_t>(column) * (nx_ + ns_);
    jac_state = jac_state ? slot : nullptr;
    jac_sensor = jac_sensor ? slot + nx_ : nullptr;
    stride = 1;
  }
  if (jac_state) {
    if (none) {
      for (int i = 0; i < nx_; ++i) jac_state[i * stride] = 0;
    } else {
      StateDifference(lo_state, hi_state, h, w.tangent.data(), jac_state, stride);
    }
  }
  if (jac_sensor) {
    const double inv_h = none ? 0.0 : 1.0 / h;
    for (int i = 0; i < ns_; ++i) {
      jac_sensor[i * stride] = none ? 0.0 : inv_h * (hi_sens[i] - lo_sens[i]);
    }
  }
}

void TransitionFD::PerturbedStep(Worker& w, Input input, int index, double delta, double* next,
                                 double* sens) {
  Data& d = w.data;
  Stage skip = Stage::kNone;
  if (w.prepared) {
    // PrepareColumn ran this position perturbation's position and velocity stages
    w.prepared = false;
    skip = Stage::kVelocity;
  } else {
    SetState(m_, d, kInputState, nominal_.data());
    switch (input) {
      case Input::kCtrl:
        d.ctrl[index] += delta;
        skip = Stage::kVelocity;
        break;
      case Input::kAct:
        d.act[index] += delta;
        skip = Stage::kVelocity;
        break;
      case Input::kQvel:
        d.qvel[index] += delta;
        skip = Stage::kPosition;
        break;
      case Input::kQpos:
        w.unit[index] = 1;
        IntegratePosition(m_, d.qpos.data(), w.unit.data(), delta);
        w.unit[index] = 0;
        break;
    }
    if (!reuse_stages_) skip = Stage::kNone;
    d.sensor_noise_state = noise_state_;
  }
  // the stages left in d are a perturbed position's (or velocity's) now: a later column that
  // reuses them stages the nominal point again (only a back task's order meets this)
  if (input == Input::kQpos) w.staged = kStagedNone;
  if (input == Input::kQvel) w.staged = std::min(w.staged, kStagedPosition);
  std::copy(warmstart_.begin(), warmstart_.end(), d.qacc_warmstart.begin());
  engine_.StepSkip(d, skip, skip_sensors_);
  GetState(m_, d, kStatePhysics, next);
  if (!skip_sensors_) std::copy(d.sensordata.begin(), d.sensordata.end(), sens);
}

void TransitionFD::StateDifference(const double* a, const double* b, double h, double* tangent,
                                   double* d_state, int stride) const {
  const int nq = m_.nq, nv = m_.nv;
  DifferentiatePosition(m_, tangent, h, a, b);
  for (int i = 0; i < nv; ++i) d_state[i * stride] = tangent[i];
  const double inv_h = 1.0 / h;
  for (int i = 0; i < nv + m_.na; ++i) d_state[(nv + i) * stride] = inv_h * (b[nq + i] - a[nq + i]);
}

}  // namespace gauss

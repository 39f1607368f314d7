// gauss.Batch (many rollouts on a thread pool), gauss.TransitionFD (finite-difference Jacobians
// of one step) and the engine's state get/set. Both long calls release the GIL; their inputs are
// copied into C-contiguous float64 arrays and their outputs are NumPy arrays allocated before
// the GIL is released, so no Python object is touched while the pool runs.
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "bindings.h"
#include "gauss/batch.h"
#include "gauss/state.h"
#include "gauss/thread_pool.h"
#include "gauss/transition_fd.h"

namespace gauss::python {
namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Refuses a second thread using the same Batch or TransitionFD (they own per-worker Data and
// buffers that one call at a time may use).
class BusyGuard {
 public:
  BusyGuard(std::atomic<bool>& busy, const char* what) : busy_(busy) {
    if (busy_.exchange(true)) {
      throw std::runtime_error(std::string("this ") + what +
                               " is in use by another thread; give each thread its own");
    }
  }
  ~BusyGuard() { busy_.store(false); }
  BusyGuard(const BusyGuard&) = delete;
  BusyGuard& operator=(const BusyGuard&) = delete;

 private:
  std::atomic<bool>& busy_;
};

// (array, expected shape, argument name) => throws ValueError naming the expected and actual
// shapes when they differ.
void CheckShape(const Doubles& a, const std::vector<long>& shape, const char* name) {
  bool same = a.ndim() == static_cast<py::ssize_t>(shape.size());
  for (size_t i = 0; same && i < shape.size(); ++i) same = a.shape(i) == shape[i];
  if (same) return;
  auto text = [](auto begin, auto end) {
    std::string s = "(";
    for (auto it = begin; it != end; ++it) s += (it == begin ? "" : ", ") + std::to_string(*it);
    return s + ")";
  };
  throw py::value_error(std::string(name) + " must have shape " +
                        text(shape.begin(), shape.end()) + ", got " +
                        text(a.shape(), a.shape() + a.ndim()));
}

struct PyBatch {
  std::shared_ptr<Engine> engine;
  std::unique_ptr<ThreadPool> pool;
  std::unique_ptr<Batch> batch;
  std::atomic<bool> busy{false};
};

// (batch, initial states N x StateSize(integration bits), controls N x H x nu or None, horizon)
// => dict of arrays: state (N x H x StateSize(output_bits)), sensordata (N x H x nsensordata),
// ncon, nefc, solver_iter, warnings (N x H, int32), solver_cost, solver_gradient (N x H).
py::dict Rollout(PyBatch& b, const Doubles& initial, const std::optional<Doubles>& control,
                 std::optional<long> horizon, unsigned initial_bits, unsigned output_bits) {
  const Model& m = b.engine->model();
  if (initial.ndim() != 2) {
    throw py::value_error("initial_states must be a 2-D array (rollouts x state size), got " +
                          std::to_string(initial.ndim()) + " dimensions");
  }
  const long nroll = initial.shape(0);
  CheckShape(initial, {nroll, StateSize(m, initial_bits)}, "initial_states");
  long nstep = 0;
  if (horizon) {
    nstep = *horizon;
  } else if (control && control->ndim() == 3) {
    nstep = control->shape(1);
  } else {
    throw py::value_error("give the horizon, or controls of shape (rollouts, horizon, nu)");
  }
  if (nstep < 0) throw py::value_error("horizon must be >= 0, got " + std::to_string(nstep));
  if (control) CheckShape(*control, {nroll, nstep, m.nu}, "controls");

  const long nstate = StateSize(m, output_bits);
  const long ns = m.nsensordata;
  py::array_t<double> state({nroll, nstep, nstate});
  py::array_t<double> sensordata({nroll, nstep, ns});
  std::vector<StepStats> stats(static_cast<size_t>(nroll * nstep));
  RolloutRequest r;
  r.nroll = static_cast<int>(nroll);
  r.nstep = static_cast<int>(nstep);
  r.initial_state = initial.data();
  r.initial_bits = initial_bits;
  r.control = control ? control->data() : nullptr;
  r.state = state.mutable_data();
  r.output_bits = output_bits;
  r.sensordata = sensordata.mutable_data();
  r.stats = stats.data();
  {
    BusyGuard guard(b.busy, "Batch");
    py::gil_scoped_release release;
    b.batch->Rollout(r);
  }
  py::array_t<int> ncon({nroll, nstep}), nefc({nroll, nstep}), iter({nroll, nstep}),
      warnings({nroll, nstep});
  py::array_t<double> cost({nroll, nstep}), gradient({nroll, nstep});
  for (size_t i = 0; i < stats.size(); ++i) {
    ncon.mutable_data()[i] = stats[i].ncon;
    nefc.mutable_data()[i] = stats[i].nefc;
    iter.mutable_data()[i] = stats[i].solver_iter;
    warnings.mutable_data()[i] = stats[i].warnings;
    cost.mutable_data()[i] = stats[i].solver_cost;
    gradient.mutable_data()[i] = stats[i].solver_gradient;
  }
  py::dict out;
  out["state"] = state;
  out["sensordata"] = sensordata;
  out["ncon"] = ncon;
  out["nefc"] = nefc;
  out["solver_iter"] = iter;
  out["warnings"] = warnings;
  out["solver_cost"] = cost;
  out["solver_gradient"] = gradient;
  return out;
}

struct PyTransitionFD {
  std::shared_ptr<Engine> engine;
  std::unique_ptr<ThreadPool> pool;  // null: serial
  std::unique_ptr<TransitionFD> fd;
  TransitionFDOptions options;
  std::atomic<bool> busy{false};
};

// (fd, data) => (A, B, C, D) at d's integration state; d is only read.
py::tuple ComputeFD(PyTransitionFD& f, const PyEngine& e, PyData& p) {
  const long nx = f.fd->nx(), nu = f.fd->nu(), ns = f.fd->ns();
  py::array_t<double> A({nx, nx}), B({nx, nu}), C({ns, nx}), D({ns, nu});
  DataLease lease(e, p);
  BusyGuard guard(f.busy, "TransitionFD");
  double* a = A.mutable_data();
  double* b = B.mutable_data();
  double* c = C.mutable_data();
  double* d = D.mutable_data();
  {
    py::gil_scoped_release release;
    f.fd->Compute(*p.data, f.options, a, b, c, d);
  }
  return py::make_tuple(A, B, C, D);
}

}  // namespace

void BindBatch(py::module_& mod) {
  mod.attr("STATE_TIME") = static_cast<unsigned>(kStateTime);
  mod.attr("STATE_QPOS") = static_cast<unsigned>(kStateQpos);
  mod.attr("STATE_QVEL") = static_cast<unsigned>(kStateQvel);
  mod.attr("STATE_ACT") = static_cast<unsigned>(kStateAct);
  mod.attr("STATE_WARMSTART") = static_cast<unsigned>(kStateWarmstart);
  mod.attr("STATE_CTRL") = static_cast<unsigned>(kStateCtrl);
  mod.attr("STATE_QFRC_APPLIED") = static_cast<unsigned>(kStateQfrcApplied);
  mod.attr("STATE_XFRC_APPLIED") = static_cast<unsigned>(kStateXfrcApplied);
  mod.attr("STATE_MOCAP") = static_cast<unsigned>(kStateMocap);
  mod.attr("STATE_EQ_ACTIVE") = static_cast<unsigned>(kStateEqActive);
  mod.attr("STATE_PHYSICS") = static_cast<unsigned>(kStatePhysics);
  mod.attr("STATE_FULL_PHYSICS") = static_cast<unsigned>(kStateFullPhysics);
  mod.attr("STATE_USER") = static_cast<unsigned>(kStateUser);
  mod.attr("STATE_INTEGRATION") = static_cast<unsigned>(kStateIntegration);

  py::class_<PyEngine> engine = py::reinterpret_borrow<py::class_<PyEngine>>(mod.attr("_Engine"));
  engine
      .def("state_size", [](const PyEngine& e, unsigned bits) {
        return StateSize(e.engine->model(), bits);
      }, py::arg("bits") = static_cast<unsigned>(kStateIntegration),
      "Length of a state vector holding the components `bits` (gauss.STATE_*).")
      .def("get_state", [](const PyEngine& e, PyData& p, unsigned bits) {
        DataLease lease(e, p);
        const Model& m = e.engine->model();
        py::array_t<double> out(StateSize(m, bits));
        GetState(m, *p.data, bits, out.mutable_data());
        return out;
      }, py::arg("data"), py::arg("bits") = static_cast<unsigned>(kStateIntegration),
      "A copy of d's state components `bits` (gauss.STATE_*), concatenated in bit order.")
      .def("set_state", [](const PyEngine& e, PyData& p, const Doubles& state, unsigned bits) {
        DataLease lease(e, p);
        const Model& m = e.engine->model();
        CheckShape(state, {StateSize(m, bits)}, "state");
        SetState(m, *p.data, bits, state.data());
      }, py::arg("data"), py::arg("state"),
      py::arg("bits") = static_cast<unsigned>(kStateIntegration),
      "Writes the state components `bits` of d from `state` (as get_state returns it).");

  py::class_<PyBatch>(mod, "Batch",
      "Many rollouts at once on a thread pool, bit-identical to stepping them one by one.")
      .def(py::init([](const PyEngine& e, int threads) {
             auto b = std::make_unique<PyBatch>();
             b->engine = e.engine;
             b->pool = std::make_unique<ThreadPool>(threads);
             b->batch = std::make_unique<Batch>(*b->engine, *b->pool);
             return b;
           }), py::arg("engine"), py::arg("threads") = 0,
           "Batch(engine, threads=0): threads <= 0 means one per hardware thread.")
      .def_property_readonly("threads", [](const PyBatch& b) { return b.batch->workers(); })
      .def("rollout", &Rollout, py::arg("initial_states"), py::arg("controls") = py::none(),
           py::arg("horizon") = py::none(),
           py::arg("initial_bits") = static_cast<unsigned>(kStateIntegration),
           py::arg("output_bits") = static_cast<unsigned>(kStateFullPhysics),
           "rollout(initial_states, controls=None, horizon=None) => dict of NumPy arrays "
           "(state, sensordata, ncon, nefc, solver_iter, warnings, solver_cost, "
           "solver_gradient). The GIL is released while the rollouts run.");

  py::class_<PyTransitionFD>(mod, "TransitionFD",
      "Finite-difference Jacobians A, B, C, D of one time step.")
      .def(py::init([](const PyEngine& e, double eps, bool centered, int threads) {
             if (!(eps > 0)) throw py::value_error("eps must be > 0, got " + std::to_string(eps));
             auto f = std::make_unique<PyTransitionFD>();
             f->engine = e.engine;
             if (threads != 1) f->pool = std::make_unique<ThreadPool>(threads);
             f->fd = std::make_unique<TransitionFD>(*f->engine, f->pool.get());
             f->options.eps = eps;
             f->options.centered = centered;
             return f;
           }), py::arg("engine"), py::arg("eps") = 1e-6, py::arg("centered") = false,
           py::arg("threads") = 1,
           "TransitionFD(engine, eps=1e-6, centered=False, threads=1); threads <= 0: one per "
           "hardware thread.")
      .def_property_readonly("nx", [](const PyTransitionFD& f) { return f.fd->nx(); })
      .def_property_readonly("nu", [](const PyTransitionFD& f) { return f.fd->nu(); })
      .def_property_readonly("ns", [](const PyTransitionFD& f) { return f.fd->ns(); })
      .def_property_readonly("reuses_stages",
                             [](const PyTransitionFD& f) { return f.fd->reuses_stages(); })
      .def("compute", [](PyTransitionFD& f, PyData& p) {
        return ComputeFD(f, PyEngine{f.engine}, p);
      }, py::arg("data"),
      "compute(d) => (A, B, C, D) at d's state, x = (dq, qvel, act): A = dx'/dx (nx x nx), "
      "B = dx'/du (nx x nu), C = ds/dx (ns x nx), D = ds/du (ns x nu). d is only read; the GIL "
      "is released.")
      .def_property_readonly("next_state", [](const PyTransitionFD& f) {
        return py::array_t<double>(f.fd->next_state().size(), f.fd->next_state().data());
      }, "(qpos, qvel, act) after the nominal step of the last compute (a copy).");
}

}  // namespace gauss::python

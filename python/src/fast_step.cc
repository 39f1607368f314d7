// engine.step(d, n=1) without pybind11's general argument dispatch: the per-call overhead of a
// Python loop of single steps is what RL and control loops pay, and the general dispatcher
// costs about as many instructions as a small model's whole step (python/bench). This entry
// point handles the common call shapes (step(d) and step(d, n) with a non-negative int, by
// position) and hands every other call to the pybind11-bound `_step_checked`, which converts
// and checks arguments and raises the same errors.
#include "bindings.h"
#include "gauss/error.h"

namespace gauss::python {
namespace {

PyTypeObject* g_data_type = nullptr;   // gauss._gauss.Data
PyObject* g_checked_step = nullptr;    // _Engine._step_checked (owned for the process)

// The C++ object held by a pybind11 instance of a class without multiple inheritance.
template <class T>
T* Held(PyObject* obj) {
  return reinterpret_cast<py::detail::instance*>(obj)->get_value_and_holder().value_ptr<T>();
}

// Calls _step_checked(self, *args, **kwargs) with the arguments of a fastcall.
PyObject* CheckedStep(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  std::vector<PyObject*> all(1 + nargs + nkw);
  all[0] = self;
  for (Py_ssize_t i = 0; i < nargs + nkw; ++i) all[1 + i] = args[i];
  return PyObject_Vectorcall(g_checked_step, all.data(), 1 + nargs, kwnames);
}

// METH_FASTCALL | METH_KEYWORDS implementation of _Engine.step.
PyObject* FastStep(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (kwnames != nullptr || nargs < 1 || nargs > 2 || Py_TYPE(args[0]) != g_data_type ||
      (nargs == 2 && !PyLong_CheckExact(args[1]))) {
    return CheckedStep(self, args, nargs, kwnames);
  }
  long n = 1;
  if (nargs == 2) {
    n = PyLong_AsLong(args[1]);
    if (n == -1 && PyErr_Occurred()) return nullptr;
    if (n < 0) return CheckedStep(self, args, nargs, kwnames);
  }
  PyEngine* e = Held<PyEngine>(self);
  PyData* p = Held<PyData>(args[0]);
  // another engine's Data, or one in use by another thread: the checked path raises the error
  // (or steps, if the other thread has finished meanwhile)
  if (p->engine.get() != e->engine.get() || p->busy.exchange(true)) {
    return CheckedStep(self, args, nargs, kwnames);
  }
  std::exception_ptr failure;
  const Engine& engine = *e->engine;
  PyThreadState* saved = PyEval_SaveThread();
  try {
    for (long i = 0; i < n; ++i) engine.Step(*p->data);
  } catch (...) {
    failure = std::current_exception();
  }
  PyEval_RestoreThread(saved);
  p->busy.store(false);
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const Error& error) {
      SetPythonError(error);
    } catch (const std::exception& other) {
      PyErr_SetString(PyExc_RuntimeError, other.what());
    }
    return nullptr;
  }
  Py_RETURN_NONE;
}

PyMethodDef g_step_def = {
    "step", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(&FastStep)),
    METH_FASTCALL | METH_KEYWORDS,
    "step(data, n=1): advances `data` by n time steps (GIL released)."};

}  // namespace

void InstallFastStep(py::handle engine_class, py::handle data_class) {
  g_data_type = reinterpret_cast<PyTypeObject*>(data_class.ptr());
  g_checked_step = py::object(engine_class.attr("_step_checked")).release().ptr();
  py::object descriptor = py::reinterpret_steal<py::object>(
      PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(engine_class.ptr()), &g_step_def));
  if (!descriptor) throw py::error_already_set();
  engine_class.attr("step") = descriptor;
}

}  // namespace gauss::python

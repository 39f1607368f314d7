// Shared pieces of the `gauss._gauss` extension module: the Python-side holders of Model, Engine
// and Data, and the helpers that make NumPy views of their buffers without copying.
//
// Ownership: a NumPy view keeps the Python object that owns its buffer alive (the view's `base`),
// so an array taken from d.qpos stays valid after `d` goes out of scope in Python. Buffers never
// move: every Data vector is sized once by Engine::MakeData and a Model is immutable.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <memory>
#include <type_traits>
#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/model.h"
#include "gauss/registry.h"

namespace gauss::python {

namespace py = pybind11;

// A compiled model shared with the engines made from it (and with views of its arrays).
struct PyModel {
  std::shared_ptr<const Model> model;
};

// An engine (shared with the Data it makes, which only it may step). It works on its own
// configured copy of the model passed in.
struct PyEngine {
  std::shared_ptr<Engine> engine;
};

// One simulation state, tied to the engine that made it: its arena is sized for that engine's
// plugins, so only that engine may step it. `busy` refuses a second thread stepping the same
// Data while the GIL is released (that would be a data race inside the kernel).
//
// The views' base is `owner`, a capsule sharing `data`, not the Data object itself: the Data
// object caches its views, and NumPy arrays do not take part in garbage collection, so a view
// referring back to the Data object would make a cycle that is never collected.
struct PyData {
  PyData(Data d, std::shared_ptr<Engine> e);
  std::shared_ptr<Data> data;
  std::shared_ptr<Engine> engine;
  std::atomic<bool> busy{false};
  py::object owner;
};

// The element type NumPy sees for a vector's element type (enums as their underlying integer).
template <class T, bool = std::is_enum_v<T>>
struct StoredType {
  using type = T;
};
template <class T>
struct StoredType<T, true> {
  using type = std::underlying_type_t<T>;
};
template <class T>
using Stored = typename StoredType<T>::type;

// A NumPy view of `rows` (x `cols`, when cols > 0) elements at `data`, keeping `owner` alive.
// Read-only when !writable. Throws if the buffer is smaller than the shape (a binding bug).
template <class T>
py::array MakeView(const std::vector<T>& buffer, long rows, long cols, py::handle owner,
                   bool writable) {
  using S = Stored<T>;
  static_assert(sizeof(S) == sizeof(T), "enum and underlying type differ in size");
  if (rows < 0) rows = 0;
  const long count = rows * (cols > 0 ? cols : 1);
  if (count > static_cast<long>(buffer.size())) {
    throw std::logic_error("gauss python: view larger than its buffer");
  }
  const S* ptr = reinterpret_cast<const S*>(buffer.data());
  std::vector<py::ssize_t> shape = {rows};
  if (cols > 0) shape.push_back(cols);
  py::array_t<S> view(shape, ptr, owner);
  if (!writable) {
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  }
  return std::move(view);
}

// Marks a Data as in use for the duration of a call, refusing a second concurrent user (two
// threads stepping one Data would race inside the kernel: undefined behaviour, not an error) and
// a Data made by another engine (its scratch memory is sized for that engine's plugins).
class DataLease {
 public:
  DataLease(const PyEngine& e, PyData& p);
  ~DataLease();
  DataLease(const DataLease&) = delete;
  DataLease& operator=(const DataLease&) = delete;

 private:
  PyData& p_;
};

// (plugin info) => the dict gauss.plugins() and plugins_in_use() return.
py::dict PluginDict(const PluginInfo& info);

void BindErrors(py::module_& m);
// Raises `error` as gauss.Error (message, file, line, element, attribute); needs the GIL.
void SetPythonError(const Error& error);
// Replaces _Engine.step by a fastcall entry point (fast_step.cc); needs _Engine._step_checked.
void InstallFastStep(py::handle engine_class, py::handle data_class);
void BindModel(py::module_& m);
void BindData(py::module_& m);
void BindEngine(py::module_& m);
// gauss.Batch, gauss.TransitionFD, engine state get/set (batch_bindings.cc).
void BindBatch(py::module_& m);

}  // namespace gauss::python

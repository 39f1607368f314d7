// The `gauss._gauss` extension module. The `gauss` Python package (python/gauss/) wraps it with
// the Pythonic entry points (load_model, Engine(model, config, **set_keys), plugins, env).
#include "bindings.h"
#include "gauss/error.h"
#include "gauss/types.h"

namespace gauss::python {
namespace {
PyObject* g_error_type = nullptr;  // gauss.Error, made once by BindErrors
}  // namespace

void SetPythonError(const Error& e) {
  py::object error = py::reinterpret_borrow<py::object>(g_error_type)(e.what());
  error.attr("file") = e.where().file;
  error.attr("line") = e.where().line;
  error.attr("element") = e.where().element;
  error.attr("attribute") = e.where().attribute;
  PyErr_SetObject(g_error_type, error.ptr());
}

// gauss.Error (a ValueError) carries the message of gauss::Error unchanged plus its location as
// attributes: file, line, element, attribute ("" / 0 when unknown).
void BindErrors(py::module_& m) {
  g_error_type = PyErr_NewExceptionWithDoc(
      "gauss.Error",
      "Bad input (model file, configuration, plugin choice): the message names the file, line, "
      "element and attribute; so do the attributes file, line, element, attribute.",
      PyExc_ValueError, nullptr);
  m.add_object("Error", py::handle(g_error_type));
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const Error& e) {
      SetPythonError(e);
    }
  });
}

}  // namespace gauss::python

PYBIND11_MODULE(_gauss, m) {
  namespace gp = gauss::python;
  m.doc() = "Gauss physics engine: the compiled bindings (use the `gauss` package).";
  gp::BindErrors(m);
  gp::BindModel(m);
  gp::BindData(m);
  gp::BindEngine(m);
  gp::BindBatch(m);
  gp::InstallFastStep(m.attr("_Engine"), m.attr("Data"));
  pybind11::list warnings;
  for (const char* name : gauss::kWarningNames) warnings.append(name);
  m.attr("WARNING_NAMES") = pybind11::tuple(warnings);
}

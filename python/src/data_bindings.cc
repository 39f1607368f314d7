// gauss.Data: the state of one simulation; every array a writable NumPy view of the C++ buffer,
// so `d.ctrl[:] = u` is what the next step reads and `d.qpos` shows what the last step wrote.
#include <cstdint>
#include <string>

#include "bindings.h"

namespace gauss::python {
namespace {

// Arrays whose length is fixed by the model: X(field, rows, cols), cols 0 = one value per row.
#define GAUSS_DATA_ARRAYS(X)                                                                      \
  X(qpos, m.nq, 0) X(qvel, m.nv, 0) X(act, m.na, 0) X(qacc_warmstart, m.nv, 0)                    \
  X(ctrl, m.nu, 0) X(qfrc_applied, m.nv, 0) X(xfrc_applied, m.nbody, 6)                           \
  X(mocap_pos, m.nmocap, 3) X(mocap_quat, m.nmocap, 4) X(eq_active, m.neq, 0)                     \
  X(qacc, m.nv, 0) X(act_dot, m.na, 0) X(sensordata, m.nsensordata, 0)                            \
  X(xpos, m.nbody, 3) X(xquat, m.nbody, 4) X(xmat, m.nbody, 9) X(xipos, m.nbody, 3)               \
  X(ximat, m.nbody, 9) X(xanchor, m.njnt, 3) X(xaxis, m.njnt, 3) X(geom_xpos, m.ngeom, 3)         \
  X(geom_xmat, m.ngeom, 9) X(site_xpos, m.nsite, 3) X(site_xmat, m.nsite, 9)                      \
  X(cam_xpos, m.ncam, 3) X(cam_xmat, m.ncam, 9)                                                   \
  X(subtree_com, m.nbody, 3) X(cdof, m.nv, 6) X(cinert, m.nbody, 10) X(crb, m.nbody, 10)          \
  X(qM, m.nM, 0) X(qLD, m.nM, 0) X(qLDiagInv, m.nv, 0) X(qLDiagSqrtInv, m.nv, 0)                  \
  X(ten_length, m.ntendon, 0) X(ten_J, m.ntendon, m.nv) X(cvel, m.nbody, 6) X(cdof_dot, m.nv, 6)  \
  X(qfrc_bias, m.nv, 0) X(qfrc_passive, m.nv, 0) X(ten_velocity, m.ntendon, 0)                    \
  X(qfrc_gravcomp, m.nv, 0)                                                                      \
  X(actuator_length, m.nu, 0) X(actuator_velocity, m.nu, 0) X(actuator_moment, m.nu, m.nv)        \
  X(actuator_moment_span, m.nu, 2) X(actuator_force, m.nu, 0) X(qfrc_actuator, m.nv, 0)           \
  X(qfrc_smooth, m.nv, 0) X(qacc_smooth, m.nv, 0) X(qfrc_constraint, m.nv, 0)                     \
  X(qfrc_inverse, m.nv, 0) X(cacc, m.nbody, 6) X(cfrc_int, m.nbody, 6) X(cfrc_ext, m.nbody, 6)    \
  X(subtree_linvel, m.nbody, 3) X(subtree_angmom, m.nbody, 3)

// Constraint rows: views of the first d.nefc rows (their length changes from step to step, so
// they are made at each access and show the rows valid at that moment).
#define GAUSS_DATA_EFC_ARRAYS(X)                                                               \
  X(efc_type, 0) X(efc_id, 0) X(efc_pos, 0) X(efc_margin, 0) X(efc_frictionloss, 0)            \
  X(efc_diagApprox, 0) X(efc_KBIP, 4) X(efc_R, 0) X(efc_D, 0) X(efc_vel, 0) X(efc_aref, 0)     \
  X(efc_force, 0) X(efc_state, 0)

// (self, key, make) => the view cached in self.__dict__[key], made by `make` on first use.
// The cache lives in the instance dictionary (the class has dynamic attributes) so that the
// cycle view -> base Data -> __dict__ -> view is visible to Python's garbage collector.
template <class Make>
py::object CachedView(py::handle self, PyObject* key, Make make) {
  PyObject** dict = _PyObject_GetDictPtr(self.ptr());
  if (dict == nullptr) throw std::logic_error("gauss python: Data has no instance dictionary");
  if (*dict == nullptr) *dict = PyDict_New();
  if (PyObject* cached = PyDict_GetItem(*dict, key)) return py::reinterpret_borrow<py::object>(cached);
  py::object view = make(self.cast<PyData&>());
  if (PyDict_SetItem(*dict, key, view.ptr()) != 0) throw py::error_already_set();
  return view;
}

// An interned "_view_<field>" key, made once and kept for the life of the process.
PyObject* ViewKey(const char* field) {
  return PyUnicode_InternFromString((std::string("_view_") + field).c_str());
}

// Writes `value` into every element of `view` (broadcasting like view[...] = value).
void AssignInto(const py::object& view, const py::object& value) {
  view.attr("__setitem__")(py::ellipsis(), value);
}

// A view of a fixed-size std::array member (energy, warning counters).
template <class T, std::size_t N>
py::array ArrayView(std::array<T, N>& a, py::handle owner) {
  return py::array_t<T>({static_cast<py::ssize_t>(N)}, a.data(), owner);
}

// The base object of the views of `self` (a gauss.Data).
py::handle Owner(py::handle self) { return self.cast<PyData&>().owner; }

// (p) => a new Data with the same state and workspace, tied to the same engine.
std::unique_ptr<PyData> CopyData(const PyData& p) {
  return std::make_unique<PyData>(*p.data, p.engine);
}

}  // namespace

PyData::PyData(Data d, std::shared_ptr<Engine> e)
    : data(std::make_shared<Data>(std::move(d))), engine(std::move(e)) {
  owner = py::capsule(new std::shared_ptr<Data>(data),
                      [](void* p) { delete static_cast<std::shared_ptr<Data>*>(p); });
}

void BindData(py::module_& mod) {
  // Contact as a NumPy structured dtype (the C++ layout, so contact views need no copy).
  PYBIND11_NUMPY_DTYPE(Contact, dist, pos, frame, includemargin, friction, solref, solimp,
                       solreffriction, adhesion, dim,
                       geom1, geom2, exclude, efc_address);
  py::class_<PyData> cls(mod, "Data", py::dynamic_attr(),
      "State of one simulation, made by Engine.make_data(). Arrays are writable NumPy views of "
      "the C++ buffers (no copies); they stay valid as long as any of them is referenced.");
  cls.def_property("time", [](const PyData& p) { return p.data->time; },
                   [](PyData& p, double t) { p.data->time = t; })
      .def_property("sensor_noise_state", [](const PyData& p) { return p.data->sensor_noise_state; },
                    [](PyData& p, std::uint64_t s) { p.data->sensor_noise_state = s; })
      .def_property_readonly("ncon", [](const PyData& p) { return p.data->ncon; })
      .def_property_readonly("nefc", [](const PyData& p) { return p.data->nefc; })
      .def_property_readonly("ne", [](const PyData& p) { return p.data->ne; })
      .def_property_readonly("nf", [](const PyData& p) { return p.data->nf; })
      .def_property_readonly("solver_iter", [](const PyData& p) { return p.data->solver_iter; })
      .def_property_readonly("energy", [](py::object self) {
        return ArrayView(self.cast<PyData&>().data->energy, Owner(self));
      }, "potential and kinetic energy (filled when the `energy` flag is on)")
      .def_property_readonly("warning_count", [](py::object self) {
        return ArrayView(self.cast<PyData&>().data->warning_count, Owner(self));
      }, "times each warning was raised; names in gauss.WARNING_NAMES")
      .def_property_readonly("solver_fwdinv", [](py::object self) {
        return ArrayView(self.cast<PyData&>().data->solver_fwdinv, Owner(self));
      })
      .def_property_readonly("contact", [](py::object self) {
        PyData& p = self.cast<PyData&>();
        return py::array_t<Contact>({static_cast<py::ssize_t>(p.data->ncon)}, p.data->contact.data(),
                                    p.owner);
      }, "the d.ncon valid contacts as a structured array view (dist, pos, frame, geom1, ...)")
      .def_property_readonly("efc_J", [](py::object self) {
        return MakeView(self.cast<PyData&>().data->efc_J,
                        static_cast<long>(self.cast<PyData&>().data->efc_J.size()), 0, Owner(self), true);
      }, "the whole constraint Jacobian buffer: dense nefc x nv row-major, or the values of "
         "the sparse rows (efc_J_rowadr, efc_J_rownnz, efc_J_colind)")
      .def_property_readonly("efc_J_rownnz", [](py::object self) {
        PyData& p = self.cast<PyData&>();
        return MakeView(p.data->efc_J_rownnz, p.data->nefc, 0, Owner(self), true);
      })
      .def_property_readonly("efc_J_rowadr", [](py::object self) {
        PyData& p = self.cast<PyData&>();
        return MakeView(p.data->efc_J_rowadr, p.data->nefc, 0, Owner(self), true);
      })
      .def_property_readonly("efc_J_colind", [](py::object self) {
        PyData& p = self.cast<PyData&>();
        return MakeView(p.data->efc_J_colind, static_cast<long>(p.data->efc_J_colind.size()), 0,
                        Owner(self), true);
      })
      .def("copy", &CopyData, "An independent copy (state and workspace), for the same engine.")
      .def("__copy__", &CopyData);
#define GAUSS_BIND_DATA_ARRAY(field, rows, cols)                                          \
  {                                                                                       \
    static PyObject* const key = ViewKey(#field);                                         \
    auto get = [](py::object self) {                                                      \
      return CachedView(self, key, [](PyData& p) {                                                 \
        const Model& m = p.engine->model();                                               \
        return py::object(MakeView(p.data->field, static_cast<long>(rows),                 \
                                   static_cast<long>(cols), p.owner, /*writable=*/true)); \
      });                                                                                 \
    };                                                                                    \
    cls.def_property(#field, get, [get](py::object self, py::object value) {              \
      AssignInto(get(self), value);                                                       \
    });                                                                                   \
  }
  GAUSS_DATA_ARRAYS(GAUSS_BIND_DATA_ARRAY)
#undef GAUSS_BIND_DATA_ARRAY
#define GAUSS_BIND_EFC_ARRAY(field, cols)                                              \
  cls.def_property_readonly(#field, [](py::object self) {                              \
    PyData& p = self.cast<PyData&>();                                                  \
    return MakeView(p.data->field, p.data->nefc, cols, p.owner, /*writable=*/true);       \
  });
  GAUSS_DATA_EFC_ARRAYS(GAUSS_BIND_EFC_ARRAY)
#undef GAUSS_BIND_EFC_ARRAY
}

}  // namespace gauss::python

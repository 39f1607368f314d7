// gauss.Model: sizes, options, names and every compiled array as a read-only NumPy view.
#include <string>

#include "bindings.h"
#include "gauss/mjcf.h"
#include "gauss/types.h"

namespace gauss::python {
namespace {

// Every array of Model with its shape: X(field, rows, cols); cols 0 means one value per element.
// Rows and cols are expressions of `m`, the model.
#define GAUSS_MODEL_ARRAYS(X)                                                                    \
  X(qpos0, m.nq, 0) X(qpos_spring, m.nq, 0)                                                      \
  X(body_parentid, m.nbody, 0) X(body_rootid, m.nbody, 0) X(body_weldid, m.nbody, 0)             \
  X(body_mocapid, m.nbody, 0) X(body_jntnum, m.nbody, 0) X(body_jntadr, m.nbody, 0)              \
  X(body_dofnum, m.nbody, 0) X(body_dofadr, m.nbody, 0) X(body_geomnum, m.nbody, 0)              \
  X(body_geomadr, m.nbody, 0) X(body_pos, m.nbody, 3) X(body_quat, m.nbody, 4)                   \
  X(body_ipos, m.nbody, 3) X(body_iquat, m.nbody, 4) X(body_mass, m.nbody, 0)                    \
  X(body_subtreemass, m.nbody, 0) X(body_inertia, m.nbody, 3) X(body_invweight0, m.nbody, 2)     \
  X(body_gravcomp, m.nbody, 0)                                                                   \
  X(jnt_type, m.njnt, 0) X(jnt_qposadr, m.njnt, 0) X(jnt_dofadr, m.njnt, 0)                      \
  X(jnt_bodyid, m.njnt, 0) X(jnt_group, m.njnt, 0) X(jnt_limited, m.njnt, 0)                     \
  X(jnt_solref, m.njnt, kNRef) X(jnt_solimp, m.njnt, kNImp) X(jnt_pos, m.njnt, 3)                \
  X(jnt_axis, m.njnt, 3) X(jnt_stiffness, m.njnt, 0) X(jnt_stiffnesspoly, static_cast<long>(m.jnt_stiffnesspoly.size() / 2), 2) X(jnt_range, m.njnt, 2)                     \
  X(jnt_margin, m.njnt, 0) X(jnt_actfrclimited, m.njnt, 0) X(jnt_actfrcrange, m.njnt, 2)         \
  X(jnt_actgravcomp, m.njnt, 0)                                                                  \
  X(dof_bodyid, m.nv, 0) X(dof_jntid, m.nv, 0) X(dof_parentid, m.nv, 0) X(dof_Madr, m.nv, 0)     \
  X(dof_solref, m.nv, kNRef) X(dof_solimp, m.nv, kNImp) X(dof_frictionloss, m.nv, 0)             \
  X(dof_armature, m.nv, 0) X(dof_damping, m.nv, 0) X(dof_invweight0, m.nv, 0)                    \
  X(geom_type, m.ngeom, 0) X(geom_contype, m.ngeom, 0) X(geom_conaffinity, m.ngeom, 0)           \
  X(geom_condim, m.ngeom, 0) X(geom_bodyid, m.ngeom, 0) X(geom_dataid, m.ngeom, 0)               \
  X(geom_group, m.ngeom, 0) X(geom_priority, m.ngeom, 0) X(geom_solmix, m.ngeom, 0)              \
  X(geom_solref, m.ngeom, kNRef) X(geom_solimp, m.ngeom, kNImp) X(geom_size, m.ngeom, 3)         \
  X(geom_rbound, m.ngeom, 0) X(geom_pos, m.ngeom, 3) X(geom_quat, m.ngeom, 4)                    \
  X(geom_friction, m.ngeom, 3) X(geom_margin, m.ngeom, 0) X(geom_gap, m.ngeom, 0)                \
  X(geom_rgba, m.ngeom, 4) X(geom_fluid, m.ngeom, kNFluid)                                       \
  X(mesh_vertadr, m.nmesh, 0) X(mesh_vertnum, m.nmesh, 0) X(mesh_faceadr, m.nmesh, 0)            \
  X(mesh_facenum, m.nmesh, 0) X(mesh_graphadr, m.nmesh, 0) X(mesh_vert, m.nmeshvert, 3)          \
  X(mesh_face, m.nmeshface, 3) X(mesh_graph, m.nmeshgraph, 0)                                    \
  X(hfield_size, m.nhfield, 4) X(hfield_nrow, m.nhfield, 0) X(hfield_ncol, m.nhfield, 0)         \
  X(hfield_adr, m.nhfield, 0) X(hfield_data, m.nhfielddata, 0)                                   \
  X(site_type, m.nsite, 0) X(site_bodyid, m.nsite, 0) X(site_size, m.nsite, 3)                   \
  X(site_pos, m.nsite, 3) X(site_quat, m.nsite, 4)                                               \
  X(cam_mode, m.ncam, 0) X(cam_bodyid, m.ncam, 0) X(cam_targetbodyid, m.ncam, 0)                 \
  X(cam_pos, m.ncam, 3) X(cam_quat, m.ncam, 4) X(cam_poscom0, m.ncam, 3) X(cam_pos0, m.ncam, 3)  \
  X(cam_mat0, m.ncam, 9) X(cam_orthographic, m.ncam, 0) X(cam_fovy, m.ncam, 0)                   \
  X(cam_ipd, m.ncam, 0) X(cam_resolution, m.ncam, 2) X(cam_sensorsize, m.ncam, 2)                \
  X(cam_intrinsic, m.ncam, 4)                                                                    \
  X(actuator_trntype, m.nu, 0) X(actuator_dyntype, m.nu, 0) X(actuator_gaintype, m.nu, 0)        \
  X(actuator_biastype, m.nu, 0) X(actuator_trnid, m.nu, 2) X(actuator_actadr, m.nu, 0)           \
  X(actuator_actnum, m.nu, 0) X(actuator_ctrllimited, m.nu, 0)                                   \
  X(actuator_forcelimited, m.nu, 0) X(actuator_actlimited, m.nu, 0)                              \
  X(actuator_actearly, m.nu, 0) X(actuator_group, m.nu, 0) X(actuator_dynprm, m.nu, kNDyn)       \
  X(actuator_gainprm, m.nu, kNGain) X(actuator_biasprm, m.nu, kNBias)                            \
  X(actuator_ctrlrange, m.nu, 2) X(actuator_forcerange, m.nu, 2) X(actuator_actrange, m.nu, 2)   \
  X(actuator_gear, m.nu, 6) X(actuator_cranklength, m.nu, 0) X(actuator_lengthrange, m.nu, 2)    \
  X(actuator_acc0, m.nu, 0) X(actuator_length0, m.nu, 0)                                         \
  X(tendon_adr, m.ntendon, 0) X(tendon_num, m.ntendon, 0) X(tendon_limited, m.ntendon, 0)        \
  X(tendon_solref_lim, m.ntendon, kNRef) X(tendon_solimp_lim, m.ntendon, kNImp)                  \
  X(tendon_solref_fri, m.ntendon, kNRef) X(tendon_solimp_fri, m.ntendon, kNImp)                  \
  X(tendon_range, m.ntendon, 2) X(tendon_margin, m.ntendon, 0)                                   \
  X(tendon_stiffness, m.ntendon, 0) X(tendon_stiffnesspoly, static_cast<long>(m.tendon_stiffnesspoly.size() / 2), 2) X(tendon_damping, m.ntendon, 0)                              \
  X(tendon_frictionloss, m.ntendon, 0) X(tendon_lengthspring, m.ntendon, 0) X(tendon_lengthspring_upper, m.ntendon, 0)                      \
  X(tendon_armature, m.ntendon, 0) X(tendon_actfrclimited, m.ntendon, 0)                         \
  X(tendon_actfrcrange, m.ntendon, 2)                                                            \
  X(tendon_length0, m.ntendon, 0) X(tendon_invweight0, m.ntendon, 0)                             \
  X(wrap_type, m.nwrap, 0) X(wrap_objid, m.nwrap, 0) X(wrap_prm, m.nwrap, 0)                     \
  X(eq_type, m.neq, 0) X(eq_obj1id, m.neq, 0) X(eq_obj2id, m.neq, 0) X(eq_active0, m.neq, 0)     \
  X(eq_solref, m.neq, kNRef) X(eq_solimp, m.neq, kNImp) X(eq_data, m.neq, 11) X(eq_frame2quat, static_cast<long>(m.eq_frame2quat.size() / 4), 4)                    \
  X(pair_geom1, m.npair, 0) X(pair_geom2, m.npair, 0) X(pair_condim, m.npair, 0)                 \
  X(pair_solref, m.npair, kNRef) X(pair_solimp, m.npair, kNImp) X(pair_margin, m.npair, 0)       \
  X(geom_surfacevel, m.ngeom, 6) X(geom_adhesion, m.ngeom, 0) X(pair_adhesion, m.npair, 0) X(pair_gap, m.npair, 0) X(pair_friction, m.npair, 5) X(pair_solreffriction, m.npair, kNRef)   \
  X(exclude_body1, m.nexclude, 0) X(exclude_body2, m.nexclude, 0)                                \
  X(sensor_objtype, m.nsensor, 0) X(sensor_objid, m.nsensor, 0) X(sensor_reftype, m.nsensor, 0)  \
  X(sensor_refid, m.nsensor, 0) X(sensor_dim, m.nsensor, 0) X(sensor_adr, m.nsensor, 0)          \
  X(sensor_needstage, m.nsensor, 0) X(sensor_cutoff, m.nsensor, 0) X(sensor_noise, m.nsensor, 0) \
  X(sensor_datatype, m.nsensor, 0)                                                               \
  X(sensor_intprm, static_cast<long>(m.sensor_intprm.size() / 3), 3)                             \
  X(key_time, m.nkey, 0) X(key_qpos, m.nkey, m.nq) X(key_qvel, m.nkey, m.nv)                     \
  X(key_act, m.nkey, m.na) X(key_ctrl, m.nkey, m.nu)                                             \
  X(key_mpos, m.nkey, m.nmocap * 3) X(key_mquat, m.nkey, m.nmocap * 4)                           \
  X(numeric_adr, m.nnumeric, 0) X(numeric_size, m.nnumeric, 0)                                   \
  X(numeric_data, static_cast<long>(m.numeric_data.size()), 0)                                   \
  X(dof_length, m.nv, 0) X(body_treeid, m.nbody, 0) X(dof_treeid, m.nv, 0)                       \
  X(tree_bodyadr, m.ntree, 0) X(tree_bodynum, m.ntree, 0) X(tree_dofadr, m.ntree, 0)             \
  X(tree_dofnum, m.ntree, 0) X(body_sleep, m.nbody, 0) X(tree_sleep_policy, m.ntree, 0)          \
  X(body_simple, m.nbody, 0) X(dof_simplenum, m.nv, 0)                                          \
  X(geom_matid, m.ngeom, 0) X(site_rgba, m.nsite, 4) X(site_matid, m.nsite, 0)                   \
  X(mat_rgba, m.nmat, 4)                                                                         \
  X(skin_matid, m.nskin, 0) X(skin_group, m.nskin, 0) X(skin_rgba, m.nskin, 4)                   \
  X(skin_inflate, m.nskin, 0) X(skin_vertadr, m.nskin, 0) X(skin_vertnum, m.nskin, 0)            \
  X(skin_faceadr, m.nskin, 0) X(skin_facenum, m.nskin, 0) X(skin_boneadr, m.nskin, 0)            \
  X(skin_bonenum, m.nskin, 0) X(skin_vert, m.nskinvert, 3) X(skin_face, m.nskinface, 3)          \
  X(skin_bonevertadr, m.nskinbone, 0) X(skin_bonevertnum, m.nskinbone, 0)                        \
  X(skin_bonebindpos, m.nskinbone, 3) X(skin_bonebindquat, m.nskinbone, 4)                       \
  X(skin_bonebodyid, m.nskinbone, 0) X(skin_bonevertid, m.nskinbonevert, 0)                      \
  X(skin_bonevertweight, m.nskinbonevert, 0)

#define GAUSS_MODEL_SIZES(X)                                                                   \
  X(nq) X(nv) X(nu) X(na) X(nbody) X(njnt) X(ngeom) X(nsite) X(ncam) X(nmocap) X(neq)         \
  X(ntendon)                                                                                   \
  X(nwrap) X(nsensor) X(nsensordata) X(npair) X(nexclude) X(nkey) X(nnumeric) X(nM) X(nconmax) \
  X(njmax) X(nmesh) X(nmeshvert) X(nmeshface) X(nmeshgraph) X(nhfield) X(nhfielddata)         \
  X(ntree) X(nmat) X(nskin) X(nskinvert) X(nskinface) X(nskinbone) X(nskinbonevert)

// Element-name lists: Python name -> Model member.
#define GAUSS_MODEL_NAMES(X)                                                                    \
  X(body_names, body_name) X(joint_names, jnt_name) X(geom_names, geom_name)                   \
  X(site_names, site_name) X(actuator_names, actuator_name) X(tendon_names, tendon_name)       \
  X(sensor_names, sensor_name) X(eq_names, eq_name) X(key_names, key_name)                     \
  X(mesh_names, mesh_name) X(hfield_names, hfield_name) X(numeric_names, numeric_name)       \
  X(material_names, mat_name) X(skin_names, skin_name) X(camera_names, cam_name)

const char* ConeName(Cone c) { return c == Cone::kElliptic ? "elliptic" : "pyramidal"; }

const char* JacobianName(JacobianType j) {
  switch (j) {
    case JacobianType::kDense: return "dense";
    case JacobianType::kSparse: return "sparse";
    default: return "auto";
  }
}

// The resolved options as a dict (a snapshot: options are immutable once compiled).
py::dict OptionsDict(const Options& o) {
  py::dict d;
  d["timestep"] = o.timestep;
  d["integrator"] = o.integrator;
  d["solver"] = o.solver;
  d["iterations"] = o.iterations;
  d["tolerance"] = o.tolerance;
  d["impratio"] = o.impratio;
  d["cone"] = ConeName(o.cone);
  d["jacobian"] = JacobianName(o.jacobian);
  d["gravity"] = py::make_tuple(o.gravity[0], o.gravity[1], o.gravity[2]);
  d["wind"] = py::make_tuple(o.wind[0], o.wind[1], o.wind[2]);
  d["density"] = o.density;
  d["viscosity"] = o.viscosity;
  d["disableactuator"] = o.disableactuator;  // 3.x actuatorgroupdisable: bit g = group g off
  py::dict flags;
  for (int i = 0; i < kNumDisableBits; ++i) flags[kDisableNames[i]] = !o.Disabled(DisableBit(1u << i));
  for (int i = 0; i < kNumEnableBits; ++i) flags[kEnableNames[i]] = o.Enabled(EnableBit(1u << i));
  d["flags"] = flags;
  return d;
}

}  // namespace

void BindModel(py::module_& mod) {
  py::class_<PyModel, std::shared_ptr<PyModel>> cls(mod, "Model",
      "A compiled MJCF model (immutable). Arrays are read-only NumPy views of the C++ buffers.");
  cls.def_property_readonly("name", [](const PyModel& p) { return p.model->name; })
      .def_property_readonly("source_file", [](const PyModel& p) { return p.model->source_file; })
      .def_property_readonly("opt", [](const PyModel& p) { return OptionsDict(p.model->opt); },
                             "resolved options (timestep, integrator, solver, flags, ...) as a dict")
      .def_property_readonly("stat_meaninertia", [](const PyModel& p) { return p.model->stat_meaninertia; })
      .def_property_readonly("stat_meanmass", [](const PyModel& p) { return p.model->stat_meanmass; })
      .def_property_readonly("stat_extent", [](const PyModel& p) { return p.model->stat_extent; })
      .def("__repr__", [](const PyModel& p) {
        const Model& m = *p.model;
        return "<gauss.Model '" + m.name + "' nq=" + std::to_string(m.nq) + " nv=" +
               std::to_string(m.nv) + " nu=" + std::to_string(m.nu) + " nbody=" +
               std::to_string(m.nbody) + ">";
      });
#define GAUSS_BIND_SIZE(field) \
  cls.def_property_readonly(#field, [](const PyModel& p) { return p.model->field; });
  GAUSS_MODEL_SIZES(GAUSS_BIND_SIZE)
#undef GAUSS_BIND_SIZE
#define GAUSS_BIND_NAMES(pyname, field) \
  cls.def_property_readonly(#pyname, [](const PyModel& p) { return p.model->field; });
  GAUSS_MODEL_NAMES(GAUSS_BIND_NAMES)
#undef GAUSS_BIND_NAMES
  cls.def_property_readonly("sensor_types", [](const PyModel& p) { return p.model->sensor_type; });
  cls.def_property_readonly("actuator_plugins", [](const PyModel& p) { return p.model->actuator_plugin; });
  cls.def_property_readonly("sensor_plugins", [](const PyModel& p) { return p.model->sensor_plugin; });
  cls.def_property_readonly("sensor_plugin_configs",
                            [](const PyModel& p) { return p.model->sensor_plugin_config; });
#define GAUSS_BIND_ARRAY(field, rows, cols)                                    \
  cls.def_property_readonly(#field, [](py::object self) {                      \
    const Model& m = *self.cast<const PyModel&>().model;                       \
    return MakeView(m.field, static_cast<long>(rows), static_cast<long>(cols), \
                    self, /*writable=*/false);                                 \
  });
  GAUSS_MODEL_ARRAYS(GAUSS_BIND_ARRAY)
#undef GAUSS_BIND_ARRAY

  mod.def("_load_model_file", [](const std::string& path) {
        return std::make_shared<PyModel>(PyModel{LoadModel(path)});
      }, py::arg("path"), "Parses and compiles the MJCF file at `path`.");
  mod.def("_load_model_string", [](const std::string& xml, const std::string& virtual_path) {
        return std::make_shared<PyModel>(PyModel{LoadModelFromString(xml, virtual_path)});
      }, py::arg("xml"), py::arg("virtual_path") = "<string>",
      "Parses and compiles MJCF text; `virtual_path` names it in errors and anchors includes.");
}

}  // namespace gauss::python

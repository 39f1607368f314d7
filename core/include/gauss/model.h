// The compiled model: immutable after compilation, struct-of-arrays per element kind.
//
// Field names follow the MuJoCo conventions (body_, jnt_, dof_, geom_, site_, actuator_,
// tendon_, eq_, sensor_ prefixes) so that a reader of the Computation chapter navigates at
// once. Each array's shape is given in its comment; "(n x k)" arrays are row-major, k values per
// element. Index 0 of the bodies is the world body.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "gauss/options.h"
#include "gauss/types.h"

namespace gauss {

struct Model {
  // ---------------------------------------------------------------- sizes
  int nq = 0;        // number of generalized coordinates
  int nv = 0;        // number of degrees of freedom
  int nu = 0;        // number of actuators
  int na = 0;        // number of activation states
  int nbody = 0;     // number of bodies, including the world body
  int njnt = 0;      // number of joints
  int ngeom = 0;     // number of geoms
  int nsite = 0;     // number of sites
  int ncam = 0;      // number of cameras
  int nmocap = 0;    // number of mocap bodies
  int ntree = 0;     // number of kinematic trees with dofs (children of the world; trees.h)
  int neq = 0;       // number of equality constraints
  int ntendon = 0;   // number of tendons
  int nwrap = 0;     // number of tendon path elements
  int nsensor = 0;   // number of sensors
  int nsensordata = 0;
  int npair = 0;     // number of explicit contact pairs
  int nexclude = 0;  // number of excluded body pairs
  int nkey = 0;      // number of keyframes
  int nnumeric = 0;  // number of <custom><numeric> entries
  int nM = 0;        // nonzeros of the tree-sparse inertia matrix (lower triangle)
  int nconmax = 0;   // contact buffer size (from <size nconmax>, or derived)
  int njmax = 0;     // constraint row buffer size (from <size njmax>, or derived)
  int nmesh = 0;      // number of meshes
  int nmeshvert = 0;  // vertices of all meshes
  int nmeshface = 0;  // triangles of all meshes
  int nmeshgraph = 0; // ints of all convex-hull graphs (mesh_graph)
  int nhfield = 0;      // number of height fields
  int nhfielddata = 0;  // elevation samples of all height fields (hfield_data)
  int nmat = 0;       // number of materials
  int nskin = 0;          // number of skins
  int nskinvert = 0;      // vertices of all skins
  int nskinface = 0;      // triangles of all skins
  int nskinbone = 0;      // bones of all skins
  int nskinbonevert = 0;  // (bone, vertex) weights of all skins

  std::string name;         // <mujoco model="...">
  std::string source_file;  // path of the top-level MJCF file ("" when loaded from a string)

  Options opt;

  // ---------------------------------------------------------------- default pose
  std::vector<double> qpos0;        // (nq) reference configuration
  std::vector<double> qpos_spring;  // (nq) spring reference configuration

  // ---------------------------------------------------------------- bodies
  std::vector<int> body_parentid;    // (nbody) parent body; the world's parent is itself (0)
  std::vector<int> body_rootid;      // (nbody) child-of-world ancestor (0 for the world)
  std::vector<int> body_weldid;      // (nbody) nearest ancestor-or-self with joints (0: world)
  std::vector<int> body_mocapid;     // (nbody) index into mocap arrays, -1 if not mocap
  std::vector<int> body_jntnum;      // (nbody) number of joints
  std::vector<int> body_jntadr;      // (nbody) first joint, -1 if none
  std::vector<int> body_dofnum;      // (nbody) number of dofs
  std::vector<int> body_dofadr;      // (nbody) first dof, -1 if none
  std::vector<int> body_geomnum;     // (nbody)
  std::vector<int> body_geomadr;     // (nbody) -1 if none
  std::vector<double> body_pos;      // (nbody x 3) frame position in parent frame
  std::vector<double> body_quat;     // (nbody x 4) frame orientation in parent frame (w,x,y,z)
  std::vector<double> body_ipos;     // (nbody x 3) center of mass in body frame
  std::vector<double> body_iquat;    // (nbody x 4) principal inertia axes in body frame
  std::vector<double> body_mass;     // (nbody)
  std::vector<double> body_subtreemass;  // (nbody) mass of the subtree rooted at the body
  std::vector<double> body_inertia;  // (nbody x 3) principal moments about the com
  std::vector<double> body_invweight0;   // (nbody x 2) mean inverse inertia at qpos0 (trn, rot)
  std::vector<double> body_gravcomp;     // (nbody) gravity compensation fraction
  std::vector<std::string> body_name;    // (nbody)

  // ---------------------------------------------------------------- joints
  std::vector<JointType> jnt_type;   // (njnt)
  std::vector<int> jnt_qposadr;      // (njnt) first qpos index
  std::vector<int> jnt_dofadr;       // (njnt) first dof index
  std::vector<int> jnt_bodyid;       // (njnt)
  std::vector<int> jnt_group;        // (njnt)
  std::vector<unsigned char> jnt_limited;  // (njnt)
  std::vector<double> jnt_solref;    // (njnt x kNRef) limit
  std::vector<double> jnt_solimp;    // (njnt x kNImp) limit
  std::vector<double> jnt_pos;       // (njnt x 3) anchor in body frame
  std::vector<double> jnt_axis;      // (njnt x 3) unit axis in body frame ((0,0,1) for ball/free)
  std::vector<double> jnt_stiffness; // (njnt)
  // (njnt x 2) 3.x polynomial stiffness: the coefficients of x^2 and x^3 of the spring force
  // -(k x + k2 x^2 + k3 x^3), x = qpos - qpos_spring (hinge and slide joints); empty in
  // hand-built models: linear springs
  std::vector<double> jnt_stiffnesspoly;
  std::vector<double> jnt_range;     // (njnt x 2) limits (radians for hinge/ball)
  std::vector<double> jnt_margin;    // (njnt) limit activation margin
  // (njnt) MuJoCo 3.x actuatorfrclimited: clamp the total actuator force on the joint's dof
  // (hinge and slide) to jnt_actfrcrange (njnt x 2)
  std::vector<unsigned char> jnt_actfrclimited;
  std::vector<double> jnt_actfrcrange;
  // (njnt) MuJoCo 3.x actuatorgravcomp: the body gravcomp force on the joint's dofs
  // (qfrc_gravcomp) goes to qfrc_actuator instead of qfrc_passive; empty: none
  std::vector<unsigned char> jnt_actgravcomp;
  std::vector<std::string> jnt_name; // (njnt)

  // ---------------------------------------------------------------- dofs
  std::vector<int> dof_bodyid;          // (nv)
  std::vector<int> dof_jntid;           // (nv)
  std::vector<int> dof_parentid;        // (nv) parent dof in the kinematic tree, -1 if none
  std::vector<int> dof_Madr;            // (nv) address of the diagonal element in qM
  std::vector<double> dof_solref;       // (nv x kNRef) friction loss
  std::vector<double> dof_solimp;       // (nv x kNImp) friction loss
  std::vector<double> dof_frictionloss; // (nv)
  std::vector<double> dof_armature;     // (nv)
  std::vector<double> dof_damping;      // (nv)
  std::vector<double> dof_invweight0;   // (nv) diagonal of inv(M) at qpos0
  std::vector<double> dof_length;       // (nv) length scale (m): 1 for translational dofs, the
                                        // size of the moving geoms for rotational ones (sleep)

  // ---------------------------------------------------------------- simple bodies
  // MuJoCo's "simple" bodies (core/src/simple_bodies.h): a body whose block of M is diagonal
  // by construction (its inertial frame is its joint frame, its joints sit at the body origin
  // on body axes, at most one rotational joint and it last, no moving parent, no child), so
  // the composite inertia writes only the diagonal of its rows and the factorization, the
  // solves and the product with M skip their off-diagonals. Written by CompileTrees.
  std::vector<int> body_simple;         // (nbody) 0: no; 1: simple; 2: simple and only slides
  std::vector<int> dof_simplenum;       // (nv) how many consecutive dofs from this one are in
                                        // simple bodies (0: the dof's body is not simple)

  // ---------------------------------------------------------------- kinematic trees
  // A tree is a child of the world with all its descendants, counted when it has dofs; its
  // bodies and its dofs are contiguous. Written by CompileTrees (core/src/trees.h).
  std::vector<int> body_treeid;         // (nbody) tree of the body, -1 for static bodies
  std::vector<int> dof_treeid;          // (nv)
  std::vector<int> tree_bodyadr;        // (ntree) first body
  std::vector<int> tree_bodynum;        // (ntree)
  std::vector<int> tree_dofadr;         // (ntree) first dof
  std::vector<int> tree_dofnum;         // (ntree)
  std::vector<int> body_sleep;          // (nbody) MJCF body/sleep as written (SleepPolicy)
  std::vector<int> tree_sleep_policy;   // (ntree) resolved: kSleepNever, kSleepAllowed or
                                        // kSleepInit

  // ---------------------------------------------------------------- geoms
  std::vector<GeomType> geom_type;      // (ngeom)
  std::vector<int> geom_contype;        // (ngeom)
  std::vector<int> geom_conaffinity;    // (ngeom)
  std::vector<int> geom_condim;         // (ngeom) 1, 3, 4 or 6
  std::vector<int> geom_bodyid;         // (ngeom)
  std::vector<int> geom_dataid;         // (ngeom) mesh / hfield id, -1 if none
  std::vector<int> geom_group;          // (ngeom)
  std::vector<int> geom_priority;       // (ngeom)
  std::vector<double> geom_solmix;      // (ngeom)
  std::vector<double> geom_solref;      // (ngeom x kNRef)
  std::vector<double> geom_solimp;      // (ngeom x kNImp)
  std::vector<double> geom_size;        // (ngeom x 3)
  std::vector<double> geom_rbound;      // (ngeom) bounding-sphere radius (0 for planes)
  std::vector<double> geom_pos;         // (ngeom x 3) in body frame
  std::vector<double> geom_quat;        // (ngeom x 4) in body frame
  std::vector<double> geom_friction;    // (ngeom x 3) sliding, torsional, rolling
  std::vector<double> geom_margin;      // (ngeom)
  std::vector<double> geom_gap;         // (ngeom)
  // (ngeom x 6) 3.x surfacevel: linear and angular velocity of the geom's surface in its frame
  // (a conveyor belt), seen by the friction rows of its contacts. Empty in hand-built models.
  std::vector<double> geom_surfacevel;
  // (ngeom) 3.x adhesion: the pull its contacts may exert (a contact's is the sum of its two
  // geoms'; collision.cc, docs/mjcf.md). Empty in hand-built models: none.
  std::vector<double> geom_adhesion;
  std::vector<double> geom_rgba;        // (ngeom x 4) as written (see gauss/visual.h)
  std::vector<int> geom_matid;          // (ngeom) material, -1 if none
  // Ellipsoid fluid model per geom (ngeom x kNFluid), all zero unless fluidshape="ellipsoid":
  // [0] 1 when the geom interacts with the fluid, [1..5] fluidcoef (blunt drag, slender drag,
  // angular drag, Kutta lift, Magnus lift), [6..8] virtual mass and [9..11] virtual moment of
  // inertia of the equivalent ellipsoid per unit fluid density (m^3 and m^5), geom frame axes.
  std::vector<double> geom_fluid;
  std::vector<std::string> geom_name;   // (ngeom)

  // ---------------------------------------------------------------- meshes
  // Vertices in the mesh frame (centre of mass, principal axes); hull layout in gauss/mesh.h.
  std::vector<int> mesh_vertadr;        // (nmesh) first vertex in mesh_vert
  std::vector<int> mesh_vertnum;        // (nmesh)
  std::vector<int> mesh_faceadr;        // (nmesh) first triangle in mesh_face
  std::vector<int> mesh_facenum;        // (nmesh)
  std::vector<int> mesh_graphadr;       // (nmesh) first int of the convex hull in mesh_graph
  std::vector<double> mesh_vert;        // (nmeshvert x 3)
  std::vector<int> mesh_face;           // (nmeshface x 3) vertex indices within the mesh
  std::vector<int> mesh_graph;          // (nmeshgraph) convex hulls, see gauss/mesh.h
  std::vector<std::string> mesh_name;   // (nmesh)

  // ---------------------------------------------------------------- height fields
  // A grid of nrow x ncol elevations over [-size0, size0] x [-size1, size1] of the geom frame:
  // sample (r, c) sits at x = -size0 + 2 size0 c / (ncol - 1), y = -size1 + 2 size1 r /
  // (nrow - 1), z = data * size2; the solid extends down to z = -size3. The loader scales
  // file and inline data to [0, 1] (all-zero fields stay 0). A program may write hfield_data
  // of a copy of the Model before making an Engine from it (docs/mjcf.md, "Height fields").
  std::vector<double> hfield_size;      // (nhfield x 4) radius_x, radius_y, elevation_z, base_z
  std::vector<int> hfield_nrow;         // (nhfield) rows (along y), >= 2
  std::vector<int> hfield_ncol;         // (nhfield) columns (along x), >= 2
  std::vector<int> hfield_adr;          // (nhfield) first sample in hfield_data
  std::vector<double> hfield_data;      // (nhfielddata) row-major elevations in [0, 1]
  std::vector<std::string> hfield_name; // (nhfield)

  // ---------------------------------------------------------------- sites
  std::vector<int> site_type;           // (nsite) a GeomType value
  std::vector<int> site_bodyid;         // (nsite)
  std::vector<double> site_size;        // (nsite x 3)
  std::vector<double> site_pos;         // (nsite x 3) in body frame
  std::vector<double> site_quat;        // (nsite x 4) in body frame
  std::vector<double> site_rgba;        // (nsite x 4) as written (see gauss/visual.h)
  std::vector<int> site_matid;          // (nsite) material, -1 if none
  std::vector<std::string> site_name;   // (nsite)

  // ---------------------------------------------------------------- cameras (camera.cc)
  // Pose in the body frame and how it moves (CamMode); the *0 fields are the world pose at
  // qpos0 relative to the body (pos0), to the target's (or the body's) subtree com (poscom0)
  // and the orientation (mat0), which the track modes keep. Intrinsics as MuJoCo 3.x compiles
  // them, in its single precision (values rounded to float): with a sensor size, intrinsic =
  // (focal x, focal y, principal x, principal y) in length units and fovy follows from them;
  // without one, intrinsic[0..1] = visual znear (0.01) and fovy is as written.
  std::vector<CamMode> cam_mode;        // (ncam)
  std::vector<int> cam_bodyid;          // (ncam)
  std::vector<int> cam_targetbodyid;    // (ncam) -1 if none
  std::vector<double> cam_pos;          // (ncam x 3) in body frame
  std::vector<double> cam_quat;         // (ncam x 4) in body frame
  std::vector<double> cam_poscom0;      // (ncam x 3)
  std::vector<double> cam_pos0;         // (ncam x 3)
  std::vector<double> cam_mat0;         // (ncam x 9) row-major
  std::vector<int> cam_orthographic;    // (ncam) 0 perspective, 1 orthographic
  std::vector<double> cam_fovy;         // (ncam) vertical field of view, degrees
  std::vector<double> cam_ipd;          // (ncam) inter-pupillary distance
  std::vector<int> cam_resolution;      // (ncam x 2) pixels (width, height)
  std::vector<double> cam_sensorsize;   // (ncam x 2) sensor size (width, height), 0 if none
  std::vector<double> cam_intrinsic;    // (ncam x 4) see above
  std::vector<std::string> cam_name;    // (ncam)

  // ---------------------------------------------------------------- materials (visual only)
  std::vector<double> mat_rgba;         // (nmat x 4)
  std::vector<std::string> mat_name;    // (nmat)

  // ---------------------------------------------------------------- skins (visual only)
  // A skin is a triangle mesh whose vertices follow bone bodies (gauss/visual.h SkinVertices).
  std::vector<int> skin_matid;          // (nskin) material, -1 if none
  std::vector<int> skin_group;          // (nskin)
  std::vector<double> skin_rgba;        // (nskin x 4)
  std::vector<double> skin_inflate;     // (nskin) offset along the vertex normals
  std::vector<int> skin_vertadr;        // (nskin) first vertex in skin_vert
  std::vector<int> skin_vertnum;        // (nskin)
  std::vector<int> skin_faceadr;        // (nskin) first triangle in skin_face
  std::vector<int> skin_facenum;        // (nskin)
  std::vector<int> skin_boneadr;        // (nskin) first bone
  std::vector<int> skin_bonenum;        // (nskin)
  std::vector<double> skin_vert;        // (nskinvert x 3) bind-pose positions (world frame)
  std::vector<int> skin_face;           // (nskinface x 3) vertex indices within the skin
  std::vector<int> skin_bonevertadr;    // (nskinbone) first entry in skin_bonevert*
  std::vector<int> skin_bonevertnum;    // (nskinbone)
  std::vector<double> skin_bonebindpos;   // (nskinbone x 3) body position in the bind pose
  std::vector<double> skin_bonebindquat;  // (nskinbone x 4) body orientation in the bind pose
  std::vector<int> skin_bonebodyid;     // (nskinbone)
  std::vector<int> skin_bonevertid;     // (nskinbonevert) vertex index within the skin
  std::vector<double> skin_bonevertweight;  // (nskinbonevert) each vertex's weights sum to 1
  std::vector<std::string> skin_name;   // (nskin)

  // ---------------------------------------------------------------- actuators
  // Compiled from every MJCF actuator shortcut into the <general> form.
  std::vector<TrnType> actuator_trntype;     // (nu)
  std::vector<DynType> actuator_dyntype;     // (nu)
  std::vector<GainType> actuator_gaintype;   // (nu)
  std::vector<BiasType> actuator_biastype;   // (nu)
  std::vector<int> actuator_trnid;           // (nu x 2) target id(s); second for slidercrank/refsite
  std::vector<int> actuator_actadr;          // (nu) first activation, -1 if stateless
  std::vector<int> actuator_actnum;          // (nu) number of activations
  std::vector<unsigned char> actuator_ctrllimited;   // (nu)
  std::vector<unsigned char> actuator_forcelimited;  // (nu)
  std::vector<unsigned char> actuator_actlimited;    // (nu)
  std::vector<unsigned char> actuator_actearly;      // (nu) force from the next activation
  std::vector<double> actuator_dynprm;       // (nu x kNDyn)
  std::vector<double> actuator_gainprm;      // (nu x kNGain)
  std::vector<double> actuator_biasprm;      // (nu x kNBias)
  std::vector<double> actuator_ctrlrange;    // (nu x 2)
  std::vector<double> actuator_forcerange;   // (nu x 2)
  std::vector<double> actuator_actrange;     // (nu x 2)
  std::vector<double> actuator_gear;         // (nu x 6)
  std::vector<double> actuator_cranklength;  // (nu)
  std::vector<double> actuator_lengthrange;  // (nu x 2)
  std::vector<double> actuator_acc0;         // (nu) |M^-1 moment| at qpos0 (muscle force scale)
  std::vector<double> actuator_length0;      // (nu) actuator length at qpos0
  std::vector<int> actuator_group;           // (nu) MJCF group (opt.disableactuator's bits)
  std::vector<std::string> actuator_plugin;  // (nu) name of the ActuatorDynamics plugin
  std::vector<std::string> actuator_name;    // (nu)

  // ---------------------------------------------------------------- tendons
  std::vector<int> tendon_adr;               // (ntendon) first wrap element
  std::vector<int> tendon_num;               // (ntendon) number of wrap elements
  std::vector<unsigned char> tendon_limited; // (ntendon)
  std::vector<double> tendon_solref_lim;     // (ntendon x kNRef)
  std::vector<double> tendon_solimp_lim;     // (ntendon x kNImp)
  std::vector<double> tendon_solref_fri;     // (ntendon x kNRef)
  std::vector<double> tendon_solimp_fri;     // (ntendon x kNImp)
  std::vector<double> tendon_range;          // (ntendon x 2)
  std::vector<double> tendon_margin;         // (ntendon)
  std::vector<double> tendon_stiffness;      // (ntendon)
  // (ntendon x 2) 3.x polynomial stiffness, as jnt_stiffnesspoly with x the stretch beyond
  // the spring's dead band; empty in hand-built models: linear springs
  std::vector<double> tendon_stiffnesspoly;
  std::vector<double> tendon_damping;        // (ntendon)
  std::vector<double> tendon_frictionloss;   // (ntendon)
  std::vector<double> tendon_lengthspring;   // (ntendon)
  // (ntendon) 3.x: upper end of the spring's dead band [tendon_lengthspring, upper], in which
  // the tendon spring exerts no force; equal to tendon_lengthspring without a dead band. Empty
  // in hand-built models: no dead band.
  std::vector<double> tendon_lengthspring_upper;
  // (ntendon) 3.x armature: inertia of the tendon's length, adding armature * J' J to qM on
  // the entries the tree-sparse qM stores (dofs on one branch; see docs/mjcf.md) and the
  // matching bias armature * J' (dJ/dt qvel) to qfrc_bias. Empty in hand-built models: none.
  std::vector<double> tendon_armature;
  // (ntendon) 3.x actuatorfrclimited: the sum of actuator_force over the actuators whose
  // transmission is the tendon is kept in tendon_actfrcrange (ntendon x 2) by scaling those
  // forces. Empty in hand-built models: no limit.
  std::vector<unsigned char> tendon_actfrclimited;
  std::vector<double> tendon_actfrcrange;
  std::vector<double> tendon_length0;        // (ntendon) length at qpos0
  std::vector<double> tendon_invweight0;     // (ntendon) inverse weight J M^-1 J' at qpos0
  std::vector<std::string> tendon_name;      // (ntendon)
  std::vector<WrapType> wrap_type;           // (nwrap)
  std::vector<int> wrap_objid;               // (nwrap) joint, site or geom id
  std::vector<double> wrap_prm;              // (nwrap) joint coef, pulley divisor, side site id

  // ---------------------------------------------------------------- equality constraints
  std::vector<EqType> eq_type;               // (neq)
  std::vector<int> eq_obj1id;                // (neq)
  std::vector<int> eq_obj2id;                // (neq) -1 if none
  std::vector<unsigned char> eq_active0;     // (neq) initial active state
  std::vector<double> eq_solref;             // (neq x kNRef)
  std::vector<double> eq_solimp;             // (neq x kNImp)
  std::vector<double> eq_data;               // (neq x 11) type-specific data
  // (neq x 4) 3.x weld between sites: site2's orientation in body2, the frame in which
  // MuJoCo 3.x measures the rotational residual (eq_data's is body2's); empty in hand-built
  // models: identity for every constraint
  std::vector<double> eq_frame2quat;
  std::vector<std::string> eq_name;          // (neq)

  // ---------------------------------------------------------------- explicit contact pairs
  std::vector<int> pair_geom1;               // (npair)
  std::vector<int> pair_geom2;               // (npair)
  std::vector<int> pair_condim;              // (npair)
  std::vector<double> pair_solref;           // (npair x kNRef)
  std::vector<double> pair_solimp;           // (npair x kNImp)
  // (npair x kNRef) 3.x: solref of the friction rows of the pair's elliptic-cone contacts;
  // (0, 0): those rows use pair_solref. Empty in hand-built models: (0, 0) for every pair.
  std::vector<double> pair_solreffriction;
  // (npair) 3.x adhesion of the pair's contacts, replacing the geoms'. Empty in hand-built
  // models: none.
  std::vector<double> pair_adhesion;
  std::vector<double> pair_margin;           // (npair)
  std::vector<double> pair_gap;              // (npair)
  std::vector<double> pair_friction;         // (npair x 5)
  std::vector<int> exclude_body1;            // (nexclude)
  std::vector<int> exclude_body2;            // (nexclude)

  // ---------------------------------------------------------------- sensors
  std::vector<std::string> sensor_type;      // (nsensor) MJCF element name, e.g. "jointpos"
  std::vector<ObjType> sensor_objtype;       // (nsensor)
  std::vector<int> sensor_objid;             // (nsensor)
  std::vector<ObjType> sensor_reftype;       // (nsensor)
  std::vector<int> sensor_refid;             // (nsensor) -1 if none
  std::vector<int> sensor_dim;               // (nsensor)
  std::vector<int> sensor_adr;               // (nsensor) address in sensordata
  std::vector<Stage> sensor_needstage;       // (nsensor) kNone: never evaluated (user sensors)
  std::vector<SensorDataType> sensor_datatype;  // (nsensor) how noise and cutoff apply
  std::vector<double> sensor_cutoff;         // (nsensor)
  std::vector<double> sensor_noise;          // (nsensor)
  // (nsensor x 3) 3.x contact sensors: (bits of the data fields found, force, torque, dist,
  // pos, normal, tangent; reduce 0 none, 1 mindist, 2 maxforce, 3 netforce; num); 0 for the
  // other sensors (MuJoCo 3.x's sensor_intprm). May be empty when no contact sensor exists.
  std::vector<int> sensor_intprm;
  std::vector<std::string> sensor_plugin;    // (nsensor) name of the Sensor plugin; "user":
                                             // the Engine's sensor callback (engine.h)
  // (nsensor) the parameters its plugin instance is configured with (MJCF <config key value>);
  // sensors with the same plugin and the same parameters share one instance
  std::vector<std::map<std::string, std::string>> sensor_plugin_config;
  std::vector<std::string> sensor_name;      // (nsensor)

  // ---------------------------------------------------------------- keyframes and custom data
  std::vector<double> key_time;              // (nkey)
  std::vector<double> key_qpos;              // (nkey x nq)
  std::vector<double> key_qvel;              // (nkey x nv)
  std::vector<double> key_act;               // (nkey x na)
  std::vector<double> key_ctrl;              // (nkey x nu)
  std::vector<double> key_mpos;              // (nkey x nmocap x 3) mocap body positions
  std::vector<double> key_mquat;             // (nkey x nmocap x 4) mocap body orientations
  std::vector<std::string> key_name;         // (nkey)
  std::vector<std::string> numeric_name;     // (nnumeric)
  std::vector<int> numeric_adr;              // (nnumeric)
  std::vector<int> numeric_size;             // (nnumeric)
  std::vector<double> numeric_data;          // (sum of numeric_size)

  // ---------------------------------------------------------------- derived statistics
  double stat_meaninertia = 1;  // mean diagonal of M at qpos0 (solver scaling)
  double stat_meanmass = 1;
  double stat_extent = 1;

  // Look up an element id by name; -1 if absent.
  int BodyId(const std::string& name) const;
  int JointId(const std::string& name) const;
  int GeomId(const std::string& name) const;
  int SiteId(const std::string& name) const;
  int CameraId(const std::string& name) const;
  int ActuatorId(const std::string& name) const;
};

// MuJoCo 3.x actuatorgroupdisable: is actuator a in a disabled group? Groups 0..30 can be
// disabled; others never are (as in MuJoCo 3.12.1, measured). A disabled actuator produces no
// force (nor force derivative) and its activation does not change, except by actrange.
// (opt.disableactuator, actuator_group) => whether actuator a is disabled
inline bool ActuatorDisabled(const Model& m, int a) {
  if (m.opt.disableactuator == 0) return false;
  const int group = m.actuator_group[a];
  return group >= 0 && group <= 30 && ((m.opt.disableactuator >> group) & 1u) != 0;
}

}  // namespace gauss

// Kernel quantities that sensors compute on demand, exported for Sensor plugins: object
// velocities and accelerations, subtree momenta, the post-constraint Newton-Euler pass (body
// accelerations and interaction forces including constraint forces), contact forces in the
// contact frame, potential and kinetic energy, and ray casting against geoms.
//
// None of these runs in the fixed pipeline: a sensor that needs one calls it, as MuJoCo's
// mj_sensorVel / mj_sensorAcc call mj_subtreeVel / mj_rnePostConstraint. None takes scratch
// memory from the arena; all work on fixed-size locals.
//
// Spatial vectors are [rotational(3), translational(3)], like cvel, cacc and cfrc_*.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/types.h"

namespace gauss {

// ---------------------------------------------------------------- frames and motion (subtree.cc)

// Re-expresses a spatial vector given at `oldpos` at the point `newpos` (both in world
// coordinates): a motion vector (force=false) keeps its angular part and shifts its linear part,
// a force vector keeps its force and shifts its torque. With `rot` (a 3x3 row-major rotation,
// local-to-world) the result is then rotated into that frame; null keeps world axes.
void TransformSpatial(double res[6], const double vec[6], bool force, const double newpos[3],
                      const double oldpos[3], const double* rot);

// (objtype, id) => the frame sensors use for an object, or false for an object type without one.
// kBody: inertial frame (xipos, ximat); kXBody: body frame (xpos, xmat); kGeom, kSite and
// kCamera: their frames (cam_xpos, cam_xmat). `pos`, `mat` point into Data.
bool ObjectFrame(const Model& m, const Data& d, ObjType type, int id, const double** pos,
                 const double** mat);
// (xquat, body_iquat / geom_quat / site_quat / cam_quat) => world orientation quaternion of the
// same frame (for a camera its fixed-mode orientation, whatever its mode, as MuJoCo 3.12).
void ObjectQuat(const Model& m, const Data& d, ObjType type, int id, double quat[4]);

// (cvel, subtree_com, object frame) => res: the 6D velocity of the object's frame origin, with
// world axes, or with the object's own axes when `local`.
void ObjectVelocity(const Model& m, const Data& d, ObjType type, int id, double res[6],
                    bool local);
// (cvel, cacc, subtree_com, object frame) => res: the 6D acceleration of the object's frame origin
// (world or local axes); the linear part is the acceleration of that material point, including
// the w x v term, and includes -gravity because cacc of the world is -gravity.
// Needs cacc from RnePostConstraint.
void ObjectAcceleration(const Model& m, const Data& d, ObjType type, int id, double res[6],
                        bool local);

// (xipos, ximat, cvel, subtree_com, body_mass, body_inertia) => (subtree_linvel, subtree_angmom):
// the velocity of every subtree's center of mass and its angular momentum about it.
void SubtreeVelocity(const Model& m, Data& d);

// ---------------------------------------------------- constraint forces (rne_post_constraint.cc)

// Contact force from the pyramid edge forces of a pyramidal contact with `dim` > 1:
// force[0] = normal = sum of the 2(dim-1) edge forces, force[1+i] = mu[i] (f+ - f-) of the edge
// pair i. force has `dim` entries; dim == 1 copies the single normal row.
void DecodePyramid(double* force, const double* pyramid, const double* mu, int dim);

// (contact[id], efc_force, opt.cone) => result[6]: the force (normal, tangent1, tangent2) and
// torque (spin, roll1, roll2) of contact `id` in its contact frame, zero beyond its dim or when
// it has no constraint rows. Elliptic and frictionless rows are the contact-frame components.
void ContactForce(const Model& m, const Data& d, int id, double result[6]);

// (qpos-stage quantities, cvel, cdof_dot, qvel, qacc, xfrc_applied, contacts, efc_force) =>
// (cacc, cfrc_ext, cfrc_int): body accelerations with the final qacc (world: -gravity), the
// external forces on each body (applied forces, contact forces, connect and weld constraint
// forces) and the interaction force each body receives from its parent, all com-based.
void RnePostConstraint(const Model& m, Data& d);

// ---------------------------------------------------------------- energy (energy.cc)

// (xipos, qpos, ten_length) => energy[0]: gravitational potential energy plus the energy of
// joint and tendon springs (gravity and springs skipped when disabled). The kernel calls it in
// the position stage when the energy flag is enabled; the e_potential sensor calls it always.
void PotentialEnergy(const Model& m, Data& d);
// (qvel, qM) => energy[1] = qvel' M qvel / 2. Takes nv doubles of arena scratch (reserved by
// the kernel). The kernel calls it in the velocity stage when the energy flag is enabled.
void KineticEnergy(const Model& m, Data& d);

// ---------------------------------------------------------------- cameras (camera.cc)

// (cam_xpos, cam_xmat, cam_resolution, cam_sensorsize, cam_intrinsic, cam_fovy) => pixel: the
// image coordinates of the world point `point` seen by camera `cam`, as MuJoCo 3.12's
// camprojection sensor gives them: focal lengths in pixels fx = intrinsic_x / sensorsize_x
// width, fy likewise with the height (in single precision, as MuJoCo), or without a sensor size
// fx = fy = height / (2 tan(fovy / 2)); u = -fx x / z + width / 2, v = fy y / z + height / 2
// with (x, y, z) the point in the camera frame (MuJoCo does not use the principal point here).
void CameraProjection(const Model& m, const Data& d, int cam, const double* point,
                      double pixel[2]);

// (cam_xpos, cam_xmat, cam_resolution, cam_fovy, cam_orthographic) => the ray through the
// centre of pixel (col, row) of camera `cam` (row 0 at the top, col 0 at the left), as MuJoCo
// 3.12's camera rangefinder casts it: a perspective camera's rays start at the camera and point
// along its unit direction to (x, y, -1) in the camera frame, x = (col + 1/2 - width / 2) / f,
// y = (height / 2 - row - 1/2) / f, f = height / (2 tan(fovy / 2)); an orthographic camera's
// rays all point along -z, starting in the camera's plane at (x, y, 0), x = (col + 1/2 - width /
// 2) fovy / width, y = (height / 2 - row - 1/2) fovy / height: the image covers fovy x fovy
// (length units) whatever its aspect, as in MuJoCo 3.12. Cameras with a sensor size (either
// entry nonzero: focal length and principal point) are not handled: false.
bool CameraPixelRay(const Model& m, const Data& d, int cam, int col, int row, double origin[3],
                    double dir[3]);

// ---------------------------------------------------------------- ray casting (ray.cc)

// Distance along the ray pnt + x vec (x >= 0, in units of |vec|) to the surface of a primitive
// of `type` and `size` at (pos, mat), or -1 when it misses. Planes count only from their front
// (+z) side, within their rendered rectangle when size[0..1] > 0. A ray starting inside a solid
// hits its surface from inside. Mesh and height-field types return -1: see RayMesh, RayHfield.
double RayGeom(const double pos[3], const double mat[9], const double size[3],
               const double pnt[3], const double vec[3], GeomType type);

// The same for mesh geom g: its nearest triangle, hit from either side (not its convex hull).
// (mesh_vert, mesh_face, geom_xpos, geom_xmat, geom_size) => distance or -1
double RayMesh(const Model& m, const Data& d, int g, const double pnt[3], const double vec[3]);
// The same for hfield geom g: the solid between its base and its elevation surface (sides
// included, and the plane z = 0 inside it, MuJoCo's top of the base box), each grid cell split along the diagonal from sample (r, c) to (r + 1, c + 1) as
// MuJoCo 2.2.2 splits it. (hfield_*, geom_xpos, geom_xmat) => distance or -1
double RayHfield(const Model& m, const Data& d, int g, const double pnt[3], const double vec[3]);

// (geom_xpos, geom_xmat) => distance to the nearest geom hit by the ray pnt + x vec, x >= 0, and
// its id in *geomid (-1 and -1 when nothing is hit). Excluded: geoms of body `bodyexclude`
// (-1: none), invisible geoms (alpha 0: their material's when they have one, as in MuJoCo
// 2.2.2, else their rgba's), geoms of bodies welded to the world unless
// `include_static`, and geoms other than planes whose group g (clamped to 0..5) has
// geomgroup[g] == 0 when geomgroup is not null (MuJoCo 2.2.2 does not filter planes by group).
double Ray(const Model& m, const Data& d, const double pnt[3], const double vec[3],
           const unsigned char* geomgroup, bool include_static, int bodyexclude, int* geomid);

}  // namespace gauss

// Motion of objects and subtrees, computed on demand for sensors (gauss/sensor_support.h):
// spatial vectors moved between points, the velocity and acceleration of a body, geom or site
// frame, and the linear velocity and angular momentum of every subtree (spec "Sensors";
// MuJoCo's mj_objectVelocity, mj_objectAcceleration and mj_subtreeVel).
//
// The com-based vectors of the pipeline (cvel, cacc) are motion vectors of a tree's reference
// point, the center of mass of its root's subtree (com.cc); an object's velocity is the same
// motion seen at the object's origin.
#include "gauss/math.h"
#include "gauss/sensor_support.h"

namespace gauss {

using namespace math;

// (vec at oldpos) => res at newpos, optionally rotated into rot's frame
void TransformSpatial(double res[6], const double vec[6], bool force, const double newpos[3],
                      const double oldpos[3], const double* rot) {
  double offset[3], shift[3], out[6];
  Sub3(offset, newpos, oldpos);
  if (force) {
    // torque about the new point: tau - (newpos - oldpos) x f
    Cross3(shift, offset, vec + 3);
    Sub3(out, vec, shift);
    Copy3(out + 3, vec + 3);
  } else {
    // velocity of the new point: v - (newpos - oldpos) x w
    Copy3(out, vec);
    Cross3(shift, offset, vec);
    Sub3(out + 3, vec + 3, shift);
  }
  if (rot) {
    MulMatTVec3(res, rot, out);
    MulMatTVec3(res + 3, rot, out + 3);
  } else {
    for (int c = 0; c < 6; ++c) res[c] = out[c];
  }
}

// (xipos, ximat | xpos, xmat | geom_xpos, geom_xmat | site_xpos, site_xmat) => frame pointers
bool ObjectFrame(const Model& m, const Data& d, ObjType type, int id, const double** pos,
                 const double** mat) {
  (void)m;
  switch (type) {
    case ObjType::kBody:
      *pos = d.xipos.data() + 3 * id;
      *mat = d.ximat.data() + 9 * id;
      return true;
    case ObjType::kXBody:
      *pos = d.xpos.data() + 3 * id;
      *mat = d.xmat.data() + 9 * id;
      return true;
    case ObjType::kGeom:
      *pos = d.geom_xpos.data() + 3 * id;
      *mat = d.geom_xmat.data() + 9 * id;
      return true;
    case ObjType::kSite:
      *pos = d.site_xpos.data() + 3 * id;
      *mat = d.site_xmat.data() + 9 * id;
      return true;
    case ObjType::kCamera:
      *pos = d.cam_xpos.data() + 3 * id;
      *mat = d.cam_xmat.data() + 9 * id;
      return true;
    default:
      return false;
  }
}

// (xquat, body_iquat, geom_quat, site_quat) => quat. Composing quaternions (rather than
// converting xmat) gives the same sign convention as the model's quaternions.
void ObjectQuat(const Model& m, const Data& d, ObjType type, int id, double quat[4]) {
  switch (type) {
    case ObjType::kXBody:
      Copy4(quat, d.xquat.data() + 4 * id);
      break;
    case ObjType::kBody:
      MulQuat(quat, d.xquat.data() + 4 * id, m.body_iquat.data() + 4 * id);
      break;
    case ObjType::kGeom:
      MulQuat(quat, d.xquat.data() + 4 * m.geom_bodyid[id], m.geom_quat.data() + 4 * id);
      break;
    case ObjType::kSite:
      MulQuat(quat, d.xquat.data() + 4 * m.site_bodyid[id], m.site_quat.data() + 4 * id);
      break;
    case ObjType::kCamera:  // the fixed-mode orientation whatever the mode (MuJoCo 3.12)
      MulQuat(quat, d.xquat.data() + 4 * m.cam_bodyid[id], m.cam_quat.data() + 4 * id);
      break;
    default:
      SetIdentityQuat(quat);
  }
}

namespace {

// (geom_bodyid, site_bodyid) => the body an object moves with.
int ObjectBody(const Model& m, ObjType type, int id) {
  switch (type) {
    case ObjType::kBody:
    case ObjType::kXBody:
      return id;
    case ObjType::kGeom:
      return m.geom_bodyid[id];
    case ObjType::kSite:
      return m.site_bodyid[id];
    case ObjType::kCamera:
      return m.cam_bodyid[id];
    default:
      return 0;
  }
}

// (cvel or cacc of the object's body, subtree_com) => res at the object's origin.
void ObjectMotion(const Model& m, const Data& d, const std::vector<double>& motion, ObjType type,
                  int id, double res[6], bool local) {
  const double* pos = nullptr;
  const double* mat = nullptr;
  if (!ObjectFrame(m, d, type, id, &pos, &mat)) {
    for (int c = 0; c < 6; ++c) res[c] = 0;
    return;
  }
  const int body = ObjectBody(m, type, id);
  const double* ref = d.subtree_com.data() + 3 * m.body_rootid[body];
  TransformSpatial(res, motion.data() + 6 * body, false, pos, ref, local ? mat : nullptr);
}

}  // namespace

// (cvel, subtree_com, object frame) => res
void ObjectVelocity(const Model& m, const Data& d, ObjType type, int id, double res[6],
                    bool local) {
  ObjectMotion(m, d, d.cvel, type, id, res, local);
}

// (cvel, cacc, subtree_com, object frame) => res
void ObjectAcceleration(const Model& m, const Data& d, ObjType type, int id, double res[6],
                        bool local) {
  // cacc is the spatial acceleration (the rate of change of the motion vector at a fixed point);
  // the acceleration of the material point at the origin adds w x v.
  double vel[6], coriolis[3];
  ObjectMotion(m, d, d.cvel, type, id, vel, local);
  ObjectMotion(m, d, d.cacc, type, id, res, local);
  Cross3(coriolis, vel, vel + 3);
  AddTo3(res + 3, coriolis);
}

// (xipos, ximat, cvel, subtree_com, body_mass, body_inertia, body_subtreemass) =>
// (subtree_linvel, subtree_angmom)
void SubtreeVelocity(const Model& m, Data& d) {
  double* linvel = d.subtree_linvel.data();
  double* angmom = d.subtree_angmom.data();

  // 1. each body's own linear momentum (in linvel) and spin angular momentum about its com
  for (int b = 0; b < m.nbody; ++b) {
    double vel[6], local[3];
    ObjectVelocity(m, d, ObjType::kBody, b, vel, false);
    Scale3(linvel + 3 * b, vel + 3, m.body_mass[b]);
    const double* ximat = d.ximat.data() + 9 * b;
    MulMatTVec3(local, ximat, vel);
    for (int c = 0; c < 3; ++c) local[c] *= m.body_inertia[3 * b + c];
    MulMatVec3(angmom + 3 * b, ximat, local);
  }

  // 2. subtree momenta from the leaves up (children have larger ids), then velocities of the
  //    subtree centers of mass
  for (int b = m.nbody - 1; b >= 0; --b) {
    if (b > 0) AddTo3(linvel + 3 * m.body_parentid[b], linvel + 3 * b);
    const double mass = m.body_subtreemass[b] > kMinVal ? m.body_subtreemass[b] : kMinVal;
    Scale3(linvel + 3 * b, linvel + 3 * b, 1 / mass);
  }

  // 3. angular momenta from the leaves up: body b's orbital momentum about its subtree com, then
  //    the whole subtree's momentum moved to the parent's subtree com
  for (int b = m.nbody - 1; b > 0; --b) {
    const int parent = m.body_parentid[b];
    double vel[6], dx[3], dv[3], dl[3];
    ObjectVelocity(m, d, ObjType::kBody, b, vel, false);

    Sub3(dx, d.xipos.data() + 3 * b, d.subtree_com.data() + 3 * b);
    Sub3(dv, vel + 3, linvel + 3 * b);
    Scale3(dv, dv, m.body_mass[b]);
    Cross3(dl, dx, dv);
    AddTo3(angmom + 3 * b, dl);

    AddTo3(angmom + 3 * parent, angmom + 3 * b);
    Sub3(dx, d.subtree_com.data() + 3 * b, d.subtree_com.data() + 3 * parent);
    Sub3(dv, linvel + 3 * b, linvel + 3 * parent);
    Scale3(dv, dv, m.body_subtreemass[b]);
    Cross3(dl, dx, dv);
    AddTo3(angmom + 3 * parent, dl);
  }
}

}  // namespace gauss

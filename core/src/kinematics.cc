// Forward kinematics (spec stage 2): global poses of bodies, joints, geoms and sites.
#include "gauss/math.h"
#include "pipeline.h"
#include "sleep.h"

namespace gauss {

using namespace math;

// (xpos, xquat, xmat of body b) => world pose (xpos, xmat) of a frame fixed in b at the local
// (pos, quat): a geom or a site.
void FixedFrame(const Data& d, int b, const double* pos, const double* quat, double* xpos,
                double* xmat) {
  double q[4];
  MulMatVec3(xpos, d.xmat.data() + 9 * b, pos);
  AddTo3(xpos, d.xpos.data() + 3 * b);
  MulQuat(q, d.xquat.data() + 4 * b, quat);
  QuatToMat(xmat, q);
}

// (qpos, mocap_pos, mocap_quat) => (xpos, xquat, xmat, xipos, ximat, xanchor, xaxis,
// geom_xpos, geom_xmat, site_xpos, site_xmat)
void Kinematics(const Model& m, Data& d) {
  // world body: identity frame at the origin
  Zero3(d.xpos.data());
  SetIdentityQuat(d.xquat.data());
  QuatToMat(d.xmat.data(), d.xquat.data());
  Zero3(d.xipos.data());
  QuatToMat(d.ximat.data(), d.xquat.data());

  // bodies in tree order: a parent always precedes its children. Bodies of frozen sleeping
  // trees keep their frames (their qpos is frozen; sleep.h)
  const bool skip = SkipFrozen(m, d);
  for (int b = 1; b < m.nbody; ++b) {
    if (skip && BodyFrozen(m, d, b)) continue;
    double pos[3], quat[4];
    const int jntadr = m.body_jntadr[b];
    const int jntnum = m.body_jntnum[b];

    if (jntnum == 1 && m.jnt_type[jntadr] == JointType::kFree) {
      // a free joint sets the body pose directly from qpos (position, then quaternion)
      const double* q = d.qpos.data() + m.jnt_qposadr[jntadr];
      Copy3(pos, q);
      Copy4(quat, q + 3);
      NormalizeQuat(quat);
      Copy3(d.xanchor.data() + 3 * jntadr, pos);
      Copy3(d.xaxis.data() + 3 * jntadr, m.jnt_axis.data() + 3 * jntadr);
    } else {
      // fixed offset from the parent frame (or from the mocap pose)
      const double* local_pos = m.body_pos.data() + 3 * b;
      const double* local_quat = m.body_quat.data() + 4 * b;
      double mocap_quat[4];
      const int mocap = m.body_mocapid[b];
      if (mocap >= 0) {
        local_pos = d.mocap_pos.data() + 3 * mocap;
        Copy4(mocap_quat, d.mocap_quat.data() + 4 * mocap);
        NormalizeQuat(mocap_quat);
        local_quat = mocap_quat;
      }
      const int parent = m.body_parentid[b];
      if (parent == 0) {
        Copy3(pos, local_pos);
        Copy4(quat, local_quat);
      } else {
        MulMatVec3(pos, d.xmat.data() + 9 * parent, local_pos);
        AddTo3(pos, d.xpos.data() + 3 * parent);
        MulQuat(quat, d.xquat.data() + 4 * parent, local_quat);
      }

      // joints in order, each moving the frame produced by the previous ones
      for (int j = jntadr; j < jntadr + jntnum; ++j) {
        const double* jpos = m.jnt_pos.data() + 3 * j;
        const double* jaxis = m.jnt_axis.data() + 3 * j;
        const int qadr = m.jnt_qposadr[j];
        double* xaxis = d.xaxis.data() + 3 * j;
        double* xanchor = d.xanchor.data() + 3 * j;
        RotVecQuat(xaxis, jaxis, quat);
        RotVecQuat(xanchor, jpos, quat);
        AddTo3(xanchor, pos);

        switch (m.jnt_type[j]) {
          case JointType::kSlide:
            AddScaled3(pos, xaxis, d.qpos[qadr] - m.qpos0[qadr]);
            break;
          case JointType::kHinge:
          case JointType::kBall: {
            double qloc[4];
            if (m.jnt_type[j] == JointType::kBall) {
              Copy4(qloc, d.qpos.data() + qadr);
              NormalizeQuat(qloc);
            } else {
              AxisAngleToQuat(qloc, jaxis, d.qpos[qadr] - m.qpos0[qadr]);
            }
            MulQuat(quat, quat, qloc);
            // rotation is about the anchor: move the frame origin so the anchor stays put
            double offset[3];
            RotVecQuat(offset, jpos, quat);
            Sub3(pos, xanchor, offset);
            break;
          }
          case JointType::kFree:
            // the compiler only allows a free joint as a body's single joint (handled above)
            break;
        }
      }
    }

    NormalizeQuat(quat);
    Copy4(d.xquat.data() + 4 * b, quat);
    Copy3(d.xpos.data() + 3 * b, pos);
    QuatToMat(d.xmat.data() + 9 * b, quat);

    // inertial frame
    double iquat[4];
    MulMatVec3(d.xipos.data() + 3 * b, d.xmat.data() + 9 * b, m.body_ipos.data() + 3 * b);
    AddTo3(d.xipos.data() + 3 * b, pos);
    MulQuat(iquat, quat, m.body_iquat.data() + 4 * b);
    QuatToMat(d.ximat.data() + 9 * b, iquat);
  }

  // geoms and sites: fixed frames in their bodies
  for (int g = 0; g < m.ngeom; ++g) {
    if (skip && BodyFrozen(m, d, m.geom_bodyid[g])) continue;
    FixedFrame(d, m.geom_bodyid[g], m.geom_pos.data() + 3 * g, m.geom_quat.data() + 4 * g,
               d.geom_xpos.data() + 3 * g, d.geom_xmat.data() + 9 * g);
  }
  for (int s = 0; s < m.nsite; ++s) {
    if (skip && BodyFrozen(m, d, m.site_bodyid[s])) continue;
    FixedFrame(d, m.site_bodyid[s], m.site_pos.data() + 3 * s, m.site_quat.data() + 4 * s,
               d.site_xpos.data() + 3 * s, d.site_xmat.data() + 9 * s);
  }
}

}  // namespace gauss

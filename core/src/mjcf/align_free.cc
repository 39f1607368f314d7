// MuJoCo 3.x <freejoint align="true"> and <compiler alignfree="true"> (align="auto", the
// default, follows the compiler): the frame of a free body moves to its inertial frame, so
// that the free joint's coordinates are those of the center of mass along the principal axes.
//
// Measured on MuJoCo 3.12.1 (tests/models/mjcf3/align.xml, tests/reference/mjcf3_test.cc):
// only free bodies without child bodies are aligned (align="true" on a body with children is
// ignored, as MuJoCo does); body_pos/body_quat become the inertial frame (body_ipos = 0,
// body_iquat = identity), qpos0 of the free joint follows, and the body's geoms, sites and
// cameras keep
// their place in the world, i.e. are re-expressed in the new frame. Gauss refuses an aligned body
// named by a connect or weld constraint (its anchor is written in the body's frame) or bound
// to a skin bone.
#include "mjcf/compiler.h"
#include "mjcf/orientation.h"

namespace gauss::mjcf {
namespace {

// (pose given in the old body frame) => (the same pose in the inertial frame ip, iq)
void Reframe(const double ip[3], const double iq[4], double* pos, double* quat) {
  double p[3], q[4];
  GlobalToLocal(ip, iq, pos, quat, p, q);
  for (int i = 0; i < 3; ++i) pos[i] = p[i];
  for (int i = 0; i < 4; ++i) quat[i] = q[i];
}

// Is body b a childless free body whose joint asks (or lets the compiler ask) for alignment?
bool Aligned(const CompileContext& c, int b) {
  const BodySpec& s = *c.bodies[b];
  if (s.joints.size() != 1 || s.joints[0].type != JointType::kFree) return false;
  for (int k = b + 1; k < c.m->nbody; ++k) {
    if (c.m->body_parentid[k] == b) return false;
  }
  const int align = s.joints[0].free_align;
  return align == 1 || (align == 2 && c.spec->compiler.alignfree);
}

void RefuseFrameReferences(const CompileContext& c, int b) {
  const BodySpec& s = *c.bodies[b];
  for (const EqualitySpec& e : c.spec->equalities) {
    if ((e.type == EqType::kConnect || e.type == EqType::kWeld) && !e.sites &&
        (e.name1 == s.name || e.name2 == s.name) && !s.name.empty()) {
      throw Error(e.src.Where(), "not supported yet: a connect or weld naming the aligned free "
                                 "body '" + s.name + "' (freejoint align / compiler alignfree)");
    }
  }
  const Model& m = *c.m;
  for (int bone : m.skin_bonebodyid) {
    if (bone == b) {
      throw Error(s.src.Where(), "not supported yet: a skin bone on an aligned free body");
    }
  }
}

}  // namespace

// (inertial frames) => (aligned body frames, their contents and qpos0)
void AlignFreeBodies(CompileContext* c) {
  Model& m = *c->m;
  for (int b = 1; b < m.nbody; ++b) {
    if (!Aligned(*c, b)) continue;
    RefuseFrameReferences(*c, b);
    double ip[3], iq[4];
    for (int i = 0; i < 3; ++i) ip[i] = m.body_ipos[3 * b + i];
    for (int i = 0; i < 4; ++i) iq[i] = m.body_iquat[4 * b + i];
    // the body's new frame, in its parent (the world: free bodies are its children)
    double pos[3], quat[4];
    LocalToGlobal(&m.body_pos[3 * b], &m.body_quat[4 * b], ip, iq, pos, quat);
    for (int i = 0; i < 3; ++i) m.body_pos[3 * b + i] = c->xpos[3 * b + i] = pos[i];
    for (int i = 0; i < 4; ++i) m.body_quat[4 * b + i] = c->xquat[4 * b + i] = quat[i];
    for (int i = 0; i < 3; ++i) m.body_ipos[3 * b + i] = 0;
    for (int i = 0; i < 4; ++i) m.body_iquat[4 * b + i] = i == 0 ? 1 : 0;
    const int qadr = m.jnt_qposadr[m.body_jntadr[b]];
    for (int i = 0; i < 3; ++i) m.qpos0[qadr + i] = m.qpos_spring[qadr + i] = pos[i];
    for (int i = 0; i < 4; ++i) m.qpos0[qadr + 3 + i] = m.qpos_spring[qadr + 3 + i] = quat[i];
    // contents keep their place in the world
    for (int g = 0; g < m.ngeom; ++g) {
      if (m.geom_bodyid[g] == b) Reframe(ip, iq, &m.geom_pos[3 * g], &m.geom_quat[4 * g]);
    }
    for (int s = 0; s < m.nsite; ++s) {
      if (m.site_bodyid[s] == b) Reframe(ip, iq, &m.site_pos[3 * s], &m.site_quat[4 * s]);
    }
    for (int k = 0; k < m.ncam; ++k) {
      if (m.cam_bodyid[k] == b) Reframe(ip, iq, &m.cam_pos[3 * k], &m.cam_quat[4 * k]);
    }
  }
}

}  // namespace gauss::mjcf

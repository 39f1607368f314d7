// Orientation forms of MJCF (quat, axisangle, euler, xyaxes, zaxis), the fromto shorthand of
// capsules/cylinders/boxes/ellipsoids, and frame arithmetic for coordinate="global".
#pragma once

#include <string>

#include "mjcf/spec.h"
#include "mjcf/xml_tree.h"

namespace gauss::mjcf {

// Reads the orientation attributes an element sets into `o` (leaving the others as inherited).
// Throws when the element writes more than one form (MuJoCo: "multiple orientation
// specifiers"). (element) => (o)
void ReadOrientation(const XmlElement& e, Orientation* o);

// Checks compiler eulerseq: three letters from x, y, z (intrinsic) or X, Y, Z (extrinsic).
bool ValidEulerSeq(const std::string& seq);

// Unit quaternion of an orientation; angles are in degrees when `degree`. Throws a located
// error for degenerate input (zero quaternion, zero axis, parallel xyaxes, zero zaxis).
// (o, degree, eulerseq) => (quat)
void OrientationToQuat(const Orientation& o, bool degree, const std::string& eulerseq,
                       const Source& src, double quat[4]);

// The frame of a fromto segment: midpoint, the rotation taking +z to (from - to) (the
// direction MuJoCo 2.2.2 uses), and half the length. Throws when the points coincide.
// (fromto) => (pos, quat, half_length)
void FromtoFrame(const double fromto[6], const Source& src, double pos[3], double quat[4],
                 double* half_length);

// Rigid frame (pos, quat) of `child` relative to `parent`, both given in a common frame:
// local_pos = R_parent' (child_pos - parent_pos), local_quat = parent_quat^-1 child_quat.
void GlobalToLocal(const double parent_pos[3], const double parent_quat[4],
                   const double child_pos[3], const double child_quat[4], double local_pos[3],
                   double local_quat[4]);

// Composition: (pos, quat) of a frame given in `parent`, expressed where `parent` is given.
void LocalToGlobal(const double parent_pos[3], const double parent_quat[4],
                   const double local_pos[3], const double local_quat[4], double pos[3],
                   double quat[4]);

}  // namespace gauss::mjcf

// Enumerations and constants shared by the kernel, the MJCF compiler and plugins.
#pragma once

#include <cstdint>

namespace gauss {

// Smallest value treated as nonzero (masses, norms, divisors).
inline constexpr double kMinVal = 1e-15;
// Largest acceptable magnitude of qpos, qvel, qacc before a step is declared divergent.
inline constexpr double kMaxVal = 1e10;
// Friction coefficients are clamped from below to this value.
inline constexpr double kMinMu = 1e-5;
// Bounds of the constraint impedance d(r).
inline constexpr double kMinImp = 0.0001;
inline constexpr double kMaxImp = 0.9999;
// Sizes of the soft-constraint parameter vectors.
inline constexpr int kNFluid = 12;  // numbers per geom in Model::geom_fluid (see model.h)
inline constexpr int kNRef = 2;  // solref: (timeconst, dampratio) or (-stiffness, -damping)
inline constexpr int kNImp = 5;  // solimp: (dmin, dmax, width, midpoint, power)

enum class JointType : int { kFree = 0, kBall = 1, kSlide = 2, kHinge = 3 };

// Number of qpos / qvel entries of a joint of the given type.
inline constexpr int JointNq(JointType t) {
  return t == JointType::kFree ? 7 : t == JointType::kBall ? 4 : 1;
}
inline constexpr int JointNv(JointType t) {
  return t == JointType::kFree ? 6 : t == JointType::kBall ? 3 : 1;
}

// Geom types; the numbering is the index into collider dispatch tables.
enum class GeomType : int {
  kPlane = 0,
  kHfield = 1,
  kSphere = 2,
  kCapsule = 3,
  kEllipsoid = 4,
  kCylinder = 5,
  kBox = 6,
  kMesh = 7,
};
inline constexpr int kNumGeomTypes = 8;

enum class Cone : int { kPyramidal = 0, kElliptic = 1 };
enum class JacobianType : int { kDense = 0, kSparse = 1, kAuto = 2 };
enum class CollisionMode : int { kAll = 0, kPair = 1, kDynamic = 2 };

// Bits of Options::disableflags (same meaning and order as the MJCF <flag> attributes).
enum DisableBit : unsigned {
  kDisableConstraint = 1u << 0,
  kDisableEquality = 1u << 1,
  kDisableFrictionloss = 1u << 2,
  kDisableLimit = 1u << 3,
  kDisableContact = 1u << 4,
  kDisablePassive = 1u << 5,
  kDisableGravity = 1u << 6,
  kDisableClampctrl = 1u << 7,
  kDisableWarmstart = 1u << 8,
  kDisableFilterparent = 1u << 9,
  kDisableActuation = 1u << 10,
  kDisableRefsafe = 1u << 11,
  kDisableSensor = 1u << 12,
  // MuJoCo 3.x: the euler integrator treats joint damping explicitly (no M + h diag(damping))
  kDisableEulerdamp = 1u << 13,
  // MuJoCo 3.x: a bad qpos/qvel/qacc is counted as a warning but the state is not reset
  kDisableAutoreset = 1u << 14,
  // MuJoCo 3.x splits passive into springs (joint and tendon stiffness, their potential
  // energy) and dampers (joint and tendon damping, also in the implicit integrators); gravity
  // compensation and fluid forces stop only with both (Options::PassiveDisabled)
  kDisableSpring = 1u << 15,
  kDisableDamper = 1u << 16,
};
inline constexpr int kNumDisableBits = 17;

// Bits of Options::enableflags.
enum EnableBit : unsigned {
  kEnableOverride = 1u << 0,
  kEnableEnergy = 1u << 1,
  kEnableFwdinv = 1u << 2,
  kEnableSensornoise = 1u << 3,
  kEnableMulticcd = 1u << 4,
  kEnableIsland = 1u << 5,  // solve each constraint island on its own (MuJoCo 3.x: on by default)
  kEnableSleep = 1u << 6,   // islands at rest fall asleep (spec 002, sleeping islands)
  // Gauss extension: the velocity term dJ/dt qvel of connect and weld constraints is
  // subtracted from their reference acceleration, as MuJoCo 3.12 does (2.2.2 does not); the
  // MJCF compiler enables it for files that use MuJoCo 3.x features (docs/mjcf.md)
  kEnableEqJdotv = 1u << 7,
  // Gauss extension: the moment of a site transmission's refsite translation includes the
  // rotation of the reference frame (MuJoCo 3.12; 2.2.2 differentiates the position difference
  // in a frame held fixed); on by default in files that use MuJoCo 3.x features
  kEnableRefsiteRot = 1u << 8,
  // Gauss extension: box-box contacts by face clipping, as MuJoCo 3.12 computes them (2.2.2's
  // box-box collider otherwise); the MJCF compiler enables it for 3.x files (docs/mjcf.md)
  kEnableBoxClip = 1u << 9,
  // Gauss extension: a dynamic geom pair's margin and gap are the sums of the two geoms' (2.2.2:
  // the maxima), and the gap widens detection beyond the margin (contacts with margin <= dist <
  // margin + gap are reported, inactive) instead of narrowing the active range to margin - gap,
  // as MuJoCo 3.12 computes (measured); on by default in files that use MuJoCo 3.x features
  kEnableMarginSum = 1u << 10,
  // MuJoCo 3.x: Inverse takes qacc as the discrete-time acceleration (v' - v) / h of the
  // integrator's step (its modified mass matrix) rather than the continuous-time one
  kEnableInvDiscrete = 1u << 11,
  // Gauss extension: convex pairs (meshes, cylinders, ellipsoids, boxes against those) by GJK
  // and EPA as MuJoCo 3.12's native collider computes them (2.2.2's MPR otherwise); the MJCF
  // compiler enables it for 3.x files, where <flag nativeccd="disable"/> selects MPR as in 3.12
  kEnableNativeCcd = 1u << 12,
};
inline constexpr int kNumEnableBits = 13;

// Sleep policy of a kinematic tree (MJCF body/sleep on the tree's root). kSleepAuto resolves
// at compile time: never for trees that an actuator drives, allowed otherwise.
enum SleepPolicy : int { kSleepAuto = 0, kSleepNever = 1, kSleepAllowed = 2, kSleepInit = 3 };

// MJCF names of the flags, indexed by bit position.
inline constexpr const char* kDisableNames[kNumDisableBits] = {
    "constraint", "equality", "frictionloss", "limit",    "contact",   "passive",  "gravity",
    "clampctrl",  "warmstart", "filterparent", "actuation", "refsafe", "sensor", "eulerdamp",
    "autoreset",  "spring",    "damper"};
inline constexpr const char* kEnableNames[kNumEnableBits] = {"override", "energy", "fwdinv",
                                                             "sensornoise", "multiccd", "island",
                                                             "sleep",  "eqjdotv", "refsiterot",
                                                             "boxclip", "marginsum", "invdiscrete",
                                                             "nativeccd"};

// Actuator transmission, dynamics, gain and bias types (MJCF <general> semantics).
enum class TrnType : int {
  kJoint = 0,
  kJointInParent = 1,
  kSliderCrank = 2,
  kTendon = 3,
  kSite = 4,
  kBody = 5,
};
enum class DynType : int { kNone = 0, kIntegrator = 1, kFilter = 2, kFilterExact = 3, kMuscle = 4, kUser = 5 };
enum class GainType : int { kFixed = 0, kAffine = 1, kMuscle = 2, kUser = 3 };
enum class BiasType : int { kNone = 0, kAffine = 1, kMuscle = 2, kUser = 3 };
inline constexpr int kNDyn = 10;   // size of actuator_dynprm rows
inline constexpr int kNGain = 10;  // size of actuator_gainprm rows
inline constexpr int kNBias = 10;  // size of actuator_biasprm rows

enum class EqType : int { kConnect = 0, kWeld = 1, kJoint = 2, kTendon = 3, kDistance = 4 };
enum class WrapType : int { kNone = 0, kJoint = 1, kPulley = 2, kSite = 3, kSphere = 4, kCylinder = 5 };
// How a camera moves (MJCF camera/mode): with its body, at a fixed orientation following its
// body or its body's subtree com, or looking at a target body (or its subtree com).
enum class CamMode : int { kFixed = 0, kTrack = 1, kTrackCom = 2, kTargetBody = 3, kTargetBodyCom = 4 };

// Kinds of Cartesian objects a sensor or frame quantity may refer to.
enum class ObjType : int {
  kUnknown = 0,
  kBody = 1,
  kXBody = 2,
  kJoint = 3,
  kDof = 4,
  kGeom = 5,
  kSite = 6,
  kCamera = 7,
  kLight = 8,
  kMesh = 9,
  kTendon = 13,
  kActuator = 14,
};

// Which pipeline stage a sensor needs before it can be evaluated.
enum class Stage : int { kNone = 0, kPosition = 1, kVelocity = 2, kAcceleration = 3 };

// How noise perturbs and the cutoff clamps a sensor's values (MuJoCo's mjtDataType): real values
// (noise adds, cutoff clamps both ways), positive values (0 or less mean "nothing sensed": noise
// only on values > 0, cutoff from above), unit axes and unit quaternions (noise rotates, no
// cutoff).
enum class SensorDataType : int { kReal = 0, kPositive = 1, kAxis = 2, kQuaternion = 3 };

// Warnings raised by the step (counted in Data::warning).
enum class Warning : int {
  kBadQpos = 0,
  kBadQvel = 1,
  kBadQacc = 2,
  kContactFull = 3,
  kConstraintFull = 4,
  kInertia = 5,
  kBadCtrl = 6,  // a control was NaN, infinite or beyond kMaxVal: every control was zeroed
};
inline constexpr int kNumWarnings = 7;
inline constexpr const char* kWarningNames[kNumWarnings] = {
    "bad qpos", "bad qvel", "bad qacc", "contact buffer full", "constraint buffer full",
    "inertia matrix not positive definite", "bad ctrl (controls zeroed)"};

}  // namespace gauss

// MJCF <composite>: a grid of bodies, joints, geoms, sites, tendons, equality constraints and a
// skin that the parser expands into ordinary spec elements, named and configured as MuJoCo
// 2.2.2 does (measured against it element by element; docs/mjcf.md, "Composite objects").
//
// parse_composite.cc reads the element into a CompositeSpec (with the type's own defaults),
// composite_bodies.cc builds the bodies, joints and constraints of each type, and
// composite_skin.cc the skins. Nothing of the composite survives expansion: the compiler sees
// only the elements it produced.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "mjcf/spec.h"
#include "mjcf/xml_tree.h"

namespace gauss::mjcf {

enum class CompositeType { kParticle, kGrid, kRope, kLoop, kCloth, kBox, kCylinder, kEllipsoid };

// What a <joint kind> or <tendon kind> child adds; each kind has its own equality template
// (the "fix" constraint that holds its joints or tendons at their reference).
enum CompositeKind { kKindMain, kKindTwist, kKindStretch, kKindTendon, kKindShear, kNumKinds };

struct CompositeSpec {
  Source src;
  CompositeType type = CompositeType::kParticle;
  std::string prefix;
  int count[3] = {1, 1, 1};
  double spacing = 0;
  double offset[3] = {0, 0, 0};
  double flatinertia = 0;
  double solrefsmooth[kNRef] = {0.02, 1};
  double solimpsmooth[kNImp] = {0.9, 0.95, 0.001, 0.5, 2};
  int dim = 0;                 // number of counts above 1
  bool add[kNumKinds] = {};    // kinds the file asked for (<joint kind>, <tendon kind>)
  JointSpec joint[kNumKinds];  // used: main, twist, stretch
  TendonSpec tendon[kNumKinds];  // used: tendon (main), shear
  EqualitySpec fix[kNumKinds];   // the fix constraint of each kind
  EqualitySpec neighbour;        // the main class's equality: loop closure, box smoothing
  GeomSpec geom;
  SiteSpec site;
  std::vector<int> pins;  // (x, y) pairs of grid points without joints

  bool skin = false;
  std::string skin_material;
  double skin_rgba[4] = {1, 1, 1, 1};
  double skin_inflate = 0;
  int skin_subgrid = 0;
  int skin_group = 0;
};

// Reads and checks a <composite> inside `body`, then expands it into `body` (children, geoms,
// sites) and `spec` (tendons, equalities, excludes, skins). (element) => (body, spec)
void ReadComposite(const XmlElement& e, ModelSpec* spec, BodySpec* body);

// ---------------------------------------------------------------- shared by the composite files
// Expands a checked composite. (composite) => (body, spec)
void ExpandComposite(const CompositeSpec& c, ModelSpec* spec, BodySpec* body);

// The skin of a 2D composite (grid, cloth): one vertex per body and side, or with subgrid a
// bicubic patch of (subgrid + 1)^2 vertices per grid cell. (composite) => (spec.skins)
void AddSkin2D(const CompositeSpec& c, ModelSpec* spec);
// The skin of a 3D composite (box, cylinder, ellipsoid) over its outer bodies.
void AddSkin3D(const CompositeSpec& c, ModelSpec* spec);

// "<prefix><letter><i>_<j>..." names, as MuJoCo numbers composite elements.
std::string CompositeName(const CompositeSpec& c, const char* letter,
                          std::initializer_list<int> ix);

}  // namespace gauss::mjcf

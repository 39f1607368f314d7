// Expanding a composite into bodies, joints, geoms, sites, tendons and equality constraints, in
// MuJoCo 2.2.2's order and with its names (B body, G geom, S site, J joint, T tendon, followed by
// grid coordinates), so that the compiled arrays equal MuJoCo's:
//  - particle: a free-floating body per grid point with three slide joints (nothing named);
//  - grid: bodies on slide joints joined by site-to-site tendons held at their length; pins
//    leave grid points without joints;
//  - rope, loop: a chain grown both ways from the holding body, two hinges per link; a loop
//    is bent into a circle and closed by a connect constraint;
//  - cloth: a tree grown from the holding body along its column, then row by row, two hinges
//    per link, with tendons across the rows the tree does not follow;
//  - box, cylinder, ellipsoid: the outer shell of a 3D grid on radial slide joints, coupled to
//    their neighbours and, through one fixed tendon, to a constant volume.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "mjcf/composite.h"
#include "mjcf/geom_inertia.h"

namespace gauss::mjcf {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Builds one composite: bodies into the holder's subtree, tendons, equalities, excludes and
// skins into the spec. Each type's method: (composite, holder) => (holder subtree, spec).
class Expander {
 public:
  Expander(const CompositeSpec& c, ModelSpec* spec) : c_(c), spec_(spec) {}

  void Particle(BodySpec* holder);
  void Grid(BodySpec* holder);
  void Rope(BodySpec* holder);
  void Cloth(BodySpec* holder);
  void Box(BodySpec* holder);

 private:
  BodySpec* AddBody(BodySpec* parent, const std::string& name, double x, double y, double z) {
    auto b = std::make_unique<BodySpec>();
    b->src = c_.src;
    b->name = name;
    b->pos[0] = x;
    b->pos[1] = y;
    b->pos[2] = z;
    parent->children.push_back(std::move(b));
    return parent->children.back().get();
  }
  JointSpec& AddJoint(BodySpec* b, int kind, const std::string& name, JointType type,
                      const double pos[3], int axis) {
    JointSpec j = c_.joint[kind];
    j.src = c_.src;
    j.name = name;
    j.type = type;
    std::copy(pos, pos + 3, j.pos);
    j.axis[0] = j.axis[1] = j.axis[2] = 0;
    j.axis[axis] = 1;
    b->joints.push_back(j);
    return b->joints.back();
  }
  GeomSpec& AddGeom(BodySpec* b, const std::string& name) {
    GeomSpec g = c_.geom;
    g.src = c_.src;
    g.name = name;
    b->geoms.push_back(g);
    return b->geoms.back();
  }
  void AddSite(BodySpec* b, const std::string& name) {
    SiteSpec s = c_.site;
    s.src = c_.src;
    s.name = name;
    s.type = GeomType::kSphere;
    b->sites.push_back(s);
  }
  // A fix constraint of `kind` on one joint or tendon (unnamed).
  void AddFix(int kind, EqType type, const std::string& name1) {
    EqualitySpec q = c_.fix[kind];
    q.src = c_.src;
    q.type = type;
    q.name1 = name1;
    spec_->equalities.push_back(q);
  }
  // An equality with the smoothing solver parameters (loop closure, box neighbours).
  EqualitySpec& AddSmooth(EqType type, const std::string& name1, const std::string& name2) {
    EqualitySpec q = c_.neighbour;
    q.src = c_.src;
    q.type = type;
    q.name1 = name1;
    q.name2 = name2;
    std::copy(c_.solrefsmooth, c_.solrefsmooth + kNRef, q.solref);
    std::copy(c_.solimpsmooth, c_.solimpsmooth + kNImp, q.solimp);
    spec_->equalities.push_back(q);
    return spec_->equalities.back();
  }
  // A spatial tendon between two sites, held at its length by a fix constraint of `kind`.
  void AddSiteTendon(int kind, const std::string& name, const std::string& site1,
                     const std::string& site2) {
    TendonSpec t = c_.tendon[kind];
    t.src = c_.src;
    t.name = name;
    t.spatial = true;
    for (const std::string* s : {&site1, &site2}) {
      WrapSpec w;
      w.src = c_.src;
      w.type = WrapType::kSite;
      w.name = *s;
      t.path.push_back(w);
    }
    spec_->tendons.push_back(t);
    AddFix(kind, EqType::kTendon, name);
  }
  void Shear();
  BodySpec* RopeLink(BodySpec* body, int ix, int ix1);
  BodySpec* ClothLink(BodySpec* body, int ix, int iy, int ix1, int iy1);
  void ProjectToShape(double pos[3]) const;

  const CompositeSpec& c_;
  ModelSpec* spec_;
};

// Grid points, centred on the offset: offset + spacing (i - count / 2).
double GridCoordinate(const CompositeSpec& c, int axis, int i) {
  return c.offset[axis] + c.spacing * (i - 0.5 * c.count[axis]);
}

// Unnamed bodies on three slides each, spheres. (composite) => (holder's children)
void Expander::Particle(BodySpec* holder) {
  const double zero[3] = {0, 0, 0};
  for (int ix = 0; ix < c_.count[0]; ++ix) {
    for (int iy = 0; iy < c_.count[1]; ++iy) {
      for (int iz = 0; iz < c_.count[2]; ++iz) {
        BodySpec* b = AddBody(holder, "", GridCoordinate(c_, 0, ix), GridCoordinate(c_, 1, iy),
                              GridCoordinate(c_, 2, iz));
        for (int axis = 0; axis < 3; ++axis) {
          AddJoint(b, kKindMain, "", JointType::kSlide, zero, axis);
        }
        AddGeom(b, "").type = GeomType::kSphere;
      }
    }
  }
}

// Bodies on slides, sites joined by tendons held at their length, shear, skin.
// (composite) => (holder's children, spec tendons, equalities, skins)
void Expander::Grid(BodySpec* holder) {
  const double zero[3] = {0, 0, 0};
  for (int ix = 0; ix < c_.count[0]; ++ix) {
    for (int iy = 0; iy < c_.count[1]; ++iy) {
      BodySpec* b = AddBody(holder, CompositeName(c_, "B", {ix, iy}), GridCoordinate(c_, 0, ix),
                            GridCoordinate(c_, 1, iy), c_.offset[2]);
      AddGeom(b, CompositeName(c_, "G", {ix, iy})).type = GeomType::kSphere;
      AddSite(b, CompositeName(c_, "S", {ix, iy}));
      bool pinned = false;
      for (std::size_t p = 0; p + 1 < c_.pins.size(); p += 2) {
        pinned = pinned || (c_.pins[p] == ix && c_.pins[p + 1] == iy);
      }
      if (pinned) continue;
      for (int axis = 0; axis < 3; ++axis) {
        AddJoint(b, kKindMain, CompositeName(c_, "J", {axis, ix, iy}), JointType::kSlide, zero,
                 axis);
      }
    }
  }
  // tendons along x (dir 0), then along y (dir 1)
  for (int dir = 0; dir < 2; ++dir) {
    for (int ix = 0; ix < c_.count[0] - (dir == 0); ++ix) {
      for (int iy = 0; iy < c_.count[1] - (dir == 1); ++iy) {
        AddSiteTendon(kKindTendon, CompositeName(c_, "T", {dir, ix, iy}),
                      CompositeName(c_, "S", {ix, iy}),
                      CompositeName(c_, "S", {ix + (dir == 0), iy + (dir == 1)}));
      }
    }
  }
  if (c_.add[kKindShear]) Shear();
  if (c_.skin) AddSkin2D(c_, spec_);
}

// Diagonal tendons of a 2D grid or cloth, held at their length. => (spec tendons, equalities)
void Expander::Shear() {
  for (int ix = 0; ix < c_.count[0] - 1; ++ix) {
    for (int iy = 0; iy < c_.count[1] - 1; ++iy) {
      AddSiteTendon(kKindShear, CompositeName(c_, "TS", {ix, iy}),
                    CompositeName(c_, "S", {ix, iy}), CompositeName(c_, "S", {ix + 1, iy + 1}));
    }
  }
}

// The geom of grid point ix1 and, unless it is the holder (ix == ix1), a new link body from
// point ix to ix1 with its joints. Returns the body that holds point ix1.
BodySpec* Expander::RopeLink(BodySpec* body, int ix, int ix1) {
  const bool root = ix == ix1;
  const double dx = c_.spacing * (ix1 - ix);
  if (!root) {
    body = AddBody(body, CompositeName(c_, "B", {ix1}), dx, 0, 0);
    if (c_.type == CompositeType::kLoop) {
      // links turn by 2 pi / count around z, so that the chain closes into a circle
      const double alpha = 2 * kPi / c_.count[0];
      const double r = 0.5 * c_.spacing * std::sin(kPi - alpha) / std::sin(0.5 * alpha);
      const double side = ix1 > ix ? 1 : -1;
      body->pos[0] = side * r * std::cos(0.5 * alpha);
      body->pos[1] = r * std::sin(0.5 * alpha);
      const double quat[4] = {std::cos(side * 0.5 * alpha), 0, 0, std::sin(side * 0.5 * alpha)};
      std::copy(quat, quat + 4, body->orient.quat);
    }
  }
  GeomSpec& g = AddGeom(body, CompositeName(c_, "G", {ix1}));
  const double along_x[4] = {std::sqrt(0.5), 0, std::sqrt(0.5), 0};  // geom z along the chain
  std::copy(along_x, along_x + 4, g.orient.quat);
  if (root) return body;
  const double pos[3] = {-0.5 * dx, 0, 0};
  for (int i = 0; i < 2; ++i) {
    AddJoint(body, kKindMain, CompositeName(c_, "J", {i, ix1}), JointType::kHinge, pos, i + 1);
  }
  if (c_.add[kKindTwist]) {
    const std::string name = CompositeName(c_, "JT", {ix1});
    AddJoint(body, kKindTwist, name, JointType::kHinge, pos, 0);
    AddFix(kKindTwist, EqType::kJoint, name);
  }
  if (c_.add[kKindStretch]) {
    const std::string name = CompositeName(c_, "JS", {ix1});
    AddJoint(body, kKindStretch, name, JointType::kSlide, pos, 0);
    AddFix(kKindStretch, EqType::kJoint, name);
  }
  return body;
}

// The chain both ways from the holder; a loop's closing constraint and exclude.
// (composite, holder named B<x>) => (holder subtree, spec equalities, excludes)
void Expander::Rope(BodySpec* holder) {
  const int ox = std::atoi(holder->name.c_str() + c_.prefix.size() + 1);
  RopeLink(holder, ox, ox);
  BodySpec* b = holder;
  for (int ix = ox; ix < c_.count[0] - 1; ++ix) b = RopeLink(b, ix, ix + 1);
  b = holder;
  for (int ix = ox; ix > 0; --ix) b = RopeLink(b, ix, ix - 1);
  if (c_.type != CompositeType::kLoop) return;
  const std::string first = CompositeName(c_, "B", {0});
  const std::string last = CompositeName(c_, "B", {c_.count[0] - 1});
  EqualitySpec& q = AddSmooth(EqType::kConnect, first, last);
  q.anchor[0] = -0.5 * c_.spacing;
  q.anchor[1] = q.anchor[2] = 0;
  ExcludeSpec x;
  x.src = c_.src;
  x.body1 = first;
  x.body2 = last;
  spec_->excludes.push_back(x);
}

// Grid point (ix1, iy1) of a cloth: geom, site, flat inertia and, unless it is the holder,
// a new body linked to point (ix, iy) by two hinges. Returns the body of (ix1, iy1).
BodySpec* Expander::ClothLink(BodySpec* body, int ix, int iy, int ix1, int iy1) {
  const bool root = ix == ix1 && iy == iy1;
  const double dx = c_.spacing * (ix1 - ix), dy = c_.spacing * (iy1 - iy);
  if (!root) body = AddBody(body, CompositeName(c_, "B", {ix1, iy1}), dx, dy, 0);
  GeomSpec& g = AddGeom(body, CompositeName(c_, "G", {ix1, iy1}));
  // alternating orientations: geom z along x or along y
  const double h = std::sqrt(0.5);
  const double odd[4] = {h, h, 0, 0}, even[4] = {0.5, 0.5, 0.5, 0.5};
  std::copy((ix1 + iy1) % 2 ? odd : even, ((ix1 + iy1) % 2 ? odd : even) + 4, g.orient.quat);
  if (c_.flatinertia > 0) {
    // the geom's mass spread as a thin box spacing x spacing x spacing * flatinertia
    const double mass = g.has_mass ? g.mass : g.density * GeomVolume(g.type, g.size);
    const double s[3] = {0.5 * c_.spacing, 0.5 * c_.spacing, 0.5 * c_.spacing * c_.flatinertia};
    body->has_inertial = true;
    body->inertial = InertialSpec{};
    body->inertial.src = c_.src;
    body->inertial.mass = mass;
    body->inertial.has_diag = true;
    body->inertial.diaginertia[0] = mass * (s[1] * s[1] + s[2] * s[2]) / 3;
    body->inertial.diaginertia[1] = mass * (s[0] * s[0] + s[2] * s[2]) / 3;
    body->inertial.diaginertia[2] = mass * (s[0] * s[0] + s[1] * s[1]) / 3;
  }
  AddSite(body, CompositeName(c_, "S", {ix1, iy1}));
  if (root) return body;
  const double pos[3] = {-dx, -dy, 0};
  const bool along_x = ix != ix1;
  for (int i = 0; i < 2; ++i) {
    // hinges across the link: (y, z) for a link along x, (x, z) for one along y
    AddJoint(body, kKindMain, CompositeName(c_, "J", {i, ix1, iy1}), JointType::kHinge, pos,
             along_x ? i + 1 : 2 * i);
  }
  if (c_.add[kKindTwist]) {
    const std::string name = CompositeName(c_, "JT", {ix1, iy1});
    AddJoint(body, kKindTwist, name, JointType::kHinge, pos, along_x ? 0 : 1);
    AddFix(kKindTwist, EqType::kJoint, name);
  }
  if (c_.add[kKindStretch]) {
    const std::string name = CompositeName(c_, "JS", {ix1, iy1});
    AddJoint(body, kKindStretch, name, JointType::kSlide, pos, along_x ? 0 : 1);
    AddFix(kKindStretch, EqType::kJoint, name);
  }
  return body;
}

// The tree from the holder, row tendons, shear, skin.
// (composite, holder named B<x>_<y>) => (holder subtree, spec tendons, equalities, skins)
void Expander::Cloth(BodySpec* holder) {
  const char* coords = holder->name.c_str() + c_.prefix.size() + 1;
  char* rest = nullptr;
  const int ox = static_cast<int>(std::strtol(coords, &rest, 10));
  const int oy = static_cast<int>(std::strtol(rest + 1, nullptr, 10));
  ClothLink(holder, ox, oy, ox, oy);
  // the column through the holder, then the rows to +x and to -x, each with its column
  auto grow_column = [&](BodySpec* from, int ix) {
    for (int step : {1, -1}) {
      BodySpec* b = from;
      for (int iy = oy; iy + step >= 0 && iy + step < c_.count[1]; iy += step) {
        b = ClothLink(b, ix, iy, ix, iy + step);
      }
    }
  };
  grow_column(holder, ox);
  for (int step : {1, -1}) {
    BodySpec* b = holder;
    for (int ix = ox; ix + step >= 0 && ix + step < c_.count[0]; ix += step) {
      b = ClothLink(b, ix, oy, ix + step, oy);
      grow_column(b, ix + step);
    }
  }
  // tendons along x where the tree does not link (every row but the holder's)
  for (int iy = 0; iy < c_.count[1]; ++iy) {
    if (iy == oy) continue;
    for (int ix = 0; ix < c_.count[0] - 1; ++ix) {
      AddSiteTendon(kKindTendon, CompositeName(c_, "T", {ix, iy}),
                    CompositeName(c_, "S", {ix, iy}), CompositeName(c_, "S", {ix + 1, iy}));
    }
  }
  if (c_.add[kKindShear]) Shear();
  if (c_.skin) AddSkin2D(c_, spec_);
}

// Maps a point of the cube [-1, 1]^3 onto the composite's box, cylinder or ellipsoid.
void Expander::ProjectToShape(double pos[3]) const {
  double size[3];
  for (int i = 0; i < 3; ++i) size[i] = 0.5 * c_.spacing * (c_.count[i] - 1);
  auto normalize = [](double* v, int n) {
    double norm = 0;
    for (int i = 0; i < n; ++i) norm += v[i] * v[i];
    norm = std::sqrt(norm);
    if (norm < 1e-15) return;
    for (int i = 0; i < n; ++i) v[i] /= norm;
  };
  if (c_.type == CompositeType::kCylinder) {
    const double square = std::max(std::fabs(pos[0]), std::fabs(pos[1]));
    normalize(pos, 2);
    pos[0] *= size[0] * square;
    pos[1] *= size[1] * square;
  } else if (c_.type == CompositeType::kEllipsoid) {
    normalize(pos, 3);
    pos[0] *= size[0];
    pos[1] *= size[1];
  } else {
    pos[0] *= size[0];
    pos[1] *= size[1];
  }
  pos[2] *= size[2];
}

// Centre geom, shell bodies on radial slides, their fix, smoothing and volume constraints,
// skin. (composite) => (holder's geoms and children, spec tendons, equalities, skins)
void Expander::Box(BodySpec* holder) {
  GeomSpec& center = AddGeom(holder, c_.prefix + "Gcenter");
  center.type = GeomType::kSphere;
  center.size[0] *= 2;
  center.size[1] = center.size[2] = 0;
  // one fixed tendon over every radial joint: constant total displacement (volume)
  TendonSpec volume = c_.tendon[kKindTendon];
  volume.src = c_.src;
  volume.name = c_.prefix + "T";
  auto shell = [&](int ix, int iy, int iz) {
    return ix == 0 || ix == c_.count[0] - 1 || iy == 0 || iy == c_.count[1] - 1 || iz == 0 ||
           iz == c_.count[2] - 1;
  };
  const double zero[3] = {0, 0, 0};
  for (int ix = 0; ix < c_.count[0]; ++ix) {
    for (int iy = 0; iy < c_.count[1]; ++iy) {
      for (int iz = 0; iz < c_.count[2]; ++iz) {
        if (!shell(ix, iy, iz)) continue;
        double pos[3] = {2.0 * ix / (c_.count[0] - 1) - 1, 2.0 * iy / (c_.count[1] - 1) - 1,
                         2.0 * iz / (c_.count[2] - 1) - 1};
        ProjectToShape(pos);
        BodySpec* b = AddBody(holder, CompositeName(c_, "B", {ix, iy, iz}), pos[0], pos[1],
                              pos[2]);
        b->orient.has_zaxis = true;  // z points outwards
        std::copy(pos, pos + 3, b->orient.zaxis);
        GeomSpec& g = AddGeom(b, CompositeName(c_, "G", {ix, iy, iz}));
        if (g.type == GeomType::kCapsule) {
          g.pos[2] = -(g.size[0] + g.size[1]);
        } else {
          g.type = GeomType::kSphere;
          g.pos[2] = -g.size[0];
        }
        const std::string joint = CompositeName(c_, "J", {ix, iy, iz});
        AddJoint(b, kKindMain, joint, JointType::kSlide, zero, 2);
        AddFix(kKindMain, EqType::kJoint, joint);
        WrapSpec w;
        w.src = c_.src;
        w.type = WrapType::kJoint;
        w.name = joint;
        w.prm = 1;
        volume.path.push_back(w);
        for (int i = 0; i < 3; ++i) {
          const int jx = std::min(ix + (i == 0), c_.count[0] - 1);
          const int jy = std::min(iy + (i == 1), c_.count[1] - 1);
          const int jz = std::min(iz + (i == 2), c_.count[2] - 1);
          if (shell(jx, jy, jz) && (jx != ix || jy != iy || jz != iz)) {
            AddSmooth(EqType::kJoint, joint, CompositeName(c_, "J", {jx, jy, jz}));
          }
        }
      }
    }
  }
  spec_->tendons.push_back(volume);
  AddFix(kKindTendon, EqType::kTendon, volume.name);
  if (c_.skin) AddSkin3D(c_, spec_);
}

}  // namespace

// (composite) => (body, spec)
void ExpandComposite(const CompositeSpec& c, ModelSpec* spec, BodySpec* body) {
  Expander x(c, spec);
  switch (c.type) {
    case CompositeType::kParticle: x.Particle(body); break;
    case CompositeType::kGrid: x.Grid(body); break;
    case CompositeType::kRope:
    case CompositeType::kLoop: x.Rope(body); break;
    case CompositeType::kCloth: x.Cloth(body); break;
    default: x.Box(body); break;
  }
}

}  // namespace gauss::mjcf

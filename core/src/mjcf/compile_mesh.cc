// Compiling <asset><mesh>: reading the geometry, its mass properties, the principal frame in
// which its vertices are stored, and its convex hull; and placing mesh geoms.
//
// Rules measured against MuJoCo 2.2.2 (tests/reference/mesh_compile_test.cc):
//  - Vertices are transformed in this order: the reference frame v <- R(refquat)' (v - refpos),
//    then the scale (per axis). Vertices are single precision, as MuJoCo stores them.
//  - A mesh without faces (inline vertices only, or an OBJ point cloud) takes the faces of its
//    convex hull. A mesh's name defaults to its file name without directory and extension.
//  - Mass properties come from the triangles as given (not from the convex hull), by
//    tetrahedra from each triangle to an apex, in two passes: the centre of mass with the apex
//    at the area-weighted mean of the triangle centroids, then volume and inertia with the
//    apex at that centre. With compiler exactmeshinertia="true" the tetrahedra are signed
//    (exact for a closed, outward-oriented mesh; a negative or tiny volume is an error). With
//    "false" (the default) their absolute volumes are used (orientation does not matter; exact
//    for meshes star-shaped about the apexes), and the volume that sets the mass is not the
//    mesh's but that of the box with the same principal moments per unit mass:
//    8 sqrt(a2 b2 c2) with a2 = 3 (I2 + I3 - I1) / 2 and so on. Inertia = mass x (moments per
//    unit volume).
//  - Principal axes by the same Jacobi iteration as body inertias (PrincipalAxes), moments in
//    decreasing order. Vertices are stored relative to the centre of mass along those axes;
//    a mesh geom's frame is its written frame composed with the mesh's (centre, axes).
//  - geom_size of a mesh geom: the largest |coordinate| of its vertices along each mesh axis;
//    geom_rbound: the norm of that size vector (half-diagonal of the box around the vertices,
//    not the farthest vertex). The size attribute is ignored.
#include <cmath>
#include <cctype>
#include <filesystem>

#include "gauss/math.h"
#include "mjcf/compiler.h"
#include "mjcf/convex_hull.h"
#include "mjcf/mesh_io.h"
#include "mjcf/orientation.h"

namespace gauss::mjcf {
namespace {

// Rounds to single precision: MuJoCo 2.2.2 stores every mesh vertex as a float.
inline double Float(double x) { return static_cast<double>(static_cast<float>(x)); }

// Signed or absolute volume of the tetrahedron (apex, a, b, c).
double TetVolume(const double* apex, const double* a, const double* b, const double* c,
                 bool signed_volumes) {
  using namespace math;
  double pa[3], pb[3], pc[3], n[3];
  Sub3(pa, a, apex);
  Sub3(pb, b, apex);
  Sub3(pc, c, apex);
  Cross3(n, pb, pc);
  const double v = Dot3(pa, n) / 6;
  return signed_volumes ? v : std::fabs(v);
}

// Volume, centre and inertia per unit volume (about the centre, as xx yy zz xy xz yz) of the
// solid bounded by the triangles, in MuJoCo 2.2.2's two passes: the centre from tetrahedra with
// their apex at the area-weighted mean of the triangle centroids; then volume and inertia from
// tetrahedra with their apex at that centre. signed_volumes: exact for closed meshes; otherwise
// absolute tetrahedron volumes (the legacy rule). Returns the volume (second pass), or the
// first pass's when that one is below kMinVal. (vert, face) => (centre, inertia)
double TriangleMassProps(const std::vector<double>& v, const std::vector<int>& f,
                         bool signed_volumes, double centre[3], double inertia[6]) {
  using namespace math;
  const int nface = static_cast<int>(f.size() / 3);
  auto corner = [&](int t, int k) { return &v[3 * f[3 * t + k]]; };
  double apex[3] = {0, 0, 0}, area = 0;
  for (int t = 0; t < nface; ++t) {
    const double *a = corner(t, 0), *b = corner(t, 1), *c = corner(t, 2);
    double ab[3], ac[3], n[3];
    Sub3(ab, b, a);
    Sub3(ac, c, a);
    Cross3(n, ab, ac);
    const double s = Norm3(n) / 2;
    area += s;
    for (int k = 0; k < 3; ++k) apex[k] += s * (a[k] + b[k] + c[k]) / 3;
  }
  if (area > 0) Scale3(apex, apex, 1 / area);

  // pass 1: the centre
  double total = 0;
  Zero3(centre);
  for (int t = 0; t < nface; ++t) {
    const double *a = corner(t, 0), *b = corner(t, 1), *c = corner(t, 2);
    const double vol = TetVolume(apex, a, b, c, signed_volumes);
    total += vol;
    for (int k = 0; k < 3; ++k) centre[k] += vol * (apex[k] + a[k] + b[k] + c[k]) / 4;
  }
  if (!(total >= kMinVal)) return total;
  Scale3(centre, centre, 1 / total);

  // pass 2: volume and second moments about the centre, apex at the centre; a tetrahedron with
  // corners p0..p3 (relative to the centre) has integral of x_i x_j = V/20 (sum_k p_k,i p_k,j +
  // s_i s_j), s = sum_k p_k, and p0 = 0 here
  double m2[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  total = 0;
  for (int t = 0; t < nface; ++t) {
    const double vol = TetVolume(centre, corner(t, 0), corner(t, 1), corner(t, 2), signed_volumes);
    total += vol;
    double p[3][3], s[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      Sub3(p[k], corner(t, k), centre);
      AddTo3(s, p[k]);
    }
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        m2[i][j] += vol / 20 * (s[i] * s[j] + p[0][i] * p[0][j] + p[1][i] * p[1][j] +
                                p[2][i] * p[2][j]);
      }
    }
  }
  if (!(total >= kMinVal)) return total;
  const double trace = m2[0][0] + m2[1][1] + m2[2][2];
  inertia[0] = (trace - m2[0][0]) / total;
  inertia[1] = (trace - m2[1][1]) / total;
  inertia[2] = (trace - m2[2][2]) / total;
  inertia[3] = -m2[0][1] / total;
  inertia[4] = -m2[0][2] / total;
  inertia[5] = -m2[1][2] / total;
  return total;
}

// Everything about one mesh. (spec mesh) => (mesh_* rows of m, props)
void CompileMesh(const ModelSpec& spec, const MeshSpec& ms, Model& m, MeshProps* props) {
  using namespace math;
  const ErrorLocation where = ms.src.Where(ms.file.empty() ? "vertex" : "file");
  MeshGeometry g;
  if (!ms.file.empty()) {
    const std::string path = ResolveMeshPath(spec, ms.file);
    std::error_code ec;
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    // (an unknown type is reported by ReadMeshFile, whether the file exists or not)
    if ((ext == ".stl" || ext == ".obj") && !std::filesystem::is_regular_file(path, ec)) {
      const std::string folder = std::filesystem::path(spec.base_path).parent_path().string();
      throw Error(where, "mesh file '" + ms.file + "' not found: tried " +
                             std::filesystem::absolute(path, ec).lexically_normal().string() +
                             " (the model's folder '" + (folder.empty() ? "." : folder) +
                             "' + compiler meshdir '" + spec.compiler.meshdir + "'" +
                             (spec.compiler.strippath ? ", directories stripped by strippath" : "") + ")");
    }
    ReadMeshFile(path, where, &g);
  } else {
    for (double x : ms.vertex) g.vert.push_back(Float(x));
    g.face = ms.face;
  }
  const int nvert = static_cast<int>(g.vert.size() / 3);
  if (nvert < 4) {
    throw Error(where, "a mesh needs at least 4 vertices, found " + std::to_string(nvert));
  }
  for (int i : g.face) {
    if (i >= nvert) {
      throw Error(ms.src.Where("face"), "vertex index " + std::to_string(i) + " out of range (" +
                                            std::to_string(nvert) + " vertices)");
    }
  }

  // the convex hull, of the vertices as read (MuJoCo 2.2.2 hands qhull these numbers; the
  // hull is a graph of vertex indices, which the transformations below do not change)
  std::vector<double> points;
  if (g.hull_from_corners) {
    for (int i : g.face) points.insert(points.end(), g.vert.begin() + 3 * i, g.vert.begin() + 3 * i + 3);
  }
  const std::vector<double>& hull_input = g.hull_from_corners ? points : g.vert;
  ConvexHull hull;
  std::string why;
  if (!ComputeConvexHull(hull_input.data(), static_cast<int>(hull_input.size() / 3), &hull,
                         &why)) {
    throw Error(where, "mesh '" + ms.name + "'" + (ms.file.empty() ? "" : " (file '" + ms.file + "')") +
                           ": no convex hull: " + why);
  }
  if (g.hull_from_corners) RenumberHullPoints(g.face, &hull);  // corners -> vertices
  if (g.face.empty()) g.face = hull.face;  // MuJoCo: a mesh without faces is its hull

  // the reference frame, then the scale
  double refquat[4];
  Copy4(refquat, ms.refquat);
  if (NormalizeQuat(refquat) < kMinVal) throw Error(ms.src.Where("refquat"), "zero quaternion");
  double refinv[4];
  NegQuat(refinv, refquat);
  const bool has_ref = Norm3(ms.refpos) > 0 || refquat[0] != 1;
  for (int i = 0; i < nvert; ++i) {
    double* p = &g.vert[3 * i];
    if (has_ref) {
      double d[3];
      Sub3(d, p, ms.refpos);
      RotVecQuat(p, d, refinv);
    }
    for (int k = 0; k < 3; ++k) p[k] = Float(p[k] * ms.scale[k]);
  }

  // mass properties and the principal frame: the legacy rule (the default; in a 3.x file
  // MuJoCo 3.12's variant, below), or exact signed tetrahedra of the mesh (exactmeshinertia,
  // 3.x inertia="exact") or of its convex hull (3.x inertia="convex"). 3.12's default is its
  // legacy rule (measured on an L-shaped mesh with faces: the legacy volume, not the hull's);
  // without faces the triangles are the hull's, where it equals the convex rule.
  enum { kLegacy, kExact, kConvex, kShell };
  const int rule = ms.inertia >= 0 ? ms.inertia
                   : spec.compiler.exactmeshinertia ? kExact : kLegacy;
  if (rule == kShell) {
    throw Error(ms.src.Where("inertia"), "not supported yet: mesh inertia=\"shell\"");
  }
  const bool exact = rule != kLegacy;
  double full[6];
  const double volume = TriangleMassProps(g.vert, rule == kConvex ? hull.face : g.face, exact,
                                          props->pos, full);
  if (!(volume >= kMinVal)) {
    throw Error(where, "mesh '" + ms.name + "': volume is too small (" + std::to_string(volume) +
                           ")" + (exact ? "; with exactmeshinertia the triangles must be "
                                          "oriented counter-clockwise seen from outside"
                                        : ""));
  }
  PrincipalAxes(full, props->inertia, props->quat);
  // MuJoCo 3.12's legacy rule (a 3.x file asking for it) keeps the absolute tetrahedra's volume;
  // 2.2.2's takes the volume of the box with the same inertia (measured on a supertorus mesh:
  // 3.12 weighs it by the sum of |tetrahedra| from the centre, 2.2.2's box is 18% lighter)
  if (exact || spec.mjcf3) {
    props->volume = volume;
  } else {
    const double* I = props->inertia;
    const double a2 = std::max(0.0, 1.5 * (I[1] + I[2] - I[0]));
    const double b2 = std::max(0.0, 1.5 * (I[0] + I[2] - I[1]));
    const double c2 = std::max(0.0, 1.5 * (I[0] + I[1] - I[2]));
    props->volume = 8 * std::sqrt(a2 * b2 * c2);
  }

  // vertices in the principal frame: v <- R' (v - centre)
  double inv[4];
  NegQuat(inv, props->quat);
  Zero3(props->size);
  for (int i = 0; i < nvert; ++i) {
    double* p = &g.vert[3 * i];
    double d[3];
    Sub3(d, p, props->pos);
    RotVecQuat(p, d, inv);
    for (int k = 0; k < 3; ++k) {
      p[k] = Float(p[k]);
      props->size[k] = std::max(props->size[k], std::fabs(p[k]));
    }
  }
  props->rbound = Norm3(props->size);  // MuJoCo: the half-diagonal of the vertices' box

  m.mesh_vertadr.push_back(m.nmeshvert);
  m.mesh_vertnum.push_back(nvert);
  m.mesh_faceadr.push_back(m.nmeshface);
  m.mesh_facenum.push_back(static_cast<int>(g.face.size() / 3));
  m.mesh_graphadr.push_back(m.nmeshgraph);
  m.mesh_vert.insert(m.mesh_vert.end(), g.vert.begin(), g.vert.end());
  m.mesh_face.insert(m.mesh_face.end(), g.face.begin(), g.face.end());
  PackHullGraph(hull, &m.mesh_graph);
  m.mesh_name.push_back(ms.name);
  m.nmeshvert += nvert;
  m.nmeshface += static_cast<int>(g.face.size() / 3);
  m.nmeshgraph = static_cast<int>(m.mesh_graph.size());
  ++m.nmesh;
}

}  // namespace

// (compiler meshdir, strippath, model path) => path of a mesh or height field file
std::string ResolveMeshPath(const ModelSpec& spec, const std::string& file) {
  std::filesystem::path p(file);
  if (spec.compiler.strippath) p = p.filename();
  if (p.is_relative()) {
    p = std::filesystem::path(spec.base_path).parent_path() / spec.compiler.meshdir / p;
  }
  return p.string();
}

// (spec meshes) => (mesh_*, c->meshes, c->mesh_names)
void CompileMeshes(CompileContext* c) {
  for (const MeshSpec& ms : c->spec->meshes) {
    c->mesh_names.Add(ms.name, c->m->nmesh, ms.src, "mesh");
    MeshProps props;
    CompileMesh(*c->spec, ms, *c->m, &props);
    c->meshes.push_back(props);
  }
}

// (geom frame as written, its mesh) => (geom frame, size, rbound, mass, inertia)
int PlaceMeshGeom(const CompileContext& c, const GeomSpec& g, double pos[3], double quat[4],
                  double size[3], double* rbound, double* mass, double inertia[3]) {
  if (g.mesh.empty()) throw Error(g.src.Where("mesh"), "a mesh geom needs the mesh attribute");
  const int id = c.mesh_names.Require(g.mesh, g.src, "mesh", "mesh");
  const MeshProps& p = c.meshes[id];
  double mesh_pos[3], mesh_quat[4];
  LocalToGlobal(pos, quat, p.pos, p.quat, mesh_pos, mesh_quat);
  math::Copy3(pos, mesh_pos);
  math::Copy4(quat, mesh_quat);
  math::Copy3(size, p.size);
  *rbound = p.rbound;
  *mass = g.has_mass ? g.mass : g.density * p.volume;
  math::Scale3(inertia, p.inertia, *mass);
  return id;
}

}  // namespace gauss::mjcf

// Mesh hulls from qhull (libqhull_r, the reentrant library: all of its state lives in one qhT).
//
// qhull reports errors by printing to its error stream and jumping (longjmp) to qh->errexit,
// or by calling exit() when no jump target is set. Both are contained here: its output and
// error streams are in-memory files whose text becomes the reason of a failure, and every call
// that can fail runs under setjmp in RunQhull, a frame that holds no C++ object (a longjmp
// past a destructor would be undefined behaviour).
#include "mjcf/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace gauss::mjcf {
namespace {

// An in-memory FILE for qhull's output and error messages. (writes) => text()
class CapturedStream {
 public:
  CapturedStream() : file_(open_memstream(&buffer_, &size_)) {}
  ~CapturedStream() {
    if (file_) std::fclose(file_);
    std::free(buffer_);
  }
  CapturedStream(const CapturedStream&) = delete;
  CapturedStream& operator=(const CapturedStream&) = delete;

  FILE* file() const { return file_; }
  // The first line written so far (qhull's error code and summary), without the newline.
  std::string FirstLine() {
    if (!file_) return "";
    std::fflush(file_);
    std::string text(buffer_ ? buffer_ : "", size_);
    const std::size_t end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
  }

 private:
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  FILE* file_;
};

// A qhull instance whose memory is released whatever happened. (qhT) => ()
class Qhull {
 public:
  explicit Qhull(FILE* messages) {
    qh_zero(&qh_, messages);
    // no input file is ever read (the points come from memory); output and errors go to
    // `messages`
    qh_init_A(&qh_, stdin, messages, messages, 0, nullptr);
  }
  ~Qhull() {
    int curlong = 0, totlong = 0;
    qh_freeqhull(&qh_, !qh_ALL);
    qh_memfreeshort(&qh_, &curlong, &totlong);
  }
  Qhull(const Qhull&) = delete;
  Qhull& operator=(const Qhull&) = delete;

  qhT* get() { return &qh_; }

 private:
  qhT qh_;
};

// The triangulated hull of `points` with vertex-facet neighbourhoods, MuJoCo 2.2.2's options.
// Returns 0, or qhull's exit code after an error (the message is in qh's error stream).
// Holds no C++ object: qhull's errors longjmp back into this frame. (points) => (qh)
int RunQhull(qhT* qh, double* points, int n) {
  char options[] = "qhull Qt";  // qh_initflags skips the leading program name
  const int code = setjmp(qh->errexit);
  if (code == 0) {
    qh->NOerrexit = False;
    qh_initflags(qh, options);
    qh_init_B(qh, points, n, 3, False);
    qh_qhull(qh);
    qh_triangulate(qh);
    qh_vertexneighbors(qh);
  }
  qh->NOerrexit = True;  // later errors (none expected) exit instead of jumping into a dead frame
  return code;
}

// Why points (n x 3) span no volume: all equal, on a line or in a plane, at a tolerance of
// 1e-10 x the largest side of their bounding box. Empty when they do span one. (points) => text
std::string FlatnessReason(const double* p, int n) {
  double lo[3] = {p[0], p[1], p[2]}, hi[3] = {p[0], p[1], p[2]};
  for (int i = 1; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[3 * i + k]);
      hi[k] = std::max(hi[k], p[3 * i + k]);
    }
  }
  const double tol = 1e-10 * std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
  auto sub = [&](int i, int j, double out[3]) {
    for (int k = 0; k < 3; ++k) out[k] = p[3 * i + k] - p[3 * j + k];
  };
  auto cross = [](const double a[3], const double b[3], double out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
  };
  auto norm = [](const double a[3]) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); };
  // a second point far from the first, then a third far from their line
  int b = 0;
  double best = 0, u[3], w[3], c[3], normal[3] = {0, 0, 0};
  for (int i = 1; i < n; ++i) {
    sub(i, 0, u);
    if (norm(u) > best) best = norm(u), b = i;
  }
  if (best <= tol) return "all vertices coincide";
  sub(b, 0, u);
  best = 0;
  for (int i = 1; i < n; ++i) {
    sub(i, 0, w);
    cross(u, w, c);
    if (norm(c) / norm(u) > best) best = norm(c) / norm(u), std::copy(c, c + 3, normal);
  }
  if (best <= tol) return "all vertices lie on a line";
  const double len = norm(normal);
  for (int i = 1; i < n; ++i) {
    sub(i, 0, w);
    if (std::fabs(normal[0] * w[0] + normal[1] * w[1] + normal[2] * w[2]) / len > tol) return "";
  }
  return "all vertices lie in a plane (the mesh has no volume)";
}

// Reads the hull out of a finished qhull run, in qhull's order (see convex_hull.h).
// Returns false with *why when a facet is not a triangle or the graph is inconsistent.
// (qh) => (hull)
bool ReadHull(qhT* qh, int n, ConvexHull* hull, std::string* why) {
  hull->vert.clear();
  hull->edge_adr.clear();
  hull->edges.clear();
  hull->face.clear();
  std::vector<int> local(n, -1);  // input point -> hull vertex
  vertexT* vertex;
  FORALLvertices {
    const int id = qh_pointid(qh, vertex->point);
    if (id < 0 || id >= n) {
      *why = "qhull returned a vertex that is not an input point";
      return false;
    }
    local[id] = static_cast<int>(hull->vert.size());
    hull->vert.push_back(id);
  }
  int nface = 0;
  FORALLvertices {
    const int self = local[qh_pointid(qh, vertex->point)];
    const std::size_t start = hull->edges.size();
    hull->edge_adr.push_back(static_cast<int>(start));
    facetT *facet, **facetp;
    FOREACHfacet_(vertex->neighbors) {
      vertexT *other, **otherp;
      FOREACHsetelement_(vertexT, facet->vertices, other) {
        const int k = local[qh_pointid(qh, other->point)];
        if (k != self && std::find(hull->edges.begin() + start, hull->edges.end(), k) ==
                             hull->edges.end()) {
          hull->edges.push_back(k);
        }
      }
    }
  }
  hull->edge_adr.push_back(static_cast<int>(hull->edges.size()));
  facetT* facet;
  FORALLfacets {
    if (qh_setsize(qh, facet->vertices) != 3) {
      *why = "qhull returned a facet that is not a triangle";
      return false;
    }
    int corner[3], k = 0;
    vertexT *v, **vp;
    FOREACHsetelement_(vertexT, facet->vertices, v) corner[k++] = qh_pointid(qh, v->point);
    // qhull lists a simplicial facet's vertices by decreasing id; toporient says whether that
    // order is clockwise seen from outside, and then the first two are swapped (as MuJoCo does)
    if (facet->toporient) std::swap(corner[0], corner[1]);
    hull->face.insert(hull->face.end(), corner, corner + 3);
    ++nface;
  }
  // a closed triangulated surface: each vertex lists its neighbours once, 2E = 3F in total
  if (static_cast<int>(hull->edges.size()) != 3 * nface) {
    *why = "qhull returned an inconsistent hull graph";
    return false;
  }
  return true;
}

}  // namespace

// (points) => (hull), false with a reason for degenerate input
bool ComputeConvexHull(const double* points, int n, ConvexHull* hull, std::string* why) {
  if (n < 4) {
    *why = "fewer than 4 vertices (" + std::to_string(n) + ")";
    return false;
  }
  std::vector<double> copy(points, points + 3 * n);  // qhull takes non-const coordinates
  CapturedStream messages;
  if (!messages.file()) {
    *why = "could not open a memory stream for qhull's messages";
    return false;
  }
  Qhull qh(messages.file());
  if (RunQhull(qh.get(), copy.data(), n) != 0) {
    const std::string flat = FlatnessReason(points, n);
    *why = (flat.empty() ? "" : flat + "; ") + "qhull: " + messages.FirstLine();
    return false;
  }
  return ReadHull(qh.get(), n, hull, why);
}

// (hull, vertex) => (hull.vert, hull.face renamed)
void RenumberHullPoints(const std::vector<int>& vertex, ConvexHull* hull) {
  for (int& p : hull->vert) p = vertex[p];
  for (int& p : hull->face) p = vertex[p];
}

// (hull) => graph += [nv, nf, vert_id, edge_adr, edges, faces]
void PackHullGraph(const ConvexHull& hull, std::vector<int>* graph) {
  const int nv = static_cast<int>(hull.vert.size());
  const int nf = static_cast<int>(hull.face.size()) / 3;
  std::vector<int> local;  // input point -> hull vertex
  for (int i = 0; i < nv; ++i) {
    if (hull.vert[i] >= static_cast<int>(local.size())) local.resize(hull.vert[i] + 1, -1);
    local[hull.vert[i]] = i;
  }
  graph->push_back(nv);
  graph->push_back(nf);
  graph->insert(graph->end(), hull.vert.begin(), hull.vert.end());
  graph->insert(graph->end(), hull.edge_adr.begin(), hull.edge_adr.end());
  graph->insert(graph->end(), hull.edges.begin(), hull.edges.end());
  for (int f = 0; f < 3 * nf; ++f) graph->push_back(local[hull.face[f]]);
}

}  // namespace gauss::mjcf

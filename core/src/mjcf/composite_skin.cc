// The skins of composite objects, as MuJoCo 2.2.2 builds them (vertex, face and bone order
// included, so that the compiled skin arrays are equal):
//  - 2D (grid, cloth): two sheets of vertices, one per side, closed by thin triangles along
//    the border. Without subgrid each body carries its two vertices. With subgrid each grid
//    cell is a bicubic Hermite patch of its four corner bodies whose slopes are finite
//    differences of the neighbouring bodies (central inside, one-sided at the border); a
//    vertex's bone weights are the patch's coefficients of each body.
//  - 3D box: each of the six faces is its own grid of vertices, one bone per vertex (edge
//    bodies carry one vertex per face they are on).
//  - 3D cylinder and ellipsoid: one vertex per outer body, shared by the faces meeting there;
//    the cylinder's flat ends are box-like faces.
#include <algorithm>
#include <map>

#include "mjcf/composite.h"

namespace gauss::mjcf {
namespace {

// An empty skin "<prefix>Skin" with the composite's skin settings. (composite) => (skin)
SkinSpec NewSkin(const CompositeSpec& c) {
  SkinSpec s;
  s.src = c.src;
  s.name = c.prefix + "Skin";
  s.material = c.skin_material;
  std::copy(c.skin_rgba, c.skin_rgba + 4, s.rgba);
  s.inflate = c.skin_inflate;
  s.group = c.skin_group;
  return s;
}

// A bone on `body` bound at (x, y, 0), unrotated, with weight 1 on `vertid`. => (skin bones)
void AddBone(SkinSpec* s, const CompositeSpec& c, const std::string& body, double x, double y,
             std::vector<int> vertid) {
  SkinBoneSpec b;
  b.src = c.src;
  b.body = body;
  b.bindpos[0] = x;
  b.bindpos[1] = y;
  b.vertid = std::move(vertid);
  b.vertweight.assign(b.vertid.size(), 1.0);
  s->bones.push_back(b);
}

// => (skin faces)
void Triangle(SkinSpec* s, int a, int b, int c) {
  s->face.insert(s->face.end(), {a, b, c});
}

// Two sheets of n0 x n1 vertices (side 0 first, index side * n0 n1 + i0 n1 + i1) at
// `spacing`, their triangles facing away from each other, and the thin triangles closing
// the four borders. (sizes) => (skin vertices and faces)
void TwoSidedSheet(SkinSpec* s, int n0, int n1, double spacing) {
  const int n = n0 * n1;
  for (int side = 0; side < 2; ++side) {
    const int base = side * n;
    for (int i0 = 0; i0 < n0; ++i0) {
      for (int i1 = 0; i1 < n1; ++i1) {
        s->vertex.insert(s->vertex.end(), {i0 * spacing, i1 * spacing, 0.0});
        if (i0 == n0 - 1 || i1 == n1 - 1) continue;
        const int a = base + i0 * n1 + i1;
        const int up = side == 0 ? 0 : 1;  // side 1 winds the other way
        Triangle(s, a, base + (i0 + 1) * n1 + i1 + up, base + (i0 + 1) * n1 + i1 + 1 - up);
        Triangle(s, a, base + (i0 + 1 - up) * n1 + i1 + 1, base + (i0 + up) * n1 + i1 + 1);
      }
    }
  }
  for (int i0 = 0; i0 < n0 - 1; ++i0) {  // border i1 = 0
    const int a = i0 * n1, b = (i0 + 1) * n1;
    Triangle(s, a, n + b, b);
    Triangle(s, a, n + a, n + b);
  }
  for (int i0 = 0; i0 < n0 - 1; ++i0) {  // border i1 = n1 - 1
    const int a = i0 * n1 + n1 - 1, b = (i0 + 1) * n1 + n1 - 1;
    Triangle(s, a, b, n + b);
    Triangle(s, a, n + b, n + a);
  }
  for (int i1 = 0; i1 < n1 - 1; ++i1) {  // border i0 = 0
    Triangle(s, i1, i1 + 1, n + i1 + 1);
    Triangle(s, i1, n + i1 + 1, n + i1);
  }
  const int last = (n0 - 1) * n1;
  for (int i1 = 0; i1 < n1 - 1; ++i1) {  // border i0 = n0 - 1
    Triangle(s, last + i1, n + last + i1 + 1, last + i1 + 1);
    Triangle(s, last + i1, n + last + i1, n + last + i1 + 1);
  }
}

// ---------------------------------------------------------------- bicubic subgrid weights
// Coefficients (of 1, t, t^2, t^3) of the cubic Hermite basis on [0, 1]: value at 0, value at
// 1, slope at 0, slope at 1.
constexpr double kHermite[4][4] = {
    {1, 0, -3, 2}, {0, 0, 3, -2}, {0, 1, -2, 1}, {0, 0, -1, 1}};
// The cell's corners in the order of the patch data: (0,0), (1,0), (1,1), (0,1).
constexpr int kCorner[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};

// (16 x 16) polynomial coefficients (row 4a + b: x^a y^b) of the patch data (column: value,
// x slope, y slope, cross slope, each at the four corners).
void HermiteMatrix(double w[256]) {
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int datum = 0; datum < 4; ++datum) {
        for (int k = 0; k < 4; ++k) {
          const int hx = kCorner[k][0] + (datum == 1 || datum == 3 ? 2 : 0);
          const int hy = kCorner[k][1] + (datum == 2 || datum == 3 ? 2 : 0);
          w[16 * (4 * a + b) + 4 * datum + k] = kHermite[hx][a] * kHermite[hy][b];
        }
      }
    }
  }
}

// Finite-difference slope at corner coordinate `corner` (0, 1) of a cell in a row of cells of
// class `cls` (0 first, 1 inner, 2 last): weights of the bones at offsets -1..2 (index + 1).
void Slope(int corner, int cls, double out[4]) {
  std::fill(out, out + 4, 0.0);
  if (cls == 0 && corner == 0) {
    out[1] = -1, out[2] = 1;  // forward difference at the grid's first point
  } else if (cls == 2 && corner == 1) {
    out[1] = -1, out[2] = 1;  // backward difference at its last point
  } else {
    out[corner] = -0.5, out[corner + 2] = 0.5;
  }
}

// (16 x 16) patch data (rows as the Hermite matrix's columns) from the 4 x 4 bones around the
// cell (column 4 (dx + 1) + dy + 1), for cells of class (cx, cy).
void DifferenceMatrix(int cx, int cy, double d[256]) {
  std::fill(d, d + 256, 0.0);
  for (int k = 0; k < 4; ++k) {
    double value_x[4] = {0, 0, 0, 0}, value_y[4] = {0, 0, 0, 0}, slope_x[4], slope_y[4];
    value_x[kCorner[k][0] + 1] = 1;
    value_y[kCorner[k][1] + 1] = 1;
    Slope(kCorner[k][0], cx, slope_x);
    Slope(kCorner[k][1], cy, slope_y);
    const double* along_x[4] = {value_x, slope_x, value_x, slope_x};
    const double* along_y[4] = {value_y, value_y, slope_y, slope_y};
    for (int datum = 0; datum < 4; ++datum) {
      for (int px = 0; px < 4; ++px) {
        for (int py = 0; py < 4; ++py) {
          d[16 * (4 * datum + k) + 4 * px + py] = along_x[datum][px] * along_y[datum][py];
        }
      }
    }
  }
}

// res (r x 16) = a (r x 16) b (16 x 16), summed in column order of a (the rounding MuJoCo's
// weights have, so that exactly-zero weights are the same ones).
void Multiply(const std::vector<double>& a, const double* b, int rows, double* res) {
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < 16; ++j) {
      double sum = 0;
      for (int k = 0; k < 16; ++k) {
        if (a[16 * i + k] != 0) sum += a[16 * i + k] * b[16 * k + j];
      }
      res[16 * i + j] = sum;
    }
  }
}

// Weights [class 3 cx + cy][subgrid point (sub+2)^2][bone 16] of every subgrid point of a cell.
std::vector<double> SubgridWeights(int sub) {
  const int points = (sub + 2) * (sub + 2);
  const double step = 1.0 / (1 + sub);
  std::vector<double> monomials(16 * points);
  for (int sx = 0, row = 0; sx <= sub + 1; ++sx) {
    for (int sy = 0; sy <= sub + 1; ++sy, ++row) {
      const double x = sx * step, y = sy * step;
      for (int a = 0; a < 4; ++a) {
        for (int b = 0; b < 4; ++b) {
          double m = 1;  // x^a y^b multiplied out left to right
          for (int i = 0; i < a; ++i) m = i == 0 ? x : m * x;
          for (int i = 0; i < b; ++i) m = (a == 0 && i == 0) ? y : m * y;
          monomials[16 * row + 4 * a + b] = m;
        }
      }
    }
  }
  double w[256], d[256];
  HermiteMatrix(w);
  std::vector<double> basis(16 * points), weights(9 * 16 * points);
  Multiply(monomials, w, points, basis.data());
  for (int cx = 0; cx < 3; ++cx) {
    for (int cy = 0; cy < 3; ++cy) {
      DifferenceMatrix(cx, cy, d);
      Multiply(basis, d, points, &weights[(3 * cx + cy) * 16 * points]);
    }
  }
  return weights;
}

// The subgrid sheet, a bone per body bound at its grid position, and each vertex weighted
// by its cell's patch coefficients. (composite) => (skin vertices, faces, bones)
void AddSkin2DSubgrid(const CompositeSpec& c, SkinSpec* s) {
  const int sub = c.skin_subgrid;
  const int n0 = c.count[0] + (c.count[0] - 1) * sub, n1 = c.count[1] + (c.count[1] - 1) * sub;
  const int n = n0 * n1;
  TwoSidedSheet(s, n0, n1, c.spacing / (1 + sub));
  for (int ix = 0; ix < c.count[0]; ++ix) {
    for (int iy = 0; iy < c.count[1]; ++iy) {
      AddBone(s, c, CompositeName(c, "B", {ix, iy}), ix * c.spacing, iy * c.spacing, {});
    }
  }
  const std::vector<double> weights = SubgridWeights(sub);
  const int points = (sub + 2) * (sub + 2);
  auto cls = [](int i, int count) { return i == 0 ? 0 : (i == count - 2 ? 2 : 1); };
  for (int ix = 0; ix < c.count[0] - 1; ++ix) {
    for (int iy = 0; iy < c.count[1] - 1; ++iy) {
      const double* cell = &weights[(3 * cls(ix, c.count[0]) + cls(iy, c.count[1])) * 16 * points];
      // a cell owns its subgrid points but the far row and column, except at the grid's end
      for (int dx = 0; dx < 1 + sub + (ix == c.count[0] - 2); ++dx) {
        for (int dy = 0; dy < 1 + sub + (iy == c.count[1] - 2); ++dy) {
          const int v = (ix * (1 + sub) + dx) * n1 + iy * (1 + sub) + dy;
          const double* row = cell + 16 * (dx * (sub + 2) + dy);
          for (int k = 0; k < 16; ++k) {
            if (row[k] == 0) continue;
            SkinBoneSpec& bone = s->bones[(ix + k / 4 - 1) * c.count[1] + iy + k % 4 - 1];
            const double weight = static_cast<float>(row[k]);
            bone.vertid.insert(bone.vertid.end(), {v, v + n});
            bone.vertweight.insert(bone.vertweight.end(), {weight, weight});
          }
        }
      }
    }
  }
}

// One face of a box skin: its own c0 x c1 vertices, a bone per vertex on the body `name(i0,
// i1)`; `side` picks the winding. (face) => (skin)
template <typename Name>
void BoxFace(const CompositeSpec& c, SkinSpec* s, int c0, int c1, int side, Name name) {
  const int base = static_cast<int>(s->vertex.size() / 3);
  for (int i0 = 0; i0 < c0; ++i0) {
    for (int i1 = 0; i1 < c1; ++i1) {
      s->vertex.insert(s->vertex.end(), {0.0, 0.0, 0.0});
      if (i0 < c0 - 1 && i1 < c1 - 1) {
        const int a = base + i0 * c1 + i1;
        Triangle(s, a, base + (i0 + 1) * c1 + i1 + side, base + (i0 + 1) * c1 + i1 + 1 - side);
        Triangle(s, a, base + (i0 + 1 - side) * c1 + i1 + 1, base + (i0 + side) * c1 + i1 + 1);
      }
      AddBone(s, c, name(i0, i1), 0, 0, {base + i0 * c1 + i1});
    }
  }
}

// One face of a smooth skin over shared vertices `vertex(name)`. (face) => (skin)
template <typename Name>
void SmoothFace(const CompositeSpec& c, SkinSpec* s, int c0, int c1, int side,
                const std::map<std::string, int>& vertex, Name name) {
  for (int i0 = 0; i0 < c0; ++i0) {
    for (int i1 = 0; i1 < c1; ++i1) {
      if (i0 < c0 - 1 && i1 < c1 - 1) {
        const int v00 = vertex.at(name(i0, i1)), v01 = vertex.at(name(i0, i1 + 1));
        const int v10 = vertex.at(name(i0 + 1, i1)), v11 = vertex.at(name(i0 + 1, i1 + 1));
        if (side == 0) {
          Triangle(s, v00, v10, v11);
          Triangle(s, v00, v11, v01);
        } else {
          Triangle(s, v00, v01, v11);
          Triangle(s, v00, v11, v10);
        }
      }
      AddBone(s, c, name(i0, i1), 0, 0, {vertex.at(name(i0, i1))});
    }
  }
}

}  // namespace

// (2D composite) => (spec.skins)
void AddSkin2D(const CompositeSpec& c, ModelSpec* spec) {
  SkinSpec s = NewSkin(c);
  if (c.skin_subgrid > 0) {
    AddSkin2DSubgrid(c, &s);
  } else {
    TwoSidedSheet(&s, c.count[0], c.count[1], 0);
    const int n = c.count[0] * c.count[1];
    for (int ix = 0; ix < c.count[0]; ++ix) {
      for (int iy = 0; iy < c.count[1]; ++iy) {
        const int v = ix * c.count[1] + iy;
        AddBone(&s, c, CompositeName(c, "B", {ix, iy}), 0, 0, {v, v + n});
      }
    }
  }
  spec->skins.push_back(std::move(s));
}

// (3D composite) => (spec.skins)
void AddSkin3D(const CompositeSpec& c, ModelSpec* spec) {
  SkinSpec s = NewSkin(c);
  const int n0 = c.count[0], n1 = c.count[1], n2 = c.count[2];
  auto body = [&](int x, int y, int z) { return CompositeName(c, "B", {x, y, z}); };
  auto z_faces = [&](auto face) {
    face(n0, n1, 1, [&](int i, int j) { return body(i, j, 0); });
    face(n0, n1, 0, [&](int i, int j) { return body(i, j, n2 - 1); });
  };
  auto y_faces = [&](auto face) {
    face(n0, n2, 0, [&](int i, int j) { return body(i, 0, j); });
    face(n0, n2, 1, [&](int i, int j) { return body(i, n1 - 1, j); });
  };
  auto x_faces = [&](auto face) {
    face(n1, n2, 1, [&](int i, int j) { return body(0, i, j); });
    face(n1, n2, 0, [&](int i, int j) { return body(n0 - 1, i, j); });
  };
  auto box = [&](int c0, int c1, int side, auto name) { BoxFace(c, &s, c0, c1, side, name); };
  if (c.type == CompositeType::kBox) {
    z_faces(box);
    y_faces(box);
    x_faces(box);
  } else {
    // shared vertices: the outer bodies (the cylinder's: its curved side), in grid order
    const bool cylinder = c.type == CompositeType::kCylinder;
    std::map<std::string, int> vertex;
    for (int ix = 0; ix < n0; ++ix) {
      for (int iy = 0; iy < n1; ++iy) {
        for (int iz = 0; iz < n2; ++iz) {
          const bool side = ix == 0 || ix == n0 - 1 || iy == 0 || iy == n1 - 1;
          if (side || (!cylinder && (iz == 0 || iz == n2 - 1))) {
            vertex[body(ix, iy, iz)] = static_cast<int>(s.vertex.size() / 3);
            s.vertex.insert(s.vertex.end(), {0.0, 0.0, 0.0});
          }
        }
      }
    }
    auto smooth = [&](int c0, int c1, int side, auto name) {
      SmoothFace(c, &s, c0, c1, side, vertex, name);
    };
    if (cylinder) {
      y_faces(smooth);
      x_faces(smooth);
      z_faces(box);
    } else {
      z_faces(smooth);
      y_faces(smooth);
      x_faces(smooth);
    }
  }
  spec->skins.push_back(std::move(s));
}

}  // namespace gauss::mjcf

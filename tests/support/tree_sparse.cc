// Random kinematic trees and dense views of tree-sparse matrices (tree_sparse.h).
#include "support/tree_sparse.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

namespace gauss::test {
namespace {

struct TreeWriter {
  std::mt19937_64 gen;
  std::vector<int> parent;                // per body, -1: the world
  std::vector<std::vector<int>> children;  // per body
  std::vector<int> scalar_joint_body;     // per hinge/slide joint, its body
  std::ostringstream xml;

  double Uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen); }

  std::string Vec3(double lo, double hi) {
    std::ostringstream s;
    s << Uniform(lo, hi) << ' ' << Uniform(lo, hi) << ' ' << Uniform(lo, hi);
    return s.str();
  }
  std::string Axis() {
    double a[3], n = 0;
    for (double& v : a) {
      v = Uniform(-1, 1);
      n += v * v;
    }
    if (n < 1e-3) return "0 0 1";
    std::ostringstream s;
    s << a[0] << ' ' << a[1] << ' ' << a[2];
    return s.str();
  }

  // Body b with its joints, geom and subtree.
  void Body(int b, int indent) {
    const std::string pad(indent, ' ');
    xml << pad << "<body name=\"b" << b << "\" pos=\"" << Vec3(-0.3, 0.3) << "\">\n";
    if (parent[b] < 0 && Pick(2) == 0) {
      xml << pad << "  <freejoint/>\n";
    } else {
      const int njoint = Pick(4);  // 0: welded to the parent
      bool after_ball = false;      // a ball may be followed by slides only
      for (int j = 0; j < njoint; ++j) {
        const int type = after_ball ? 1 : Pick(3);
        after_ball = after_ball || type == 2;
        xml << pad << "  <joint type=\"" << (type == 0 ? "hinge" : type == 1 ? "slide" : "ball")
            << "\" pos=\"" << Vec3(-0.1, 0.1) << "\" damping=\"" << Uniform(0, 2)
            << "\" armature=\"" << Uniform(0.01, 0.1) << '"';
        if (type != 2) {
          xml << " axis=\"" << Axis() << '"';
          xml << " name=\"j" << scalar_joint_body.size() << '"';
          scalar_joint_body.push_back(b);
        }
        xml << "/>\n";
      }
    }
    if (Pick(2) == 0) {
      xml << pad << "  <geom type=\"box\" size=\"" << Vec3(0.03, 0.2) << "\" pos=\""
          << Vec3(-0.1, 0.1) << "\" euler=\"" << Vec3(-90, 90) << "\" mass=\"" << Uniform(0.2, 2)
          << "\"/>\n";
    } else {
      xml << pad << "  <geom type=\"capsule\" fromto=\"0 0 0 " << Vec3(-0.3, 0.3) << "\" size=\""
          << Uniform(0.02, 0.08) << "\" mass=\"" << Uniform(0.2, 2) << "\"/>\n";
    }
    for (int c : children[b]) Body(c, indent + 2);
    xml << pad << "</body>\n";
  }

  bool Related(int a, int b) const {
    for (int p = b; p >= 0; p = parent[p]) {
      if (p == a) return true;
    }
    for (int p = a; p >= 0; p = parent[p]) {
      if (p == b) return true;
    }
    return false;
  }

  // Damped tendons and tendon velocity actuators across branches, and one joint servo.
  void Couplings() {
    std::vector<std::pair<int, int>> pairs;
    const int n = static_cast<int>(scalar_joint_body.size());
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        if (!Related(scalar_joint_body[a], scalar_joint_body[b])) pairs.emplace_back(a, b);
      }
    }
    std::shuffle(pairs.begin(), pairs.end(), gen);
    if (pairs.size() > 3) pairs.resize(3);
    if (!pairs.empty()) {
      xml << "  <tendon>\n";
      for (std::size_t t = 0; t < pairs.size(); ++t) {
        xml << "    <fixed name=\"t" << t << "\" damping=\"" << Uniform(0.5, 3) << "\">"
            << "<joint joint=\"j" << pairs[t].first << "\" coef=\"" << Uniform(0.5, 1.5) << "\"/>"
            << "<joint joint=\"j" << pairs[t].second << "\" coef=\"" << Uniform(-1.5, -0.5) << "\"/>"
            << "</fixed>\n";
      }
      xml << "  </tendon>\n";
    }
    if (pairs.empty() && n == 0) return;
    xml << "  <actuator>\n";
    for (std::size_t t = 0; t < pairs.size(); ++t) {
      xml << "    <velocity tendon=\"t" << t << "\" kv=\"" << Uniform(1, 5) << "\"/>\n";
    }
    if (n > 0) xml << "    <velocity joint=\"j" << Pick(n) << "\" kv=\"" << Uniform(1, 5) << "\"/>\n";
    xml << "  </actuator>\n";
  }
};

}  // namespace

std::string RandomTreeXml(unsigned seed, int nbody, bool couplings) {
  TreeWriter w;
  w.gen.seed(seed);
  w.parent.resize(nbody);
  w.children.resize(nbody);
  for (int b = 0; b < nbody; ++b) {
    w.parent[b] = b == 0 || w.Pick(5) == 0 ? -1 : w.Pick(b);
    if (w.parent[b] >= 0) w.children[w.parent[b]].push_back(b);
  }
  w.xml << "<mujoco model=\"random_tree_" << seed << "\">\n"
        << "  <option timestep=\"0.01\"><flag contact=\"disable\"/></option>\n"
        << "  <worldbody>\n";
  for (int b = 0; b < nbody; ++b) {
    if (w.parent[b] < 0) w.Body(b, 4);
  }
  w.xml << "  </worldbody>\n";
  if (couplings) w.Couplings();
  w.xml << "</mujoco>\n";
  return w.xml.str();
}

std::vector<double> DenseFromTreeSparse(const Model& m, const double* lower, const double* upper) {
  std::vector<double> out(static_cast<std::size_t>(m.nv) * m.nv, std::nan(""));
  for (int i = 0; i < m.nv; ++i) {
    const int adr = m.dof_Madr[i];
    out[i * m.nv + i] = lower[adr];
    int a = 1;
    for (int j = m.dof_parentid[i]; j >= 0; j = m.dof_parentid[j], ++a) {
      out[i * m.nv + j] = lower[adr + a];
      out[j * m.nv + i] = upper[adr + a];
    }
  }
  return out;
}

}  // namespace gauss::test

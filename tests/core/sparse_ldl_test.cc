// Sparse L D L' (core/src/sparse_ldl.cc) against dense linear algebra: the factorization of a
// random sparse SPD matrix, and rank-one updates and downdates A +- w w' inside the factored
// pattern (what Newton does when constraint rows enter or leave their quadratic piece).
#include "gauss/sparse_ldl.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace gauss {
namespace {

constexpr int kN = 40;

// A random symmetric matrix with the pattern of a tree whose nodes come before their parents
// (as Newton orders dofs), made SPD by a dominant diagonal, and a few sparse vectors spanning
// several branches, whose w w' the factored pattern will include.
struct Problem {
  Eigen::MatrixXd A;
  std::vector<std::vector<std::pair<int, double>>> vectors;
};

Problem MakeProblem(std::mt19937_64& gen) {
  std::uniform_real_distribution<double> u(-1, 1);
  Problem pr;
  pr.A = Eigen::MatrixXd::Zero(kN, kN);
  // tree: node i's parent is a later node (reverse dof order: descendants come first)
  for (int i = 0; i < kN - 1; ++i) {
    const int parent = i + 1 + static_cast<int>(gen() % std::min(3, kN - 1 - i));
    pr.A(i, parent) = pr.A(parent, i) = u(gen);
  }
  // sparse vectors spanning two branches (fill-in when factored)
  for (int v = 0; v < 6; ++v) {
    std::vector<std::pair<int, double>> w;
    for (int k = 0; k < 5; ++k) w.push_back({static_cast<int>(gen() % kN), u(gen)});
    std::sort(w.begin(), w.end());
    w.erase(std::unique(w.begin(), w.end(),
                        [](const auto& a, const auto& b) { return a.first == b.first; }),
            w.end());
    pr.vectors.push_back(w);
  }
  for (int i = 0; i < kN; ++i) pr.A(i, i) = 4 + u(gen);
  return pr;
}

// The upper triangle of A in CSC; `pattern` adds explicit zeros where the vectors' outer
// products are nonzero, so that updates by them stay inside the factor's pattern.
struct Csc {
  std::vector<int> colptr, rowind;
  std::vector<double> values;
};

Csc ToCsc(const Eigen::MatrixXd& A, const Problem& pr) {
  Eigen::MatrixXi mask = (A.array() != 0).cast<int>();
  for (const auto& w : pr.vectors) {
    for (const auto& [i, vi] : w) {
      for (const auto& [j, vj] : w) mask(i, j) = 1;
    }
  }
  Csc c;
  c.colptr.push_back(0);
  for (int col = 0; col < kN; ++col) {
    for (int row = 0; row <= col; ++row) {
      if (!mask(row, col)) continue;
      c.rowind.push_back(row);
      c.values.push_back(A(row, col));
    }
    c.colptr.push_back(static_cast<int>(c.rowind.size()));
  }
  return c;
}

Eigen::VectorXd Solve(const SparseLDL& f, const Eigen::VectorXd& b) {
  Eigen::VectorXd x = b;
  f.Solve(x.data());
  return x;
}

// A random problem (seeded) and its factorization, for each test.
struct Factored {
  explicit Factored(unsigned seed)
      : gen(seed), problem(MakeProblem(gen)), csc(ToCsc(problem.A, problem)) {
    arena.Reserve(1 << 16);
    ok = f.Factor(kN, csc.colptr.data(), csc.rowind.data(), csc.values.data(), arena);
  }
  std::mt19937_64 gen;
  Problem problem;
  Csc csc;
  Arena arena;
  SparseLDL f;
  bool ok = false;
};

TEST(SparseLDL, SolvesLikeDenseLinearAlgebra) {
  Factored t(11);
  ASSERT_TRUE(t.ok);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(kN, -1, 2);
  const Eigen::VectorXd expected = t.problem.A.ldlt().solve(b);
  EXPECT_LT((Solve(t.f, b) - expected).norm(), 1e-12 * expected.norm());
}

TEST(SparseLDL, RankOneUpdatesAndDowndatesEqualRefactoring) {
  Factored t(12);
  ASSERT_TRUE(t.ok);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(kN, 1, -3);
  Eigen::MatrixXd A = t.problem.A;
  auto apply = [&](const std::vector<std::pair<int, double>>& w, double sigma) {
    std::vector<int> index;
    std::vector<double> values;
    Eigen::VectorXd dense = Eigen::VectorXd::Zero(kN);
    for (const auto& [i, v] : w) {
      index.push_back(i);
      values.push_back(v);
      dense(i) = v;
    }
    A += sigma * dense * dense.transpose();
    return t.f.Update(static_cast<int>(index.size()), index.data(), values.data(), sigma);
  };
  // add every vector, check; remove half of them, check; the solve follows A each time
  const auto& vectors = t.problem.vectors;
  for (const auto& w : vectors) ASSERT_TRUE(apply(w, 1.0));
  Eigen::VectorXd expected = A.ldlt().solve(b);
  EXPECT_LT((Solve(t.f, b) - expected).norm(), 1e-12 * expected.norm());
  for (std::size_t v = 0; v < vectors.size(); v += 2) ASSERT_TRUE(apply(vectors[v], -1.0));
  expected = A.ldlt().solve(b);
  EXPECT_LT((Solve(t.f, b) - expected).norm(), 1e-12 * expected.norm());
}

TEST(SparseLDL, DowndateThatLosesDefinitenessIsRefused) {
  Factored t(13);
  ASSERT_TRUE(t.ok);
  // A - w w' with |w|^2 far above A's largest eigenvalue along w is indefinite
  std::vector<int> index;
  std::vector<double> values;
  for (const auto& [i, v] : t.problem.vectors[0]) {
    index.push_back(i);
    values.push_back(10 * v / std::abs(v));
  }
  EXPECT_FALSE(t.f.Update(static_cast<int>(index.size()), index.data(), values.data(), -1.0));
}

}  // namespace
}  // namespace gauss

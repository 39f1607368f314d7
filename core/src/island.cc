// FindIslands (island.h): union-find over kinematic trees, every position stage.
#include "island.h"

#include <algorithm>
#include <utility>

#include "gauss/constraint.h"

namespace gauss {
namespace {

// Root of tree t in the union-find forest `parent`, halving the path on the way.
int FindRoot(int* parent, int t) {
  while (parent[t] != t) {
    parent[t] = parent[parent[t]];
    t = parent[t];
  }
  return t;
}

void Unite(int* parent, int a, int b) {
  a = FindRoot(parent, a);
  b = FindRoot(parent, b);
  if (a == b) return;
  // the smaller index becomes the root, so an island's root is its first tree
  if (a < b) parent[b] = a; else parent[a] = b;
}

// (row i of efc_J) => the trees with a nonzero column, each united with the first; returns the
// first tree, or -1 for a row without nonzeros.
int UniteRowTrees(const Model& m, const Data& d, bool sparse, int i, int* parent) {
  int first = -1, last = -1;
  auto visit = [&](int col) {
    const int t = m.dof_treeid[col];
    if (t == last) return;
    last = t;
    if (first < 0) first = t; else Unite(parent, first, t);
  };
  if (sparse) {
    const int adr = d.efc_J_rowadr[i], nnz = d.efc_J_rownnz[i];
    const int* col = d.efc_J_colind.data() + adr;
    // the columns increase and a tree's dofs are consecutive: when the first and the last
    // column share a tree, so do all (most contact rows: one body against the ground), and
    // visiting them would only find that tree again
    if (nnz > 0 && m.dof_treeid[col[0]] == m.dof_treeid[col[nnz - 1]]) return m.dof_treeid[col[0]];
    for (int p = 0; p < nnz; ++p) visit(col[p]);
  } else {
    const double* row = d.efc_J.data() + static_cast<long>(i) * m.nv;
    auto visit_tree = [&](int t) {
      const int adr = m.tree_dofadr[t];
      for (int k = adr; k < adr + m.tree_dofnum[t]; ++k) {
        if (row[k] != 0) {
          visit(k);
          return;
        }
      }
    };
    // (the rows of a contact between two geoms: UniteContactRows, which scans only their trees)
    for (int t = 0; t < m.ntree; ++t) visit_tree(t);
  }
  return first;
}

// For each row of efc_J, whether it has a nonzero: `on(i, bool)` (a dense J's row is read
// through the list of columns it was built over when there is one: it is an exact zero
// outside it; a sparse row by its stored entries, as UniteRowTrees).
template <class On>
void ForRowsHavingNonzeros(const Model& m, const Data& d, On on) {
  const int n = d.nefc, nv = m.nv;
  if (IsSparse(m)) {
    const int* rownnz = d.efc_J_rownnz.data();
    for (int i = 0; i < n; ++i) on(i, rownnz[i] > 0);
    return;
  }
  const double* J = d.efc_J.data();
  if (d.efc_J_dense_rownnz.empty()) {
    for (int i = 0; i < n; ++i) {
      const double* row = J + static_cast<long>(i) * nv;
      on(i, std::find_if(row, row + nv, [](double v) { return v != 0; }) != row + nv);
    }
    return;
  }
  const int* rownnz = d.efc_J_dense_rownnz.data();
  const int* rowadr = d.efc_J_dense_rowadr.data();
  const int* colind = d.efc_J_dense_colind.data();
  for (int i = 0; i < n; ++i) {
    const double* row = J + static_cast<long>(i) * nv;
    const int* cols = colind + rowadr[i];
    const int nnz = rownnz[i];
    int q = 0;
    while (q < nnz && row[cols[q]] == 0) ++q;
    on(i, q < nnz);
  }
}

// One kinematic tree holding every dof (a single robot): it is the only island when a row has
// a nonzero, and the rows without any are in none. That is what the union-find finds for one
// tree (UniteRowTrees: a row's first tree is the only one when it has a nonzero anywhere, a
// contact's other body being on it or the world, whose columns are zero), written without
// looking up each contact's bodies or walking the forest.
void FindOneTreeIsland(const Model& m, Data& d) {
  int rows = 0;
  int* efc_island = d.efc_island.data();
  int* efcind = d.island_efcind.data();
  ForRowsHavingNonzeros(m, d, [&](int i, bool on_tree) {
    efc_island[i] = on_tree ? 0 : -1;
    efcind[rows] = i;  // kept when on the tree, else overwritten by the next row's
    rows += on_tree;
  });
  d.nisland = rows > 0 ? 1 : 0;
  d.tree_island[0] = rows > 0 ? 0 : -1;
  std::fill(d.dof_island.begin(), d.dof_island.end(), rows > 0 ? 0 : -1);
  if (rows == 0) return;
  d.island_ntree[0] = 1;
  d.island_nv[0] = m.nv;
  d.island_nefc[0] = rows;
  d.island_dofadr[0] = 0;
  d.island_efcadr[0] = 0;
  for (int i = 0; i < m.nv; ++i) d.island_dofind[i] = i;
}

// Rows [begin, end) of one contact in a dense J (`nv` columns): a contact row is nonzero only in
// the chains of its two geoms' bodies, i.e. in the trees `trees` (count 0-2, increasing, the
// world left out), so only their dofs are scanned, in the order UniteRowTrees visits all trees.
// Each row's first tree with a nonzero => row_tree (-1: none) and has_row; the two trees are
// united at the first row with a nonzero in both. From then on either tree stands for the
// island of a row, so a later row only needs one tree with a nonzero (its island and whether
// it has one are what the caller reads of row_tree). The contact's rows come one after
// another, so the trees are looked up once.
void UniteContactRows(const Model& m, const double* J, int nv, int begin, int end,
                      const int* trees, int count, int* parent, int* row_tree, int* has_row) {
  int adr[2] = {0, 0}, stop[2] = {0, 0};
  for (int j = 0; j < count; ++j) {
    adr[j] = m.tree_dofadr[trees[j]];
    stop[j] = adr[j] + m.tree_dofnum[trees[j]];
  }
  bool united = count < 2;
  for (int r = begin; r < end; ++r) {
    const double* row = J + static_cast<long>(r) * nv;
    int first = -1;
    for (int j = 0; j < count; ++j) {
      int k = adr[j];
      while (k < stop[j] && row[k] == 0) ++k;
      if (k == stop[j]) continue;  // zero in all of this tree's dofs
      if (first < 0) {
        first = trees[j];
        if (united) break;  // the other tree is in the same island
      } else if (!united) {
        Unite(parent, first, trees[j]);
        united = true;
      }
    }
    row_tree[r] = first;
    if (first >= 0) has_row[first] = 1;
  }
}

// The trees of contact c's two geoms' bodies, the world left out, increasing and distinct =>
// trees; returns their count.
int ContactTrees(const Model& m, const Contact& c, int* trees) {
  int ta = m.body_treeid[m.geom_bodyid[c.geom1]];
  int tb = m.body_treeid[m.geom_bodyid[c.geom2]];
  if (ta > tb) std::swap(ta, tb);
  int count = 0;
  if (ta >= 0) trees[count++] = ta;
  if (tb >= 0 && tb != ta) trees[count++] = tb;
  return count;
}

}  // namespace

bool UsesIslands(const Model& m) { return m.opt.Enabled(kEnableIsland) || m.opt.Enabled(kEnableSleep); }

std::size_t IslandScratchSize(const Model& m) {
  if (!UsesIslands(m)) return 0;
  // one island's copy: J, 12 row vectors, M, its factor and their column indices, 9 dof
  // vectors (with the simple-dof flags), int maps
  const std::size_t nv = m.nv, nj = std::max(m.njmax, 0);
  const std::size_t row = IsSparse(m) ? static_cast<std::size_t>(MaxRowNonzeros(m)) : nv;
  // (and, with sleep, the qpos of the sleeping trees across the integrator); a dense J's rows'
  // columns (island_solve.cc: counted as doubles, more than the ints need) and the island's
  // J' force (nv)
  const std::size_t dense_columns = IsSparse(m) ? 0 : nj * nv + 2 * nj + 8;
  return 2 * nj * row + 16 * nj + 3 * static_cast<std::size_t>(m.nM) + 14 * nv +
         2 * static_cast<std::size_t>(m.ntree) + static_cast<std::size_t>(m.nq) + 64 +
         dense_columns;
}

void FindIslands(const Model& m, Data& d) {
  const int nt = m.ntree;
  if (nt == 1 && m.tree_dofnum[0] == m.nv) {
    FindOneTreeIsland(m, d);
    return;
  }
  ArenaScope scope(d.arena);
  int* parent = d.arena.Ints(nt + 1);
  int* row_tree = d.arena.Ints(d.nefc + 1);
  int* island_of_root = d.arena.Ints(nt + 1);
  for (int t = 0; t < nt; ++t) {
    parent[t] = t;
    island_of_root[t] = -1;
  }
  // (the sizes in locals: the stores into int arrays below could alias d's int fields)
  const int nefc = d.nefc;
  const bool sparse = IsSparse(m);
  // a tree that is some row's first tree (has_row) is constrained, and so is its island
  int* has_row = d.arena.Ints(nt + 1);
  std::fill_n(has_row, nt, 0);
  const ConstraintType* type = d.efc_type.data();
  const int* id = d.efc_id.data();
  for (int i = 0; i < nefc;) {
    const Contact* c = !sparse && IsContactRow(type[i]) ? &d.contact[id[i]] : nullptr;
    if (c && c->geom1 >= 0 && c->geom2 >= 0) {
      int end = i + 1;
      while (end < nefc && id[end] == id[i] && IsContactRow(type[end])) ++end;
      int trees[2];
      const int count = ContactTrees(m, *c, trees);
      UniteContactRows(m, d.efc_J.data(), m.nv, i, end, trees, count, parent, row_tree, has_row);
      i = end;
      continue;
    }
    row_tree[i] = UniteRowTrees(m, d, sparse, i, parent);
    if (row_tree[i] >= 0) has_row[row_tree[i]] = 1;
    ++i;
  }
  // a constrained tree marks its island's root as constrained (-2), then roots are numbered
  for (int t = 0; t < nt; ++t) {
    if (has_row[t]) island_of_root[FindRoot(parent, t)] = -2;
  }
  int nisland = 0;
  for (int t = 0; t < nt; ++t) {
    const int root = FindRoot(parent, t);
    if (island_of_root[root] == -2) island_of_root[root] = nisland++;
    d.tree_island[t] = island_of_root[root];  // -1: no rows
  }
  d.nisland = nisland;
  const int ni = d.nisland;
  std::fill_n(d.island_ntree.begin(), ni, 0);
  std::fill_n(d.island_nv.begin(), ni, 0);
  std::fill_n(d.island_nefc.begin(), ni, 0);
  for (int t = 0; t < nt; ++t) {
    const int k = d.tree_island[t];
    if (k < 0) continue;
    ++d.island_ntree[k];
    d.island_nv[k] += m.tree_dofnum[t];
  }
  int* efc_island = d.efc_island.data();
  int* island_nefc = d.island_nefc.data();
  const int* tree_island = d.tree_island.data();
  for (int i = 0; i < nefc; ++i) {
    const int k = row_tree[i] >= 0 ? tree_island[row_tree[i]] : -1;
    efc_island[i] = k;
    if (k >= 0) ++island_nefc[k];
  }
  // start addresses, then the grouped lists (cursors in `cursor`, reusing island_of_root)
  int* cursor = island_of_root;
  int dofs = 0, rows = 0;
  for (int k = 0; k < ni; ++k) {
    d.island_dofadr[k] = dofs;
    d.island_efcadr[k] = rows;
    dofs += d.island_nv[k];
    rows += d.island_nefc[k];
    cursor[k] = d.island_dofadr[k];
  }
  std::fill(d.dof_island.begin(), d.dof_island.end(), -1);
  for (int t = 0; t < nt; ++t) {
    const int k = d.tree_island[t];
    if (k < 0) continue;
    for (int i = m.tree_dofadr[t]; i < m.tree_dofadr[t] + m.tree_dofnum[t]; ++i) {
      d.dof_island[i] = k;
      d.island_dofind[cursor[k]++] = i;
    }
  }
  for (int k = 0; k < ni; ++k) cursor[k] = d.island_efcadr[k];
  int* island_efcind = d.island_efcind.data();
  for (int i = 0; i < nefc; ++i) {
    const int k = efc_island[i];
    if (k >= 0) island_efcind[cursor[k]++] = i;
  }
}

}  // namespace gauss

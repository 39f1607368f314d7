// Constraint islands (docs/islands.md): kinematic trees coupled by constraint rows, found every
// position stage, and the per-island solve that hands each island's sub-problem to the
// constraint-solver plugin on its own.
#pragma once

#include <cstddef>

#include "gauss/data.h"
#include "gauss/model.h"
#include "gauss/solver.h"

namespace gauss {

// True when the model finds islands: the island or the sleep flag is on.
bool UsesIslands(const Model& m);

// Arena doubles the per-island solve needs on top of the kernel's and the plugin's scratch
// (0 when islands are off).
std::size_t IslandScratchSize(const Model& m);

// (efc_J, nefc, efc_island of nothing yet, dof_treeid, tree_asleep) => (nisland, tree_island,
// dof_island, efc_island, island_ntree, island_nv, island_nefc, island_dofadr, island_dofind,
// island_efcadr, island_efcind): union-find over the trees of every row's nonzero columns,
// with arena memory only. Islands are numbered in the order of their first tree.
void FindIslands(const Model& m, Data& d);

// (full problem p, islands) => (qacc, efc_force, island_iter; the returned result has the
// largest iteration count and whether every island converged): each island's rows and dofs
// (and its block of M, J, contacts, warmstart) are copied into a problem of its own and solved
// by `solver`; dofs outside every island get qacc_smooth, rows outside every island the force
// of their penalty at J qacc - aref. `trace` (may be null; capacity p.iterations * nisland)
// receives island k's iterations from k * p.iterations on.
SolverResult SolveByIsland(const ConstraintProblem& p, const ConstraintSolver& solver, Data& d,
                           SolverIteration* trace);

}  // namespace gauss

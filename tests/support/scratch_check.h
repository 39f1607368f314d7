// The scratch-arena check shared by tests/core/arena_test.cc (models in the repository) and
// tests/reference/arena_reference_test.cc (MuJoCo's sample models): a model simulated with
// every solver x integrator plugin the registry discovers must stay within the arena the
// plugins' and stages' declared plans sized (gauss/arena.h): no "arena exhausted" error, peak
// use <= capacity, the capacity unchanged (the arena never grew), and no heap allocation in
// any step after the first.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "gauss/registry.h"
#include "support/alloc_counter.h"

namespace gauss::test {

// What one model's run saw, for the test report.
struct ScratchRun {
  int combinations = 0;  // solver x integrator pairs simulated
  int refused = 0;       // pairs the Engine refused at construction (capabilities)
  int with_contacts = 0;  // pairs during whose run some step had contacts
  int hard_contact_failures = 0;  // hard-contact solvers (ip) that gave up on the model
  double worst_use = 0;   // largest peak / capacity
};

// Simulates `path` for `steps` steps with each solver x integrator pair and checks the arena.
// Models that do not load are reported with ADD_FAILURE. (model file) => (run, gtest checks)
inline ScratchRun CheckScratch(const std::string& path, int steps) {
  ScratchRun run;
  std::shared_ptr<const Model> model;
  try {
    model = LoadModel(path);
  } catch (const Error& e) {
    ADD_FAILURE() << path << ": " << e.what();
    return run;
  }
  PluginRegistry registry;
  std::set<std::string> hard_contact;
  for (const PluginInfo& info : registry.List()) {
    if (info.kind == PluginKind::kSolver && (info.capabilities & kCapHardContact)) {
      hard_contact.insert(info.name);
    }
  }
  for (const std::string& solver : registry.Names(PluginKind::kSolver)) {
    for (const std::string& integrator : registry.Names(PluginKind::kIntegrator)) {
      SCOPED_TRACE(path + " with " + solver + " x " + integrator);
      Config config;
      config.solver = solver;
      config.integrator = integrator;
      std::unique_ptr<Engine> engine;
      try {
        engine = std::make_unique<Engine>(model, config);
      } catch (const Error&) {
        ++run.refused;  // e.g. a cone the solver does not support: refused up front
        continue;
      }
      ++run.combinations;
      Data d = engine->MakeData();
      const std::size_t capacity = d.arena.capacity();
      bool contacts = false;
      long allocations = 0;
      try {
        engine->Step(d);  // first step: lazily built caches may allocate
        const long before = AllocationCount();
        for (int k = 1; k < steps; ++k) {
          engine->Step(d);
          contacts = contacts || d.ncon > 0;
        }
        allocations = AllocationCount() - before;
      } catch (const Error& e) {
        // a hard-contact solver may find a model's hard constraints infeasible (ip on
        // redundant equalities, docs/solvers.md): reported, not an arena failure
        const std::string what = e.what();
        if (hard_contact.count(solver) && what.find("arena") == std::string::npos) {
          ++run.hard_contact_failures;
          std::printf("  %s with %s x %s: %s\n", path.c_str(), solver.c_str(),
                      integrator.c_str(), what.c_str());
        } else {
          ADD_FAILURE() << what;
        }
        continue;
      }
      run.with_contacts += contacts;
      EXPECT_LE(d.arena.peak(), d.arena.capacity());
      EXPECT_EQ(d.arena.capacity(), capacity) << "the arena grew";
      if (AllocationCountAvailable()) {
        EXPECT_EQ(allocations, 0) << "heap allocations in steps";
      }
      if (capacity > 0) {
        run.worst_use = std::max(run.worst_use, static_cast<double>(d.arena.peak()) / capacity);
      }
    }
  }
  return run;
}

}  // namespace gauss::test

// The scratch arena and its declared plans (core/src/arena.cc, gauss/arena.h): a plan's peak is
// what its blocks and callees hold at once; carving the same blocks takes exactly what the plan
// declared; the arena's high-water mark. Then every model in the repository (models/, and every
// tests/models file Gauss loads, the copied MuJoCo samples included) simulated for 200 steps
// (60 for many-body models) with every discovered solver x integrator pair stays within the
// arena that the plans sized, never grows it and allocates nothing on the heap
// (tests/support/scratch_check.h; MuJoCo's sample models: tests/reference/arena_reference_test.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gauss/arena.h"
#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/scratch_check.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A workspace with blocks of each kind, as a stage or plugin writes one.
struct Work {
  double* a = nullptr;
  int* b = nullptr;
  double* c = nullptr;
  template <class Take>
  void Blocks(Take& take, int n) {
    take(&a, n, "a");
    take(&b, n, "b");  // ints: rounded up to whole doubles
    take(&c, 2 * n, "c");
  }
};

TEST(ArenaPlan, HeldBlocksAndCalleePeaks) {
  ArenaPlan plan, callee, part;
  Work().Blocks(plan, 5);  // 5 + 3 + 10
  EXPECT_EQ(plan.held(), 18u);
  EXPECT_EQ(plan.doubles(), 18u);
  callee.Add("callee", 30);
  plan.Within("callee", callee);  // on top of the 18 held, then released
  EXPECT_EQ(plan.held(), 18u);
  EXPECT_EQ(plan.doubles(), 48u);
  part.Add("p", 4);
  part.Within("q", callee);  // part alone peaks at 34
  plan.Append(part);         // 18 + 34 > 48, and 4 more held after it
  EXPECT_EQ(plan.held(), 22u);
  EXPECT_EQ(plan.doubles(), 52u);
  const std::string text = plan.Describe();
  for (const char* name : {"a: 5", "b: 3", "c: 10", "callee: 30 (released)", "peak: 52"}) {
    EXPECT_NE(text.find(name), std::string::npos) << text;
  }
}

TEST(ArenaPlan, CarvingTakesWhatThePlanDeclares) {
  for (int n : {0, 1, 7, 100}) {
    ArenaPlan plan;
    Work().Blocks(plan, n);
    Arena arena;
    arena.Reserve(plan.doubles());
    Work w;
    ArenaCarve carve(arena);
    w.Blocks(carve, n);  // throws if the plan were too small
    EXPECT_EQ(arena.Mark(), plan.doubles()) << n;
    EXPECT_EQ(arena.peak(), plan.doubles()) << n;
    // disjoint blocks in order, each on a double boundary
    EXPECT_EQ(reinterpret_cast<double*>(w.b), w.a + n);
    EXPECT_EQ(w.c, w.a + n + ArenaDoubles<int>(n));
  }
}

TEST(Arena, PeakIsTheHighWaterMarkAndExhaustionIsAnError) {
  Arena arena;
  arena.Reserve(100);
  {
    ArenaScope scope(arena);
    arena.Doubles(60);
    arena.Ints(7);  // 4 doubles
  }
  EXPECT_EQ(arena.Mark(), 0u);
  EXPECT_EQ(arena.peak(), 64u);
  arena.Doubles(10);
  EXPECT_EQ(arena.peak(), 64u);
  arena.ResetPeak();
  EXPECT_EQ(arena.peak(), 10u);
  EXPECT_THROW(arena.Doubles(91), Error);
  EXPECT_EQ(arena.capacity(), 100u);  // never grows
}

// Every model file in the repository that Gauss loads (the bad_* files are refused by design).
std::vector<std::string> RepositoryModels() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const std::string& dir : {test::RepoModel(""), test::TestModel("")}) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      const std::string name = e.path().filename().string();
      if (e.path().extension() != ".xml" || name.rfind("bad_", 0) == 0) continue;
      try {
        LoadModel(e.path().string());
      } catch (const Error&) {
        continue;  // include fragments and other parts of a model
      }
      out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class ScratchPlans : public ::testing::TestWithParam<std::string> {};

TEST_P(ScratchPlans, EverySolverAndIntegratorStaysWithinTheArena) {
  const std::string& path = GetParam();
  // 200 steps (0.2 to 1 s of simulated time); the many-body models 60 (they reach contact as
  // fast)
  const int steps = LoadModel(path)->nbody > 50 ? 60 : 200;
  const test::ScratchRun run = test::CheckScratch(path, steps);
  EXPECT_GE(run.combinations + run.refused, 12)
      << "newton, cg, pgs x euler, rk4, implicit, implicitfast";
  // the shipped models with contacts must have had them with every pair
  const std::string file = std::filesystem::path(path).filename().string();
  if (path.find("/models/") != std::string::npos && path.find("/tests/") == std::string::npos &&
      (file == "pile.xml" || file == "humanoid.xml" || file == "box_slide.xml")) {
    EXPECT_EQ(run.with_contacts, run.combinations);
  }
  RecordProperty("combinations", run.combinations);
  RecordProperty("with_contacts", run.with_contacts);
  RecordProperty("worst_use", std::to_string(run.worst_use));
}

INSTANTIATE_TEST_SUITE_P(
    Models, ScratchPlans, ::testing::ValuesIn(RepositoryModels()),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = std::filesystem::path(info.param).lexically_relative(GAUSS_SOURCE_DIR)
                             .replace_extension("")
                             .string();
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace gauss

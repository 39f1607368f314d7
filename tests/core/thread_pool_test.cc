// The pool runs every index exactly once with worker ids in range, propagates exceptions, and
// is reusable across calls.
#include "gauss/thread_pool.h"

#include <atomic>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace gauss {
namespace {

TEST(ThreadPool, RunsEveryIndexOnceWithWorkerIdsInRange) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    for (int call = 0; call < 20; ++call) {
      const int n = 1 + 37 * call;
      std::vector<std::atomic<int>> hits(n);
      std::vector<int> worker_of(n, -1);
      pool.ParallelFor(n, [&](int worker, int i) {
        hits[i].fetch_add(1);
        worker_of[i] = worker;
      });
      for (int i = 0; i < n; ++i) {
        EXPECT_EQ(hits[i].load(), 1) << "threads " << threads << " index " << i;
        EXPECT_GE(worker_of[i], 0);
        EXPECT_LT(worker_of[i], threads);
      }
    }
  }
}

TEST(ThreadPool, SerialPoolRunsInOrderOnTheCallingThread) {
  ThreadPool pool(1);
  std::vector<int> order;
  pool.ParallelFor(5, [&](int worker, int i) {
    EXPECT_EQ(worker, 0);
    order.push_back(i);
  });
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(ThreadPool, PropagatesTheFirstExceptionAndStaysUsable) {
  ThreadPool pool(3);
  EXPECT_THROW(pool.ParallelFor(100,
                                [](int, int i) {
                                  if (i == 17) throw std::runtime_error("index 17");
                                }),
               std::runtime_error);
  std::atomic<int> sum{0};
  pool.ParallelFor(10, [&](int, int i) { sum += i; });
  EXPECT_EQ(sum.load(), 45);
}

}  // namespace
}  // namespace gauss

// A persistent pool of worker threads for work that is parallel over samples (rollouts,
// batches of forward/inverse evaluations, finite-difference columns), never inside one step:
// the spec's model of multi-threading (one shared read-only Model/Engine, one Data per thread).
//
//   gauss::ThreadPool pool(4);
//   std::vector<gauss::Data> datas(pool.size(), engine.MakeData());
//   pool.ParallelFor(n, [&](int worker, int i) { Simulate(datas[worker], i); });
//
// `worker` is in [0, size()): each index is run by exactly one worker, so per-worker scratch
// (a Data, a buffer) needs no lock. The calling thread is worker 0, so a pool of size 1 starts
// no thread and runs everything inline. Results must not depend on which worker ran an index;
// with per-worker Data and per-index inputs/outputs they are bit-identical to a serial loop.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>


namespace gauss {

class ThreadPool {
 public:
  // `threads` <= 0 means std::thread::hardware_concurrency().
  explicit ThreadPool(int threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs fn(worker, i) for i in [0, n) and returns when all are done. Indices are handed out
  // dynamically (an atomic counter), so uneven work balances. The first exception thrown by fn
  // is rethrown here after every worker has stopped taking indices. Not reentrant: one
  // ParallelFor at a time per pool (calls from several threads are serialized).
  void ParallelFor(int n, const std::function<void(int worker, int index)>& fn);

 private:
  void WorkerLoop(int worker);
  void RunIndices(int worker);

  std::vector<std::thread> workers_;
  std::mutex call_mutex_;  // serializes ParallelFor calls
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int, int)>* fn_ = nullptr;
  int n_ = 0;
  int next_ = 0;           // next index to hand out (guarded by mutex_)
  std::atomic<int> busy_{0};  // workers inside the current job (written under mutex_)
  std::atomic<std::uint64_t> generation_{0};  // one per job (written under mutex_)
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace gauss

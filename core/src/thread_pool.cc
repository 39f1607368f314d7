// Persistent worker pool: workers sleep on a condition variable between jobs; a job is one
// ParallelFor call whose indices are handed out one at a time under the mutex (jobs are whole
// rollouts or whole dynamics evaluations, so the lock is not the bottleneck).
//
// Callers that run short jobs back to back (finite differences: one job per time step, ~35 us
// on the hopper) lose most of the gain to the wake-ups: a thread asleep on a condition variable
// takes tens of microseconds to run again on a virtual machine (the hopper's Jacobians took
// longer with 2 threads than with 1). So a worker spins for a short while after a job before
// sleeping, and the caller spins for the last worker before sleeping on `done_`; the condition
// variables stay the fallback, and the order of the work is unchanged.
#include "gauss/thread_pool.h"

#include <chrono>

#include "cpu_relax.h"

namespace gauss {
namespace {

// How long a thread spins for a condition before it sleeps: longer than a wake-up, short next to
// the jobs a pool is for, so an idle pool costs little CPU.
constexpr std::chrono::microseconds kSpin(200);

// Spins until ready() or kSpin has passed; true when ready() was seen.
template <class Ready>
bool SpinUntil(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (int k = 1;; ++k) {
    if (ready()) return true;
    if (k % 64 == 0 && std::chrono::steady_clock::now() > until) return false;
    CpuRelax();
  }
}

}  // namespace

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  if (threads <= 0) threads = 1;
  workers_.reserve(threads - 1);
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this, w] { WorkerLoop(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::ParallelFor(int n, const std::function<void(int, int)>& fn) {
  if (n <= 0) return;
  std::lock_guard<std::mutex> call(call_mutex_);
  if (workers_.empty()) {
    for (int i = 0; i < n; ++i) fn(0, i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = &fn;
    n_ = n;
    next_ = 0;
    busy_ = 0;
    error_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  RunIndices(0);
  // every index is handed out now; wait for the workers still running one
  SpinUntil([this] { return busy_.load(std::memory_order_acquire) == 0; });
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0 && next_ >= n_; });
  fn_ = nullptr;
  if (error_) std::rethrow_exception(error_);
}

void ThreadPool::WorkerLoop(int worker) {
  std::uint64_t seen = 0;
  for (;;) {
    SpinUntil([&] { return generation_.load(std::memory_order_acquire) != seen; });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    RunIndices(worker);
  }
}

void ThreadPool::RunIndices(int worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  ++busy_;
  while (next_ < n_ && fn_ != nullptr) {
    const int i = next_++;
    const auto* fn = fn_;
    lock.unlock();
    try {
      (*fn)(worker, i);
    } catch (...) {
      lock.lock();
      if (!error_) error_ = std::current_exception();
      next_ = n_;  // stop handing out indices
      continue;
    }
    lock.lock();
  }
  --busy_;
  if (busy_ == 0) done_.notify_all();
}

}  // namespace gauss

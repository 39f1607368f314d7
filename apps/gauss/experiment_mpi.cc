// Distributing experiment runs over MPI ranks (experiment_mpi.h).
//
// Only the main thread of a process calls MPI (MPI_THREAD_FUNNELED); the local worker threads
// exchange run indices and results with it through a mutex-protected queue. Messages:
//   rank r -> 0  kTagRequest    (empty)   "give me one run"
//   0 -> rank r  kTagAssign     int       a run index, or -1: no run left
//   rank r -> 0  kTagResult     bytes     a finished run (index, status, reason, metrics, trace)
//   rank r -> 0  kTagHeartbeat  (empty)   "still alive" (at least every kHeartbeat seconds)
//   rank r -> 0  kTagDone       (empty)   every run it was given is reported
//   0 -> rank r  kTagStop       (empty)   stop now (the experiment was interrupted)
#include "experiment_mpi.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gauss/error.h"

#ifdef GAUSS_WITH_MPI
#include <mpi.h>
#endif

namespace gauss::cli {
namespace {

// (environment of an MPI launcher) => its world size and this process's rank; size 1 when the
// process was not started by one. Open MPI's mpirun, MPICH/Hydra and Slurm's PMI set these.
int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atoi(value) : fallback;
}
int LauncherSize() {
  // srun --mpi=pmix: PMIX_RANK marks the launch, Slurm gives the size
  const int pmix = std::getenv("PMIX_RANK") != nullptr ? EnvInt("SLURM_STEP_NUM_TASKS", 1) : 1;
  return std::max({EnvInt("OMPI_COMM_WORLD_SIZE", 1), EnvInt("PMI_SIZE", 1), pmix});
}

}  // namespace

#ifndef GAUSS_WITH_MPI

namespace {
int LauncherRank() {
  return std::max({EnvInt("OMPI_COMM_WORLD_RANK", 0), EnvInt("PMI_RANK", 0), EnvInt("PMIX_RANK", 0)});
}
}  // namespace

MpiExperiment::MpiExperiment() {
  if (LauncherSize() <= 1) return;
  rank_ = LauncherRank();
  idle_ = rank_ > 0;
  if (rank_ == 0) {
    std::fprintf(stderr,
                 "gauss experiment: started by an MPI launcher with %d ranks, but this gauss was "
                 "built without MPI: rank 0 runs the whole experiment alone and the other ranks "
                 "exit. To distribute the runs, install Open MPI (apt-get install libopenmpi-dev "
                 "openmpi-bin) and rebuild with cmake -DGAUSS_WITH_MPI=ON.\n",
                 LauncherSize());
  }
}

MpiExperiment::~MpiExperiment() = default;

std::unique_ptr<RemoteRanks> MpiExperiment::Coordinate(std::function<int()>,
                                                       std::function<void(int, const RunResult&)>) {
  return nullptr;
}

bool MpiExperiment::Serve(const LocalRuns&, std::atomic<bool>&) { return true; }

void MpiExperiment::AbortOnError(const char*) {}

#else  // GAUSS_WITH_MPI

namespace {

enum Tag : int { kTagRequest = 1, kTagAssign, kTagResult, kTagHeartbeat, kTagDone, kTagStop };

constexpr double kHeartbeat = 0.5;  // seconds between a rank's signs of life

using Clock = std::chrono::steady_clock;
double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// ---------------------------------------------------------------- RunResult <-> bytes
template <class T>
void Put(std::vector<char>& out, const T* values, std::size_t n) {
  const char* p = reinterpret_cast<const char*>(values);
  out.insert(out.end(), p, p + n * sizeof(T));
}
template <class T>
void Take(const std::vector<char>& in, std::size_t& at, T* values, std::size_t n) {
  if (at + n * sizeof(T) > in.size()) throw Error("MPI: truncated run result message");
  if (n > 0) std::memcpy(values, in.data() + at, n * sizeof(T));
  at += n * sizeof(T);
}

std::vector<char> Pack(int index, const RunResult& r) {
  std::vector<char> out;
  const std::int64_t head[4] = {index, static_cast<std::int64_t>(r.status),
                                static_cast<std::int64_t>(r.reason.size()),
                                static_cast<std::int64_t>(r.trace.size())};
  Put(out, head, 4);
  Put(out, r.reason.data(), r.reason.size());
  Put(out, r.metrics.data(), r.metrics.size());
  Put(out, r.trace.data(), r.trace.size());
  return out;
}

RunResult Unpack(const std::vector<char>& in, int& index) {
  std::size_t at = 0;
  std::int64_t head[4];
  Take(in, at, head, 4);
  RunResult r;
  index = static_cast<int>(head[0]);
  r.status = static_cast<RunStatus>(head[1]);
  r.reason.resize(static_cast<std::size_t>(head[2]));
  Take(in, at, r.reason.data(), r.reason.size());
  Take(in, at, r.metrics.data(), r.metrics.size());
  r.trace.resize(static_cast<std::size_t>(head[3]));
  Take(in, at, r.trace.data(), r.trace.size());
  return r;
}

void SendEmpty(int to, int tag) { MPI_Send(nullptr, 0, MPI_BYTE, to, tag, MPI_COMM_WORLD); }

RunResult Lost(const std::string& reason) {
  RunResult r;
  r.status = RunStatus::kFailed;
  r.reason = reason;
  r.metrics.fill(std::numeric_limits<double>::quiet_NaN());
  return r;
}

// ---------------------------------------------------------------- rank 0
class Coordinator : public RemoteRanks {
 public:
  Coordinator(int size, double timeout, std::function<int()> claim,
              std::function<void(int, const RunResult&)> record)
      : timeout_(timeout), claim_(std::move(claim)), record_(std::move(record)), ranks_(size) {
    for (Rank& r : ranks_) r.heard = Clock::now();
    ranks_[0].done = true;  // rank 0 is this process
  }

  void Poll(double seconds) override {
    const Clock::time_point until = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                       std::chrono::duration<double>(seconds));
    do {
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
      if (flag) {
        Handle(status);
      } else {
        // a short sleep, not a busy loop: rank 0's own workers need the core
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      GiveUpSilentRanks();
    } while (Clock::now() < until);
  }

  void Finish() override {
    while (!AllEnded()) Poll(0.05);
  }

  void Interrupt() override {
    for (std::size_t r = 1; r < ranks_.size(); ++r) {
      if (ranks_[r].done || ranks_[r].lost) continue;
      SendEmpty(static_cast<int>(r), kTagStop);
      ranks_[r].stopped = true;
      End(static_cast<int>(r), "the experiment was stopped (Ctrl-C or SIGTERM; mpirun stops every "
                               "rank when one dies) while this run was in flight on rank " +
                                   std::to_string(r));
    }
  }

  bool AnyRankLost() const override {
    for (const Rank& r : ranks_) {
      if (r.lost) return true;
    }
    return false;
  }

  std::string Summary(int local) const override {
    std::string text = "rank 0: " + std::to_string(local) + " runs";
    for (std::size_t r = 1; r < ranks_.size(); ++r) {
      text += ", rank " + std::to_string(r) + ": " + std::to_string(ranks_[r].finished) + " runs";
      if (ranks_[r].lost) text += ranks_[r].stopped ? " (stopped)" : " (lost)";
    }
    return text;
  }

 private:
  struct Rank {
    std::set<int> in_flight;
    int finished = 0;  // runs reported
    Clock::time_point heard;
    bool done = false, lost = false;
    bool stopped = false;  // lost because the experiment was interrupted
  };

  bool AllEnded() const {
    for (const Rank& r : ranks_) {
      if (!r.done && !r.lost) return false;
    }
    return true;
  }

  void Handle(const MPI_Status& status) {
    const int from = status.MPI_SOURCE;
    Rank& rank = ranks_[from];
    rank.heard = Clock::now();
    if (status.MPI_TAG == kTagResult) {
      int bytes = 0;
      MPI_Get_count(&status, MPI_BYTE, &bytes);
      std::vector<char> message(bytes);
      MPI_Recv(message.data(), bytes, MPI_BYTE, from, kTagResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int index = -1;
      const RunResult result = Unpack(message, index);
      if (rank.in_flight.erase(index) == 1) {
        ++rank.finished;
        record_(index, result);
      }
      return;
    }
    MPI_Recv(nullptr, 0, MPI_BYTE, from, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (status.MPI_TAG == kTagRequest) {
      const int index = rank.lost ? -1 : claim_();
      MPI_Send(&index, 1, MPI_INT, from, kTagAssign, MPI_COMM_WORLD);
      if (index >= 0) rank.in_flight.insert(index);
    } else if (status.MPI_TAG == kTagDone) {
      rank.done = true;
    }
  }

  void GiveUpSilentRanks() {
    for (std::size_t r = 1; r < ranks_.size(); ++r) {
      Rank& rank = ranks_[r];
      if (rank.done || rank.lost || Since(rank.heard) < timeout_) continue;
      char text[160];
      std::snprintf(text, sizeof(text),
                    "rank %zu was lost (no message for %g s) while this run was in flight on "
                    "rank %zu",
                    r, timeout_, r);
      End(static_cast<int>(r), text);
    }
  }

  // Rank r takes no more part: its runs in flight become failed rows with `reason`.
  void End(int r, const std::string& reason) {
    Rank& rank = ranks_[r];
    rank.lost = true;
    for (int index : rank.in_flight) record_(index, Lost(reason));
    rank.in_flight.clear();
  }

  double timeout_;
  std::function<int()> claim_;
  std::function<void(int, const RunResult&)> record_;
  std::vector<Rank> ranks_;
};

// ---------------------------------------------------------------- ranks > 0
// Runs handed to the local threads and their results, between the main (MPI) thread and them.
struct WorkQueue {
  std::mutex mutex;
  std::condition_variable work, finished;
  std::deque<int> pending;
  std::deque<std::pair<int, RunResult>> done;
  bool closed = false;
};

}  // namespace

MpiExperiment::MpiExperiment() {
  if (LauncherSize() <= 1) return;
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  finalize_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiExperiment::~MpiExperiment() {
  if (finalize_) MPI_Finalize();
}

std::unique_ptr<RemoteRanks> MpiExperiment::Coordinate(
    std::function<int()> claim, std::function<void(int, const RunResult&)> record) {
  if (!distributed() || rank_ != 0) return nullptr;
  return std::make_unique<Coordinator>(size_, rank_timeout_, std::move(claim), std::move(record));
}

void MpiExperiment::AbortOnError(const char* message) {
  if (!distributed()) return;
  std::fprintf(stderr, "gauss experiment: error on MPI rank %d: %s\n", rank_, message);
  std::fflush(stderr);
  std::fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

bool MpiExperiment::Serve(const LocalRuns& local, std::atomic<bool>& stop) {
  if (!distributed() || rank_ == 0) return true;
  WorkQueue q;
  std::vector<std::thread> threads;
  for (int t = 0; t < local.jobs; ++t) {
    threads.emplace_back([&, t] {
      for (;;) {
        int index = -1;
        {
          std::unique_lock<std::mutex> lock(q.mutex);
          q.work.wait(lock, [&] { return !q.pending.empty() || q.closed; });
          if (q.pending.empty()) return;
          index = q.pending.front();
          q.pending.pop_front();
        }
        RunResult result = local.execute(t, index);
        if (result.status == RunStatus::kInterrupted) return;
        std::lock_guard<std::mutex> lock(q.mutex);
        q.done.emplace_back(index, std::move(result));
        q.finished.notify_one();
      }
    });
  }

  int in_flight = 0;
  bool exhausted = false;
  Clock::time_point sent = Clock::now();
  while (!stop.load()) {
    // keep every local thread busy: one request per free thread
    while (!exhausted && in_flight < local.jobs && !stop.load()) {
      SendEmpty(0, kTagRequest);
      int index = -1;
      MPI_Status status;
      MPI_Recv(&index, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      sent = Clock::now();
      if (status.MPI_TAG == kTagStop) {
        stop.store(true);
      } else if (index < 0) {
        exhausted = true;
      } else {
        std::lock_guard<std::mutex> lock(q.mutex);
        q.pending.push_back(index);
        ++in_flight;
        q.work.notify_one();
      }
    }
    if (stop.load() || (exhausted && in_flight == 0)) break;
    std::deque<std::pair<int, RunResult>> done;
    {
      std::unique_lock<std::mutex> lock(q.mutex);
      q.finished.wait_for(lock, std::chrono::milliseconds(200), [&] { return !q.done.empty(); });
      done.swap(q.done);
    }
    for (const auto& [index, result] : done) {
      const std::vector<char> message = Pack(index, result);
      MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kTagResult,
               MPI_COMM_WORLD);
      --in_flight;
      sent = Clock::now();
    }
    int flag = 0;
    MPI_Iprobe(0, kTagStop, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (flag) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagStop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      stop.store(true);
    }
    if (Since(sent) >= kHeartbeat) {
      SendEmpty(0, kTagHeartbeat);
      sent = Clock::now();
    }
  }
  {
    std::lock_guard<std::mutex> lock(q.mutex);
    q.closed = true;
    q.pending.clear();
  }
  q.work.notify_all();
  for (std::thread& t : threads) t.join();
  if (stop.load()) {
    Abandon();
    return false;
  }
  SendEmpty(0, kTagDone);
  return true;
}

#endif  // GAUSS_WITH_MPI

}  // namespace gauss::cli

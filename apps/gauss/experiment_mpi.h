// `gauss experiment` across machines: the runs of one experiment distributed over the ranks of
// an MPI job (`mpirun -np R gauss experiment EXP.yaml`, or Slurm's `srun`). This layer sits
// above "run one run locally" (experiment.cc's executor): it only decides which process runs
// which run and carries the results back to rank 0.
//
// Rank 0 writes every output file (results.csv, traces, plots) and hands run indices out one at
// a time to the ranks that ask (dynamic assignment: fast ranks take more runs); it also runs its
// own share on its local workers. Every other rank runs what it is given on its --jobs local
// threads and sends each finished run's status, metrics and trace back. The runs are the same
// (engines, seeds) on every rank, so results.csv equals that of a single-process run except the
// timing columns.
//
// Failures: a run that throws is a failed row as in a single process. A rank that stops
// answering (no message for --rank-timeout seconds: killed, or its node lost) is given up: its
// runs in flight become failed rows naming the rank, the other ranks go on (Open MPI's mpirun
// needs --enable-recovery to keep the job alive when a rank dies). When the
// job itself is stopped (Ctrl-C, or SIGTERM from mpirun, which by default stops every rank when
// one of them dies), rank 0 records the runs in flight on other ranks as failed with that
// reason and rewrites results.csv sorted: the file stays consistent.
//
// Without MPI built in (GAUSS_WITH_MPI off), a process started by an MPI launcher says how to
// enable it; launcher rank 0 then runs the whole experiment alone and the other ranks exit.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "experiment_run.h"

namespace gauss::cli {

// The run loop of one process, as the MPI layer sees it.
struct LocalRuns {
  int jobs = 1;  // local threads
  // Runs run `index` on local thread `thread` (0..jobs-1) and returns its result (failures as
  // kFailed, kInterrupted when `stop` was set). Called from `jobs` threads at once.
  std::function<RunResult(int thread, int index)> execute;
};

// Rank 0's side: the other ranks, polled from the loop that also runs rank 0's own share.
class RemoteRanks {
 public:
  virtual ~RemoteRanks() = default;
  // Services the other ranks for about `seconds`: hands out run indices from `claim` (-1: none
  // left), passes their finished runs to `record`.
  virtual void Poll(double seconds) = 0;
  // After the local share: keeps servicing until every rank has finished or was given up.
  virtual void Finish() = 0;
  // The experiment was interrupted: tells every rank to stop and records the runs in flight on
  // other ranks as failed.
  virtual void Interrupt() = 0;
  // "rank 0: 7 runs, rank 1: 9 runs" (`local` runs recorded by rank 0 itself).
  virtual std::string Summary(int local) const = 0;
  // Whether some rank was given up or stopped (MPI_Finalize would then wait for it forever).
  virtual bool AnyRankLost() const = 0;
};

// MPI for one `gauss experiment` command: initialized when the process was started by an MPI
// launcher with more than one rank, finalized on destruction.
class MpiExperiment {
 public:
  MpiExperiment();
  ~MpiExperiment();
  MpiExperiment(const MpiExperiment&) = delete;
  MpiExperiment& operator=(const MpiExperiment&) = delete;

  bool distributed() const { return size_ > 1; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Whether this process should do nothing: launched as rank > 0 without MPI built in.
  bool idle() const { return idle_; }

  // Rank 0 of a distributed experiment: the other ranks. Null when not distributed.
  std::unique_ptr<RemoteRanks> Coordinate(std::function<int()> claim,
                                          std::function<void(int index, const RunResult&)> record);
  // Ranks > 0: asks rank 0 for runs, runs them with `local`, sends the results, until rank 0 has
  // no more or `stop` is set (by a signal or by rank 0). Returns false when stopped.
  bool Serve(const LocalRuns& local, std::atomic<bool>& stop);

  // Seconds of silence after which rank 0 gives a rank up (its runs in flight fail).
  void set_rank_timeout(double seconds) { rank_timeout_ = seconds; }

  // A distributed experiment failed on this rank with `message` (bad input, unwritable output):
  // prints it and ends the whole MPI job (MPI_Abort), since the other ranks would wait for this
  // one. Does nothing when not distributed (the caller reports the error as usual).
  void AbortOnError(const char* message);

  // Skip MPI_Finalize on exit (after an interrupt, when some rank may be gone).
  void Abandon() { finalize_ = false; }

 private:
  int rank_ = 0;
  int size_ = 1;
  bool idle_ = false;
  bool finalize_ = false;
  double rank_timeout_ = 30;
};

}  // namespace gauss::cli

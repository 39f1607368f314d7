// Matching state columns of a CSV table to Data fields, and the row loop of `gauss forward` and
// `gauss inverse` (state_table.h).
#include "state_table.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "common.h"
#include "gauss/batch.h"
#include "gauss/error.h"
#include "progress.h"

namespace gauss::cli {
namespace {

// CPU time of the calling thread (the per-core rate does not count time spent waiting for a
// core that other processes hold).
double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// One input prefix and the Data vector it fills.
struct InputGroup {
  const char* prefix;
  std::vector<double> Data::*field;
  int size;
};

}  // namespace

StateTable::StateTable(const CsvTable& table, const Model& m, bool with_qacc)
    : table_(table) {
  std::vector<InputGroup> groups = {
      {"qpos", &Data::qpos, m.nq},
      {"qvel", &Data::qvel, m.nv},
      {"act", &Data::act, m.na},
      {"ctrl", &Data::ctrl, m.nu},
      {"qacc_warmstart", &Data::qacc_warmstart, m.nv},
  };
  if (with_qacc) groups.push_back({"qacc", &Data::qacc, m.nv});
  std::string accepted = "time";
  for (const auto& g : groups) accepted += std::string(", ") + g.prefix + "<i>";

  for (const auto& name : table.header) {
    if (name == "time") {
      columns_.push_back(Column{});
      continue;
    }
    const ColumnName col = SplitColumnName(name);
    const InputGroup* group = nullptr;
    for (const auto& g : groups) {
      if (col.prefix == g.prefix && col.index != -1) group = &g;
    }
    if (group == nullptr || col.index < 0) {
      throw Error(ErrorLocation{table.path, 1, name, ""}, "unknown column; accepted: " + accepted);
    }
    if (col.index >= group->size) {
      throw Error(ErrorLocation{table.path, 1, name, ""},
                  "index out of range: the model has " + std::to_string(group->size) + " " +
                      group->prefix + " entries" +
                      (group->size > 0 ? " (" + std::string(group->prefix) + "0.." +
                                             group->prefix + std::to_string(group->size - 1) + ")"
                                       : std::string()));
    }
    columns_.push_back(Column{group->field, col.index});
  }
}

void StateTable::Apply(std::size_t r, Data& d) const {
  const std::vector<double>& row = table_.rows[r];
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (columns_[c].target == nullptr) {
      d.time = row[c];
    } else {
      (d.*(columns_[c].target))[columns_[c].index] = row[c];
    }
  }
}

int RunStateRows(const std::vector<std::string>& argv, const StateRowsCommand& command) {
  CommonArgs args;
  std::string states_path;
  std::string out_path;
  int threads = 1;
  po::options_description desc("Options");
  desc.add_options()
      ("states", po::value<std::string>(&states_path)->value_name("IN.csv")->required(),
       command.states_help)
      ("out", po::value<std::string>(&out_path)->value_name("OUT.csv")->required(),
       command.out_help)
      ("threads", po::value<int>(&threads)->value_name("T")->default_value(1),
       "evaluate rows on T threads (0: one per core); the output is the same for every T");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, command.usage, desc, true, args, vm)) return 0;
  CheckOutputPath(out_path, "--out", {args.model, args.config_file, states_path});
  if (threads < 0) throw UsageError("--threads must be >= 0");

  const Config config = BuildConfig(args);
  const Engine engine(LoadModelFile(args.model), config);
  const Model& m = engine.model();
  const CsvTable input = ReadCsv(states_path);
  const StateTable states(input, m, command.with_qacc);
  const std::vector<OutputGroup> groups = command.columns(m);
  int width = 0;
  for (const OutputGroup& g : groups) width += g.count;

  // Evaluate every row into a table of results (row-major, `width` values per row), then write
  // them in order: the CSV does not depend on which thread evaluated which row.
  const long nrow = static_cast<long>(input.rows.size());
  std::vector<double> results(static_cast<std::size_t>(nrow) * width);
  ThreadPool pool(threads);
  Batch batch(engine, pool);
  Progress progress(nrow, std::string("gauss ") + command.name);
  std::atomic<long> done{0};
  std::vector<double> cpu(nrow);  // thread CPU seconds of each row
  const auto start = std::chrono::steady_clock::now();
  batch.ForEach(static_cast<int>(nrow), [&](Data& d, int r) {
    const double cpu0 = ThreadCpuSeconds();
    engine.Reset(d);
    states.Apply(r, d);
    command.evaluate(engine, d);
    double* out = results.data() + static_cast<std::size_t>(r) * width;
    for (const OutputGroup& g : groups) {
      g.fill(d, out);
      out += g.count;
    }
    cpu[r] = ThreadCpuSeconds() - cpu0;
    const long finished = done.fetch_add(1) + 1;
    if (pool.size() == 1) progress.Update(finished);
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Finish();

  CsvWriter writer(out_path);
  long row = 0;
  int offset = 0;
  for (const OutputGroup& g : groups) {
    const int at = offset;
    const int count = g.count;
    auto fill = [&results, &row, width, at, count](double* o) {
      const double* in = results.data() + static_cast<std::size_t>(row) * width + at;
      std::copy(in, in + count, o);
    };
    if (g.scalar) {
      writer.AddScalar(g.prefix, [&results, &row, width, at] {
        return results[static_cast<std::size_t>(row) * width + at];
      });
    } else {
      writer.AddGroup(g.prefix, g.count, fill);
    }
    offset += g.count;
  }
  writer.WriteHeader();
  for (row = 0; row < nrow; ++row) writer.WriteRow();
  writer.Close();
  const std::string config_path = WriteResolvedConfig(out_path, args.model, engine);
  std::printf("model: %s (%s)\n", m.name.c_str(), args.model.c_str());
  std::printf("states: %ld\n", nrow);
  double cpu_seconds = 0;
  for (double c : cpu) cpu_seconds += c;
  std::printf("threads: %d (%.0f evaluations/s, %.0f per CPU second)\n", pool.size(),
              seconds > 0 ? nrow / seconds : 0.0, cpu_seconds > 0 ? nrow / cpu_seconds : 0.0);
  std::printf("output: %s (%d rows)\n", out_path.c_str(), writer.rows());
  std::printf("configuration: %s\n", config_path.c_str());
  return 0;
}

}  // namespace gauss::cli

// The commands that evaluate each state of a CSV table, `gauss forward` and `gauss inverse`:
// reading the states by column name - columns time, qpos*, qvel*, act*, ctrl*, qacc_warmstart*
// (and qacc* for inverse), in any order and any subset; a missing column keeps the value Reset
// gives it - and the command around it (options, the row loop, the summary).
#pragma once

#include <string>
#include <vector>

#include "csv.h"
#include "gauss/data.h"
#include "gauss/engine.h"
#include "gauss/model.h"

namespace gauss::cli {

class StateTable {
 public:
  // Matches the header of `table` to the fields of a Data of `m`; with_qacc accepts qacc*
  // columns. Throws gauss::Error naming an unknown column or an index beyond the model's size.
  StateTable(const CsvTable& table, const Model& m, bool with_qacc);

  // Writes row r of the table into d (after the caller's Reset). Reads only the table, so
  // several threads may apply rows to their own Data at once.
  void Apply(std::size_t r, Data& d) const;
  std::size_t rows() const { return table_.rows.size(); }

 private:
  struct Column {
    std::vector<double> Data::*target = nullptr;  // nullptr: the time
    int index = 0;
  };
  const CsvTable& table_;
  std::vector<Column> columns_;
};

// Output columns prefix0..prefix{count-1} (count 0 with scalar: one column named prefix), each
// filled from a Data after its evaluation: fill(d, out) writes `count` values (1 for a scalar).
struct OutputGroup {
  std::string prefix;
  int count = 1;
  bool scalar = false;
  void (*fill)(const Data& d, double* out) = nullptr;
};

// What distinguishes one state-table command from another.
struct StateRowsCommand {
  const char* name;         // "forward": the progress bar reads "gauss forward"
  const char* usage;        // the --help text
  const char* states_help;  // descriptions of --states and --out
  const char* out_help;
  bool with_qacc;           // accept qacc* columns
  // The output columns: a group's fill reads the Data after the row's evaluation.
  std::vector<OutputGroup> (*columns)(const Model& m);
  // The dynamics of one row, after Reset and the row's state.
  void (*evaluate)(const Engine& engine, Data& d);
};

// `gauss <name> MODEL.xml --states IN.csv --out OUT.csv [--threads T] [--config CFG.yaml]
// [--set K=V]...`: for each row of IN.csv, Reset, the row's state, `evaluate` and one row of
// OUT.csv (rows evaluated on T threads of a gauss::Batch, written in input order: the output is
// bit-identical for every T); the resolved configuration next to OUT.csv and a summary on
// stdout. Returns the exit status.
int RunStateRows(const std::vector<std::string>& argv, const StateRowsCommand& command);

}  // namespace gauss::cli

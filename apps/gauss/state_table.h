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
  // Matches the header of `table` to the fields of `d`; with_qacc accepts qacc* columns.
  // Throws gauss::Error naming an unknown column or an index beyond the model's size.
  StateTable(const CsvTable& table, const Model& m, Data& d, bool with_qacc);

  // Writes row r of the table into d (after the caller's Reset).
  void Apply(std::size_t r, Data& d) const;

 private:
  struct Column {
    std::vector<double>* target = nullptr;  // nullptr: the time
    int index = 0;
  };
  const CsvTable& table_;
  std::vector<Column> columns_;
};

// What distinguishes one state-table command from another.
struct StateRowsCommand {
  const char* name;         // "forward": the progress bar reads "gauss forward"
  const char* usage;        // the --help text
  const char* states_help;  // descriptions of --states and --out
  const char* out_help;
  bool with_qacc;           // accept qacc* columns
  // Declares the output columns on `writer`; they read `d` after each row's evaluation.
  void (*columns)(CsvWriter& writer, const Model& m, const Data& d);
  // The dynamics of one row, after Reset and the row's state.
  void (*evaluate)(const Engine& engine, Data& d);
};

// `gauss <name> MODEL.xml --states IN.csv --out OUT.csv [--config CFG.yaml] [--set K=V]...`:
// for each row of IN.csv, Reset, the row's state, `evaluate` and one row of OUT.csv; the
// resolved configuration next to OUT.csv and a summary on stdout. Returns the exit status.
int RunStateRows(const std::vector<std::string>& argv, const StateRowsCommand& command);

}  // namespace gauss::cli

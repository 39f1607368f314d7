// Reading integration states from a CSV table by column name, shared by `gauss forward` and
// `gauss inverse`: columns time, qpos*, qvel*, act*, ctrl*, qacc_warmstart* (and qacc* for
// inverse), in any order and any subset; a missing column keeps the value Reset gives it.
#pragma once

#include <string>
#include <vector>

#include "csv.h"
#include "gauss/data.h"
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

}  // namespace gauss::cli

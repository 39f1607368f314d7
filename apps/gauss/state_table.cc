// Matching state columns of a CSV table to Data fields (state_table.h).
#include "state_table.h"

#include "gauss/error.h"

namespace gauss::cli {
namespace {

// One input prefix and the Data vector it fills.
struct InputGroup {
  const char* prefix;
  std::vector<double> Data::*field;
  int size;
};

}  // namespace

StateTable::StateTable(const CsvTable& table, const Model& m, Data& d, bool with_qacc)
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
    columns_.push_back(Column{&(d.*(group->field)), col.index});
  }
}

void StateTable::Apply(std::size_t r, Data& d) const {
  const std::vector<double>& row = table_.rows[r];
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (columns_[c].target == nullptr) {
      d.time = row[c];
    } else {
      (*columns_[c].target)[columns_[c].index] = row[c];
    }
  }
}

}  // namespace gauss::cli

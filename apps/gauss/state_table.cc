// Matching state columns of a CSV table to Data fields, and the row loop of `gauss forward` and
// `gauss inverse` (state_table.h).
#include "state_table.h"

#include <cstdio>

#include "common.h"
#include "gauss/error.h"
#include "progress.h"

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

int RunStateRows(const std::vector<std::string>& argv, const StateRowsCommand& command) {
  CommonArgs args;
  std::string states_path;
  std::string out_path;
  po::options_description desc("Options");
  desc.add_options()
      ("states", po::value<std::string>(&states_path)->value_name("IN.csv")->required(),
       command.states_help)
      ("out", po::value<std::string>(&out_path)->value_name("OUT.csv")->required(),
       command.out_help);
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, command.usage, desc, true, args, vm)) return 0;
  CheckOutputPath(out_path, "--out", {args.model, args.config_file, states_path});

  const Config config = BuildConfig(args);
  const Engine engine(LoadModelFile(args.model), config);
  const Model& m = engine.model();
  const CsvTable input = ReadCsv(states_path);

  Data d = engine.MakeData();
  const StateTable states(input, m, d, command.with_qacc);
  CsvWriter writer(out_path);
  command.columns(writer, m, d);

  Progress progress(static_cast<long>(input.rows.size()), std::string("gauss ") + command.name);
  for (std::size_t r = 0; r < input.rows.size(); ++r) {
    engine.Reset(d);
    states.Apply(r, d);
    command.evaluate(engine, d);
    writer.WriteRow();
    progress.Update(static_cast<long>(r + 1));
  }
  progress.Finish();
  writer.Close();  // OUT.csv appears complete, then its configuration
  const std::string config_path = WriteResolvedConfig(out_path, args.model, engine);
  std::printf("model: %s (%s)\n", m.name.c_str(), args.model.c_str());
  std::printf("states: %zu\n", input.rows.size());
  std::printf("output: %s (%d rows)\n", out_path.c_str(), writer.rows());
  std::printf("configuration: %s\n", config_path.c_str());
  return 0;
}

}  // namespace gauss::cli

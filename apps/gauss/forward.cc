// `gauss forward`: the continuous-time forward dynamics of each state in a CSV file.
//
// Input columns are matched by name (state_table.h). Each row starts from Reset, so from a zero
// warmstart unless the table has qacc_warmstart* columns: rows are independent. Output columns
// come from a table of groups (OutputGroups), so later quantities are one line each.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "common.h"
#include "csv.h"
#include "gauss/error.h"
#include "progress.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

const char* kUsage =
    "usage: gauss forward MODEL.xml --states IN.csv --out OUT.csv [--config CFG.yaml]\n"
    "                     [--set KEY=VALUE]...\n\n"
    "For each row of IN.csv: reset, set the state from the columns present (time, qpos*, qvel*,\n"
    "act*, ctrl*, qacc_warmstart*; missing ones keep qpos0 and zeros), evaluate the forward\n"
    "dynamics and write qacc0..qacc{nv-1}, ncon, nefc, qfrc_constraint0..qfrc_constraint{nv-1},\n"
    "sensordata0..sensordata{nsensordata-1} and solver_iter to OUT.csv (plus\n"
    "OUT.csv.config.yaml).";

// The output columns, in order. Each group reads the Data after Engine::Forward.
void OutputGroups(CsvWriter& writer, const Model& m, const Data& d) {
  writer.AddGroup("qacc", m.nv, [&d](double* o) { std::copy(d.qacc.begin(), d.qacc.end(), o); });
  writer.AddScalar("ncon", [&d] { return d.ncon; });
  writer.AddScalar("nefc", [&d] { return d.nefc; });
  writer.AddGroup("qfrc_constraint", m.nv, [&d](double* o) {
    std::copy(d.qfrc_constraint.begin(), d.qfrc_constraint.end(), o);
  });
  writer.AddGroup("sensordata", m.nsensordata, [&d](double* o) {
    std::copy(d.sensordata.begin(), d.sensordata.end(), o);
  });
  writer.AddScalar("solver_iter", [&d] { return d.solver_iter; });
}

}  // namespace

int ForwardCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  std::string states_path;
  std::string out_path;
  po::options_description desc("Options");
  desc.add_options()
      ("states", po::value<std::string>(&states_path)->value_name("IN.csv")->required(),
       "input states, columns matched by name (see above)")
      ("out", po::value<std::string>(&out_path)->value_name("OUT.csv")->required(),
       "output CSV (columns above), one row per input row");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;

  const Config config = BuildConfig(args);
  const std::shared_ptr<const Model> model = LoadModelFile(args.model);
  const Engine engine(model, config);
  const Model& m = engine.model();
  const CsvTable input = ReadCsv(states_path);

  Data d = engine.MakeData();
  const StateTable states(input, m, d, /*with_qacc=*/false);
  CsvWriter writer(out_path);
  OutputGroups(writer, m, d);
  const std::string config_path = WriteResolvedConfig(out_path, args.model, engine);

  Progress progress(static_cast<long>(input.rows.size()), "gauss forward");
  for (size_t r = 0; r < input.rows.size(); ++r) {
    engine.Reset(d);
    states.Apply(r, d);
    engine.Forward(d);
    writer.WriteRow();
    progress.Update(static_cast<long>(r + 1));
  }
  progress.Finish();
  writer.Close();
  std::printf("model: %s (%s)\n", m.name.c_str(), args.model.c_str());
  std::printf("states: %zu\n", input.rows.size());
  std::printf("output: %s (%d rows)\n", out_path.c_str(), writer.rows());
  std::printf("configuration: %s\n", config_path.c_str());
  return 0;
}

}  // namespace gauss::cli

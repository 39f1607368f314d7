// `gauss inverse`: the inverse dynamics of each (state, acceleration) in a CSV file: the
// generalized force qfrc_inverse that, applied to the model, produces the given qacc. Constraint
// forces come analytically from the soft-constraint model (Engine::Inverse).
#include <cstdio>

#include "common.h"
#include "csv.h"
#include "gauss/error.h"
#include "progress.h"
#include "state_table.h"

namespace gauss::cli {
namespace {

const char* kUsage =
    "usage: gauss inverse MODEL.xml --states IN.csv --out OUT.csv [--config CFG.yaml]\n"
    "                     [--set KEY=VALUE]...\n\n"
    "For each row of IN.csv: reset, set the state and acceleration from the columns present\n"
    "(time, qpos*, qvel*, qacc*, act*, ctrl*; missing ones keep qpos0 and zeros), evaluate the\n"
    "inverse dynamics and write qfrc_inverse0..qfrc_inverse{nv-1} to OUT.csv. For the output of\n"
    "`gauss forward` (with the state columns) this returns the actuator and applied forces.";

}  // namespace

int InverseCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  std::string states_path;
  std::string out_path;
  po::options_description desc("Options");
  desc.add_options()
      ("states", po::value<std::string>(&states_path)->value_name("IN.csv")->required(),
       "input states and accelerations, columns matched by name (see above)")
      ("out", po::value<std::string>(&out_path)->value_name("OUT.csv")->required(),
       "output CSV: qfrc_inverse0..qfrc_inverse{nv-1}, one row per input row");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, true, args, vm)) return 0;

  const Config config = BuildConfig(args);
  const Engine engine(LoadModelFile(args.model), config);
  const Model& m = engine.model();
  const CsvTable input = ReadCsv(states_path);

  Data d = engine.MakeData();
  const StateTable states(input, m, d, /*with_qacc=*/true);
  CsvWriter writer(out_path);
  writer.AddGroup("qfrc_inverse", m.nv, [&d](double* o) {
    std::copy(d.qfrc_inverse.begin(), d.qfrc_inverse.end(), o);
  });
  const std::string config_path = WriteResolvedConfig(out_path, args.model, engine);

  Progress progress(static_cast<long>(input.rows.size()), "gauss inverse");
  for (std::size_t r = 0; r < input.rows.size(); ++r) {
    engine.Reset(d);
    states.Apply(r, d);
    engine.Inverse(d);
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

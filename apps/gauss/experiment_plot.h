// Plots of an experiment's headline comparisons, drawn by gnuplot (Debian package gnuplot-nox).
//
// For each plot of the experiment file the command writes plots/<name>.dat (the numbers
// plotted) and plots/<name>.gp (a gnuplot script reading them), then runs gnuplot on the script
// to produce plots/<name>.svg (or .png). Without gnuplot the data and scripts are still written
// and the command says how to draw them later. docs/experiments.md explains the choice of
// gnuplot (a stable, scriptable, dependency-light plotting program from Debian).
#pragma once

#include <string>
#include <vector>

#include "experiment_results.h"
#include "experiment_spec.h"

namespace gauss::cli {

// Checks every plot's columns before any run starts: summary plots against the results.csv
// columns, trace plots against the trace columns of each model (`trace_columns`, one list per
// model). Throws gauss::Error naming the file, the plot's line and the valid columns.
void CheckPlots(const ExperimentSpec& spec, const std::vector<std::string>& result_columns,
                const std::vector<std::vector<std::string>>& trace_columns);

// What DrawPlots produced.
struct PlotOutput {
  std::vector<std::string> images;   // image files drawn
  std::vector<std::string> scripts;  // gnuplot scripts written (one per image)
  std::string note;                  // why images are missing (no gnuplot, gnuplot failed), or ""
};

// Writes data and scripts into dir/plots and runs gnuplot on each. Failed runs are left out;
// repeats are averaged (mean of y per group and x).
PlotOutput DrawPlots(const ExperimentSpec& spec, const std::string& dir, const ResultTable& results);

// Full path of the gnuplot program found on PATH, "" if none.
std::string FindGnuplot();

// Runs `gnuplot script` with its output appended to `log`; true on exit status 0.
bool RunGnuplot(const std::string& gnuplot, const std::string& script, const std::string& log);

}  // namespace gauss::cli

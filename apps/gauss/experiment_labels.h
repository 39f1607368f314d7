// Axis labels with units for the columns of results.csv and of the traces, so that a plot of
// an experiment reads "time per step (µs)" rather than "step_time_us". A plot's xlabel/ylabel
// keys override them.
#pragma once

#include <string>

namespace gauss::cli {

// (column name) => a readable label with its unit, e.g. "timestep" => "timestep h (s)"; a column
// without a known meaning (a swept plugin parameter) is returned as it is.
std::string ColumnLabel(const std::string& column);

// The unit of a column ("s", "m", "J", ...), "" when it has none or is unknown.
std::string ColumnUnit(const std::string& column);

}  // namespace gauss::cli

// `gauss run --out TRAJ.csv --contacts`: the contacts of every trajectory row, written to
// TRAJ.csv.contacts.csv in long format (one line per contact), read back by `gauss view`.
//
// Columns (docs/cli.md, "Contacts"): row (the trajectory row, 0-based), time, geom1, geom2,
// pos0..pos2 (the contact point, world), normal0..normal2 (unit, from geom1 to geom2), dist
// (signed surface distance, negative in penetration), force_normal (the normal force, >= 0),
// force_tangent (the magnitude of the friction force in the tangent plane). A contact in its
// margin gap or without constraint rows has force 0.
#pragma once

#include <string>

#include "csv.h"
#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss::cli {

class ContactCsvWriter {
 public:
  // Opens `path` and writes the header; throws gauss::Error when it cannot.
  explicit ContactCsvWriter(const std::string& path);

  // (row index, d.time of that row, d.contact[0..ncon), d.efc_force) => one line per contact.
  // Reads the contacts of the last Forward/Step of `d`, i.e. of the state the row holds.
  void WriteContacts(int row, double time, const Model& m, const Data& d);

  // Flushes and closes; throws gauss::Error on a write failure.
  void Close() { writer_.Close(); }
  int contacts() const { return writer_.rows(); }

 private:
  CsvWriter writer_;
  double values_[14] = {0};  // the current line, in the column order above
};

// The contacts file written beside a trajectory: TRAJ.csv => TRAJ.csv.contacts.csv.
std::string ContactCsvPath(const std::string& trajectory_path);

}  // namespace gauss::cli

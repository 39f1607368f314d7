// Writes the contacts of each trajectory row (contact_csv.h).
#include "contact_csv.h"

#include <cmath>

#include "gauss/sensor_support.h"

namespace gauss::cli {

ContactCsvWriter::ContactCsvWriter(const std::string& path) : writer_(path) {
  // Each column reads its slot of values_, filled by WriteContacts before WriteRow.
  const char* scalars[] = {"row", "time", "geom1", "geom2"};
  for (int i = 0; i < 4; ++i) writer_.AddScalar(scalars[i], [this, i] { return values_[i]; });
  writer_.AddGroup("pos", 3, [this](double* o) { for (int k = 0; k < 3; ++k) o[k] = values_[4 + k]; });
  writer_.AddGroup("normal", 3, [this](double* o) { for (int k = 0; k < 3; ++k) o[k] = values_[7 + k]; });
  const char* tail[] = {"dist", "force_normal", "force_tangent"};
  for (int i = 0; i < 3; ++i) writer_.AddScalar(tail[i], [this, i] { return values_[10 + i]; });
  writer_.WriteHeader();  // a run without any contact still gets a readable file
}

void ContactCsvWriter::WriteContacts(int row, double time, const Model& m, const Data& d) {
  for (int c = 0; c < d.ncon; ++c) {
    const Contact& con = d.contact[c];
    double force[6];
    ContactForce(m, d, c, force);  // contact frame: normal, tangent1, tangent2, torques
    values_[0] = row;
    values_[1] = time;
    values_[2] = con.geom1;
    values_[3] = con.geom2;
    for (int k = 0; k < 3; ++k) values_[4 + k] = con.pos[k];
    for (int k = 0; k < 3; ++k) values_[7 + k] = con.frame[k];  // first frame row: the normal
    values_[10] = con.dist;
    values_[11] = force[0];
    values_[12] = std::hypot(force[1], force[2]);
    writer_.WriteRow();
  }
}

std::string ContactCsvPath(const std::string& trajectory_path) {
  return trajectory_path + ".contacts.csv";
}

}  // namespace gauss::cli

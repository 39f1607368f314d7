// A plugin built as if against headers where gauss::Contact had another layout: geom1 and geom2
// trade places. Same fields, same types, same sizeof — only offsets differ, which a sizeof check
// cannot see. Its entry carries the kernel's fingerprints except Contact's, which is computed by
// the same machinery (gauss/abi.h) from that other layout; the registry must refuse it naming
// Contact.
#include <cstddef>
#include <iterator>

#include "gauss/abi.h"
#include "gauss/actuator.h"
#include "gauss/plugin.h"

namespace relayout {

// gauss::Contact with geom1 and geom2 swapped
struct Contact {
  double dist = 0;
  double pos[3] = {0, 0, 0};
  double frame[9] = {0};
  double includemargin = 0;
  double friction[5] = {0};
  double solref[gauss::kNRef] = {0};
  double solimp[gauss::kNImp] = {0};
  double solreffriction[gauss::kNRef] = {0};
  double adhesion = 0;
  int dim = 0;
  int geom2 = -1;
  int geom1 = -1;
  int exclude = 0;
  int efc_address = -1;
};

#define RELAYOUT_FIELD(Struct, field)                                                     \
  ::gauss::abi::FieldLayout{#field, offsetof(relayout::Contact, field),                   \
                            sizeof(relayout::Contact::field),                             \
                            alignof(decltype(relayout::Contact::field)),                  \
                            ::gauss::abi::TypeName<decltype(relayout::Contact::field)>()},
inline constexpr gauss::abi::FieldLayout kContactFields[] = {
    GAUSS_ABI_FIELDS_Contact(RELAYOUT_FIELD)};
#undef RELAYOUT_FIELD
static_assert(sizeof(Contact) == sizeof(gauss::Contact), "only the layout differs");

constexpr bool SameName(const char* a, const char* b) {
  for (; *a && *a == *b; ++a, ++b) {
  }
  return *a == *b;
}

struct Table {
  gauss::StructFingerprint entries[std::size(gauss::abi::kFingerprints)];
};

constexpr Table MakeTable() {
  Table t{};
  for (std::size_t k = 0; k < std::size(gauss::abi::kFingerprints); ++k) {
    t.entries[k] = gauss::abi::kFingerprints[k];
    if (SameName(t.entries[k].name, "Contact")) {
      t.entries[k].hash = gauss::abi::Fingerprint("Contact", sizeof(Contact), alignof(Contact),
                                                  kContactFields);
    }
  }
  return t;
}
inline constexpr Table kTable = MakeTable();

class Relayout : public gauss::ActuatorDynamics {
 protected:
  void DoCompute(const gauss::Model&, gauss::Data&, const double*, const int*,
                 int) const override {}
};

}  // namespace relayout

#undef GAUSS_PLUGIN_ABI_FINGERPRINTS
#define GAUSS_PLUGIN_ABI_FINGERPRINTS relayout::kTable.entries
GAUSS_ACTUATOR_PLUGIN(relayout::Relayout, test_relayout, "1.0.0",
                      "built against another layout of gauss::Contact", gauss::kCapNone,
                      gauss::kNoParams)

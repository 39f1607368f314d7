// Height field assets (core/src/mjcf/compile_hfield.cc): every way of giving the data, with the
// exact values MuJoCo 2.2.2 stores (measured with its loader: PNG rows flipped, red channel of
// colour images, high byte of 16-bit samples, binary rows as written, single-precision scaling
// to [0, 1]) and MuJoCo 3.x's for inline elevations; and every kind of bad input, located.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

using test::TestModel;

// A model around one <hfield ...> element (line 3) and one hfield geom (line 6), read as if it
// were the file tests/models/hfield_virtual.xml, so that file names resolve in tests/models.
std::string Wrap(const std::string& hfield_attributes, const std::string& geom = "") {
  return "<mujoco>\n  <asset>\n    <hfield name=\"h\" " + hfield_attributes +
         "/>\n  </asset>\n  <worldbody>\n" +
         (geom.empty() ? "    <geom type=\"hfield\" hfield=\"h\"/>" : geom) +
         "\n  </worldbody>\n</mujoco>\n";
}

std::shared_ptr<const Model> Load(const std::string& xml) {
  return LoadModelFromString(xml, TestModel("hfield_virtual.xml"));
}

// The values a float division gives: what MuJoCo 2.2.2 stores.
double F(float num, float den) { return static_cast<double>(num / den); }

TEST(CompileHfield, PngRowsFlippedAndScaled) {
  const auto m = Load(Wrap("file=\"hfield/tiny.png\" size=\"1 2 0.5 0.1\""));
  ASSERT_EQ(m->nhfield, 1);
  EXPECT_EQ(m->hfield_nrow[0], 2);
  EXPECT_EQ(m->hfield_ncol[0], 3);
  EXPECT_EQ(m->hfield_adr[0], 0);
  EXPECT_EQ(m->nhfielddata, 6);
  // image rows (0 50 100) over (150 200 255): the top image row is the last grid row
  const std::vector<double> want = {F(150, 255), F(200, 255), 1, 0, F(50, 255), F(100, 255)};
  EXPECT_EQ(m->hfield_data, want);
  EXPECT_EQ(m->hfield_size, (std::vector<double>{1, 2, 0.5, 0.1}));
  // the geom: radius_x, radius_y, half the total height; no bound (the broad phase tests it
  // against everything), no data other than the field
  EXPECT_EQ(m->geom_type[0], GeomType::kHfield);
  EXPECT_EQ(m->geom_dataid[0], 0);
  EXPECT_DOUBLE_EQ(m->geom_size[0], 1);
  EXPECT_DOUBLE_EQ(m->geom_size[1], 2);
  EXPECT_DOUBLE_EQ(m->geom_size[2], 0.3);
  EXPECT_EQ(m->geom_rbound[0], 0);
  EXPECT_EQ(m->hfield_name[0], "h");
}

TEST(CompileHfield, SixteenBitPngKeepsTheHighByte) {
  const auto a = Load(Wrap("file=\"hfield/tiny.png\" size=\"1 1 1 1\""));
  const auto b = Load(Wrap("file=\"hfield/tiny16.png\" size=\"1 1 1 1\""));
  EXPECT_EQ(a->hfield_data, b->hfield_data);
}

TEST(CompileHfield, ColourPngGivesItsRedChannel) {
  const auto grey = Load(Wrap("file=\"hfield/bumps.png\" size=\"1 1 1 1\""));
  const auto rgb = Load(Wrap("file=\"hfield/bumps_rgb.png\" size=\"1 1 1 1\""));
  EXPECT_EQ(grey->hfield_nrow[0], 15);
  EXPECT_EQ(grey->hfield_ncol[0], 21);
  EXPECT_EQ(grey->hfield_data, rgb->hfield_data);
}

TEST(CompileHfield, BinaryRowsAsWrittenAndScaled) {
  const auto m = Load(Wrap("file=\"hfield/tiny.bin\" size=\"1 1 1 1\""));
  EXPECT_EQ(m->hfield_nrow[0], 2);
  EXPECT_EQ(m->hfield_ncol[0], 3);
  EXPECT_EQ(m->hfield_data, (std::vector<double>{0, 0.125, 0.25, 0.375, 0.5, 1}));
}

TEST(CompileHfield, InlineElevationFirstRowIsTheLastGridRow) {
  const auto m = Load(Wrap("nrow=\"2\" ncol=\"3\" size=\"1 1 1 1\" elevation=\"1 2 3 4 5 9\""));
  EXPECT_EQ(m->hfield_data, (std::vector<double>{0.375, 0.5, 1, 0, 0.125, 0.25}));
}

TEST(CompileHfield, ZeroFieldForAProgramToFill) {
  const auto m = Load(Wrap("nrow=\"3\" ncol=\"4\" size=\"1 1 1 1\""));
  EXPECT_EQ(m->hfield_data, std::vector<double>(12, 0.0));
  // a constant field is shifted to 0, not divided
  const auto c = Load(Wrap("nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\" elevation=\"7 7 7 7\""));
  EXPECT_EQ(c->hfield_data, std::vector<double>(4, 0.0));
}

TEST(CompileHfield, NameDefaultsToTheFileStemAndFilesFollowMeshdir) {
  const auto m = LoadModelFromString(
      "<mujoco>\n  <compiler meshdir=\"hfield\"/>\n  <asset>\n"
      "    <hfield file=\"tiny.bin\" size=\"1 1 1 1\"/>\n  </asset>\n  <worldbody>\n"
      "    <geom type=\"hfield\" hfield=\"tiny\"/>\n  </worldbody>\n</mujoco>\n",
      TestModel("hfield_virtual.xml"));
  EXPECT_EQ(m->hfield_name[0], "tiny");
  EXPECT_EQ(m->hfield_nrow[0], 2);
}

// The error names the virtual file, the line, the element and attribute, and says `fragment`.
void ExpectError(const std::string& xml, int line, const std::string& element,
                 const std::string& attribute, const std::string& fragment) {
  SCOPED_TRACE(fragment);
  try {
    Load(xml);
    FAIL() << "loaded but should be refused";
  } catch (const Error& e) {
    const std::string text = e.what();
    EXPECT_EQ(e.where().file, TestModel("hfield_virtual.xml")) << text;
    EXPECT_EQ(e.where().line, line) << text;
    EXPECT_EQ(e.where().element, element) << text;
    EXPECT_EQ(e.where().attribute, attribute) << text;
    EXPECT_NE(text.find(fragment), std::string::npos) << text;
  }
}

TEST(CompileHfield, BadInputIsLocatedAndExplained) {
  ExpectError(Wrap("file=\"hfield/missing.png\" size=\"1 1 1 1\""), 3, "hfield", "file",
              "height field file 'hfield/missing.png' not found: tried /");
  ExpectError(Wrap("file=\"hfield/corrupt.png\" size=\"1 1 1 1\""), 3, "hfield", "file",
              "corrupted PNG height field");
  ExpectError(Wrap("file=\"hfield_png.xml\" size=\"1 1 1 1\""), 3, "hfield", "file",
              "bytes; its header");  // an XML file read as the binary format
  ExpectError(Wrap("file=\"hfield/short.bin\" size=\"1 1 1 1\""), 3, "hfield", "file",
              "has 32 bytes; its header (4 x 5) needs 88");
  ExpectError(Wrap("nrow=\"2\" ncol=\"3\" size=\"1 1 1 1\" elevation=\"1 2 3 4 5\""), 3,
              "hfield", "elevation", "expected nrow x ncol = 6 values, found 5");
  ExpectError(Wrap("file=\"hfield/tiny.bin\" nrow=\"2\" ncol=\"3\" size=\"1 1 1 1\""), 3,
              "hfield", "nrow", "from a file or from nrow/ncol");
  ExpectError(Wrap("nrow=\"2\" size=\"1 1 1 1\""), 3, "hfield", "ncol", "needs both nrow and ncol");
  ExpectError(Wrap("nrow=\"1\" ncol=\"3\" size=\"1 1 1 1\""), 3, "hfield", "nrow",
              "at least 2, found 1 x 3");
  ExpectError(Wrap("nrow=\"2\" ncol=\"2\" size=\"1 1 0 1\""), 3, "hfield", "size",
              "must be positive");
  ExpectError(Wrap("nrow=\"2\" ncol=\"2\" size=\"1 1 1\""), 3, "hfield", "size", "");
  ExpectError(Wrap("nrow=\"2\" ncol=\"2\""), 3, "hfield", "size", "required attribute");
  ExpectError(Wrap("nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"",
                   "    <geom type=\"hfield\" hfield=\"nope\"/>"),
              6, "geom", "hfield", "unknown hfield 'nope'");
  ExpectError(Wrap("nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"", "    <geom type=\"hfield\"/>"), 6,
              "geom", "hfield", "needs the hfield attribute");
  ExpectError(Wrap("nrow=\"2\" ncol=\"2\" size=\"1 1 1 1\"",
                   "    <body><freejoint/><geom type=\"hfield\" hfield=\"h\"/></body>"),
              6, "geom", "type", "height fields are only allowed in static bodies");
}

}  // namespace
}  // namespace gauss

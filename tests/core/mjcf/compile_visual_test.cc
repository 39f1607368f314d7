// Materials and skins (core/src/mjcf/compile_visual.cc): what is compiled from inline data and
// from a .skn file, default-class material colours, and the located errors for bad skins.
// (The same arrays are compared with MuJoCo 2.2.2 by tests/reference/model_compile_test.cc.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

// A model with one body "b" and the given <asset> contents.
std::string WithAssets(const std::string& assets) {
  return "<mujoco>\n<asset>\n" + assets +
         "\n</asset>\n<worldbody>\n<body name=\"b\"><freejoint/><geom size=\"0.1\"/></body>\n"
         "</worldbody>\n</mujoco>\n";
}

// The error of loading `xml` (fails the test when it loads).
Error LoadError(const std::string& xml) {
  try {
    LoadModelFromString(xml, "skin_test.xml");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded, but should be refused:\n" << xml;
  return Error("none");
}

TEST(CompileVisual, MaterialsTakeClassColoursAndElementsKeepTheirIds) {
  auto m = LoadModel(test::TestModel("compile_skin.xml"));
  ASSERT_EQ(m->nmat, 3);
  EXPECT_EQ(m->mat_name[0], "sleeve_red");
  // rgba from the default class "red"
  EXPECT_EQ(std::vector<double>(m->mat_rgba.begin(), m->mat_rgba.begin() + 4),
            (std::vector<double>{0.9, 0.1, 0.1, 1}));
  EXPECT_EQ(m->geom_matid, (std::vector<int>{1, 2, 1, 0}));  // floor, post, upper, lower
  EXPECT_EQ(m->site_matid, (std::vector<int>{2, -1}));
  EXPECT_EQ(m->site_rgba[4 * 1 + 2], 1);  // site "plain": rgba 0 0 1 1
}

TEST(CompileVisual, InlineSkinAndSknFile) {
  auto m = LoadModel(test::TestModel("compile_skin.xml"));
  ASSERT_EQ(m->nskin, 3);
  EXPECT_EQ(m->skin_name[1], "tag");
  EXPECT_EQ(m->skin_vertnum, (std::vector<int>{12, 4, 4}));
  EXPECT_EQ(m->skin_facenum, (std::vector<int>{20, 4, 4}));
  EXPECT_EQ(m->skin_bonenum, (std::vector<int>{2, 1, 1}));
  EXPECT_EQ(m->skin_matid, (std::vector<int>{0, -1, -1}));
  // the knob's bind quaternion 1.8 0.2 0.6 0.4 is stored normalized
  const double* q = &m->skin_bonebindquat[4 * m->skin_boneadr[2]];
  EXPECT_NEAR(std::hypot(std::hypot(q[0], q[1]), std::hypot(q[2], q[3])), 1, 1e-7);
  EXPECT_NEAR(q[1] / q[0], 0.2 / 1.8, 1e-6);
  EXPECT_FLOAT_EQ(m->skin_inflate[0], 0.01f);
  // the .skn file's bone is bound to body "lower" with its bind pose and four vertices
  const int bone = m->skin_boneadr[1];
  EXPECT_EQ(m->skin_bonebodyid[bone], m->BodyId("lower"));
  EXPECT_EQ(m->skin_bonebindpos[3 * bone], 0.5);
  EXPECT_EQ(m->skin_bonevertnum[bone], 4);
  EXPECT_FLOAT_EQ(m->skin_vert[3 * (m->skin_vertadr[1] + 2) + 2], 1.25f);
  // every vertex's weights sum to one (the file wrote 0.5 + 0.5 and 2 for the sleeve)
  std::vector<double> total(m->nskinvert, 0.0);
  for (int k = 0; k < m->nskin; ++k) {
    for (int b = m->skin_boneadr[k]; b < m->skin_boneadr[k] + m->skin_bonenum[k]; ++b) {
      for (int j = m->skin_bonevertadr[b]; j < m->skin_bonevertadr[b] + m->skin_bonevertnum[b]; ++j) {
        total[m->skin_vertadr[k] + m->skin_bonevertid[j]] += m->skin_bonevertweight[j];
      }
    }
  }
  for (double t : total) EXPECT_NEAR(t, 1, 1e-7);
}

TEST(CompileVisual, BadSkinsAreRefusedWithTheirPlace) {
  const std::string tri = "vertex=\"0 0 0 1 0 0 0 1 0\" face=\"0 1 2\"";
  struct Case {
    std::string assets, element, attribute, fragment;
  };
  const Case cases[] = {
      {"<skin " + tri + "><bone body=\"b\" bindpos=\"0 0 0\" bindquat=\"1 0 0 0\" vertid=\"0 1 3\" "
       "vertweight=\"1 1 1\"/></skin>",
       "bone", "vertid", "vertex 3 out of range (the skin has 3 vertices)"},
      {"<skin " + tri + "><bone body=\"nobody\" bindpos=\"0 0 0\" bindquat=\"1 0 0 0\" "
       "vertid=\"0 1 2\" vertweight=\"1 1 1\"/></skin>",
       "bone", "body", "unknown body 'nobody'"},
      {"<skin " + tri + "><bone body=\"b\" bindpos=\"0 0 0\" bindquat=\"1 0 0 0\" vertid=\"0 1\" "
       "vertweight=\"1 1\"/></skin>",
       "skin", "face", "skin vertex 2 has no positive bone weight"},
      {"<skin " + tri + "><bone body=\"b\" bindpos=\"0 0 0\" bindquat=\"1 0 0 0\" vertid=\"0 1 2\" "
       "vertweight=\"1 1\"/></skin>",
       "bone", "vertweight", "expected one weight per vertid (3), found 2"},
      {"<skin vertex=\"0 0 0 1 0 0 0 1 0\" face=\"0 1 5\"><bone body=\"b\" bindpos=\"0 0 0\" "
       "bindquat=\"1 0 0 0\" vertid=\"0 1 2\" vertweight=\"1 1 1\"/></skin>",
       "skin", "face", "face vertex 5 out of range"},
      {"<skin " + tri + "/>", "skin", "", "a skin needs at least one <bone>"},
      {"<skin file=\"x.skn\" " + tri + "/>", "skin", "file", "from a file or from the vertex"},
      {"<skin " + tri + " material=\"none\"><bone body=\"b\" bindpos=\"0 0 0\" "
       "bindquat=\"1 0 0 0\" vertid=\"0 1 2\" vertweight=\"1 1 1\"/></skin>",
       "skin", "material", "unknown material 'none'"},
      {"<skin file=\"no_such.skn\"/>", "skin", "file", "skin file 'no_such.skn' not found"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.assets);
    const Error e = LoadError(WithAssets(c.assets));
    EXPECT_EQ(e.where().line, 3) << e.what();  // the <skin> line (bones are on it too)
    EXPECT_EQ(e.where().element, c.element) << e.what();
    EXPECT_EQ(e.where().attribute, c.attribute) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
  }
}

// A .skn file cut short or with a count larger than the file is refused with its byte offset.
TEST(CompileVisual, TruncatedSknFileIsRefused) {
  std::ifstream in(test::TestModel("meshes/tag.skn"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_EQ(bytes.size(), 216u);
  const std::string dir = ::testing::TempDir();
  struct Case {
    std::string bytes, fragment;
  };
  std::string huge = bytes;
  huge[0] = '\x7f';  // 127 vertices cannot fit
  const Case cases[] = {{bytes.substr(0, 100), "ends at byte 100"},
                        {huge, "bad vertex count 127 at byte 0"},
                        {bytes + "xx", "bytes after its last bone"}};
  for (const Case& c : cases) {
    const std::string path = dir + "/cut.skn";
    std::ofstream(path, std::ios::binary) << c.bytes;
    const Error e = LoadError(WithAssets("<skin file=\"" + path + "\"/>"));
    EXPECT_EQ(e.where().attribute, "file");
    EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace gauss

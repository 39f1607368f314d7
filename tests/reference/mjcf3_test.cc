// MuJoCo 3.x models against MuJoCo 3.12.1: compiled sizes, joints and actuators (mjref3 info)
// and 200-step trajectories with random controls (mjref3 run --with-ctrl --no-island), stored
// in tests/reference/mjcf3/ by tests/reference/mjcf3/regen.sh (MuJoCo 3.12 is not linked: the
// reference data is recorded once with the shared tool ../shared/tools/mjref/build3/mjref3).
//
// Asserted: every count and every joint/actuator/sensor line (names, addresses, dimensions:
// replicate's suffixes and ordering) equal; the state (qpos, qvel, act) after
// each of the 200 steps driven by the recorded controls equal to 1e-9 relative (measured:
// see docs/mjcf.md, "MuJoCo 3.x"), sensordata likewise; tendon_dampratio to 1e-6 (its chains
// of joint equalities amplify round-off: 1e-15 after 3 steps, 7e-13 after 50, 3.5e-7 after
// 200) and car to 1e-6 (contacts: the two solvers stop at tolerance 1e-8 by different paths,
// MuJoCo 3.x's line search being inexact: 3e-8 after one step, at most 1.3e-7 in 200).
// newton_cradle (MuJoCo's replicate example, stiff ball contacts) runs both solvers to
// convergence (tolerance 1e-15): at the default tolerance they part by 1e-5 after 25 steps;
// slide_weights likewise (spheres resting on the floor: at the default tolerance the two Newton
// solves stop on different iterates, 3e-11 apart after 86 steps without controls).
// cameras and MuJoCo's freejoint.xml check camera poses through frame and camprojection
// sensors; connect, jdotv_connect_3d, jdotv_weld_3d and soft_weld the 3.12 connect/weld
// semantics (the eqjdotv flag; soft_weld, a 2.x file, replayed with the flag set); site_weld
// the 3.x weld between rotated sites (rotation measured in site2's frame); poly_stiffness the
// 3.x polynomial springs of joints and tendons.
// actgravcomp checks joint actuatorgravcomp (clamped by actuatorfrcrange), eulerdamp the Euler
// integrator with explicit damping, tausmooth the muscles' blended activation time constant;
// box_stack 3.12's box-box contacts (boxclip), margin_gap its summed geom margins and gaps
// (marginsum), slide_weights its constraint weights of bodies that only slide along their own
// axes (SetConstants), rk4_warmstart its Runge-Kutta stages warm-started from the step's start
// (rk4 `warmstart`) under a pgs capped before convergence; rangefinder_camera the per-pixel
// rays of perspective and orthographic cameras and the rangefinder data fields; adhesion and
// adhesion_elliptic contact adhesion (resting, pulled off, in the gap band, by priority and by
// pair) under both cone types. invdiscrete: MuJoCo 3.12.1's mj_inverse with the flag
// invdiscrete (Mjcf3InvDiscrete).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/engine.h"
#include "gauss/mjcf.h"
#include "mjcf/parser.h"
#include "mjcf/spec.h"
#include "mjcf/xml_tree.h"
#include "set_constants.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

// The recorded data of model `name` ("servo", "mujoco/dampratio", ...): its file name only.
std::string ReferenceFile(const std::string& name, const std::string& suffix) {
  return std::string(GAUSS_SOURCE_DIR) + "/tests/reference/mjcf3/" +
         name.substr(name.rfind('/') + 1) + suffix;
}

// key=value lines of `mjref3 info` (the first occurrence of each key), and its joint /
// actuator lines as written.
struct Info {
  std::map<std::string, std::string> values;
  std::vector<std::string> joints, actuators, sensors;
};

Info ReadInfo(const std::string& path) {
  Info info;
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("joint=", 0) == 0) {
      info.joints.push_back(line);
    } else if (line.rfind("actuator=", 0) == 0) {
      info.actuators.push_back(line);
    } else if (line.rfind("sensor=", 0) == 0) {
      // sensor=ID name=N type=T adr=A dim=D: the type is MuJoCo's enum number, left out
      const auto type = line.find(" type="), adr = line.find(" adr=");
      info.sensors.push_back(line.substr(0, type) + line.substr(adr));
    } else if (const auto eq = line.find('='); eq != std::string::npos) {
      info.values.emplace(line.substr(0, eq), line.substr(eq + 1));
    }
  }
  return info;
}

// A CSV file with a header: column name -> values by row.
struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  int Column(const std::string& name) const {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  }
};

Table ReadTable(const std::string& path) {
  Table t;
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line, cell;
  std::getline(in, line);
  std::stringstream header(line);
  while (std::getline(header, cell, ',')) t.names.push_back(cell);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::vector<double> values;
    while (std::getline(row, cell, ',')) values.push_back(std::stod(cell));
    t.rows.push_back(values);
  }
  return t;
}

// The joint and actuator lines Gauss's model gives, in mjref's format.
std::string Number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string JointLine(const Model& m, int j) {
  const char* types[] = {"free", "ball", "slide", "hinge"};
  return "joint=" + std::to_string(j) + " name=" + m.jnt_name[j] +
         " type=" + types[static_cast<int>(m.jnt_type[j])] +
         " qposadr=" + std::to_string(m.jnt_qposadr[j]) +
         " dofadr=" + std::to_string(m.jnt_dofadr[j]);
}

std::string ActuatorLine(const Model& m, int a) {
  return "actuator=" + std::to_string(a) + " name=" + m.actuator_name[a] +
         " ctrllimited=" + std::to_string(m.actuator_ctrllimited[a]) +
         " ctrlrange=" + Number(m.actuator_ctrlrange[2 * a]) + "," +
         Number(m.actuator_ctrlrange[2 * a + 1]) +
         " dyntype=" + std::to_string(static_cast<int>(m.actuator_dyntype[a]));
}

std::string SensorLine(const Model& m, int s) {
  return "sensor=" + std::to_string(s) + " name=" + m.sensor_name[s] +
         " adr=" + std::to_string(m.sensor_adr[s]) + " dim=" + std::to_string(m.sensor_dim[s]);
}

// Models recorded with the solver run to convergence (regen.sh's "converged").
bool Converged(const std::string& name) {
  return name == "mujoco/newton_cradle" || name == "contact3" || name == "contact_sensor" ||
         name == "slide_weights" || name == "adhesion" || name == "adhesion_elliptic";
}

double RelError(double gauss, double mujoco) {
  return std::fabs(gauss - mujoco) / std::max(1.0, std::fabs(mujoco));
}

class Mjcf3 : public ::testing::TestWithParam<std::string> {};

TEST_P(Mjcf3, CompiledModelMatchesMujoco312) {
  const std::string name = GetParam();
  const auto model = LoadModel(TestModel("mjcf3/" + name + ".xml"));
  const Model& m = *model;
  const Info info = ReadInfo(ReferenceFile(name, ".info"));
  const std::map<std::string, int> counts = {
      {"nq", m.nq},         {"nv", m.nv},         {"nu", m.nu},
      {"na", m.na},         {"nbody", m.nbody},   {"njnt", m.njnt},
      {"ngeom", m.ngeom},   {"nsensor", m.nsensor}, {"nsensordata", m.nsensordata},
      {"neq", m.neq},       {"ntendon", m.ntendon}};
  for (const auto& [key, value] : counts) {
    ASSERT_TRUE(info.values.count(key)) << key;
    EXPECT_EQ(std::to_string(value), info.values.at(key)) << key;
  }
  EXPECT_EQ(m.opt.integrator, info.values.at("integrator"));
  EXPECT_EQ(m.opt.timestep, std::stod(info.values.at("timestep")));
  ASSERT_EQ(static_cast<int>(info.joints.size()), m.njnt);
  for (int j = 0; j < m.njnt; ++j) EXPECT_EQ(JointLine(m, j), info.joints[j]);
  ASSERT_EQ(static_cast<int>(info.actuators.size()), m.nu);
  for (int a = 0; a < m.nu; ++a) EXPECT_EQ(ActuatorLine(m, a), info.actuators[a]);
  ASSERT_EQ(static_cast<int>(info.sensors.size()), m.nsensor);
  for (int s = 0; s < m.nsensor; ++s) EXPECT_EQ(SensorLine(m, s), info.sensors[s]);
}

// Files written for MuJoCo 2.x (no 3.x feature, so the equality velocity term is off by default)
// that MuJoCo's tests run under 3.12: recorded with the term, replayed with it enabled.
bool NeedsJdotv(const std::string& name) { return name == "mujoco/soft_weld"; }

// The largest relative state (qpos, qvel, act) and sensordata errors against the recorded
// MuJoCo 3.12.1 trajectory of `name` over its 200 steps, replaying the recorded controls.
struct TrajectoryError {
  double state = 0, sensor = 0;
};

TrajectoryError CompareTrajectory(const std::string& name, std::shared_ptr<Model> model,
                                  const Config& config = Config()) {
  if (Converged(name)) {
    model->opt.tolerance = 1e-15;
    model->opt.iterations = 1000;
  }
  const Engine engine(model, config);
  const Model& m = engine.model();
  Data d = engine.MakeData();
  const Table ref = ReadTable(ReferenceFile(name, ".run.csv"));
  EXPECT_EQ(ref.rows.size(), 201u);
  auto column = [&](const std::string& prefix, int i) {
    const int c = ref.Column(prefix + std::to_string(i));
    EXPECT_GE(c, 0) << prefix << i;
    return c;
  };
  TrajectoryError error;
  for (std::size_t k = 0; k < ref.rows.size(); ++k) {
    const std::vector<double>& row = ref.rows[k];
    for (int i = 0; i < m.nq; ++i) error.state = std::max(error.state, RelError(d.qpos[i], row[column("qpos", i)]));
    for (int i = 0; i < m.nv; ++i) error.state = std::max(error.state, RelError(d.qvel[i], row[column("qvel", i)]));
    for (int i = 0; i < m.na; ++i) error.state = std::max(error.state, RelError(d.act[i], row[column("act", i)]));
    if (k + 1 == ref.rows.size()) break;
    for (int i = 0; i < m.nu; ++i) d.ctrl[i] = row[column("ctrl", i)];
    engine.Step(d);
    // row k's sensors are those of state k with ctrl k, which the step evaluates
    for (int i = 0; i < m.nsensordata; ++i) {
      error.sensor = std::max(error.sensor, RelError(d.sensordata[i], row[column("sensordata", i)]));
    }
  }
  return error;
}

TEST_P(Mjcf3, TrajectoryMatchesMujoco312For200Steps) {
  const std::string name = GetParam();
  auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/" + name + ".xml")));
  if (NeedsJdotv(name)) model->opt.enableflags |= kEnableEqJdotv;
  const TrajectoryError error = CompareTrajectory(name, model);
  RecordProperty("max_state_error", Number(error.state));
  RecordProperty("max_sensor_error", Number(error.sensor));
  // builtin_mesh, builtin_shapes: MuJoCo keeps mesh vertices in single precision, Gauss in
  // double, so the generated vertices differ by up to 7e-8 (measured) and the inertias by ~3e-8
  // relative
  const double tolerance = name == "mujoco/tendon_dampratio" || name == "mujoco/car" ? 1e-6
                           : name == "builtin_mesh" || name == "builtin_shapes"      ? 1e-7
                           : name == "contact3"                                      ? 1e-8
                                                                                     : 1e-9;
  EXPECT_LE(error.state, tolerance) << name;
  EXPECT_LE(error.sensor, tolerance) << name;
}

// The equality velocity term (kEnableEqJdotv) is on by default exactly for files that use a
// MuJoCo 3.x feature, and it is what makes connect and weld constraints on rotating bodies
// agree with 3.12: without it (2.2.2's reference acceleration) the same files part from the
// recorded 3.12 trajectories by far more than the tolerance.
TEST(Mjcf3Jdotv, DefaultFollowsTheFileVersionAndTheTermIsWhat312Adds) {
  const auto soft = LoadModel(TestModel("mjcf3/mujoco/soft_weld.xml"));
  EXPECT_FALSE(soft->opt.Enabled(kEnableEqJdotv));  // a 2.x file: 2.2.2's results stay
  for (const std::string name : {"mujoco/connect", "mujoco/jdotv_connect_3d",
                                 "mujoco/jdotv_weld_3d", "mujoco/soft_weld"}) {
    auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/" + name + ".xml")));
    if (name != "mujoco/soft_weld") {
      EXPECT_TRUE(model->opt.Enabled(kEnableEqJdotv)) << name;
    }
    model->opt.enableflags &= ~kEnableEqJdotv;
    const TrajectoryError without = CompareTrajectory(name, model);
    RecordProperty("error_without_" + name.substr(7), Number(without.state));
    EXPECT_GT(without.state, 1e-6) << name;
  }
  // <flag eqjdotv> decides explicitly, whatever the file's version
  const std::string flag = "<mujoco><option><flag eqjdotv=\"disable\"/></option>"
                           "<worldbody><body><freejoint align=\"false\"/><geom size=\"1\"/>"
                           "</body></worldbody></mujoco>";
  EXPECT_FALSE(LoadModelFromString(flag)->opt.Enabled(kEnableEqJdotv));
  const std::string enable = "<mujoco><option><flag eqjdotv=\"enable\"/></option>"
                             "<worldbody/></mujoco>";
  EXPECT_TRUE(LoadModelFromString(enable)->opt.Enabled(kEnableEqJdotv));
}

// MuJoCo 3.12's refsite moment (kEnableRefsiteRot: the reference frame turns) is on by default
// in 3.x files and is what refsite_turn's recorded trajectory needs: with 2.2.2's moment the
// floating arm parts from 3.12 far beyond the tolerance; <flag refsiterot> decides explicitly.
TEST(Mjcf3RefsiteRot, DefaultFollowsTheFileVersionAndTheMomentIsWhat312Computes) {
  auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/refsite_turn.xml")));
  EXPECT_TRUE(model->opt.Enabled(kEnableRefsiteRot));
  EXPECT_FALSE(LoadModel(TestModel("actuation_zoo.xml"))->opt.Enabled(kEnableRefsiteRot));
  model->opt.enableflags &= ~kEnableRefsiteRot;
  const TrajectoryError without = CompareTrajectory("refsite_turn", model);
  RecordProperty("error_without", Number(without.state));
  EXPECT_GT(without.state, 1e-3);
  const std::string disable = "<mujoco><size memory=\"1M\"/><option><flag refsiterot=\"disable\"/>"
                              "</option><worldbody/></mujoco>";
  EXPECT_FALSE(LoadModelFromString(disable)->opt.Enabled(kEnableRefsiteRot));
}

// MuJoCo 3.12's weights of bodies that only slide along their own axes (SetConstants with
// sliding_bodies_by_mass, chosen by the file's version): such a body's translational weight and
// its dofs' are 1/mass, the other bodies keep 2.2.2's means; a 2.x file keeps 2.2.2's rule, and
// with it slide_weights parts from its recorded 3.12 trajectory far beyond the tolerance.
TEST(Mjcf3SlideWeights, SlidingBodiesWeighTheirMassAsIn312) {
  auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/slide_weights.xml")));
  const Model& m = *model;
  auto body = [&](const std::string& name) {
    for (int b = 0; b < m.nbody; ++b) {
      if (m.body_name[b] == name) return b;
    }
    ADD_FAILURE() << name;
    return 0;
  };
  for (const std::string name : {"z", "xz", "turned", "mounted"}) {
    const int b = body(name);
    EXPECT_DOUBLE_EQ(m.body_invweight0[2 * b], 1 / m.body_mass[b]) << name;
    EXPECT_EQ(m.body_invweight0[2 * b + 1], 0) << name;
    for (int i = m.body_dofadr[b]; i < m.body_dofadr[b] + m.body_dofnum[b]; ++i) {
      EXPECT_DOUBLE_EQ(m.dof_invweight0[i], 1 / m.body_mass[b]) << name;  // armature ignored
    }
  }
  // one slide among three directions: 2.2.2's mean, a third of the sliding weight
  for (const std::string name : {"tilted", "offset", "anchored"}) {
    const int b = body(name);
    EXPECT_NEAR(m.body_invweight0[2 * b], 1 / (3 * m.body_mass[b]), 1e-15) << name;
  }
  EXPECT_LT(m.body_invweight0[2 * body("parent")], 0.5 / m.body_mass[body("parent")]);
  // the same bodies in a 2.x file (no `size memory`) keep 2.2.2's weights
  const std::string two = "<mujoco><worldbody><body><joint type=\"slide\" axis=\"0 0 1\"/>"
                          "<geom size=\"0.1\"/></body></worldbody></mujoco>";
  const auto old = LoadModelFromString(two);
  EXPECT_NEAR(old->body_invweight0[2], 1 / (3 * old->body_mass[1]), 1e-15);
  // 2.2.2's weights in the 3.x file: the recorded 3.12 trajectory is lost
  SetConstants(*model, /*sliding_bodies_by_mass=*/false);
  const TrajectoryError without = CompareTrajectory("slide_weights", model);
  RecordProperty("error_without", Number(without.state));
  EXPECT_GT(without.state, 1e-4);
}

// MuJoCo 3.12 warm-starts every Runge-Kutta stage from the step's warmstart (rk4 parameter
// `warmstart`, `auto` = `step` for a 3.x file, whose islands are on): with 2.2.2's stage-by-stage
// warmstart, rk4_warmstart (pgs stopped after 3 sweeps) parts from its recorded 3.12 trajectory.
TEST(Mjcf3Rk4Warmstart, StagesStartFromTheStepsWarmstartAsIn312) {
  auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/rk4_warmstart.xml")));
  EXPECT_TRUE(model->opt.Enabled(kEnableIsland));
  Config step, stage;
  step.integrator_params.Set("warmstart", "step");
  stage.integrator_params.Set("warmstart", "stage");
  EXPECT_LE(CompareTrajectory("rk4_warmstart", model, step).state, 1e-9);
  const TrajectoryError without = CompareTrajectory("rk4_warmstart", model, stage);
  RecordProperty("error_without", Number(without.state));
  EXPECT_GT(without.state, 1e-6);
}

// The procedural meshes' vertex sets (<mesh builtin>, core/src/mjcf/builtin_mesh.cc): every mesh
// of builtin_vertices.xml generated by Gauss equals, vertex by vertex in MuJoCo's order, what
// MuJoCo 3.12.1 generated (builtin_vertices.csv, recorded by regen.sh), to MuJoCo's single
// precision: 2.5e-7 absolute on coordinates of magnitude <= 1.3 (float spacing 1.2e-7 there,
// plus the round-off of mapping MuJoCo's stored vertices back to the generator's frame).
TEST(Mjcf3BuiltinMesh, VertexSetsMatchMujoco312) {
  const mjcf::XmlElement root = mjcf::ReadXmlFile(TestModel("mjcf3/builtin_vertices.xml"));
  std::map<std::string, std::vector<double>> reference;  // mesh name -> x y z ...
  std::ifstream in(ReferenceFile("builtin_vertices", ".csv"));
  ASSERT_TRUE(in);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string name, cell;
    std::getline(row, name, ',');
    while (std::getline(row, cell, ',')) reference[name].push_back(std::stod(cell));
  }
  int meshes = 0;
  for (const mjcf::XmlElement& section : root.children) {
    if (section.name != "asset") continue;
    for (const mjcf::XmlElement& e : section.children) {
      mjcf::MeshSpec mesh;
      mjcf::ReadBuiltinMesh(e, &mesh);
      const std::string name = *e.Find("name");
      ASSERT_TRUE(reference.count(name)) << name;
      const std::vector<double>& want = reference.at(name);
      ASSERT_EQ(mesh.vertex.size(), want.size()) << name;
      double worst = 0;
      for (std::size_t i = 0; i < want.size(); ++i) {
        worst = std::max(worst, std::fabs(mesh.vertex[i] - want[i]));
      }
      EXPECT_LE(worst, 2.5e-7) << name;
      RecordProperty("max_error_" + name, Number(worst));
      ++meshes;
    }
  }
  EXPECT_EQ(meshes, static_cast<int>(reference.size()));
}

// Discrete-time inverse dynamics (flag invdiscrete, set by invdiscrete.xml): for 30 recorded
// states and accelerations (regen.sh: invdiscrete.fwd.csv), qfrc_inverse equals MuJoCo 3.12.1's
// mj_inverse under each single-step integrator (invdiscrete.<integrator>.csv) to 1e-9 relative,
// and the integrators' conversions differ from one another by far more than that.
TEST(Mjcf3InvDiscrete, InverseDynamicsMatchesMujoco312ForEverySingleStepIntegrator) {
  const Table states = ReadTable(ReferenceFile("invdiscrete", ".fwd.csv"));
  ASSERT_EQ(states.rows.size(), 30u);
  std::vector<double> euler_forces;
  for (const std::string integrator : {"euler", "implicit", "implicitfast"}) {
    auto model = std::make_shared<Model>(*LoadModel(TestModel("mjcf3/invdiscrete.xml")));
    ASSERT_TRUE(model->opt.Enabled(kEnableInvDiscrete));
    model->opt.integrator = integrator;
    const Engine engine(model);
    const Model& m = engine.model();
    const Table ref = ReadTable(ReferenceFile("invdiscrete", "." + integrator + ".csv"));
    ASSERT_EQ(ref.rows.size(), states.rows.size());
    double worst = 0, from_euler = 0;
    for (std::size_t k = 0; k < states.rows.size(); ++k) {
      const std::vector<double>& row = states.rows[k];
      Data d = engine.MakeData();
      for (int i = 0; i < m.nq; ++i) d.qpos[i] = row[states.Column("qpos" + std::to_string(i))];
      for (int i = 0; i < m.nv; ++i) {
        d.qvel[i] = row[states.Column("qvel" + std::to_string(i))];
        d.qacc[i] = row[states.Column("qacc" + std::to_string(i))];
      }
      for (int i = 0; i < m.nu; ++i) d.ctrl[i] = row[states.Column("ctrl" + std::to_string(i))];
      engine.Inverse(d);
      for (int i = 0; i < m.nv; ++i) {
        const double want = ref.rows[k][ref.Column("qfrc_inverse" + std::to_string(i))];
        worst = std::max(worst, RelError(d.qfrc_inverse[i], want));
        if (integrator == "euler") {
          euler_forces.push_back(want);
        } else {
          from_euler = std::max(from_euler, RelError(euler_forces[k * m.nv + i], want));
        }
      }
    }
    RecordProperty("max_error_" + integrator, Number(worst));
    EXPECT_LE(worst, 1e-9) << integrator;
    if (integrator != "euler") {
      EXPECT_GT(from_euler, 1e-3) << integrator;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, Mjcf3,
                         ::testing::Values("servo", "frames", "sites", "mujoco/dampratio",
                                           "mujoco/tendon_dampratio", "mujoco/car", "replicate",
                                           "mujoco/newton_cradle", "gravcomp", "deadband",
                                           "sensors3", "attach", "builtin_mesh", "align",
                                           "tendon_armature", "contact3", "actearly3",
                                           "mujoco/ten_armature_1", "mujoco/ten_armature_3",
                                           "mujoco/tendon_force_clamp", "mujoco/actearly",
                                           "builtin_shapes", "contact_sensor", "actfrcrange",
                                           "actfrcrange_implicit", "actfrcrange_free",
                                           "actgroup", "mujoco/actuator_group_disable",
                                           "mujoco/connect",
                                           "mujoco/jdotv_connect_3d", "mujoco/jdotv_weld_3d",
                                           "mujoco/soft_weld", "cameras", "mujoco/freejoint",
                                           "refsite_turn", "site_weld", "poly_stiffness",
                                           "actgravcomp", "eulerdamp", "tausmooth", "box_stack",
                                           "margin_gap", "geom_distance", "slide_weights",
                                           "rk4_warmstart", "rangefinder_camera", "adhesion",
                                           "adhesion_elliptic"));

}  // namespace
}  // namespace gauss::test

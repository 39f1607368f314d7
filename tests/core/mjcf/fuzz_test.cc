// Fuzzing the MJCF loader: real model files are mutated (truncated, bytes flipped, attributes
// deleted or duplicated, numbers replaced by hostile values, tags broken) and each mutant must
// either load or throw gauss::Error -- never crash, hang or throw anything else. The generator
// is seeded, so a failure is reproducible from the printed seed and mutation index. Build with
// -DGAUSS_SANITIZE=ON to run it under AddressSanitizer and UBSan.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gauss/error.h"
#include "gauss/mjcf.h"
#include "support/test_support.h"

namespace gauss {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Positions of every attribute ` name="value"` in the text: (start, length).
std::vector<std::pair<std::size_t, std::size_t>> Attributes(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t eq = text.find("=\""); eq != std::string::npos; eq = text.find("=\"", eq + 2)) {
    std::size_t start = eq;
    while (start > 0 && text[start - 1] != ' ' && text[start - 1] != '\n' &&
           text[start - 1] != '\t')
      --start;
    const std::size_t end = text.find('"', eq + 2);
    if (start == 0 || end == std::string::npos) continue;
    out.emplace_back(start - 1, end + 1 - (start - 1));
  }
  return out;
}

// One random mutation of `text`.
std::string Mutate(const std::string& text, std::mt19937* rng) {
  auto pick = [&](std::size_t n) {
    return n ? std::uniform_int_distribution<std::size_t>(0, n - 1)(*rng) : 0;
  };
  std::string t = text;
  const auto attrs = Attributes(t);
  static const char* hostile[] = {"nan",
                                  "inf",
                                  "-inf",
                                  "1e999",
                                  "-1",
                                  "0",
                                  "1e-320",
                                  "",
                                  " ",
                                  "abc",
                                  "1 2 3 4 5 6 7 8 9 10 11 12",
                                  "-99999999999",
                                  "0x10",
                                  "2147483648",
                                  "true",
                                  "\"",
                                  "&amp;",
                                  "-0",
                                  "1e308 1e308 1e308"};
  switch (pick(8)) {
    case 0:  // truncate
      t.resize(pick(t.size()));
      break;
    case 1:  // flip a few bytes
      for (int k = 0, n = 1 + static_cast<int>(pick(4)); k < n && !t.empty(); ++k) {
        t[pick(t.size())] = static_cast<char>(pick(256));
      }
      break;
    case 2:  // delete an attribute
      if (!attrs.empty()) {
        const auto [start, len] = attrs[pick(attrs.size())];
        t.erase(start, len);
      }
      break;
    case 3:  // duplicate an attribute
      if (!attrs.empty()) {
        const auto [start, len] = attrs[pick(attrs.size())];
        t.insert(start + len, t.substr(start, len));
      }
      break;
    case 4:  // replace a value by a hostile one
      if (!attrs.empty()) {
        const auto [start, len] = attrs[pick(attrs.size())];
        const std::size_t q = t.find('"', start);
        t.replace(q + 1, start + len - 1 - (q + 1),
                  hostile[pick(sizeof(hostile) / sizeof(*hostile))]);
      }
      break;
    case 5: {  // delete a chunk of text
      const std::size_t at = pick(t.size());
      t.erase(at, pick(200));
      break;
    }
    case 6: {  // duplicate a chunk of text (elements, half tags, ...)
      const std::size_t at = pick(t.size());
      t.insert(pick(t.size()), t.substr(at, pick(300)));
      break;
    }
    default: {  // swap two attribute values
      if (attrs.size() >= 2) {
        const auto a = attrs[pick(attrs.size())];
        const auto b = attrs[pick(attrs.size())];
        if (a.first != b.first) {
          const std::string va =
              t.substr(t.find('"', a.first), a.first + a.second - t.find('"', a.first));
          const std::size_t qb = t.find('"', b.first);
          const std::string vb = t.substr(qb, b.first + b.second - qb);
          if (a.first < b.first) {
            t.replace(qb, vb.size(), va);
            t.replace(t.find('"', a.first), va.size(), vb);
          }
        }
      }
    }
  }
  return t;
}

std::vector<std::string> Seeds() {
  std::vector<std::string> seeds = test::GymnasiumModels();
  for (const char* name : {"compile_actuators.xml", "compile_defaults.xml", "compile_equality.xml",
                           "compile_global.xml", "compile_sensors.xml", "compile_tendons.xml",
                           "compile_keyframes.xml", "compile_contact.xml", "compile_include.xml",
                           "compile_orientations.xml", "compile_inertial.xml"}) {
    seeds.push_back(test::TestModel(name));
  }
  seeds.push_back(test::TestModel("mujoco/humanoid/humanoid.xml"));
  seeds.push_back(test::TestModel("mujoco/slider_crank/slider_crank.xml"));
  seeds.push_back(test::TestModel("mujoco/tendon_arm/arm26.xml"));
  return seeds;
}

TEST(MjcfFuzz, MutatedModelsLoadOrThrowGaussError) {
  // GAUSS_FUZZ_MUTANTS raises the count for long runs (e.g. under the sanitizers)
  const char* env = std::getenv("GAUSS_FUZZ_MUTANTS");
  const int kMutantsPerSeed = env ? std::max(1, std::atoi(env)) : 300;
  int loaded = 0, refused = 0;
  for (const std::string& path : Seeds()) {
    const std::string text = ReadFile(path);
    ASSERT_FALSE(text.empty()) << path;
    std::mt19937 rng(12345);
    for (int i = 0; i < kMutantsPerSeed; ++i) {
      std::string mutant = Mutate(text, &rng);
      if (i % 3 == 2) mutant = Mutate(mutant, &rng);  // some double mutations
      try {
        LoadModelFromString(mutant, path);  // the real path: includes still resolve
        ++loaded;
      } catch (const Error&) {
        ++refused;
      } catch (const std::exception& e) {
        ADD_FAILURE() << path << " mutant " << i << " threw a non-gauss exception: " << e.what()
                      << "\n--- mutant ---\n"
                      << mutant;
      }
    }
  }
  // both outcomes must occur, or the mutations are not exercising the loader
  EXPECT_GT(loaded, kMutantsPerSeed / 3);
  EXPECT_GT(refused, 3 * kMutantsPerSeed);
  std::cout << "  fuzz: " << loaded << " mutants loaded, " << refused << " refused\n";
}

}  // namespace
}  // namespace gauss

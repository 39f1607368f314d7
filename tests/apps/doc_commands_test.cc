// Every command the README and docs/*.md show runs verbatim from the repository root, and every
// YAML snippet they show is accepted by the program it is written for.
//
// Rules (also in docs/cli.md, "Commands in the docs"):
//  - In ```sh blocks, each line (with its `\` continuations) that starts with `build/bin/gauss `
//    is run with /bin/sh from a scratch copy of the repository root (models/, config/, docs/,
//    examples/ and tests/ linked, build/ pointing at this build), in document order, so a
//    command may read a file an earlier command of the same document wrote. It must exit 0.
//    A line starting with a bare `gauss ` in a ```sh block is an error: it does not run from
//    the repository root.
//  - `<!-- doc-test: append ARGS -->` right before a block appends ARGS to each of its commands
//    (to shorten long experiments in the test; the command shown must still run as shown).
//  - `<!-- doc-test: run-by SCRIPT -->` right before a block hands it to SCRIPT, a test of the
//    suite that runs the same steps (e.g. installing Gauss and building the example plugins);
//    SCRIPT must exist.
//  - ```yaml blocks: in experiments.md, a block with `models:` is an experiment file (checked
//    with `gauss experiment --dry-run`, written two folders below the root so that
//    ../../models resolves), a block without is a part of one (given a model and a length
//    first); in config.md, a block is a configuration file for `gauss run --config`.
//  - plugin-authoring.md's blocks build against an installed SDK in another folder: they are
//    marked run-by tests/install/examples_test.sh, which installs Gauss, builds the example
//    plugins and runs them with the installed gauss.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "cli_harness.h"
#include "support/test_support.h"

namespace gauss::test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = GAUSS_SOURCE_DIR;

struct Block {
  std::string file;
  int line = 0;          // of the opening fence
  std::string language;  // after ```
  std::string text;
  std::string append;    // from a doc-test marker
  std::string run_by;    // from a doc-test marker
};

// (markdown file) => its fenced code blocks.
std::vector<Block> Blocks(const std::string& path) {
  std::vector<Block> out;
  std::ifstream in(path);
  std::string line, append, run_by;
  int number = 0;
  Block* open = nullptr;
  const std::regex marker("<!-- doc-test: append (.*) -->");
  const std::regex run_by_marker("<!-- doc-test: run-by (.*) -->");
  while (std::getline(in, line)) {
    ++number;
    if (open == nullptr) {
      std::smatch m;
      if (std::regex_search(line, m, marker)) append = m[1];
      if (std::regex_search(line, m, run_by_marker)) run_by = m[1];
      if (line.rfind("```", 0) == 0) {
        out.push_back({fs::path(path).filename().string(), number, line.substr(3), "", append, run_by});
        open = &out.back();
        append.clear();
        run_by.clear();
      } else if (!line.empty() && line.rfind("<!--", 0) != 0) {
        append.clear();  // a marker applies to the block right after it
        run_by.clear();
      }
      continue;
    }
    if (line.rfind("```", 0) == 0) {
      open = nullptr;
      continue;
    }
    open->text += line + "\n";
  }
  return out;
}

// (sh block) => its commands, continuation lines joined.
std::vector<std::string> Commands(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line, current;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\\') {
      current += line.substr(0, line.size() - 1);
      continue;
    }
    current += line;
    const std::size_t start = current.find_first_not_of(' ');
    if (start != std::string::npos) out.push_back(current.substr(start));
    current.clear();
  }
  return out;
}

std::vector<std::string> DocFiles() {
  std::vector<std::string> files = {kSource + "/README.md"};
  for (const auto& entry : fs::directory_iterator(kSource + "/docs")) {
    if (entry.path().extension() == ".md") {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin() + 1, files.end());
  return files;
}

// A scratch repository root: the source folders linked, build/ = this build tree.
std::string ScratchRoot(const std::string& name) {
  const std::string root = ScratchDir() + "/" + name;
  fs::create_directories(root);
  for (const char* dir : {"models", "config", "docs", "examples", "tests"}) {
    fs::create_directory_symlink(kSource + "/" + dir, root + "/" + dir);
  }
  fs::create_directory_symlink(fs::path(BinaryDir()).parent_path(), root + "/build");
  return root;
}

// Runs `command` with /bin/sh in `dir`; returns the exit status, output in `log`.
int Shell(const std::string& dir, const std::string& command, std::string* log) {
  const std::string out = ScratchDir() + "/.log";
  const std::string wrapped = "cd '" + dir + "' && { " + command + "\n} >'" + out + "' 2>&1";
  const int raw = std::system(wrapped.c_str());
  *log = ReadFile(out);
  return raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

TEST(DocCommands, EveryGaussCommandRunsFromTheRepositoryRoot) {
  int ran = 0;
  for (const std::string& path : DocFiles()) {
    const std::string root = ScratchRoot(fs::path(path).stem().string());
    for (const Block& b : Blocks(path)) {
      if (b.language != "sh") continue;
      if (!b.run_by.empty()) {
        EXPECT_TRUE(fs::exists(kSource + "/" + b.run_by)) << b.file << ":" << b.line << ": " << b.run_by;
        continue;
      }
      for (std::string command : Commands(b.text)) {
        if (command.rfind("gauss ", 0) == 0) {
          ADD_FAILURE() << b.file << ":" << b.line << ": '" << command
                        << "' does not run from the repository root; write build/bin/gauss";
        }
        if (command.rfind("build/bin/gauss ", 0) != 0) continue;
        if (!b.append.empty()) {
          // before a trailing comment or pipe, so that the arguments reach gauss
          const std::size_t cut = command.find_first_of("#|");
          command.insert(cut == std::string::npos ? command.size() : cut, " " + b.append + " ");
        }
        std::string log;
        const int status = Shell(root, command, &log);
        EXPECT_EQ(status, 0) << b.file << ":" << b.line << ": " << command << "\n" << log;
        ++ran;
      }
    }
  }
  EXPECT_GE(ran, 10) << "the docs show fewer commands than expected: is the extraction broken?";
}

TEST(DocCommands, EveryYamlSnippetIsAccepted) {
  const std::string root = ScratchRoot("yaml");
  int checked = 0;
  for (const std::string& path : DocFiles()) {
    const std::string doc = fs::path(path).filename().string();
    if (doc != "experiments.md" && doc != "config.md") continue;
    for (const Block& b : Blocks(path)) {
      if (b.language != "yaml") continue;
      const std::string where = doc + ":" + std::to_string(b.line);
      const std::string dir = root + "/snippets/" + std::to_string(b.line);
      fs::create_directories(dir);
      std::string command;
      if (doc == "config.md") {
        std::ofstream(dir + "/config.yaml") << b.text;
        command = "build/bin/gauss run models/pendulum.xml --steps 2 --config '" + dir + "/config.yaml'";
      } else {
        const bool whole = b.text.find("models:") != std::string::npos;
        std::ofstream(dir + "/exp.yaml")
            << (whole ? "" : "models: [../../models/damped_chain.xml]\nsteps: 5\n") << b.text;
        command = "build/bin/gauss experiment '" + dir + "/exp.yaml' --dry-run";
      }
      std::string log;
      EXPECT_EQ(Shell(root, command, &log), 0) << where << "\n" << b.text << "\n" << log;
      ++checked;
    }
  }
  EXPECT_GE(checked, 3);
}

}  // namespace
}  // namespace gauss::test

// The `gauss` command-line program: subcommand dispatch, top-level --help / --version, and the
// single place where failures become exit statuses.
//
// Exit status: 0 success; 1 bad input or a failure while running (gauss::Error and anything
// else thrown), with the message on stderr; 2 wrong use of the command line.
#include <cstring>
#include <exception>
#include <new>
#include <iostream>
#include <string>
#include <vector>

#include "common.h"
#include "gauss/crash_report.h"
#include "gauss/error.h"

namespace {

struct Subcommand {
  const char* name;
  gauss::cli::Command run;
  const char* summary;
};

const Subcommand kSubcommands[] = {
    {"run", gauss::cli::RunCommand, "simulate a model and write its trajectory as CSV"},
    {"forward", gauss::cli::ForwardCommand, "forward dynamics (qacc) of each state of a CSV file"},
    {"inverse", gauss::cli::InverseCommand, "inverse dynamics (qfrc_inverse) of each state and qacc"},
    {"derivatives", gauss::cli::DerivativesCommand,
     "finite-difference transition Jacobians (A, B, C, D) of one step at each state of a CSV file"},
    {"trajopt", gauss::cli::TrajoptCommand,
     "optimize a control sequence with iLQR on finite-difference Jacobians (YAML problem)"},
    {"bench", gauss::cli::BenchCommand, "measure simulation speed (steps per second)"},
    {"plugins", gauss::cli::PluginsCommand, "list the plugins found on the search path"},
    {"experiment", gauss::cli::ExperimentCommand,
     "run a parameter sweep in parallel: results.csv, traces and plots"},
    {"view", gauss::cli::ViewCommand, "show a model and trajectories in a web browser"},
};

// The plugin call an exception left, as "solver plugin 'x' (stage: constraint solve)".
std::string ThrowerText() {
  const gauss::PluginCall* call = gauss::LastThrowingPluginCall();
  if (!call) return "the program (outside any plugin call)";
  std::string text = std::string(call->kind) + " plugin";
  if (call->name) text += std::string(" '") + call->name + "'";
  return text + " (stage: " + call->stage + ")";
}

void PrintUsage(std::ostream& out) {
  out << "usage: gauss <command> [options]     (gauss <command> --help for details)\n\n"
         "Gauss " << gauss::cli::Version() << ", a multi-joint physics engine with contact.\n\n"
         "commands:\n";
  for (const auto& c : kSubcommands) {
    out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
  }
  out << "\noptions:\n"
         "  -h [ --help ]  show this help and exit\n"
         "  --version      print the version and exit\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(std::cerr);
    return 2;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    PrintUsage(std::cout);
    return 0;
  }
  if (first == "--version") {
    std::cout << "gauss " << gauss::cli::Version() << "\n";
    return 0;
  }
  const Subcommand* command = nullptr;
  for (const auto& c : kSubcommands) {
    if (first == c.name) command = &c;
  }
  if (command == nullptr) {
    std::cerr << "gauss: unknown command '" << first << "'\n\n";
    PrintUsage(std::cerr);
    return 2;
  }
  const std::vector<std::string> args(argv + 2, argv + argc);
  gauss::InstallCrashReport("gauss");  // a crash names the plugin and stage that was running
  try {
    return command->run(args);
  } catch (const gauss::cli::UsageError& e) {
    std::cerr << "gauss " << command->name << ": " << e.what() << "\n"
              << "Try 'gauss " << command->name << " --help'.\n";
    return 2;
  } catch (const gauss::Error& e) {
    std::cerr << "gauss " << command->name << ": error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "gauss " << command->name << ": error: out of memory (the input asks for more "
                 "memory than this machine can give; see the size limits in docs/cli.md)\n";
    return 1;
  } catch (const std::exception& e) {
    // Not expected from bad input (that is gauss::Error), but still a message, not a crash.
    std::cerr << "gauss " << command->name << ": internal error: " << e.what() << "\n";
    return 1;
  } catch (...) {
    // Only plugin code throws something that is not a std::exception (e.g. `throw 42`).
    std::cerr << "gauss " << command->name << ": error: " << ThrowerText()
              << " threw an exception that is not a std::exception\n";
    return 1;
  }
}

// `gauss plugins`: the plugins the registry finds, as a table (kind, name, version, file,
// description), after the directories searched, then every file skipped and why. plugins.paths from --config/--set are searched
// first, exactly as a simulation with the same configuration would search them.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "common.h"
#include "gauss/registry.h"

namespace gauss::cli {
namespace {

const char* kUsage =
    "usage: gauss plugins [--config CFG.yaml] [--set plugins.paths=DIR,...]\n\n"
    "Lists every plugin found on the search path: plugins.paths, GAUSS_PLUGIN_PATH, the build\n"
    "tree and the install prefix, in that order.";

// Pads `text` to `width` columns.
std::string Pad(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

int PluginsCommand(const std::vector<std::string>& argv) {
  CommonArgs args;
  po::options_description desc("Options");
  AddConfigOptions(desc, args);
  po::variables_map vm;
  if (!ParseCommandLine(argv, kUsage, desc, false, args, vm)) return 0;
  const Config config = BuildConfig(args);

  PluginRegistry registry;
  for (const auto& dir : config.plugin_paths) registry.AddSearchPath(dir);
  std::printf("search path:\n");
  for (const auto& dir : registry.SearchPaths()) std::printf("  %s\n", dir.c_str());

  std::vector<PluginInfo> plugins = registry.List();
  std::sort(plugins.begin(), plugins.end(), [](const PluginInfo& a, const PluginInfo& b) {
    return a.kind != b.kind ? a.kind < b.kind : a.name < b.name;
  });
  const std::vector<std::string> head = {"KIND", "NAME", "VERSION", "FILE", "DESCRIPTION"};
  std::vector<std::vector<std::string>> rows;
  for (const auto& p : plugins) {
    rows.push_back({PluginKindName(p.kind), p.name, p.version.empty() ? "?" : p.version, p.file,
                    p.description});
  }
  // Column widths from the content; the last column is not padded.
  std::vector<size_t> width(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      line += c + 1 < row.size() ? Pad(row[c], width[c] + 2) : row[c];
    }
    std::printf("%s\n", line.c_str());
  };
  std::printf("\n");
  print_row(head);
  for (const auto& row : rows) print_row(row);
  std::printf("\n%zu plugins\n", plugins.size());
  // after List(): files that crashed or hung while loading in a probe process are known now
  const std::vector<std::string> skipped = registry.Skipped();
  if (!skipped.empty()) {
    std::printf("\nskipped files (%zu):\n", skipped.size());
    for (const auto& line : skipped) std::printf("  %s\n", line.c_str());
  }

  // what each usable plugin declares in its entry
  for (const auto& p : plugins) {
    if (!p.usable) continue;
    std::printf("\n%s %s\n  capabilities: %s\n", PluginKindName(p.kind), p.name.c_str(),
                DescribeCapabilities(p.capabilities).c_str());
    std::printf("  parameters:%s\n", p.params.count == 0 ? " none" : "");
    for (int k = 0; k < p.params.count; ++k) {
      std::printf("    %s\n", DescribeParam(p.params.specs[k]).c_str());
    }
  }
  return 0;
}

}  // namespace gauss::cli

// asc_conformance: runs ONNX's backend test data through the onnx parser and the reference
// backend and reports, per operator and per suite, what passes. See README.md.
#include <algorithm>
#include <asc/host/plugin_host.hpp>
#include <asc/sdk/error.hpp>
#include <asc/sdk/log.hpp>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "case_runner.hpp"
#include "child_processes.hpp"
#include "expected_list.hpp"
#include "model_facts.hpp"
#include "out_of_scope.hpp"
#include "report.hpp"
#include "test_case.hpp"

namespace po = boost::program_options;
using namespace asc::conformance;

namespace {

constexpr const char* kRequiredPlugins[] = {"parser_onnx", "ops_builtin", "backend_reference"};

struct Options {
  std::filesystem::path data_dir;
  std::filesystem::path plugin_dir;
  std::filesystem::path out_of_scope;
  std::vector<std::string> suites;
  std::optional<std::regex> filter;
  int jobs = 2;
  int timeout_seconds = 30;
  bool list_failures = false;
  std::optional<std::filesystem::path> expected;
  std::optional<std::filesystem::path> write_expected;
};

// The build tree and the install tree share the layout bin/ + lib/asc/plugins/.
std::filesystem::path default_plugin_dir() {
  return std::filesystem::canonical("/proc/self/exe").parent_path().parent_path() / "lib" / "asc" / "plugins";
}

std::vector<std::string> split_suites(const std::vector<std::string>& values) {
  std::vector<std::string> suites;
  for (const std::string& value : values) {
    std::stringstream stream(value);
    for (std::string suite; std::getline(stream, suite, ',');) {
      if (suite.empty()) continue;
      if (std::find(kAllSuites.begin(), kAllSuites.end(), suite) == kAllSuites.end())
        throw po::error("unknown suite '" + suite + "' (node, simple, pytorch-converted, pytorch-operator)");
      suites.push_back(suite);
    }
  }
  return suites.empty() ? kAllSuites : suites;
}

// std::nullopt after --help.
std::optional<Options> parse_options(int argc, char** argv) {
  po::options_description described("asc_conformance [options]");
  std::string data_dir, plugin_dir, out_of_scope, filter, expected, write_expected;
  std::vector<std::string> suites;
  Options options;
  described.add_options()("help,h", "show this help")(
      "filter", po::value(&filter), "run only tests whose id (suite/test_name) matches this regex")(
      "suite", po::value(&suites)->composing(),
      "node, simple, pytorch-converted, pytorch-operator (repeatable or comma-separated; default all)")(
      "list-failures", po::bool_switch(&options.list_failures),
      "print only the failed and unsupported tests with their full reasons")(
      "expected", po::value(&expected), "ids that must pass; exit 1 naming each selected one that does not")(
      "write-expected", po::value(&write_expected), "write the ids that passed to this file (sorted)")(
      "jobs,j", po::value(&options.jobs)->default_value(2), "tests run in parallel (one process each)")(
      "timeout", po::value(&options.timeout_seconds)->default_value(30),
      "seconds before one test counts as hung")(
      "data-dir", po::value(&data_dir)->default_value("/usr/include/onnx/backend/test/data"),
      "ONNX backend test data")("plugin-dir", po::value(&plugin_dir),
                                "where parser_onnx.so, ops_builtin.so and backend_reference.so are "
                                "(default: <bin>/../lib/asc/plugins)")(
      "out-of-scope", po::value(&out_of_scope)->default_value(ASC_CONFORMANCE_SOURCE_DIR "/out_of_scope.txt"),
      "the out-of-scope operator families");
  po::variables_map values;
  po::store(po::parse_command_line(argc, argv, described), values);
  po::notify(values);
  if (values.count("help") != 0) {
    std::cout << described;
    return std::nullopt;
  }
  options.data_dir = data_dir;
  options.plugin_dir = plugin_dir.empty() ? default_plugin_dir() : std::filesystem::path(plugin_dir);
  options.out_of_scope = out_of_scope;
  options.suites = split_suites(suites);
  if (!filter.empty()) options.filter.emplace(filter);
  if (!expected.empty()) options.expected = expected;
  if (!write_expected.empty()) options.write_expected = write_expected;
  if (options.jobs < 1 || options.timeout_seconds < 1)
    throw po::error("--jobs and --timeout must be at least 1");
  return options;
}

std::string encode(const CaseResult& result) {
  return std::to_string(static_cast<int>(result.outcome)) + "\n" + result.reason;
}

CaseResult decode(const std::string& payload) {
  const auto newline = payload.find('\n');
  if (newline != 1 || payload[0] < '0' || payload[0] > '3')
    return {Outcome::Failed, "garbled result: " + payload};
  return {static_cast<Outcome>(payload[0] - '0'), payload.substr(2)};
}

// Labels every test and settles the out-of-scope ones; the rest are left to run.
std::vector<TestRecord> classify(const std::vector<TestCase>& tests,
                                 const std::vector<OutOfScopeFamily>& families) {
  std::vector<TestRecord> records;
  const std::string expanded_suffix = "_expanded";
  for (const TestCase& test : tests) {
    TestRecord record{test, "?", {}};
    try {
      const ModelFacts facts = read_model_facts(test.dir / "model.onnx");
      record.label = operator_label(facts, test.name);
      // An expanded test runs the function body of the operator its sibling test names.
      const bool expanded = test.name.size() > expanded_suffix.size() &&
                            test.name.compare(test.name.size() - expanded_suffix.size(), std::string::npos,
                                              expanded_suffix) == 0;
      const std::string sibling = test.name.substr(0, test.name.size() - expanded_suffix.size());
      const std::filesystem::path sibling_model = test.dir.parent_path() / sibling / "model.onnx";
      if (expanded && std::filesystem::exists(sibling_model))
        record.label = operator_label(read_model_facts(sibling_model), sibling) + " (expanded)";
      if (const OutOfScopeFamily* family = find_out_of_scope_family(families, facts))
        record.result = {Outcome::OutOfScope, "family " + family->name + ": " + family->reason};
    } catch (const std::exception& e) {
      record.result = {Outcome::Failed, e.what()};
    }
    records.push_back(std::move(record));
  }
  return records;
}

void run_selected(std::vector<TestRecord>& records, const asc::Registry& registry, const Options& options) {
  std::vector<std::size_t> to_run;
  for (std::size_t i = 0; i < records.size(); ++i)
    if (records[i].label != "?" && records[i].result.outcome != Outcome::OutOfScope) to_run.push_back(i);
  asc::Progress progress("conformance", static_cast<std::int64_t>(to_run.size()), asc::stderr_is_terminal());
  run_in_children(
      to_run.size(), options.jobs, std::chrono::seconds(options.timeout_seconds),
      [&](std::size_t i) { return encode(run_test_case(records[to_run[i]].test, registry, Tolerance{})); },
      [&](std::size_t i, ChildReport report) {
        records[to_run[i]].result =
            report.finished ? decode(report.payload) : CaseResult{Outcome::Failed, report.failure};
        progress.advance();
      });
}

// Returns the number of regressions (expected ids among the selected tests that did not pass,
// or that no longer exist).
int check_expected(const std::filesystem::path& file, const std::vector<TestRecord>& records,
                   const Options& options) {
  std::map<std::string, const TestRecord*> by_id;
  for (const TestRecord& record : records) by_id[record.test.id()] = &record;
  int regressions = 0;
  for (const std::string& id : read_expected_list(file)) {
    const auto found = by_id.find(id);
    if (found == by_id.end()) {
      const auto slash = id.find('/');
      const bool selected_suite =
          slash != std::string::npos && std::find(options.suites.begin(), options.suites.end(),
                                                  id.substr(0, slash)) != options.suites.end();
      const bool exists = std::filesystem::exists(options.data_dir / id / "model.onnx");
      if (!exists && selected_suite && !options.filter) {
        std::cout << "REGRESSION " << id << ": listed in " << file.string() << " but no such test exists\n";
        ++regressions;
      }
      continue;
    }
    if (found->second->result.outcome == Outcome::Passed) continue;
    std::cout << "REGRESSION " << id << " [" << found->second->label << "]: " << found->second->result.reason
              << "\n";
    ++regressions;
  }
  return regressions;
}

int run(const Options& options) {
  asc::set_log_level(asc::LogLevel::Error);
  const auto started = std::chrono::steady_clock::now();

  asc::host::PluginHost plugins({options.plugin_dir});
  for (const char* name : kRequiredPlugins)
    plugins.load_file(options.plugin_dir / (std::string(name) + ".so"));

  const std::vector<OutOfScopeFamily> families = load_out_of_scope(options.out_of_scope);
  std::vector<TestRecord> records =
      classify(discover_test_cases(options.data_dir, options.suites, options.filter), families);
  run_selected(records, plugins.registry(), options);

  if (options.list_failures) {
    print_failures(std::cout, records, true);
  } else {
    print_operator_table(std::cout, records);
    std::cout << "\n";
    print_suite_totals(std::cout, records);
    std::cout << "\n";
    print_failures(std::cout, records, false);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << records.size() << " tests in " << std::fixed << std::setprecision(1) << seconds << " s ("
            << options.jobs << " jobs)\n";

  if (options.write_expected) {
    std::set<std::string> passed;
    for (const TestRecord& record : records)
      if (record.result.outcome == Outcome::Passed) passed.insert(record.test.id());
    write_expected_list(*options.write_expected, passed);
    std::cout << "wrote " << passed.size() << " passing tests to " << options.write_expected->string()
              << "\n";
  }
  if (options.expected) {
    const int regressions = check_expected(*options.expected, records, options);
    if (regressions > 0) {
      std::cout << regressions << " expected test(s) did not pass\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::optional<Options> options = parse_options(argc, argv);
    return options ? run(*options) : 0;
  } catch (const po::error& e) {
    std::cerr << "asc_conformance: " << e.what() << " (see --help)\n";
    return 2;
  } catch (const std::regex_error& e) {
    std::cerr << "asc_conformance: bad --filter regex: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "asc_conformance: " << e.what() << "\n";
    return 2;
  }
}

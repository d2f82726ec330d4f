#include "report.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <iomanip>
#include <map>

namespace asc::conformance {
namespace {

constexpr std::size_t kOneLineLimit = 300;

struct Counts {
  std::array<int, 4> by_outcome{};  // indexed by Outcome
  int total() const { return by_outcome[0] + by_outcome[1] + by_outcome[2] + by_outcome[3]; }
  void add(Outcome outcome) { ++by_outcome[static_cast<std::size_t>(outcome)]; }
};

void print_row(std::ostream& out, const std::string& name, std::size_t width, const Counts& counts,
               bool with_total) {
  out << std::left << std::setw(static_cast<int>(width)) << name << std::right;
  if (with_total) out << std::setw(7) << counts.total();
  out << std::setw(8) << counts.by_outcome[static_cast<std::size_t>(Outcome::Passed)] << std::setw(8)
      << counts.by_outcome[static_cast<std::size_t>(Outcome::Failed)] << std::setw(13)
      << counts.by_outcome[static_cast<std::size_t>(Outcome::Unsupported)] << std::setw(14)
      << counts.by_outcome[static_cast<std::size_t>(Outcome::OutOfScope)] << "\n";
}

void print_header(std::ostream& out, const std::string& first, std::size_t width, bool with_total) {
  out << std::left << std::setw(static_cast<int>(width)) << first << std::right;
  if (with_total) out << std::setw(7) << "tests";
  out << std::setw(8) << "passed" << std::setw(8) << "failed" << std::setw(13) << "unsupported"
      << std::setw(14) << "out of scope"
      << "\n";
}

std::string lowercase(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string one_line(const std::string& text) {
  std::string line;
  for (const char c : text) {
    if (c == '\n')
      line += " | ";
    else
      line += c;
  }
  if (line.size() > kOneLineLimit) line = line.substr(0, kOneLineLimit - 3) + "...";
  return line;
}

}  // namespace

void print_operator_table(std::ostream& out, const std::vector<TestRecord>& records) {
  std::map<std::string, std::pair<std::string, Counts>> by_key;  // case-insensitive order
  std::size_t width = 8;
  for (const TestRecord& record : records) {
    auto& [label, counts] = by_key[lowercase(record.label)];
    label = record.label;
    counts.add(record.result.outcome);
    width = std::max(width, record.label.size());
  }
  width += 2;
  print_header(out, "operator", width, false);
  for (const auto& [key, entry] : by_key) print_row(out, entry.first, width, entry.second, false);
}

void print_suite_totals(std::ostream& out, const std::vector<TestRecord>& records) {
  std::map<std::string, Counts> by_suite;
  Counts all;
  for (const TestRecord& record : records) {
    by_suite[record.test.suite].add(record.result.outcome);
    all.add(record.result.outcome);
  }
  constexpr std::size_t width = 20;
  print_header(out, "suite", width, true);
  for (const std::string& suite : kAllSuites)
    if (by_suite.count(suite) != 0) print_row(out, suite, width, by_suite[suite], true);
  print_row(out, "all", width, all, true);
}

void print_failures(std::ostream& out, const std::vector<TestRecord>& records, bool full) {
  for (const TestRecord& record : records) {
    const Outcome outcome = record.result.outcome;
    if (outcome != Outcome::Failed && !(full && outcome == Outcome::Unsupported)) continue;
    out << (outcome == Outcome::Failed ? "FAIL " : "UNSUPPORTED ") << record.test.id() << " [" << record.label
        << "]: " << (full ? record.result.reason : one_line(record.result.reason)) << "\n";
  }
}

}  // namespace asc::conformance

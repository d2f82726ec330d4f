// The Ascend-style flag parser (atc, ais_bench): spellings, booleans, and every usage error.
#include <doctest/doctest.h>

#include "asc/host/ascend_flags.hpp"
#include "test_support.hpp"

namespace asc::host {
namespace {

using testing::error_message;

const std::vector<FlagSpec> kSpecs{
    {.name = "model", .value_name = "FILE", .help = "the model", .group = "Input"},
    {.name = "soc_version", .value_name = "SOC", .help = "the chip", .group = "Target"},
    {.name = "log", .value_name = "LEVEL", .help = "log level", .choices = {"debug", "info", "null"}, .group = "Debug"},
    {.name = "enable_scope_fusion", .help = "fuse", .boolean = true, .group = "Target"},
    {.name = "help", .help = "show this help", .boolean = true, .aliases = {"h"}},
};

ParsedFlags parse(const std::vector<std::string>& arguments) { return parse_ascend_flags("atc", kSpecs, arguments); }

bool flags_text_contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("every spelling of a value flag reaches the same canonical name") {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--soc_version=Ascend910"}, {"--soc_version", "Ascend910"}, {"-soc_version=Ascend910"},
        {"-soc_version", "Ascend910"}, {"--soc-version=Ascend910"}, {"-soc-version", "Ascend910"}}) {
    const auto flags = parse(arguments);
    CHECK(flags.get("soc_version") == "Ascend910");
    CHECK(flags.spelling("soc_version") == arguments.front().substr(0, arguments.front().find('=')));
  }
}

TEST_CASE("values are kept verbatim, including '=', ';' and an empty value") {
  const auto flags = parse({"--model=a=b;c:1,2", "--soc_version="});
  CHECK(flags.get("model") == "a=b;c:1,2");
  CHECK(flags.has("soc_version"));
  CHECK(flags.get("soc_version").empty());
  CHECK(flags.get("log", "warning") == "warning");
  CHECK_FALSE(flags.has("log"));
}

TEST_CASE("a value flag takes the next argument even when it starts with '-'") {
  CHECK(parse({"--model", "-1.onnx"}).get("model") == "-1.onnx");
}

TEST_CASE("boolean flags stand alone or take a boolean word") {
  CHECK(parse({"--enable_scope_fusion"}).get_bool("enable_scope_fusion"));
  CHECK(parse({"--enable_scope_fusion=True"}).get("enable_scope_fusion") == "true");
  CHECK_FALSE(parse({"--enable_scope_fusion=0"}).get_bool("enable_scope_fusion"));
  CHECK_FALSE(parse({"--enable-scope-fusion", "off"}).get_bool("enable_scope_fusion"));
  CHECK(parse({"--enable_scope_fusion", "--model=m"}).get("model") == "m");
  CHECK_FALSE(parse({}).get_bool("enable_scope_fusion"));
  const auto message = error_message([] { parse({"--enable_scope_fusion=maybe"}); }, ErrorCode::UsageError);
  CHECK(flags_text_contains(message, "'maybe'"));
  CHECK(flags_text_contains(message, "--enable_scope_fusion"));
}

TEST_CASE("aliases map to their flag") {
  CHECK(parse({"-h"}).get_bool("help"));
  CHECK(parse({"--h"}).get_bool("help"));
  CHECK(parse({"--help"}).get_bool("help"));
}

TEST_CASE("an unknown flag is EE5008 with a suggestion") {
  const auto message = error_message([] { parse({"--soc_verison=Ascend910"}); }, ErrorCode::UsageError);
  CHECK(flags_text_contains(message, "unknown flag '--soc_verison'"));
  CHECK(flags_text_contains(message, "did you mean '--soc_version'"));
  CHECK(flags_text_contains(message, "atc --help"));
}

TEST_CASE("a flag given twice is EE5008 quoting both") {
  const auto message = error_message([] { parse({"--model=a.onnx", "-model", "b.onnx"}); }, ErrorCode::UsageError);
  CHECK(flags_text_contains(message, "-model is given twice"));
  CHECK(flags_text_contains(message, "--model='a.onnx'"));
}

TEST_CASE("a missing value is EE5008") {
  CHECK(flags_text_contains(error_message([] { parse({"--model"}); }, ErrorCode::UsageError),
                            "--model needs a value"));
  CHECK(flags_text_contains(error_message(
                                [] {
                                  parse({"--model", "--log=info"});
                                },
                                ErrorCode::UsageError),
                            "followed by the flag --log"));
}

TEST_CASE("a value outside the choices is EE5008 listing them") {
  const auto message = error_message([] { parse({"--log=inof"}); }, ErrorCode::UsageError);
  CHECK(flags_text_contains(message, "Value 'inof' for --log is invalid"));
  CHECK(flags_text_contains(message, "debug, info, null"));
  CHECK(flags_text_contains(message, "did you mean 'info'"));
}

TEST_CASE("a stray argument is EE5008") {
  CHECK(flags_text_contains(error_message([] { parse({"model.onnx"}); }, ErrorCode::UsageError),
                            "unexpected argument 'model.onnx'"));
  CHECK(flags_text_contains(error_message([] { parse({"-"}); }, ErrorCode::UsageError),
                            "unexpected argument '-'"));
}

TEST_CASE("invalid_flag_value carries the given code and echoes the value") {
  const Error error = invalid_flag_value("framework", "3", "not supported yet", ErrorCode::FrameworkUnsupported);
  CHECK(error.code() == ErrorCode::FrameworkUnsupported);
  CHECK(error.message() == "Value '3' for --framework is invalid: not supported yet");
}

TEST_CASE("help lists every flag under its group, in order of first use") {
  const auto help = format_flag_help(kSpecs);
  const auto input = help.find("Input:");
  const auto target = help.find("Target:");
  const auto debug = help.find("Debug:");
  CHECK(input < target);
  CHECK(target < debug);
  CHECK(flags_text_contains(help, "--model=FILE"));
  CHECK(flags_text_contains(help, "[debug|info|null]"));
  CHECK(flags_text_contains(help, "  --enable_scope_fusion "));
  CHECK(flags_text_contains(help, "Other:"));
}

}  // namespace
}  // namespace asc::host

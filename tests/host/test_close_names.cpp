// "Did you mean" suggestions: which names are close enough, in which order, and the sentence.
// The distances in the comments are worked out by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "asc/host/close_names.hpp"

namespace asc::host {
namespace {

using Names = std::vector<std::string>;

TEST_CASE("closest_names keeps names within a third of the wanted length (at least 2), closest first") {
  // "ouptut" -> "output": two substitutions; 6 / 3 = 2 edits allowed.
  CHECK(closest_names("ouptut", {"output", "model", "framework"}) == Names{"output"});
  // "soc_versoin" -> "soc_version": 2, -> "soc_versions": 3 ("oin" -> "ions"); 11 / 3 = 3 allowed.
  CHECK(closest_names("soc_versoin", {"framework", "soc_versions", "soc_version"}) ==
        Names{"soc_version", "soc_versions"});
}

TEST_CASE("closest_names: a distance equal to the allowance is kept, one past it is not") {
  // 9 characters: 3 edits allowed. "abcdef" is 3 deletions away, "abcdefxyz" 3 substitutions;
  // "abcde" is 4 deletions away and "zzzzzzzzz" 9 substitutions.
  CHECK(closest_names("abcdefghi", {"abcde", "abcdef", "zzzzzzzzz", "abcdefxyz"}) == Names{"abcdef", "abcdefxyz"});
}

TEST_CASE("closest_names: names far longer or shorter than the candidates") {
  CHECK(closest_names(std::string(100000, 'x'), {"x", "xx", "model"}).empty());
  // The empty name: 2 edits allowed, "ab" is 2 insertions away, "abc" 3.
  CHECK(closest_names("", {"ab", "abc"}) == Names{"ab"});
}

TEST_CASE("closest_names: a candidate listed twice is suggested once, and at most `limit` names") {
  CHECK(closest_names("ouptut", {"output", "output"}) == Names{"output"});
  CHECK(closest_names("abcdefghi", {"abcdefghx", "abcdef", "abcdefxyz"}, 2) == Names{"abcdefghx", "abcdef"});
}

TEST_CASE("did_you_mean writes the suggestions as one sentence, or nothing") {
  CHECK(did_you_mean("ouptut", {"output"}) == " (did you mean 'output'?)");
  CHECK(did_you_mean("soc_versoin", {"soc_versions", "soc_version"}) ==
        " (did you mean 'soc_version' or 'soc_versions'?)");
  CHECK(did_you_mean("abcdefghi", {"abcdef", "abcdefxyz", "abcdefghx"}) ==
        " (did you mean 'abcdefghx', 'abcdef' or 'abcdefxyz'?)");
  CHECK(did_you_mean("framework", {"input", "output"}) == "");
}

}  // namespace
}  // namespace asc::host

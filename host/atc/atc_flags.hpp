// ATC's flags as this atc accepts them, grouped as ATC's own --help groups them.
#pragma once

#include <string>
#include <vector>

#include "asc/host/ascend_flags.hpp"

namespace asc::atc {

const std::vector<host::FlagSpec>& atc_flag_specs();

// The whole --help text.
std::string atc_help();

}  // namespace asc::atc

// Fusion switch files, as ATC's --fusion_switch_file reads them, in three spellings:
//
//   text   one "PassName:off" (or ":on") per line; blank lines and '#' comments are skipped
//   JSON   {"Switch":{"GraphFusion":{"ALL":"off","GeluFusion":"on"},"UBFusion":{...}}}
//          ("Cleanup" is accepted as a third group; "ALL" covers its group's passes, and names
//          listed in the file override it)
//   seed   {switch:{Fusion:true,ConvBatchNorm:true,ConvReLU:true,MatMulBiasAdd:true,CustomFusion:true}}
//          (bare words allowed; Fusion = every GraphFusion and UBFusion pass, ConvBatchNorm =
//          ConvBatchNormFusion, ConvReLU = ConvActivationFusion, MatMulBiasAdd =
//          MatMulBiasAddFusion, CustomFusion = fusion passes from other plugins; pass names
//          work too)
//
// Values are on/off or true/false. Unknown pass or group names are EE5007 naming the file and
// the name; malformed files are EE5001 with file:line:column.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace asc::fusion {

struct KnownPass {
  std::string name;
  std::string category;  // "Cleanup", "GraphFusion", "UBFusion", or a plugin's own
  bool builtin = true;   // registered by this plugin (false: CustomFusion in the seed spelling)
};

struct SwitchDecision {
  bool enabled = true;
  std::string origin;  // "<file>:<line>", for logs and fusion_result.json
};

using SwitchSettings = std::map<std::string, SwitchDecision>;

SwitchSettings read_switch_file(const std::filesystem::path& path, const std::vector<KnownPass>& passes);

}  // namespace asc::fusion

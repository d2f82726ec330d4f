#include "om/om_enums.hpp"

#include <asc/sdk/error.hpp>
#include <array>
#include <utility>

namespace asc::npusim {
namespace {

// One table per enum, read in both directions.
constexpr std::array<std::pair<DType, om::DataType>, 14> kDTypes = {{
    {DType::Undefined, om::DT_UNDEFINED}, {DType::Float32, om::DT_FLOAT32}, {DType::Float16, om::DT_FLOAT16},
    {DType::BFloat16, om::DT_BFLOAT16},   {DType::Float64, om::DT_FLOAT64}, {DType::Int8, om::DT_INT8},
    {DType::UInt8, om::DT_UINT8},         {DType::Int16, om::DT_INT16},     {DType::UInt16, om::DT_UINT16},
    {DType::Int32, om::DT_INT32},         {DType::UInt32, om::DT_UINT32},   {DType::Int64, om::DT_INT64},
    {DType::UInt64, om::DT_UINT64},       {DType::Bool, om::DT_BOOL},
}};

constexpr std::array<std::pair<Format, om::DataFormat>, 6> kFormats = {{
    {Format::ND, om::FORMAT_ND},
    {Format::NCHW, om::FORMAT_NCHW},
    {Format::NHWC, om::FORMAT_NHWC},
    {Format::NC1HWC0, om::FORMAT_NC1HWC0},
    {Format::FRACTAL_Z, om::FORMAT_FRACTAL_Z},
    {Format::FRACTAL_NZ, om::FORMAT_FRACTAL_NZ},
}};

constexpr std::array<std::pair<ComputeUnit, om::ComputeUnitKind>, 4> kUnits = {{
    {ComputeUnit::Cube, om::UNIT_CUBE},
    {ComputeUnit::Vector, om::UNIT_VECTOR},
    {ComputeUnit::Scalar, om::UNIT_SCALAR},
    {ComputeUnit::None, om::UNIT_NONE},
}};

constexpr std::array<std::pair<ValuePlacement::Region, om::MemoryRegion>, 4> kRegions = {{
    {ValuePlacement::Region::Input, om::REGION_INPUT},
    {ValuePlacement::Region::Output, om::REGION_OUTPUT},
    {ValuePlacement::Region::Activation, om::REGION_ACTIVATION},
    {ValuePlacement::Region::Weight, om::REGION_WEIGHT},
}};

template <class Cpp, class Proto, std::size_t N>
Proto encode(const std::array<std::pair<Cpp, Proto>, N>& table, Cpp value, const char* kind) {
  for (const auto& [cpp, proto] : table)
    if (cpp == value) return proto;
  throw Error(ErrorCode::Internal, std::string("the .om format has no ") + kind + " numbered " +
                                       std::to_string(static_cast<int>(value)));
}

template <class Cpp, class Proto, std::size_t N>
Cpp decode(const std::array<std::pair<Cpp, Proto>, N>& table, int number, const char* kind, const std::string& origin,
           const std::string& where) {
  for (const auto& [cpp, proto] : table)
    if (static_cast<int>(proto) == number) return cpp;
  om_format_error(origin, where, std::string("unknown ") + kind + " code " + std::to_string(number) +
                                     " (written by a newer atc, or the file is damaged)");
}

}  // namespace

void om_format_error(const std::string& origin, const std::string& where, const std::string& detail) {
  throw Error(ErrorCode::FileFormatInvalid, origin + ": " + (where.empty() ? "" : where + ": ") + detail);
}

om::DataType to_proto(DType dtype) { return encode(kDTypes, dtype, "dtype"); }
om::DataFormat to_proto(Format format) { return encode(kFormats, format, "format"); }
om::ComputeUnitKind to_proto(ComputeUnit unit) { return encode(kUnits, unit, "compute unit"); }
om::MemoryRegion to_proto(ValuePlacement::Region region) { return encode(kRegions, region, "memory region"); }

DType dtype_from_proto(int number, const std::string& origin, const std::string& where) {
  return decode(kDTypes, number, "dtype", origin, where);
}
Format format_from_proto(int number, const std::string& origin, const std::string& where) {
  return decode(kFormats, number, "format", origin, where);
}
ComputeUnit unit_from_proto(int number, const std::string& origin, const std::string& where) {
  return decode(kUnits, number, "compute unit", origin, where);
}
ValuePlacement::Region region_from_proto(int number, const std::string& origin, const std::string& where) {
  return decode(kRegions, number, "memory region", origin, where);
}

}  // namespace asc::npusim

// The C++ enums <-> their om.proto counterparts. Decoding takes the raw number (proto3 keeps
// numbers it does not know) and throws EE4004 naming `origin` and `where` for an unknown one.
#pragma once

#include <asc/sdk/dtype.hpp>
#include <asc/sdk/op_registry.hpp>
#include <asc/sdk/tensor.hpp>
#include <string>

#include "compiler/compiled_model.hpp"
#include "om/om.pb.h"

namespace asc::npusim {

om::DataType to_proto(DType dtype);
om::DataFormat to_proto(Format format);
om::ComputeUnitKind to_proto(ComputeUnit unit);
om::MemoryRegion to_proto(ValuePlacement::Region region);

// `where` reads like "initializer 'w'" and lands in the message after the file name.
DType dtype_from_proto(int number, const std::string& origin, const std::string& where);
Format format_from_proto(int number, const std::string& origin, const std::string& where);
ComputeUnit unit_from_proto(int number, const std::string& origin, const std::string& where);
ValuePlacement::Region region_from_proto(int number, const std::string& origin, const std::string& where);

// Throws EE4004 "<origin>: <where>: <detail>".
[[noreturn]] void om_format_error(const std::string& origin, const std::string& where, const std::string& detail);

}  // namespace asc::npusim

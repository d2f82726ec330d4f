#include "model_file.hpp"

#include <fcntl.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include <asc/sdk/error.hpp>

#include "model_label.hpp"

namespace asc::parser_onnx {

namespace {

// An open file descriptor, closed when it goes out of scope.
struct OpenFile {
  int fd = -1;
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

// The model is decoded while it is read, in protobuf's small read blocks, rather than from a copy
// of the whole file: holding the file's bytes and the decoded weights at once made the peak
// memory of every tool twice the model's size (BENCHMARKS.md, peak RSS against ONNX Runtime).
onnx::ModelProto read_model_file(const std::filesystem::path& model) {
  std::error_code error;
  if (!std::filesystem::exists(model, error))
    throw Error(ErrorCode::ModelNotFound, "cannot read " + model_label(model) + ": no such file");
  if (std::filesystem::is_directory(model, error))
    throw Error(ErrorCode::ModelNotFound, "cannot read " + model_label(model) + ": it is a directory");
  const std::uintmax_t size = std::filesystem::file_size(model, error);
  if (error) throw Error(ErrorCode::ModelNotFound, "cannot read " + model_label(model) + ": " + error.message());
  if (size > static_cast<std::uintmax_t>(INT_MAX))
    throw Error(ErrorCode::ModelCorrupt, model_label(model) + " is " + std::to_string(size) +
                                             " bytes, beyond protobuf's 2 GiB limit (store the weights as "
                                             "ONNX external data)");
  OpenFile file{::open(model.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0)
    throw Error(ErrorCode::ModelNotFound, "cannot read " + model_label(model) + ": " + std::strerror(errno));
  onnx::ModelProto proto;
  google::protobuf::io::FileInputStream stream(file.fd);
  const bool parsed = proto.ParseFromZeroCopyStream(&stream);
  if (stream.GetErrno() != 0)
    throw Error(ErrorCode::ModelNotFound, "cannot read " + model_label(model) + ": " + std::strerror(stream.GetErrno()));
  if (!parsed)
    throw Error(ErrorCode::ModelCorrupt,
                model_label(model) + " is not a valid ONNX model: protobuf decoding failed (truncated or not a "
                                     "ModelProto)");
  if (!proto.has_graph() || proto.opset_import_size() == 0)
    throw Error(ErrorCode::ModelCorrupt, model_label(model) + " is not a valid ONNX model: it has no " +
                                             (proto.has_graph() ? "opset_import" : "graph"));
  return proto;
}

}  // namespace asc::parser_onnx

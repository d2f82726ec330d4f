#include "asc/host/tool_main.hpp"

#include <exception>
#include <iostream>
#include <new>

#include "asc/sdk/io.hpp"

namespace asc::host {

Error coded_error(const std::exception& unexpected) {
  if (dynamic_cast<const std::bad_alloc*>(&unexpected) != nullptr)
    return Error(ErrorCode::MemoryAllocationFailed, "the host ran out of memory (std::bad_alloc)");
  return Error(ErrorCode::Internal, unexpected.what());
}

int run_tool(std::string_view prefix, const std::function<int()>& body,
             const std::function<int(ErrorCode)>& exit_status) {
  remove_temporary_files_on_signal();
  try {
    return body();
  } catch (const Error& error) {
    std::cout << std::flush;
    std::cerr << prefix << error.what() << '\n';
    return exit_status(error.code());
  } catch (const std::exception& unexpected) {
    const Error error = coded_error(unexpected);
    std::cout << std::flush;
    std::cerr << prefix << error.what() << '\n';
    return exit_status(error.code());
  }
}

}  // namespace asc::host

#include "asc/host/tool_main.hpp"

#include <exception>
#include <iostream>

namespace asc::host {

int run_tool(std::string_view prefix, const std::function<int()>& body,
             const std::function<int(ErrorCode)>& exit_status) {
  try {
    return body();
  } catch (const Error& error) {
    std::cout << std::flush;
    std::cerr << prefix << error.what() << '\n';
    return exit_status(error.code());
  } catch (const std::exception& unexpected) {
    std::cout << std::flush;
    std::cerr << prefix << Error(ErrorCode::Internal, unexpected.what()).what() << '\n';
    return exit_status(ErrorCode::Internal);
  }
}

}  // namespace asc::host

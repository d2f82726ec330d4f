// Declares itself an operator library but adds a backend: the registrar must refuse it.
#include "asc/sdk/error.hpp"
#include "asc/sdk/plugin.hpp"

namespace {

class UnusedBackend : public asc::Backend {
 public:
  std::string name() const override { return "kind_violation"; }
  std::string description() const override { return "never compiles anything"; }
  std::unique_ptr<asc::Executable> compile(const asc::Graph&, const asc::OpRegistry&,
                                           const asc::BackendOptions&) const override {
    throw asc::Error(asc::ErrorCode::Internal, "kind_violation's backend is never meant to run");
  }
};

}  // namespace

ASC_PLUGIN("kind_violation", "1.0.0", asc::kOpLibraryKind, "Declares ops, adds a backend") {
  registrar.add_backend(std::make_shared<UnusedBackend>());
}

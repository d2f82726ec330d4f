// Since SDK 0.5: what a kernel keeps for one step of a plan from one run to the next.
//
// A kernel that prepares something once per node (weights packed into the layout its GEMM or
// convolution wants, a primitive built for a shape) keeps it here instead of redoing it at every
// run. The backend owns one KernelState per plan step, empty at first, and drops it with the plan;
// KernelContext::state points at it (nullptr when the caller keeps nothing between calls, e.g. a
// one-off kernel call: the kernel then prepares for this call only). What the kernel keeps is its
// own business, and so is deciding when it no longer fits its inputs (a new input shape):
//
//   struct PackedWeights { ... };  // safe to read from two runs at once
//   const PackedWeights& packed = context.state != nullptr
//       ? context.state->get<PackedWeights>([&] { return std::make_shared<PackedWeights>(...); })
//       : ...;
//
// Constant inputs (KernelContext::input_is_constant) are the same tensor at every run of the plan,
// which is what makes keeping anything derived from them sound.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <typeinfo>

namespace asc {

class KernelState {
 public:
  // The object of type T kept for this step, made by make() (returning std::shared_ptr<T>) the
  // first time, or again when an object of another type was kept. Safe to call from two runs of
  // the plan at once (a plan may run on two streams): make() runs once; T's own members must be
  // safe for what the runs do with them concurrently.
  template <class T, class Make>
  T& get(Make&& make) {
    std::lock_guard lock(mutex_);
    // Type names, not type_info identity: the kernel and the object may come from another shared
    // library than the one that made the object first.
    if (value_ == nullptr || type_name_ != typeid(T).name()) {
      std::shared_ptr<T> made = make();
      value_ = std::move(made);
      type_name_ = typeid(T).name();
    }
    return *static_cast<T*>(value_.get());
  }

  // Drops what is kept (the next get() makes it anew).
  void reset() {
    std::lock_guard lock(mutex_);
    value_.reset();
  }

 private:
  std::mutex mutex_;
  std::shared_ptr<void> value_;
  std::string type_name_;
};

}  // namespace asc

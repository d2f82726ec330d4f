// Live objects behind the opaque handles the C API hands out (streams, events, contexts, ...).
// A handle is the object's address; a handle not in the table (never created, or destroyed)
// is found as nullptr, so a stale handle is an error code instead of a crash. Objects are held
// by shared_ptr so that work still queued keeps what it uses alive after a destroy.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace asc::acl {

template <class T> class HandleTable {
 public:
  void* add(std::shared_ptr<T> object) {
    void* handle = object.get();
    std::lock_guard lock(mutex_);
    objects_[handle] = std::move(object);
    return handle;
  }
  std::shared_ptr<T> find(const void* handle) const {
    std::lock_guard lock(mutex_);
    const auto found = objects_.find(handle);
    return found == objects_.end() ? nullptr : found->second;
  }
  std::shared_ptr<T> remove(const void* handle) {
    std::lock_guard lock(mutex_);
    const auto found = objects_.find(handle);
    if (found == objects_.end()) return nullptr;
    std::shared_ptr<T> object = std::move(found->second);
    objects_.erase(found);
    return object;
  }
  std::vector<std::shared_ptr<T>> all() const {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<T>> objects;
    for (const auto& [handle, object] : objects_) objects.push_back(object);
    return objects;
  }
  std::vector<std::shared_ptr<T>> take_all() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<T>> objects;
    for (auto& [handle, object] : objects_) objects.push_back(std::move(object));
    objects_.clear();
    return objects;
  }

 private:
  mutable std::mutex mutex_;
  std::map<const void*, std::shared_ptr<T>> objects_;
};

}  // namespace asc::acl

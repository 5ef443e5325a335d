#pragma once
// A VerbsApi with fake devices behind it: ports, a GID table, async events, loss and return of a
// device, a kernel without RDMA support. Each open context gets a real pipe as its async fd, so the
// EventLoop polls it as it would an ibv_context's async_fd; removing a device hangs the pipe up.
// Records what was called (opens, closes, the max_entries of every ibv_query_gid_table).

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/gid.h"
#include "verbs/verbs_api.h"

namespace rocewatch {

class FakeVerbsApi final : public VerbsApi {
 public:
  // The "hardware" behind a device name; outlives the contexts opened on it.
  struct Hardware {
    std::string name;
    std::vector<VerbsPortAttr> ports;  // port 1 is ports[0]
    std::vector<VerbsGidEntry> entries;
    bool listed = true;
    int open_errno = 0;  // ibv_open_device fails with this when non-zero
    int gone_errno = 0;  // every call on an open context fails with this when non-zero
  };

  FakeVerbsApi() = default;
  ~FakeVerbsApi() override;

  // A device with `ports` RoCE ports of `gid_table_len` slots each, listed and openable.
  Hardware& AddDevice(const std::string& name, uint32_t ports = 1, uint32_t gid_table_len = 255);
  Hardware& device(const std::string& name) { return *hardware_.at(name); }
  // ibv_get_device_list() returns NULL with ENOSYS.
  void SetNoRdmaSupport() { no_rdma_support_ = true; }
  // Replaces a device's GID table. Netdev names get ifindexes (stable per name) for NetdevName.
  void SetGidTable(const std::string& name, const std::vector<GidEntry>& entries);
  // Queues an event on every open context of the device and makes its async fd readable.
  void PushAsyncEvent(const std::string& name, VerbsAsyncEvent event);
  // Hot-unplug: no longer listed, open contexts fail with ENODEV and their async fds hang up.
  void Unplug(const std::string& name);
  // The device is listed again (a firmware reset finished); contexts opened before stay dead.
  void Replug(const std::string& name);
  // Makes NetdevName fail for this ifindex (the netdev vanished).
  void ForgetNetdev(const std::string& netdev);
  uint32_t IfindexOf(const std::string& netdev);

  StatusOr<VerbsDeviceList> ListDevices() override;
  StatusOr<std::unique_ptr<VerbsDevice>> OpenDevice(const std::string& name) override;
  StatusOr<std::string> NetdevName(uint32_t ifindex) override;

  // What happened.
  int list_calls = 0;
  std::map<std::string, int> open_attempts;  // OpenDevice calls per device name
  std::map<std::string, int> opens;          // successful opens per device
  std::map<std::string, int> closes;         // contexts destroyed per device
  std::vector<size_t> gid_table_queries;     // max_entries of every QueryGidTable call
  int open_contexts() const { return static_cast<int>(contexts_.size()); }

  // One open context (implementation detail of the fake, public for the .cc).
  struct Context;

 private:
  friend class FakeVerbsDevice;
  bool no_rdma_support_ = false;
  std::map<std::string, std::shared_ptr<Hardware>> hardware_;
  std::vector<Context*> contexts_;
  std::map<std::string, uint32_t> ifindex_of_;
  std::map<uint32_t, std::string> netdev_of_;
};

}  // namespace rocewatch

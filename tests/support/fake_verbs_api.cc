#include "support/fake_verbs_api.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rocewatch {

struct FakeVerbsApi::Context {
  std::shared_ptr<Hardware> hardware;
  int read_fd = -1;
  int write_fd = -1;
  std::deque<VerbsAsyncEvent> events;
};

class FakeVerbsDevice final : public VerbsDevice {
 public:
  FakeVerbsDevice(FakeVerbsApi& api, FakeVerbsApi::Context* context)
      : api_(api), context_(context) {}
  ~FakeVerbsDevice() override {
    ++api_.closes[context_->hardware->name];
    api_.contexts_.erase(std::find(api_.contexts_.begin(), api_.contexts_.end(), context_));
    ::close(context_->read_fd);
    if (context_->write_fd >= 0) ::close(context_->write_fd);
    delete context_;
  }
  const std::string& name() const override { return context_->hardware->name; }

  StatusOr<uint32_t> PortCount() override {
    if (int e = context_->hardware->gone_errno) return Status::FromErrno(e, "fake query_device");
    return static_cast<uint32_t>(context_->hardware->ports.size());
  }
  StatusOr<VerbsPortAttr> QueryPort(uint32_t port) override {
    if (int e = context_->hardware->gone_errno) return Status::FromErrno(e, "fake query_port");
    if (port == 0 || port > context_->hardware->ports.size())
      return Status::FromErrno(EINVAL, "fake query_port");
    return context_->hardware->ports[port - 1];
  }
  StatusOr<std::vector<VerbsGidEntry>> QueryGidTable(size_t max_entries) override {
    api_.gid_table_queries.push_back(max_entries);
    if (int e = context_->hardware->gone_errno) return Status::FromErrno(e, "fake gid_table");
    if (max_entries == 0 || context_->hardware->entries.size() > max_entries)
      return Status::FromErrno(EINVAL, "fake query_gid_table");
    return context_->hardware->entries;
  }
  int async_fd() const override { return context_->read_fd; }
  StatusOr<std::optional<VerbsAsyncEvent>> ReadAsyncEvent() override {
    char byte;
    ssize_t n = ::read(context_->read_fd, &byte, 1);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return std::optional<VerbsAsyncEvent>();
    if (n <= 0 || context_->events.empty())
      return Status::FromErrno(EIO, "fake ibv_get_async_event");
    VerbsAsyncEvent event = context_->events.front();
    context_->events.pop_front();
    return std::optional<VerbsAsyncEvent>(event);
  }

 private:
  FakeVerbsApi& api_;
  FakeVerbsApi::Context* context_;
};

FakeVerbsApi::~FakeVerbsApi() {
  // Contexts still open belong to their VerbsDevice owners, which must be destroyed first.
}

FakeVerbsApi::Hardware& FakeVerbsApi::AddDevice(const std::string& name, uint32_t ports,
                                                uint32_t gid_table_len) {
  auto hw = std::make_shared<Hardware>();
  hw->name = name;
  for (uint32_t p = 0; p < ports; ++p) hw->ports.push_back({gid_table_len, 4, 2});
  hardware_[name] = hw;
  return *hw;
}

uint32_t FakeVerbsApi::IfindexOf(const std::string& netdev) {
  auto it = ifindex_of_.find(netdev);
  if (it != ifindex_of_.end()) return it->second;
  uint32_t index = static_cast<uint32_t>(ifindex_of_.size()) + 10;
  ifindex_of_[netdev] = index;
  netdev_of_[index] = netdev;
  return index;
}

void FakeVerbsApi::ForgetNetdev(const std::string& netdev) { netdev_of_.erase(IfindexOf(netdev)); }

void FakeVerbsApi::SetGidTable(const std::string& name, const std::vector<GidEntry>& entries) {
  Hardware& hw = device(name);
  hw.entries.clear();
  for (const GidEntry& e : entries) {
    VerbsGidEntry v;
    in6_addr addr;
    std::string compact;  // sysfs text -> bytes through inet_pton of the same 8 groups
    compact = e.gid;
    if (inet_pton(AF_INET6, compact.c_str(), &addr) == 1)
      std::memcpy(v.gid.data(), addr.s6_addr, 16);
    v.index = e.index;
    v.port = e.port;
    v.type = e.type == GidType::kIb       ? 0
             : e.type == GidType::kRoceV1 ? 1
             : e.type == GidType::kRoceV2 ? 2
                                          : 7;
    v.ndev_ifindex = e.netdev.empty() ? 0 : IfindexOf(e.netdev);
    hw.entries.push_back(v);
  }
}

void FakeVerbsApi::PushAsyncEvent(const std::string& name, VerbsAsyncEvent event) {
  for (Context* c : contexts_) {
    if (c->hardware->name != name || c->write_fd < 0) continue;
    c->events.push_back(event);
    char byte = 1;
    (void)!::write(c->write_fd, &byte, 1);
  }
}

void FakeVerbsApi::Unplug(const std::string& name) {
  Hardware& hw = device(name);
  hw.listed = false;
  hw.gone_errno = ENODEV;
  for (Context* c : contexts_) {
    if (c->hardware->name != name || c->write_fd < 0) continue;
    ::close(c->write_fd);  // the read end now polls POLLHUP and reads EOF
    c->write_fd = -1;
  }
}

void FakeVerbsApi::Replug(const std::string& name) {
  // Contexts opened before the unplug keep failing: they point at the old hardware object.
  auto old = hardware_.at(name);
  auto fresh = std::make_shared<Hardware>(*old);
  fresh->listed = true;
  fresh->gone_errno = 0;
  hardware_[name] = fresh;
}

StatusOr<VerbsDeviceList> FakeVerbsApi::ListDevices() {
  ++list_calls;
  VerbsDeviceList list;
  if (no_rdma_support_) {
    list.absent_reason = "no RDMA support in the kernel (ibv_get_device_list: ENOSYS)";
    return list;
  }
  for (const auto& [name, hw] : hardware_)
    if (hw->listed) list.names.push_back(name);
  if (list.names.empty()) list.absent_reason = "no RDMA device registered (empty device list)";
  return list;
}

StatusOr<std::unique_ptr<VerbsDevice>> FakeVerbsApi::OpenDevice(const std::string& name) {
  ++open_attempts[name];
  auto it = hardware_.find(name);
  if (no_rdma_support_ || it == hardware_.end() || !it->second->listed)
    return Status::NotFound("fake: no device " + name);
  if (it->second->open_errno != 0)
    return Status::FromErrno(it->second->open_errno, "fake ibv_open_device " + name);
  int fds[2];
  if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) return Status::FromErrno(errno, "pipe2");
  auto* context = new Context{it->second, fds[0], fds[1], {}};
  contexts_.push_back(context);
  ++opens[name];
  return std::unique_ptr<VerbsDevice>(std::make_unique<FakeVerbsDevice>(*this, context));
}

StatusOr<std::string> FakeVerbsApi::NetdevName(uint32_t ifindex) {
  auto it = netdev_of_.find(ifindex);
  if (it == netdev_of_.end()) return Status::FromErrno(ENODEV, "fake if_indextoname");
  return it->second;
}

}  // namespace rocewatch

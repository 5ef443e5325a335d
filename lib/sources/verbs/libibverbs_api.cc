#include "verbs/libibverbs_api.h"

#include <fcntl.h>
#include <infiniband/verbs.h>
#include <net/if.h>

#include <cerrno>
#include <cstring>

namespace rocewatch {

namespace {

// Frees a device list however the scope is left.
class DeviceListHolder {
 public:
  DeviceListHolder() { list_ = ibv_get_device_list(&count_); }
  ~DeviceListHolder() {
    if (list_ != nullptr) ibv_free_device_list(list_);
  }
  DeviceListHolder(const DeviceListHolder&) = delete;
  DeviceListHolder& operator=(const DeviceListHolder&) = delete;
  ibv_device** list() const { return list_; }
  int count() const { return count_; }

 private:
  ibv_device** list_ = nullptr;
  int count_ = 0;
};

VerbsAsyncEventKind KindOf(ibv_event_type type) {
  switch (type) {
    case IBV_EVENT_GID_CHANGE:
      return VerbsAsyncEventKind::kGidChange;
    case IBV_EVENT_PORT_ACTIVE:
      return VerbsAsyncEventKind::kPortActive;
    case IBV_EVENT_PORT_ERR:
      return VerbsAsyncEventKind::kPortError;
    case IBV_EVENT_DEVICE_FATAL:
      return VerbsAsyncEventKind::kDeviceFatal;
    default:
      return VerbsAsyncEventKind::kOther;
  }
}

bool IsPortEvent(ibv_event_type type) {
  return type == IBV_EVENT_GID_CHANGE || type == IBV_EVENT_PORT_ACTIVE ||
         type == IBV_EVENT_PORT_ERR || type == IBV_EVENT_LID_CHANGE ||
         type == IBV_EVENT_PKEY_CHANGE || type == IBV_EVENT_SM_CHANGE ||
         type == IBV_EVENT_CLIENT_REREGISTER;
}

class LibibverbsDevice final : public VerbsDevice {
 public:
  LibibverbsDevice(std::string name, ibv_context* context)
      : name_(std::move(name)), context_(context) {}
  ~LibibverbsDevice() override { ibv_close_device(context_); }
  LibibverbsDevice(const LibibverbsDevice&) = delete;
  LibibverbsDevice& operator=(const LibibverbsDevice&) = delete;

  const std::string& name() const override { return name_; }

  StatusOr<uint32_t> PortCount() override {
    ibv_device_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    int rc = ibv_query_device(context_, &attr);
    if (rc != 0) return Status::FromErrno(rc, "ibv_query_device " + name_);
    return static_cast<uint32_t>(attr.phys_port_cnt);
  }

  StatusOr<VerbsPortAttr> QueryPort(uint32_t port) override {
    ibv_port_attr attr;
    std::memset(&attr, 0, sizeof(attr));
    int rc = ibv_query_port(context_, static_cast<uint8_t>(port), &attr);
    if (rc != 0)
      return Status::FromErrno(rc, "ibv_query_port " + name_ + "/" + std::to_string(port));
    VerbsPortAttr out;
    out.gid_table_len = attr.gid_tbl_len > 0 ? static_cast<uint32_t>(attr.gid_tbl_len) : 0;
    out.state = static_cast<int>(attr.state);
    out.link_layer = attr.link_layer;
    return out;
  }

  StatusOr<std::vector<VerbsGidEntry>> QueryGidTable(size_t max_entries) override {
    std::vector<ibv_gid_entry> raw(max_entries);
    ssize_t n = ibv_query_gid_table(context_, raw.data(), raw.size(), 0);
    if (n < 0) return Status::FromErrno(static_cast<int>(-n), "ibv_query_gid_table " + name_);
    std::vector<VerbsGidEntry> out;
    out.reserve(static_cast<size_t>(n));
    for (ssize_t i = 0; i < n && static_cast<size_t>(i) < raw.size(); ++i) {
      VerbsGidEntry entry;
      std::memcpy(entry.gid.data(), raw[i].gid.raw, entry.gid.size());
      entry.index = raw[i].gid_index;
      entry.port = raw[i].port_num;
      entry.type = raw[i].gid_type;
      entry.ndev_ifindex = raw[i].ndev_ifindex;
      out.push_back(entry);
    }
    return out;
  }

  int async_fd() const override { return context_->async_fd; }

  StatusOr<std::optional<VerbsAsyncEvent>> ReadAsyncEvent() override {
    ibv_async_event event;
    if (ibv_get_async_event(context_, &event) != 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK) return std::optional<VerbsAsyncEvent>();
      return Status::FromErrno(errno, "ibv_get_async_event " + name_);
    }
    VerbsAsyncEvent out;
    out.kind = KindOf(event.event_type);
    out.raw_type = static_cast<int>(event.event_type);
    if (IsPortEvent(event.event_type) && event.element.port_num > 0)
      out.port = static_cast<uint32_t>(event.element.port_num);
    ibv_ack_async_event(&event);
    return std::optional<VerbsAsyncEvent>(out);
  }

 private:
  std::string name_;
  ibv_context* context_;
};

}  // namespace

StatusOr<VerbsDeviceList> LibibverbsApi::ListDevices() {
  errno = 0;
  DeviceListHolder holder;
  VerbsDeviceList out;
  if (holder.list() == nullptr) {
    int saved = errno;
    if (saved == ENOSYS || saved == 0) {
      out.absent_reason = "no RDMA support in the kernel (ibv_get_device_list: ENOSYS)";
      return out;
    }
    return Status::FromErrno(saved, "ibv_get_device_list");
  }
  for (int i = 0; i < holder.count(); ++i) {
    const char* name = ibv_get_device_name(holder.list()[i]);
    if (name != nullptr) out.names.emplace_back(name);
  }
  if (out.names.empty()) out.absent_reason = "no RDMA device registered (empty device list)";
  return out;
}

StatusOr<std::unique_ptr<VerbsDevice>> LibibverbsApi::OpenDevice(const std::string& name) {
  errno = 0;
  DeviceListHolder holder;
  if (holder.list() == nullptr) return Status::NotFound("no RDMA devices: cannot open " + name);
  for (int i = 0; i < holder.count(); ++i) {
    const char* listed = ibv_get_device_name(holder.list()[i]);
    if (listed == nullptr || name != listed) continue;
    errno = 0;
    ibv_context* context = ibv_open_device(holder.list()[i]);
    if (context == nullptr)
      return Status::FromErrno(errno ? errno : EIO, "ibv_open_device " + name);
    int flags = fcntl(context->async_fd, F_GETFL);
    if (flags < 0 || fcntl(context->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
      int saved = errno;
      ibv_close_device(context);
      return Status::FromErrno(saved, "O_NONBLOCK on the async fd of " + name);
    }
    return std::unique_ptr<VerbsDevice>(std::make_unique<LibibverbsDevice>(name, context));
  }
  return Status::NotFound("RDMA device " + name + " is not listed by libibverbs");
}

StatusOr<std::string> LibibverbsApi::NetdevName(uint32_t ifindex) {
  char name[IF_NAMESIZE] = {};
  if (if_indextoname(ifindex, name) == nullptr)
    return Status::FromErrno(errno == ENXIO ? ENODEV : errno,
                             "if_indextoname " + std::to_string(ifindex));
  return std::string(name);
}

}  // namespace rocewatch

#pragma once
// The handful of libibverbs calls rocewatch makes, behind an interface so that a fake device can
// stand behind them in tests (tests/support/fake_verbs_api.h). The real implementation
// (LibibverbsApi, verbs/libibverbs_api.h) calls ibv_get_device_list, ibv_open_device,
// ibv_query_device, ibv_query_port, ibv_query_gid_table, ibv_get_async_event /
// ibv_ack_async_event and ibv_close_device, nothing else.
//
// Values are plain C++ types: no libibverbs type leaks out of the real implementation.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace rocewatch {

// What ibv_get_device_list() found. "No devices" is a state, not an error: the kernel has no RDMA
// support (NULL with ENOSYS) or no device is registered (an empty list).
struct VerbsDeviceList {
  std::vector<std::string> names;  // kernel device names (ibv_get_device_name), e.g. mlx5_0
  // Why `names` is empty, for the log and for --gid-source verbs' error; empty when it is not.
  std::string absent_reason;
};

// The part of ibv_port_attr rocewatch uses.
struct VerbsPortAttr {
  uint32_t gid_table_len = 0;  // gid_tbl_len
  int state = 0;               // enum ibv_port_state, passed through (4 = ACTIVE)
  int link_layer = 0;          // IBV_LINK_LAYER_*: 1 InfiniBand, 2 Ethernet
};

// One valid GID entry as ibv_query_gid_table() returns it.
struct VerbsGidEntry {
  std::array<uint8_t, 16> gid{};
  uint32_t index = 0;
  uint32_t port = 0;
  uint32_t type = 0;  // enum ibv_gid_type: 0 IB, 1 RoCE v1, 2 RoCE v2; others passed through
  uint32_t ndev_ifindex = 0;  // 0 if the entry has no netdev (InfiniBand)
};

// The async events rocewatch reacts to; every other event type is kOther (acknowledged, ignored).
enum class VerbsAsyncEventKind { kGidChange, kPortActive, kPortError, kDeviceFatal, kOther };
const char* VerbsAsyncEventKindName(VerbsAsyncEventKind kind);

struct VerbsAsyncEvent {
  VerbsAsyncEventKind kind = VerbsAsyncEventKind::kOther;
  uint32_t port = 0;  // for port events (GID change, port active/error); 0 otherwise
  int raw_type = 0;   // enum ibv_event_type, for the log
};

// An open device (an ibv_context). Closing is destruction (ibv_close_device).
// Threading: one thread at a time.
class VerbsDevice {
 public:
  virtual ~VerbsDevice() = default;
  virtual const std::string& name() const = 0;

  // phys_port_cnt of ibv_query_device. Errors: FromErrno of the failing call.
  virtual StatusOr<uint32_t> PortCount() = 0;
  // ibv_query_port for a 1-based port. Errors: FromErrno.
  virtual StatusOr<VerbsPortAttr> QueryPort(uint32_t port) = 0;
  // One ibv_query_gid_table() call with room for max_entries entries. Errors: FromErrno of the
  // negative return value; EINVAL when more valid entries exist than max_entries.
  virtual StatusOr<std::vector<VerbsGidEntry>> QueryGidTable(size_t max_entries) = 0;

  // The context's async_fd, already O_NONBLOCK: readable when an async event is pending.
  virtual int async_fd() const = 0;
  // Reads and acknowledges the next pending async event (ibv_get_async_event then
  // ibv_ack_async_event at once). nullopt when none is pending (EAGAIN).
  // Errors: FromErrno for any other failure (EIO once the device is gone).
  virtual StatusOr<std::optional<VerbsAsyncEvent>> ReadAsyncEvent() = 0;
};

class VerbsApi {
 public:
  virtual ~VerbsApi() = default;
  // ibv_get_device_list (then ibv_free_device_list). Errors: only for failures other than "no
  // RDMA support" (e.g. ENOMEM).
  virtual StatusOr<VerbsDeviceList> ListDevices() = 0;
  // Opens the device named `name` (as listed by ListDevices). Errors: NotFound if no such device
  // is listed any more; FromErrno of ibv_open_device otherwise (EACCES without /dev/infiniband).
  virtual StatusOr<std::unique_ptr<VerbsDevice>> OpenDevice(const std::string& name) = 0;
  // The name of a network interface by index (if_indextoname). Errors: NotFound if no interface
  // has that index (any more).
  virtual StatusOr<std::string> NetdevName(uint32_t ifindex) = 0;
};

}  // namespace rocewatch

#pragma once
// The host's own PFC configuration of a netdev, as its driver reports it through DCB netlink
// (RTM_GETDCB, DCB_CMD_IEEE_GET: the IEEE 802.1Qaz `struct ieee_pfc`): which priorities the NIC
// treats as lossless. Compared with the switch's PFC TLV (fabric/fabric_checks.h). A GET needs no
// capability. A netdev whose driver has no DCB support (a veth, most NICs without RDMA) answers
// EOPNOTSUPP: nullopt, not an error.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

struct nl_sock;

namespace rocewatch {

struct HostPfc {
  uint8_t enabled = 0;     // bit P: PFC enabled on priority P
  uint8_t capability = 0;  // traffic classes that can be lossless at once
  bool operator==(const HostPfc&) const = default;
};

// Reads one netdev's PFC; nullopt where the driver has no DCB (EOPNOTSUPP). Errors: NotFound for
// a netdev not in this network namespace (ENODEV), IoError otherwise.
using HostPfcReader = std::function<StatusOr<std::optional<HostPfc>>(const std::string& netdev)>;

// The attributes of one netdev's DCB_CMD_IEEE_GET answer, as the kernel sent them (what follows
// its struct dcbmsg, at most kMaxDcbAnswerBytes); nullopt where the driver has no DCB
// (EOPNOTSUPP). Errors as HostPfcReader's. Recorded in bundles (netlink/dcb_recording.h).
using DcbAnswerReader =
    std::function<StatusOr<std::optional<std::vector<uint8_t>>>(const std::string& netdev)>;
inline constexpr size_t kMaxDcbAnswerBytes = 64 * 1024;

// The PFC of each answer `read` gives.
HostPfcReader HostPfcFromAnswers(DcbAnswerReader read);

// The attributes of a DCB_CMD_IEEE_GET answer (what follows its struct dcbmsg). nullopt when
// the answer carries no DCB_ATTR_IEEE_PFC (the driver implements no ieee_getpfc). Corrupt for
// attributes that do not parse. Pure; the fuzz target and table tests feed it any bytes.
StatusOr<std::optional<HostPfc>> ParseDcbIeeeAnswer(std::span<const uint8_t> attributes);

// A NETLINK_ROUTE socket of its own for DCB requests, answered synchronously; a reply that never
// comes fails the read after 2 s (SO_RCVTIMEO).
class LibnlDcbSource {
 public:
  LibnlDcbSource() = default;
  ~LibnlDcbSource();
  LibnlDcbSource(const LibnlDcbSource&) = delete;
  LibnlDcbSource& operator=(const LibnlDcbSource&) = delete;

  Status Open();
  StatusOr<std::optional<std::vector<uint8_t>>> ReadIeeeAnswer(const std::string& netdev);

 private:
  nl_sock* sock_ = nullptr;
};

// A reader over one LibnlDcbSource opened at the first read (and again after a failed open).
DcbAnswerReader LibnlDcbAnswerReader();

}  // namespace rocewatch

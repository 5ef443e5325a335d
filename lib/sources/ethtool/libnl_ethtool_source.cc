#include "ethtool/libnl_ethtool_source.h"

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstring>

namespace rocewatch {
namespace {

// Newer than the Debian 12 UAPI headers (Linux 6.3): the link-down count in LINKSTATE replies.
constexpr int kLinkStateExtDownCount = ETHTOOL_A_LINKSTATE_EXT_SUBSTATE + 1;
constexpr int kLinkStateMax = kLinkStateExtDownCount;

// Names of the standard statistics (the IEEE 802.3 / RFC 2819 names of linux/ethtool_netlink.h),
// by group and attribute index.
constexpr const char* kEthPhyNames[] = {"SymbolErrorDuringCarrier"};
constexpr const char* kEthMacNames[] = {"FramesTransmittedOK",
                                        "SingleCollisionFrames",
                                        "MultipleCollisionFrames",
                                        "FramesReceivedOK",
                                        "FrameCheckSequenceErrors",
                                        "AlignmentErrors",
                                        "OctetsTransmittedOK",
                                        "FramesWithDeferredXmissions",
                                        "LateCollisions",
                                        "FramesAbortedDueToXSColls",
                                        "FramesLostDueToIntMACXmitError",
                                        "CarrierSenseErrors",
                                        "OctetsReceivedOK",
                                        "FramesLostDueToIntMACRcvError",
                                        "MulticastFramesXmittedOK",
                                        "BroadcastFramesXmittedOK",
                                        "FramesWithExcessiveDeferral",
                                        "MulticastFramesReceivedOK",
                                        "BroadcastFramesReceivedOK",
                                        "InRangeLengthErrors",
                                        "OutOfRangeLengthField",
                                        "FrameTooLongErrors"};
constexpr const char* kEthCtrlNames[] = {"MACControlFramesTransmitted", "MACControlFramesReceived",
                                         "UnsupportedOpcodesReceived"};
constexpr const char* kRmonNames[] = {"etherStatsUndersizePkts", "etherStatsOversizePkts",
                                      "etherStatsFragments", "etherStatsJabbers"};

std::string StandardStatisticName(uint32_t group, int index) {
  auto pick = [index](const auto& names, const char* group_name) {
    std::string name = group_name;
    name += '.';
    if (index >= 0 && static_cast<size_t>(index) < std::size(names)) return name + names[index];
    return name + std::to_string(index);
  };
  switch (group) {
    case ETHTOOL_STATS_ETH_PHY:
      return pick(kEthPhyNames, "eth-phy");
    case ETHTOOL_STATS_ETH_MAC:
      return pick(kEthMacNames, "eth-mac");
    case ETHTOOL_STATS_ETH_CTRL:
      return pick(kEthCtrlNames, "eth-ctrl");
    case ETHTOOL_STATS_RMON:
      return pick(kRmonNames, "rmon");
    default:
      return "group" + std::to_string(group) + "." + std::to_string(index);
  }
}

// A u64 array attribute (FEC statistics): element 0 is the total, the rest per lane.
void ReadTotalAndLanes(nlattr* attr, std::optional<uint64_t>& total, std::vector<uint64_t>& lanes) {
  if (!attr) return;
  const size_t count = static_cast<size_t>(nla_len(attr)) / sizeof(uint64_t);
  const auto* data = static_cast<const uint8_t*>(nla_data(attr));
  for (size_t i = 0; i < count; ++i) {
    uint64_t value;
    std::memcpy(&value, data + i * sizeof(uint64_t), sizeof(value));
    if (i == 0) {
      total = value;
    } else {
      lanes.push_back(value);
    }
  }
}

// The kernel marks some GET requests admin-only (GENL_ADMIN_PERM on the operation): refused with
// EPERM before the driver is asked. The message names the capability an operator must grant.
const char* CapabilityNeededFor(uint8_t command) {
  return command == ETHTOOL_MSG_MODULE_EEPROM_GET ? "CAP_NET_ADMIN" : nullptr;
}

Status NetlinkError(int error, const std::string& netdev, uint8_t command, const char* what) {
  if (error == ENODEV) return Status::NotFound(netdev + ": no such netdev");
  std::string context = std::string(what) + " " + netdev;
  if (error == EPERM && CapabilityNeededFor(command) != nullptr)
    context += std::string(" (needs ") + CapabilityNeededFor(command) + ")";
  return Status::FromErrno(error, context);
}

struct ReplyState {
  const std::function<void(nlmsghdr*)>* on_reply;
  bool done = false;
  int error = 0;  // positive errno from an NLMSG_ERROR
};

int OnValid(nl_msg* msg, void* arg) {
  auto* state = static_cast<ReplyState*>(arg);
  (*state->on_reply)(nlmsg_hdr(msg));
  state->done = true;
  return NL_OK;
}

int OnError(sockaddr_nl*, nlmsgerr* err, void* arg) {
  auto* state = static_cast<ReplyState*>(arg);
  state->error = err->error < 0 ? -err->error : err->error;
  state->done = true;
  return NL_STOP;
}

int OnAck(nl_msg*, void* arg) {
  static_cast<ReplyState*>(arg)->done = true;
  return NL_STOP;
}

const char* CommandName(uint8_t command) {
  switch (command) {
    case ETHTOOL_MSG_FEC_GET:
      return "ETHTOOL_MSG_FEC_GET";
    case ETHTOOL_MSG_LINKSTATE_GET:
      return "ETHTOOL_MSG_LINKSTATE_GET";
    case ETHTOOL_MSG_PAUSE_GET:
      return "ETHTOOL_MSG_PAUSE_GET";
    case ETHTOOL_MSG_STATS_GET:
      return "ETHTOOL_MSG_STATS_GET";
    case ETHTOOL_MSG_MODULE_EEPROM_GET:
      return "ETHTOOL_MSG_MODULE_EEPROM_GET";
    default:
      return "ethtool netlink request";
  }
}

}  // namespace

LibnlEthtoolSource::~LibnlEthtoolSource() {
  if (sock_) nl_socket_free(sock_);
}

Status LibnlEthtoolSource::Open() {
  if (sock_) return Status::Ok();
  sock_ = nl_socket_alloc();
  if (!sock_) return Status::IoError("nl_socket_alloc failed");
  int error = genl_connect(sock_);
  if (error < 0) {
    nl_socket_free(sock_);
    sock_ = nullptr;
    return Status::IoError(std::string("generic netlink connect: ") + nl_geterror(error));
  }
  nl_socket_disable_auto_ack(sock_);
  // Replies are small (a module page is 128 bytes, STATS_GET a few hundred): one recvmsg into a
  // buffer big enough for any of them, instead of libnl's peek-then-read pair per reply.
  nl_socket_disable_msg_peek(sock_);
  nl_socket_set_msg_buf_size(sock_, 64 * 1024);
  // The kernel answers GET requests synchronously; a reply that never comes must not hold the
  // daemon's loop: a read waits at most this long and fails (IoError).
  timeval timeout{2, 0};
  setsockopt(nl_socket_get_fd(sock_), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  family_ = genl_ctrl_resolve(sock_, ETHTOOL_GENL_NAME);
  if (family_ < 0) {
    nl_socket_free(sock_);
    sock_ = nullptr;
    return Status::Unavailable("no ethtool netlink family in this kernel");
  }
  return Status::Ok();
}

StatusOr<bool> LibnlEthtoolSource::Request(uint8_t command, int header_attr, bool with_stats,
                                           const std::string& netdev,
                                           const std::function<int(nl_msg*)>& add,
                                           const std::function<void(nlmsghdr*)>& on_reply) {
  if (!sock_) return Status::Unavailable("ethtool netlink socket not open");
  with_stats = with_stats && !stats_refused_.test(command);
  nl_msg* msg = nlmsg_alloc();
  if (!msg) return Status::IoError("nlmsg_alloc failed");
  bool built = genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0, NLM_F_REQUEST, command,
                           ETHTOOL_GENL_VERSION) != nullptr;
  nlattr* header = built ? nla_nest_start(msg, header_attr) : nullptr;
  built = header && nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, netdev.c_str()) == 0 &&
          (!with_stats || nla_put_u32(msg, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_STATS) == 0);
  if (built) nla_nest_end(msg, header);
  built = built && (!add || add(msg) == 0);
  if (!built) {
    nlmsg_free(msg);
    return Status::Internal(std::string("cannot build ") + CommandName(command));
  }
  int sent = nl_send_auto(sock_, msg);
  nlmsg_free(msg);
  ++requests_;
  if (sent < 0)
    return Status::IoError(std::string(CommandName(command)) + " " + netdev + ": " +
                           nl_geterror(sent));

  ReplyState state{&on_reply};
  nl_cb* cb = nl_cb_alloc(NL_CB_DEFAULT);
  if (!cb) return Status::IoError("nl_cb_alloc failed");
  nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, OnValid, &state);
  nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, OnAck, &state);
  nl_cb_err(cb, NL_CB_CUSTOM, OnError, &state);
  int received = 0;
  while (!state.done) {
    received = nl_recvmsgs(sock_, cb);
    if (received < 0 && !state.done) break;
  }
  nl_cb_put(cb);
  if (state.error == EOPNOTSUPP) return false;
  if (state.error == EINVAL && with_stats) {
    // Remembered only when the request without the flag is answered: an EINVAL for another
    // reason (this netdev) must not take the counters of every other netdev's replies.
    StatusOr<bool> without = Request(command, header_attr, false, netdev, add, on_reply);
    if (without.ok()) stats_refused_.set(command);
    return without;
  }
  if (state.error != 0) return NetlinkError(state.error, netdev, command, CommandName(command));
  if (!state.done)
    return Status::IoError(std::string(CommandName(command)) + " " + netdev + ": " +
                           nl_geterror(received));
  return true;
}

StatusOr<std::optional<FecReading>> LibnlEthtoolSource::Fec(const std::string& netdev) {
  FecReading reading;
  StatusOr<bool> answered =
      Request(ETHTOOL_MSG_FEC_GET, ETHTOOL_A_FEC_HEADER, true, netdev, {}, [&](nlmsghdr* nlh) {
        nlattr* tb[ETHTOOL_A_FEC_MAX + 1] = {};
        if (genlmsg_parse(nlh, 0, tb, ETHTOOL_A_FEC_MAX, nullptr) < 0) return;
        if (tb[ETHTOOL_A_FEC_ACTIVE])
          reading.active_mode_bit = nla_get_u32(tb[ETHTOOL_A_FEC_ACTIVE]);
        if (!tb[ETHTOOL_A_FEC_STATS]) return;
        nlattr* stats[ETHTOOL_A_FEC_STAT_MAX + 1] = {};
        if (nla_parse_nested(stats, ETHTOOL_A_FEC_STAT_MAX, tb[ETHTOOL_A_FEC_STATS], nullptr) < 0)
          return;
        ReadTotalAndLanes(stats[ETHTOOL_A_FEC_STAT_CORRECTED], reading.corrected_blocks,
                          reading.corrected_blocks_per_lane);
        ReadTotalAndLanes(stats[ETHTOOL_A_FEC_STAT_UNCORR], reading.uncorrectable_blocks,
                          reading.uncorrectable_blocks_per_lane);
        ReadTotalAndLanes(stats[ETHTOOL_A_FEC_STAT_CORR_BITS], reading.corrected_bits,
                          reading.corrected_bits_per_lane);
      });
  if (!answered.ok()) return answered.status();
  if (!*answered) return std::optional<FecReading>();
  return std::optional<FecReading>(reading);
}

StatusOr<std::optional<LinkStateReading>> LibnlEthtoolSource::LinkState(const std::string& netdev) {
  LinkStateReading reading;
  StatusOr<bool> answered = Request(
      ETHTOOL_MSG_LINKSTATE_GET, ETHTOOL_A_LINKSTATE_HEADER, true, netdev, {}, [&](nlmsghdr* nlh) {
        nlattr* tb[kLinkStateMax + 1] = {};
        if (genlmsg_parse(nlh, 0, tb, kLinkStateMax, nullptr) < 0) return;
        if (tb[ETHTOOL_A_LINKSTATE_LINK])
          reading.link_up = nla_get_u8(tb[ETHTOOL_A_LINKSTATE_LINK]) != 0;
        if (tb[ETHTOOL_A_LINKSTATE_EXT_STATE])
          reading.ext_state = nla_get_u8(tb[ETHTOOL_A_LINKSTATE_EXT_STATE]);
        if (tb[ETHTOOL_A_LINKSTATE_EXT_SUBSTATE])
          reading.ext_substate = nla_get_u8(tb[ETHTOOL_A_LINKSTATE_EXT_SUBSTATE]);
        if (tb[kLinkStateExtDownCount])
          reading.link_down_count = nla_get_u32(tb[kLinkStateExtDownCount]);
      });
  if (!answered.ok()) return answered.status();
  if (!*answered) return std::optional<LinkStateReading>();
  return std::optional<LinkStateReading>(reading);
}

StatusOr<std::optional<PauseReading>> LibnlEthtoolSource::Pause(const std::string& netdev) {
  PauseReading reading;
  StatusOr<bool> answered =
      Request(ETHTOOL_MSG_PAUSE_GET, ETHTOOL_A_PAUSE_HEADER, true, netdev, {}, [&](nlmsghdr* nlh) {
        nlattr* tb[ETHTOOL_A_PAUSE_MAX + 1] = {};
        if (genlmsg_parse(nlh, 0, tb, ETHTOOL_A_PAUSE_MAX, nullptr) < 0) return;
        if (tb[ETHTOOL_A_PAUSE_AUTONEG])
          reading.autoneg = nla_get_u8(tb[ETHTOOL_A_PAUSE_AUTONEG]) != 0;
        if (tb[ETHTOOL_A_PAUSE_RX]) reading.rx_enabled = nla_get_u8(tb[ETHTOOL_A_PAUSE_RX]) != 0;
        if (tb[ETHTOOL_A_PAUSE_TX]) reading.tx_enabled = nla_get_u8(tb[ETHTOOL_A_PAUSE_TX]) != 0;
        if (!tb[ETHTOOL_A_PAUSE_STATS]) return;
        nlattr* stats[ETHTOOL_A_PAUSE_STAT_MAX + 1] = {};
        if (nla_parse_nested(stats, ETHTOOL_A_PAUSE_STAT_MAX, tb[ETHTOOL_A_PAUSE_STATS], nullptr) <
            0)
          return;
        if (stats[ETHTOOL_A_PAUSE_STAT_TX_FRAMES])
          reading.tx_pause_frames = nla_get_u64(stats[ETHTOOL_A_PAUSE_STAT_TX_FRAMES]);
        if (stats[ETHTOOL_A_PAUSE_STAT_RX_FRAMES])
          reading.rx_pause_frames = nla_get_u64(stats[ETHTOOL_A_PAUSE_STAT_RX_FRAMES]);
      });
  if (!answered.ok()) return answered.status();
  if (!*answered) return std::optional<PauseReading>();
  return std::optional<PauseReading>(reading);
}

StatusOr<std::optional<StandardStatistics>> LibnlEthtoolSource::Standard(
    const std::string& netdev) {
  StandardStatistics reading;
  // Every group, as a compact bitset without mask.
  auto add_groups = [](nl_msg* msg) {
    nlattr* groups = nla_nest_start(msg, ETHTOOL_A_STATS_GROUPS);
    if (!groups) return -1;
    const uint32_t all = (1u << __ETHTOOL_STATS_CNT) - 1;
    if (nla_put_flag(msg, ETHTOOL_A_BITSET_NOMASK) < 0 ||
        nla_put_u32(msg, ETHTOOL_A_BITSET_SIZE, __ETHTOOL_STATS_CNT) < 0 ||
        nla_put(msg, ETHTOOL_A_BITSET_VALUE, sizeof(all), &all) < 0)
      return -1;
    nla_nest_end(msg, groups);
    return 0;
  };
  StatusOr<bool> answered = Request(
      ETHTOOL_MSG_STATS_GET, ETHTOOL_A_STATS_HEADER, false, netdev, add_groups, [&](nlmsghdr* nlh) {
        // Several ETHTOOL_A_STATS_GRP attributes: walk them (a parse table keeps only the last).
        nlattr* attr;
        int remaining;
        nla_for_each_attr(attr, genlmsg_attrdata(static_cast<genlmsghdr*>(nlmsg_data(nlh)), 0),
                          genlmsg_attrlen(static_cast<genlmsghdr*>(nlmsg_data(nlh)), 0),
                          remaining) {
          if (nla_type(attr) != ETHTOOL_A_STATS_GRP) continue;
          std::optional<uint32_t> group;
          nlattr* member;
          int left;
          nla_for_each_nested(member, attr, left) {
            if (nla_type(member) == ETHTOOL_A_STATS_GRP_ID) group = nla_get_u32(member);
          }
          if (!group) continue;
          nla_for_each_nested(member, attr, left) {
            if (nla_type(member) != ETHTOOL_A_STATS_GRP_STAT) continue;
            nlattr* stat;
            int stat_left;
            nla_for_each_nested(stat, member, stat_left) {
              if (nla_len(stat) < static_cast<int>(sizeof(uint64_t))) continue;
              reading.counters[StandardStatisticName(*group, nla_type(stat))] = nla_get_u64(stat);
            }
          }
        }
      });
  if (!answered.ok()) return answered.status();
  if (!*answered) return std::optional<StandardStatistics>();
  return std::optional<StandardStatistics>(reading);
}

StatusOr<std::optional<EthtoolAnswer>> LibnlEthtoolSource::Read(const std::string& netdev,
                                                                EthtoolRequest request) {
  switch (request) {
    case EthtoolRequest::kFec:
      return AnswerOf(Fec(netdev));
    case EthtoolRequest::kLinkState:
      return AnswerOf(LinkState(netdev));
    case EthtoolRequest::kPause:
      return AnswerOf(Pause(netdev));
    case EthtoolRequest::kStandardStatistics:
      return AnswerOf(Standard(netdev));
  }
  return Status::InvalidArgument("unknown ethtool request");
}

StatusOr<std::optional<std::string>> LibnlEthtoolSource::ReadModulePage(
    const std::string& netdev, const ModulePageAddress& address) {
  std::string data;
  auto add = [&address](nl_msg* msg) {
    return (nla_put_u32(msg, ETHTOOL_A_MODULE_EEPROM_OFFSET, address.offset) < 0 ||
            nla_put_u32(msg, ETHTOOL_A_MODULE_EEPROM_LENGTH, address.length) < 0 ||
            nla_put_u8(msg, ETHTOOL_A_MODULE_EEPROM_PAGE, address.page) < 0 ||
            nla_put_u8(msg, ETHTOOL_A_MODULE_EEPROM_BANK, address.bank) < 0 ||
            nla_put_u8(msg, ETHTOOL_A_MODULE_EEPROM_I2C_ADDRESS, address.i2c_address) < 0)
               ? -1
               : 0;
  };
  StatusOr<bool> answered =
      Request(ETHTOOL_MSG_MODULE_EEPROM_GET, ETHTOOL_A_MODULE_EEPROM_HEADER, false, netdev, add,
              [&](nlmsghdr* nlh) {
                nlattr* tb[ETHTOOL_A_MODULE_EEPROM_MAX + 1] = {};
                if (genlmsg_parse(nlh, 0, tb, ETHTOOL_A_MODULE_EEPROM_MAX, nullptr) < 0) return;
                if (nlattr* bytes = tb[ETHTOOL_A_MODULE_EEPROM_DATA])
                  data.assign(static_cast<const char*>(nla_data(bytes)),
                              static_cast<size_t>(nla_len(bytes)));
              });
  if (!answered.ok()) return answered.status();
  if (!*answered) return std::optional<std::string>();
  return std::optional<std::string>(std::move(data));
}

}  // namespace rocewatch

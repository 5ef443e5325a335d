#include "netlink/dcb_pfc.h"

#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace rocewatch {
namespace {

struct Reply {
  std::vector<uint8_t> attributes;  // after the dcbmsg header
  int error = 0;
  bool done = false;
};

int OnValid(nl_msg* msg, void* arg) {
  auto* reply = static_cast<Reply*>(arg);
  nlmsghdr* header = nlmsg_hdr(msg);
  const int length = nlmsg_datalen(header);
  if (length >= static_cast<int>(sizeof(dcbmsg))) {
    const auto* data = static_cast<const uint8_t*>(nlmsg_data(header));
    reply->attributes.assign(data + NLMSG_ALIGN(sizeof(dcbmsg)), data + length);
  }
  reply->done = true;
  return NL_STOP;
}

int OnError(sockaddr_nl*, nlmsgerr* err, void* arg) {
  auto* reply = static_cast<Reply*>(arg);
  reply->error = err->error < 0 ? -err->error : err->error;
  reply->done = true;
  return NL_STOP;
}

}  // namespace

StatusOr<std::optional<HostPfc>> ParseDcbIeeeAnswer(std::span<const uint8_t> attributes) {
  if (attributes.size() > kMaxDcbAnswerBytes)
    return Status::Corrupt("DCB answer larger than 64 KiB");
  // nla_parse reads the buffer only; it needs a mutable pointer by its signature.
  std::vector<uint8_t> copy(attributes.begin(), attributes.end());
  nlattr* top[DCB_ATTR_MAX + 1] = {};
  if (nla_parse(top, DCB_ATTR_MAX, reinterpret_cast<nlattr*>(copy.data()),
                static_cast<int>(copy.size()), nullptr) < 0)
    return Status::Corrupt("DCB answer: attributes do not parse");
  if (top[DCB_ATTR_IEEE] == nullptr) return std::optional<HostPfc>();
  nlattr* ieee[DCB_ATTR_IEEE_MAX + 1] = {};
  if (nla_parse_nested(ieee, DCB_ATTR_IEEE_MAX, top[DCB_ATTR_IEEE], nullptr) < 0)
    return Status::Corrupt("DCB answer: IEEE attributes do not parse");
  nlattr* pfc = ieee[DCB_ATTR_IEEE_PFC];
  if (pfc == nullptr) return std::optional<HostPfc>();
  if (nla_len(pfc) < static_cast<int>(offsetof(ieee_pfc, pfc_en) + 1))
    return Status::Corrupt("DCB answer: PFC attribute of " + std::to_string(nla_len(pfc)) +
                           " bytes");
  const auto* bytes = static_cast<const uint8_t*>(nla_data(pfc));
  return std::optional<HostPfc>(HostPfc{.enabled = bytes[offsetof(ieee_pfc, pfc_en)],
                                        .capability = bytes[offsetof(ieee_pfc, pfc_cap)]});
}

LibnlDcbSource::~LibnlDcbSource() {
  if (sock_) nl_socket_free(sock_);
}

Status LibnlDcbSource::Open() {
  if (sock_) return Status::Ok();
  sock_ = nl_socket_alloc();
  if (!sock_) return Status::IoError("nl_socket_alloc failed");
  if (int error = nl_connect(sock_, NETLINK_ROUTE); error < 0) {
    nl_socket_free(sock_);
    sock_ = nullptr;
    return Status::IoError(std::string("rtnetlink connect: ") + nl_geterror(error));
  }
  nl_socket_disable_auto_ack(sock_);
  timeval timeout{2, 0};
  setsockopt(nl_socket_get_fd(sock_), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  return Status::Ok();
}

StatusOr<std::optional<std::vector<uint8_t>>> LibnlDcbSource::ReadIeeeAnswer(
    const std::string& netdev) {
  if (!sock_) return Status::Unavailable("DCB netlink socket not open");
  nl_msg* msg = nlmsg_alloc_simple(RTM_GETDCB, NLM_F_REQUEST);
  if (!msg) return Status::IoError("nlmsg_alloc failed");
  dcbmsg header{};
  header.dcb_family = AF_UNSPEC;
  header.cmd = DCB_CMD_IEEE_GET;
  bool built = nlmsg_append(msg, &header, sizeof(header), NLMSG_ALIGNTO) == 0 &&
               nla_put_string(msg, DCB_ATTR_IFNAME, netdev.c_str()) == 0;
  if (!built) {
    nlmsg_free(msg);
    return Status::Internal("cannot build DCB_CMD_IEEE_GET");
  }
  int sent = nl_send_auto(sock_, msg);
  nlmsg_free(msg);
  if (sent < 0) return Status::IoError("DCB_CMD_IEEE_GET " + netdev + ": " + nl_geterror(sent));
  Reply reply;
  nl_cb* cb = nl_cb_alloc(NL_CB_DEFAULT);
  if (!cb) return Status::IoError("nl_cb_alloc failed");
  nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, OnValid, &reply);
  nl_cb_err(cb, NL_CB_CUSTOM, OnError, &reply);
  int received = 0;
  while (!reply.done) {
    received = nl_recvmsgs(sock_, cb);
    if (received < 0 && !reply.done) break;
  }
  nl_cb_put(cb);
  if (reply.error == EOPNOTSUPP) return std::optional<std::vector<uint8_t>>();
  if (reply.error == ENODEV)
    return Status::NotFound("DCB_CMD_IEEE_GET " + netdev + ": no such netdev in this namespace");
  if (reply.error != 0) return Status::FromErrno(reply.error, "DCB_CMD_IEEE_GET " + netdev);
  if (!reply.done)
    return Status::IoError("DCB_CMD_IEEE_GET " + netdev + ": " + nl_geterror(received));
  if (reply.attributes.size() > kMaxDcbAnswerBytes)
    return Status::Corrupt("DCB_CMD_IEEE_GET " + netdev + ": answer larger than 64 KiB");
  return std::optional<std::vector<uint8_t>>(std::move(reply.attributes));
}

DcbAnswerReader LibnlDcbAnswerReader() {
  auto source = std::make_shared<LibnlDcbSource>();
  return [source](const std::string& netdev) -> StatusOr<std::optional<std::vector<uint8_t>>> {
    if (Status opened = source->Open(); !opened.ok()) return opened;
    return source->ReadIeeeAnswer(netdev);
  };
}

HostPfcReader HostPfcFromAnswers(DcbAnswerReader read) {
  return [read = std::move(read)](const std::string& netdev) -> StatusOr<std::optional<HostPfc>> {
    StatusOr<std::optional<std::vector<uint8_t>>> answer = read(netdev);
    if (!answer.ok()) return answer.status();
    if (!*answer) return std::optional<HostPfc>();
    return ParseDcbIeeeAnswer(**answer);
  };
}

}  // namespace rocewatch

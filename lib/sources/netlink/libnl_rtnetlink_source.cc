#include "netlink/libnl_rtnetlink_source.h"

#include <linux/rtnetlink.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/rtnl.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include "netlink/rtnetlink_message.h"

namespace rocewatch {
namespace {

Status NlError(const std::string& what, int err) {
  return Status::IoError(what + ": " + nl_geterror(err));
}

// Sets SO_RCVBUF, bypassing net.core.rmem_max where allowed (CAP_NET_ADMIN).
void SetReceiveBuffer(int fd, int bytes) {
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) == 0) return;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) != 0)
    spdlog::warn("netlink: cannot set SO_RCVBUF to {} bytes", bytes);
}

// A connected NETLINK_ROUTE socket whose valid messages go to OnMessage, or null.
StatusOr<nl_sock*> Connect(nl_recvmsg_msg_cb_t on_message, void* arg) {
  nl_sock* sk = nl_socket_alloc();
  if (sk == nullptr) return Status::Internal("nl_socket_alloc failed");
  nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_message, arg);
  int err = nl_connect(sk, NETLINK_ROUTE);
  if (err < 0) {
    nl_socket_free(sk);
    return NlError("cannot open an rtnetlink socket", err);
  }
  return sk;
}

}  // namespace

Status LibnlRtnetlinkSource::Open() {
  Close();
  auto events = Connect(&LibnlRtnetlinkSource::OnMessage, this);
  if (!events.ok()) return events.status();
  events_ = *events;
  nl_socket_disable_seq_check(events_);  // multicast messages carry no sequence number
  SetReceiveBuffer(nl_socket_get_fd(events_), options_.receive_buffer_bytes);
  int err = nl_socket_add_memberships(events_, RTNLGRP_LINK, RTNLGRP_IPV4_IFADDR,
                                      RTNLGRP_IPV6_IFADDR, RTNLGRP_IPV4_RULE, RTNLGRP_IPV6_RULE,
                                      RTNLGRP_IPV4_ROUTE, RTNLGRP_IPV6_ROUTE, 0);
  if (err >= 0) err = nl_socket_set_nonblocking(events_);
  if (err < 0) {
    Close();
    return NlError("cannot subscribe to rtnetlink groups", err);
  }
  auto dumps = Connect(&LibnlRtnetlinkSource::OnMessage, this);
  if (!dumps.ok()) {
    Close();
    return dumps.status();
  }
  dumps_ = *dumps;
  // Dumps are flow-controlled by the kernel; a larger buffer only saves system calls.
  SetReceiveBuffer(nl_socket_get_fd(dumps_), 1 << 20);
  return Status::Ok();
}

void LibnlRtnetlinkSource::Close() {
  if (events_ != nullptr) nl_socket_free(events_);
  if (dumps_ != nullptr) nl_socket_free(dumps_);
  events_ = dumps_ = nullptr;
}

int LibnlRtnetlinkSource::fd() const { return events_ == nullptr ? -1 : nl_socket_get_fd(events_); }

int LibnlRtnetlinkSource::granted_receive_buffer() const {
  if (events_ == nullptr) return 0;
  int value = 0;
  socklen_t len = sizeof value;
  getsockopt(nl_socket_get_fd(events_), SOL_SOCKET, SO_RCVBUF, &value, &len);
  return value;
}

int LibnlRtnetlinkSource::OnMessage(nl_msg* msg, void* arg) {
  auto* self = static_cast<LibnlRtnetlinkSource*>(arg);
  nlmsghdr* nlh = nlmsg_hdr(msg);
  auto parsed = ParseRtnetlinkMessage(nlh, nlh->nlmsg_len, self->reading_at_);
  if (!parsed.ok()) {
    ++self->malformed_;
    spdlog::debug("netlink: skipping a message: {}", parsed.status().ToString());
  } else if (parsed->has_value() && self->collecting_ != nullptr) {
    self->collecting_->push_back(std::move(**parsed));
  }
  return NL_OK;
}

StatusOr<RtnetlinkSource::ReadResult> LibnlRtnetlinkSource::ReadPending(
    std::vector<NetlinkMessage>& out) {
  if (events_ == nullptr) return Status::Internal("rtnetlink source not open");
  collecting_ = &out;
  // nl_socket_get_cb() takes a reference on the socket's callbacks; it is dropped below, or the
  // callbacks (224 bytes) would outlive the socket.
  nl_cb* callbacks = nl_socket_get_cb(events_);
  StatusOr<ReadResult> result = ReadResult::kDrained;
  for (int i = 0; i < options_.max_receives_per_read; ++i) {
    reading_at_ = clock_.Now();
    int n = nl_recvmsgs_report(events_, callbacks);
    if (n > 0) continue;
    if (n == 0 || n == -NLE_AGAIN) break;
    // libnl reports the kernel's ENOBUFS (messages dropped) as NLE_NOMEM.
    result = n == -NLE_NOMEM ? StatusOr<ReadResult>(ReadResult::kOverrun)
                             : StatusOr<ReadResult>(NlError("rtnetlink receive failed", n));
    break;
  }
  nl_cb_put(callbacks);
  collecting_ = nullptr;
  return result;
}

Status LibnlRtnetlinkSource::DumpOne(int type, std::vector<NetlinkMessage>& out) {
  constexpr int kAttempts = 5;  // a dump interrupted by concurrent changes is retried
  int err = 0;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::vector<NetlinkMessage> messages;
    collecting_ = &messages;
    reading_at_ = clock_.Now();
    err = nl_rtgen_request(dumps_, type, AF_UNSPEC, NLM_F_DUMP);
    if (err >= 0) err = nl_recvmsgs_default(dumps_);
    collecting_ = nullptr;
    if (err >= 0) {
      for (auto& m : messages) out.push_back(std::move(m));
      return Status::Ok();
    }
    if (err != -NLE_DUMP_INTR) break;
  }
  return NlError("rtnetlink dump " + std::to_string(type) + " failed", err);
}

StatusOr<NetlinkDump> LibnlRtnetlinkSource::Dump() {
  if (dumps_ == nullptr) return Status::Internal("rtnetlink source not open");
  NetlinkDump dump;
  dump.at = clock_.Now();
  std::vector<NetlinkMessage> messages;
  for (int type : {RTM_GETLINK, RTM_GETADDR, RTM_GETRULE, RTM_GETROUTE}) {
    Status s = DumpOne(type, messages);
    if (!s.ok()) return s;
  }
  for (auto& m : messages) {
    if (auto* link = std::get_if<LinkMessage>(&m)) dump.links.push_back(std::move(*link));
    if (auto* addr = std::get_if<AddressMessage>(&m)) dump.addresses.push_back(std::move(*addr));
    if (auto* rule = std::get_if<RuleMessage>(&m)) dump.rules.push_back(std::move(*rule));
    if (auto* route = std::get_if<RouteMessage>(&m)) dump.routes.push_back(std::move(*route));
  }
  return dump;
}

}  // namespace rocewatch

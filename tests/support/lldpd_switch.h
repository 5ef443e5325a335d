#pragma once
// Debian's lldpd as a stand-in leaf switch on one end of a veth pair in a test's namespace:
// `ip netns exec NS lldpd -d -I IF -u SOCK`, configured through lldpcli (system name,
// capabilities bridge and router, port ID subtype ifname, a transmit interval of 1 s, optionally
// the 802.1Qaz PFC TLV as a custom TLV). Stopped, with its privilege-separated child, when the
// object goes (its own process group, by id).

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "core/status.h"

namespace rocewatch {

struct LldpdSwitchConfig {
  std::string hostname = "leaf-07";
  std::optional<uint8_t> pfc_enabled;  // bitmap of priorities; absent: no PFC TLV
};

class LldpdSwitch {
 public:
  // Unavailable when lldpd is not installed (the test skips). Waits at most 10 s for its socket.
  static StatusOr<std::unique_ptr<LldpdSwitch>> Start(const std::string& netns,
                                                      const std::string& interface,
                                                      const LldpdSwitchConfig& config);
  ~LldpdSwitch();
  LldpdSwitch(const LldpdSwitch&) = delete;
  LldpdSwitch& operator=(const LldpdSwitch&) = delete;

  // Runs `lldpcli -u SOCK <command>` in the namespace.
  Status Configure(const std::string& command) const;

 private:
  LldpdSwitch(std::string netns, std::string socket, pid_t pid, int lock)
      : netns_(std::move(netns)), socket_(std::move(socket)), pid_(pid), lock_(lock) {}
  std::string netns_;
  std::string socket_;
  pid_t pid_;
  // One lldpd on the machine at a time: a second instance refuses to run beside the first
  // (tests in parallel processes). An flock held for this switch's life.
  int lock_;
};

}  // namespace rocewatch

#pragma once
// What `collect` records of each rail's far end (docs/bundle.md): the last LLDP frame received on
// each RoCE port netdev within a bounded wait, written as <bundle>/rocewatch/lldp/<netdev>.pcap
// (lldp/lldp_pcap.h). Switches send LLDP every 30 s by default, so the wait ends as soon as every
// rail has a frame, at `wait` at the latest, and at once when no socket could be opened.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/clock.h"
#include "lldp/lldp_socket.h"

namespace rocewatch {

struct LldpCapture {
  std::map<std::string, std::vector<uint8_t>> last_frame;  // by netdev: rails that sent one
  std::vector<std::string> failures;  // "<netdev> LLDP: <why>": sockets that could not be opened
};

// Opens `open(netdev)` for each netdev and reads them on an event loop of `clock` until each has
// a frame or `wait` passed. A socket without a descriptor (a recording) is read once, at once.
LldpCapture CaptureLldpFrames(const LldpSocketOpener& open, const std::set<std::string>& netdevs,
                              const Clock& clock, Duration wait);

}  // namespace rocewatch

#include "model/route.h"

namespace rocewatch {

std::string Route::ToString() const {
  std::string out = dst.empty() ? "default" : dst + "/" + std::to_string(dst_len);
  if (!gateway.empty()) out += " via " + gateway;
  if (oif != 0) out += " dev#" + std::to_string(oif);
  if (!prefsrc.empty()) out += " src " + prefsrc;
  out += " table " + std::to_string(table);
  if (metric != 0) out += " metric " + std::to_string(metric);
  return out;
}

}  // namespace rocewatch

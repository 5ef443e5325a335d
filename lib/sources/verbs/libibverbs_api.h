#pragma once
// The real VerbsApi: libibverbs. Only this file's .cc includes <infiniband/verbs.h>.
// On a kernel without RDMA support ListDevices() reports no devices and nothing else is called.

#include "verbs/verbs_api.h"

namespace rocewatch {

class LibibverbsApi final : public VerbsApi {
 public:
  StatusOr<VerbsDeviceList> ListDevices() override;
  StatusOr<std::unique_ptr<VerbsDevice>> OpenDevice(const std::string& name) override;
  StatusOr<std::string> NetdevName(uint32_t ifindex) override;
};

}  // namespace rocewatch

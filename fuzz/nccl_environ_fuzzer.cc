// /proc/<pid>/environ of a training process, as `diagnose` reads it: ParseEnvironBlock picks the
// NCCL_* variables out of the NUL-separated block, InterpretNcclSettings reads the ones diagnose
// checks, and NCCL_IB_HCA becomes a device selector. The block is whatever the process put in
// its environment: any bytes, truncated anywhere.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_check.h"
#include "nccl/nccl_environment.h"

using namespace rocewatch;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view block = fuzz::AsText(data, size);
  const std::map<std::string, std::string> variables = ParseEnvironBlock(block, "NCCL_");
  for (const auto& [name, value] : variables) {
    FUZZ_CHECK(name.rfind("NCCL_", 0) == 0);
    FUZZ_CHECK(name.find('=') == std::string::npos);
    FUZZ_CHECK(name.find('\0') == std::string::npos && value.find('\0') == std::string::npos);
    FUZZ_CHECK(block.find(name + "=" + value) != std::string_view::npos);
  }
  FUZZ_CHECK(ParseEnvironBlock(block, "").size() >= variables.size());

  const NcclSettings settings = InterpretNcclSettings(variables);
  FUZZ_CHECK(settings.raw == variables);
  if (settings.gid_index) FUZZ_CHECK(*settings.gid_index >= -1 && *settings.gid_index <= 65535);
  if (settings.timeout) FUZZ_CHECK(*settings.timeout >= 0 && *settings.timeout <= 31);
  if (settings.retry_count) FUZZ_CHECK(*settings.retry_count >= 0 && *settings.retry_count <= 7);
  FUZZ_CHECK(settings.roce_version == 1 || settings.roce_version == 2);
  FUZZ_CHECK(settings.invalid.size() <= variables.size());
  if (settings.hca) {
    for (const NcclHcaEntry& entry : settings.hca->entries) {
      FUZZ_CHECK(!entry.device.empty());
      if (entry.port) FUZZ_CHECK(*entry.port > 0 && *entry.port < 256);
      // A listed device is selected on every port the entry allows, or excluded on all of them.
      const int port = entry.port.value_or(1);
      if (!settings.hca->exclude) FUZZ_CHECK(settings.hca->Selects(entry.device, port));
    }
  }
  return 0;
}

#pragma once
// Which NCCL a process runs, from its /proc/<pid>/maps. Pure parsers; the scan that reads the
// files is in consumers/procfs_consumer_scanner.h.
//
//   installed build (deb, rpm, conda): maps .../libnccl.so.2.21.5        -> the name says it
//   pip wheel (nvidia-nccl-cu12):      maps .../site-packages/nvidia/nccl/lib/libnccl.so.2
//                                      beside .../site-packages/nvidia_nccl_cu12-2.21.5.dist-info
//   statically linked (some PyTorch builds): no libnccl in maps -> unknown. Finding the version
//   in the binary would mean scanning hundreds of megabytes; we do not.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocewatch {

struct NcclLibraryMapping {
  std::string path;     // as mapped, in the process's mount namespace
  std::string version;  // from the file name; empty when the name has no full version
  // For a pip wheel's libnccl.so.2: the site-packages directory holding the dist-info.
  std::string site_packages;
};

// The first libnccl.so* mapping of a maps file (the NCCL net plugins, libnccl-net*.so, are not
// NCCL itself); nullopt when none. Lines that do not parse are skipped.
std::optional<NcclLibraryMapping> FindNcclLibrary(std::string_view maps);

// The version of a "nvidia_nccl_<variant>-X.Y.Z.dist-info" among directory entries, nullopt when
// none matches.
std::optional<std::string> NcclVersionFromDistInfo(const std::vector<std::string>& entries);

}  // namespace rocewatch

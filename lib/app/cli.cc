#include "app/cli.h"

#include <cstdio>

#include "build_info.h"

namespace rocewatch {

int RunCli(int argc, char** argv) {
  (void)argc;
  (void)argv;
  std::printf("rocewatch %s (%s)\n", kVersion, kGitRevision);
  return 0;
}

}  // namespace rocewatch

// rocewatch: the thin main. The real host is built here, once; everything it wires lives in lib/
// (lib/commands/cli/cli.h, lib/daemon/host_env.h).
#include "cli/cli.h"
#include "daemon/host_env.h"

int main(int argc, char** argv) {
  // Never destroyed: a reading thread given up on (a read stuck in the kernel, lib/daemon/
  // guarded_snapshot_source.h) may still be inside its file system when main returns, and the
  // process exit, not a destructor, is what ends it.
  static rocewatch::RealHostEnv* const host = new rocewatch::RealHostEnv;
  return rocewatch::RunCli(host->env(), argc, argv);
}

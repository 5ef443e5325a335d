// rocewatch: the thin main. The real host is built here, once; everything it wires lives in lib/
// (lib/app/cli.h, lib/app/host_env.h).
#include "app/cli.h"
#include "app/host_env.h"

int main(int argc, char** argv) {
  // Never destroyed: a reading thread given up on (a read stuck in the kernel, lib/app/
  // guarded_snapshot_source.h) may still be inside its file system when main returns, and the
  // process exit, not a destructor, is what ends it.
  static rocewatch::RealHostEnv* const host = new rocewatch::RealHostEnv;
  return rocewatch::RunCli(host->env(), argc, argv);
}

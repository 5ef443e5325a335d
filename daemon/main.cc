// rocewatch: the thin main. The real host is built here, once; everything it wires lives in lib/
// (lib/app/cli.h, lib/app/host_env.h).
#include "app/cli.h"
#include "app/host_env.h"

int main(int argc, char** argv) {
  rocewatch::RealHostEnv host;
  return rocewatch::RunCli(host.env(), argc, argv);
}

// rocewatch: the thin main. Everything it wires lives in lib/ (see lib/app/cli.h).
#include "app/cli.h"

int main(int argc, char** argv) { return rocewatch::RunCli(argc, argv); }

// Must not compile: a feature (lib/features/traffic) may not see another feature
// (lib/features/gid_drift), though both are in the layer `features`.
// Built only by check_layering.sh.
#include "gid_drift/gid_drift_detector.h"
#include "traffic/traffic_detector.h"

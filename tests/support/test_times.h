#pragma once
// Shared instants and rates of the detector tests, so that every test file of one unity batch
// (the test binaries are built in batches of files) sees a single definition.

namespace rocewatch {

// 2026-01-01T00:00:00Z: the wall time the detector tests start at (FakeClock's as well).
inline constexpr double kT0 = 1767225600.0;

// 10 GB/s: the byte rate of a busy 400G rail in the traffic tests.
inline constexpr double kBusyRailRate = 10e9;

}  // namespace rocewatch

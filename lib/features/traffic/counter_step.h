#pragma once
// How a kernel counter moved between two reads: advanced, wrapped, saturated or reset. Pure.
//
// RDMA counters come in three kinds (see docs/detection.md):
//   - 64-bit counters (extended PMA data counters, mlx5 congestion counters): in practice they
//     never wrap, so a value going down means the device or driver was reset;
//   - 32-bit counters that wrap (mlx5 hw_counters Q-counters): a value going down by a
//     wrap-sized step is a wrap, any other decrease is a reset;
//   - narrow PMA counters that saturate (legacy 32-bit port_xmit_data, 16-bit symbol_error, 8-bit
//     link_downed): once at their maximum they stop, and the true increase is unknown.

#include <cstdint>

namespace rocewatch {

enum class CounterOverflow { kWraps, kSaturates };

struct CounterWidth {
  unsigned bits = 64;  // 1..64
  CounterOverflow overflow = CounterOverflow::kWraps;
  // The values compared are the kernel's raw values times `scale` (the data counters count
  // 4-octet units and are compared in bytes). 1..4.
  uint64_t scale = 1;

  // The largest value the counter can hold, scaled: (2^bits - 1) * scale (64 bits: UINT64_MAX).
  uint64_t Max() const { return bits >= 64 ? UINT64_MAX : ((uint64_t{1} << bits) - 1) * scale; }
};

inline constexpr CounterWidth kCounter64{64, CounterOverflow::kWraps, 1};
inline constexpr CounterWidth kQCounter32{32, CounterOverflow::kWraps, 1};
inline constexpr CounterWidth kPmaCounter32{32, CounterOverflow::kSaturates, 1};
// counters/port_xmit_data and port_rcv_data in bytes (x4). The kernel shows the 64-bit extended
// PMA counter where the device has it (mlx5 does) and the legacy 32-bit saturating one otherwise.
// A value above the 32-bit maximum proves the 64-bit counter; a value exactly at it reads as
// saturated (one sample lost in the rare case of a 64-bit counter passing through it).
inline constexpr CounterWidth kPortDataBytes{32, CounterOverflow::kSaturates, 4};

enum class CounterStepKind {
  kAdvanced,   // current >= previous: delta = current - previous
  kWrapped,    // a wrap-sized decrease of a wrapping counter: delta counts through the wrap
  kSaturated,  // a saturating counter reads its maximum: the increase is unknown
  kReset,      // any other decrease: the counter restarted (device reset, counters cleared)
};

struct CounterStep {
  CounterStepKind kind = CounterStepKind::kAdvanced;
  uint64_t delta = 0;  // meaningful for kAdvanced and kWrapped only

  bool HasDelta() const {
    return kind == CounterStepKind::kAdvanced || kind == CounterStepKind::kWrapped;
  }
};

// Classifies the move from `previous` to `current` of a counter of `width`.
// A decrease of a wrapping counter narrower than 64 bits is a wrap when `previous` fits the width
// and the increase through the wrap is at most half the range (a reset to a small value from a
// large one is the only ambiguous case; it reads as a small increase, which is harmless).
// A value above the width's maximum (the width was a guess) is treated as a 64-bit value.
// The wrap arithmetic assumes scale 1 (wrapping counters are never scaled).
CounterStep ClassifyCounterStep(CounterWidth width, uint64_t previous, uint64_t current);

const char* CounterStepKindLabel(CounterStepKind kind);  // "advanced", "wrapped", ...

}  // namespace rocewatch

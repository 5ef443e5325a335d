#include "traffic/counter_step.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

struct StepCase {
  const char* name;
  CounterWidth width;
  uint64_t previous;
  uint64_t current;
  CounterStepKind kind;
  uint64_t delta;
};

TEST(ClassifyCounterStep, Table) {
  constexpr uint64_t k32 = 0xFFFFFFFFu;
  constexpr uint64_t kData32 = 4 * k32;
  const StepCase cases[] = {
      {"64-bit advance", kCounter64, 100, 250, CounterStepKind::kAdvanced, 150},
      {"unchanged", kCounter64, 7, 7, CounterStepKind::kAdvanced, 0},
      {"64-bit decrease is a reset", kCounter64, 5'000'000'000, 10, CounterStepKind::kReset, 0},
      {"64-bit near max decrease is a reset", kCounter64, UINT64_MAX - 5, 3,
       CounterStepKind::kReset, 0},
      {"32-bit advance", kQCounter32, 10, 20, CounterStepKind::kAdvanced, 10},
      {"32-bit wrap", kQCounter32, k32 - 9, 5, CounterStepKind::kWrapped, 15},
      {"32-bit wrap to zero", kQCounter32, k32, 0, CounterStepKind::kWrapped, 1},
      {"32-bit reset from the middle", kQCounter32, 1'000'000, 10, CounterStepKind::kReset, 0},
      {"32-bit reset just below half range", kQCounter32, 0x7FFFFFFF, 0, CounterStepKind::kReset,
       0},
      {"32-bit counter that is really 64-bit advances", kQCounter32, k32 - 1, k32 + 100,
       CounterStepKind::kAdvanced, 101},
      {"32-bit guess above range: decrease is a reset", kQCounter32, k32 + 100, 3,
       CounterStepKind::kReset, 0},
      {"PMA advance", kPmaCounter32, 10, 11, CounterStepKind::kAdvanced, 1},
      {"PMA reaching its max saturates", kPmaCounter32, k32 - 3, k32, CounterStepKind::kSaturated,
       0},
      {"PMA stuck at its max stays saturated", kPmaCounter32, k32, k32, CounterStepKind::kSaturated,
       0},
      {"PMA cleared (perfquery -r) is a reset", kPmaCounter32, k32, 0, CounterStepKind::kReset, 0},
      {"16-bit symbol_error saturates", CounterWidth{16, CounterOverflow::kSaturates, 1}, 65000,
       65535, CounterStepKind::kSaturated, 0},
      {"data bytes: legacy counter at max", kPortDataBytes, kData32 - 400, kData32,
       CounterStepKind::kSaturated, 0},
      {"data bytes: extended counter past 32 bits", kPortDataBytes, kData32 - 400, kData32 + 400,
       CounterStepKind::kAdvanced, 800},
      {"data bytes: extended counter beyond", kPortDataBytes, 1ull << 50, (1ull << 50) + 4,
       CounterStepKind::kAdvanced, 4},
      {"data bytes: device reset", kPortDataBytes, 1ull << 50, 0, CounterStepKind::kReset, 0},
  };
  for (const StepCase& c : cases) {
    CounterStep step = ClassifyCounterStep(c.width, c.previous, c.current);
    EXPECT_EQ(step.kind, c.kind) << c.name << ": got " << CounterStepKindLabel(step.kind);
    if (step.HasDelta()) {
      EXPECT_EQ(step.delta, c.delta) << c.name;
    }
  }
}

TEST(CounterWidth, MaxScalesAndCoversSixtyFourBits) {
  EXPECT_EQ(kCounter64.Max(), UINT64_MAX);
  EXPECT_EQ(kQCounter32.Max(), 0xFFFFFFFFu);
  EXPECT_EQ(kPortDataBytes.Max(), 4ull * 0xFFFFFFFFu);
  EXPECT_EQ((CounterWidth{8, CounterOverflow::kSaturates, 1}.Max()), 255u);
}

}  // namespace
}  // namespace rocewatch

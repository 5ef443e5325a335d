// The simulated kernel GID table behaves as the kernel's does (drivers/infiniband/core/cache.c).
#include "support/simulated_gid_table.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

using Slot = SimulatedGidTable::SlotState;

TEST(SimulatedGidTableTest, DefaultGidsSitInReservedSlotsZeroAndOne) {
  SimulatedGidTable table(1, "eth0", "b8:ce:f6:01:02:03");
  std::vector<GidEntry> entries = table.Entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0],
            (GidEntry{1, 0, "fe80:0000:0000:0000:bace:f6ff:fe01:0203", GidType::kRoceV1, "eth0"}));
  EXPECT_EQ(entries[1].type, GidType::kRoceV2);
  EXPECT_EQ(table.slots().size(), 255u);
}

TEST(SimulatedGidTableTest, AnAddressAddsAV1AndAV2EntryAtTheLowestFreeSlots) {
  SimulatedGidTable table(1, "eth0", "02:00:00:00:00:01");
  EXPECT_EQ(table.AddAddress("10.0.0.1/24"), (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(table.AddAddress("10.0.0.2"), (std::vector<uint32_t>{4, 5}));
  table.RemoveAddress("10.0.0.1");
  EXPECT_EQ(table.AddAddress("10.0.0.3"), (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(table.AddAddress("10.0.0.3"), (std::vector<uint32_t>{2, 3})) << "no duplicates";
}

TEST(SimulatedGidTableTest, AReferencedEntryStaysPendingUntilItsLastReferenceGoes) {
  SimulatedGidTable table(1, "eth0", "02:00:00:00:00:01");
  table.AddAddress("10.0.0.1");
  table.TakeReference(3);
  table.TakeReference(3);
  table.RemoveAddress("10.0.0.1");
  EXPECT_EQ(table.slots()[2].state, Slot::kFree);
  EXPECT_EQ(table.slots()[3].state, Slot::kPendingDelete);
  EXPECT_EQ(table.Entries().size(), 2u) << "pending entries are not valid";
  EXPECT_EQ(table.AddAddress("10.0.0.1"), (std::vector<uint32_t>{2, 4}));
  table.ReleaseReferences(3);
  EXPECT_EQ(table.slots()[3].state, Slot::kFree);
  EXPECT_EQ(table.IndexOf("10.0.0.1", GidType::kRoceV2), 4u) << "a moved GID stays where it is";
}

}  // namespace
}  // namespace rocewatch

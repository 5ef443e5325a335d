#!/usr/bin/env python3
"""Writes the ethtool recordings of an mlx5 RNIC netdev (docs/bundle.md, "Ethtool recordings")
under HOST_ROOT/rocewatch/ethtool/NETDEV/: `ethtool -S` statistics with the PHY, FEC and PFC
counters mlx5 reports (names from drivers/net/ethernet/mellanox/mlx5/core/en_stats.c), the FEC
statistics, the link state, pause statistics, and an SFF-8636 (QSFP28) module's lower page and
threshold page 03h (offsets of SFF-8636 rev 2.10a). STEP scales the counters, so that a second
call with a larger STEP makes the counters advance as on a live link.

Usage: mlx5_recordings.py HOST_ROOT NETDEV [STEP]
"""

import os
import struct
import sys


def statistics(step):
    bits = 25_000_000_000 * step  # 100G for `step` seconds, both directions counted once
    counters = [
        ("rx_packets_phy", 1_843_993_018 + 2_000_000 * step),
        ("tx_packets_phy", 1_790_004_112 + 2_000_000 * step),
        ("rx_bytes_phy", 2_371_999_771_232 + bits // 8),
        ("tx_bytes_phy", 2_301_118_004_116 + bits // 8),
        ("rx_bits_phy", bits),
        ("rx_corrected_bits_phy", 2_381_122 + 150 * step),
        ("rx_pcs_symbol_err_phy", 0),
        ("rx_symbol_err_phy", 0),
        ("rx_crc_errors_phy", 0),
        ("rx_discards_phy", 0),
        ("link_down_events_phy", 2),
        ("rx_pause_ctrl_phy", 0),
        ("tx_pause_ctrl_phy", 0),
        ("rx_global_pause", 0),
        ("rx_global_pause_duration", 0),
        ("tx_global_pause", 0),
        ("tx_global_pause_duration", 0),
        ("rx_prio3_pause", 5_400 + 10 * step),
        ("rx_prio3_pause_duration", 18_000 + 100 * step),
        ("rx_prio3_pause_transition", 2_700 + 5 * step),
        ("tx_prio3_pause", 0),
        ("tx_prio3_pause_duration", 0),
        ("rx_prio3_bytes", 1_200_000_000_000 + bits // 16),
        ("tx_prio3_bytes", 1_100_000_000_000 + bits // 16),
        ("tx_pause_storm_warning_events", 0),
        ("tx_pause_storm_error_events", 0),
        ("module_unplug", 0),
        ("module_bus_stuck", 0),
        ("module_high_temp", 0),
        ("module_bad_shorted", 0),
        ("rx_out_of_buffer", 0),
    ]
    return "NIC statistics:\n" + "".join("     %s: %d\n" % c for c in counters)


def fec(step):
    lines = ["corrected_blocks: %d" % (1_190_561 + 75 * step),
             "uncorrectable_blocks: 0",
             "corrected_bits: %d" % (2_381_122 + 150 * step)]
    for lane in range(4):
        lines.append("corrected_blocks_lane%d: %d" % (lane, (1_190_561 + 75 * step) // 4))
        lines.append("uncorrectable_blocks_lane%d: 0" % lane)
    lines.append("active_mode_bit: 50")  # ETHTOOL_LINK_MODE_FEC_RS_BIT
    return "\n".join(lines) + "\n"


def word(value):
    return struct.pack(">H", int(round(value)) & 0xFFFF)


def sff8636_pages():
    lower = bytearray(128)
    lower[0] = 0x11  # QSFP28
    lower[1] = 0x08  # SFF-8636 rev 2.10a
    lower[2] = 0x00  # paged memory
    lower[22:24] = word(41.5 * 256)  # temperature, 1/256 degC
    lower[26:28] = word(3.29 / 100e-6)  # supply, 100 uV
    for lane in range(4):
        lower[34 + 2 * lane:36 + 2 * lane] = word(0.63e-3 / 0.1e-6)  # rx power, 0.1 uW
        lower[42 + 2 * lane:44 + 2 * lane] = word(7e-3 / 2e-6)  # tx bias, 2 uA
        lower[50 + 2 * lane:52 + 2 * lane] = word(0.8e-3 / 0.1e-6)  # tx power
    page03 = bytearray(128)

    def thresholds(address, values, scale):
        for i, v in enumerate(values):  # high alarm, low alarm, high warning, low warning
            page03[address - 128 + 2 * i:address - 128 + 2 * i + 2] = word(v / scale)

    thresholds(128, [75 * 256, -5 * 256 & 0xFFFF, 70 * 256, 0], 1)
    thresholds(144, [3.63, 2.97, 3.46, 3.13], 100e-6)
    thresholds(176, [3.5e-3, 0.04e-3, 2.2e-3, 0.1e-3], 0.1e-6)
    thresholds(184, [15e-3, 2e-3, 13e-3, 3e-3], 2e-6)
    thresholds(192, [3.5e-3, 0.1e-3, 2.2e-3, 0.2e-3], 0.1e-6)
    return bytes(lower), bytes(page03)


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.replace(tmp, path)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    root, netdev = sys.argv[1], sys.argv[2]
    step = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    d = os.path.join(root, "rocewatch", "ethtool", netdev)
    os.makedirs(os.path.join(d, "module"), exist_ok=True)
    write(os.path.join(d, "statistics"), statistics(step))
    write(os.path.join(d, "fec"), fec(step))
    write(os.path.join(d, "link_state"), "link: yes\next_state: 0\next_substate: 0\nlink_down_count: 2\n")
    write(os.path.join(d, "pause"), "autoneg: off\nrx: off\ntx: off\ntx_pause_frames: 0\nrx_pause_frames: 0\n")
    lower, page03 = sff8636_pages()
    write(os.path.join(d, "module", "lower"), lower)
    write(os.path.join(d, "module", "page03"), page03)


if __name__ == "__main__":
    main()

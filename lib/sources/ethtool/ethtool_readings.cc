#include "ethtool/ethtool_readings.h"

#include <linux/ethtool.h>

namespace rocewatch {
namespace {

// enum ethtool_link_ext_state, worded as `ethtool <netdev>` prints it.
const char* ExtStateName(uint8_t state) {
  switch (state) {
    case ETHTOOL_LINK_EXT_STATE_AUTONEG:
      return "autoneg";
    case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE:
      return "link training failure";
    case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH:
      return "logical mismatch";
    case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY:
      return "bad signal integrity";
    case ETHTOOL_LINK_EXT_STATE_NO_CABLE:
      return "no cable";
    case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE:
      return "cable issue";
    case ETHTOOL_LINK_EXT_STATE_EEPROM_ISSUE:
      return "EEPROM issue";
    case ETHTOOL_LINK_EXT_STATE_CALIBRATION_FAILURE:
      return "calibration failure";
    case ETHTOOL_LINK_EXT_STATE_POWER_BUDGET_EXCEEDED:
      return "power budget exceeded";
    case ETHTOOL_LINK_EXT_STATE_OVERHEAT:
      return "overheat";
    case ETHTOOL_LINK_EXT_STATE_MODULE:
      return "module";
    default:
      return nullptr;
  }
}

// The substate enums of linux/ethtool.h, per state.
const char* ExtSubstateName(uint8_t state, uint8_t sub) {
  switch (state) {
    case ETHTOOL_LINK_EXT_STATE_AUTONEG:
      switch (sub) {
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED:
          return "no partner detected";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_ACK_NOT_RECEIVED:
          return "ack not received";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NEXT_PAGE_EXCHANGE_FAILED:
          return "next page exchange failed";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_PARTNER_DETECTED_FORCE_MODE:
          return "no partner detected during force mode";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_FEC_MISMATCH_DURING_OVERRIDE:
          return "FEC mismatch during override";
        case ETHTOOL_LINK_EXT_SUBSTATE_AN_NO_HCD:
          return "no HCD";
      }
      break;
    case ETHTOOL_LINK_EXT_STATE_LINK_TRAINING_FAILURE:
      switch (sub) {
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_FRAME_LOCK_NOT_ACQUIRED:
          return "KR frame lock not acquired";
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_INHIBIT_TIMEOUT:
          return "KR link inhibit timeout";
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_KR_LINK_PARTNER_DID_NOT_SET_RECEIVER_READY:
          return "KR link partner did not set receiver ready";
        case ETHTOOL_LINK_EXT_SUBSTATE_LT_REMOTE_FAULT:
          return "remote side is not ready yet";
      }
      break;
    case ETHTOOL_LINK_EXT_STATE_LINK_LOGICAL_MISMATCH:
      switch (sub) {
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_ACQUIRE_BLOCK_LOCK:
          return "PCS did not acquire block lock";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_ACQUIRE_AM_LOCK:
          return "PCS did not acquire AM lock";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_PCS_DID_NOT_GET_ALIGN_STATUS:
          return "PCS did not get align_status";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_FC_FEC_IS_NOT_LOCKED:
          return "FC FEC is not locked";
        case ETHTOOL_LINK_EXT_SUBSTATE_LLM_RS_FEC_IS_NOT_LOCKED:
          return "RS FEC is not locked";
      }
      break;
    case ETHTOOL_LINK_EXT_STATE_BAD_SIGNAL_INTEGRITY:
      switch (sub) {
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_LARGE_NUMBER_OF_PHYSICAL_ERRORS:
          return "large number of physical errors";
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_UNSUPPORTED_RATE:
          return "unsupported rate";
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_REFERENCE_CLOCK_LOST:
          return "serdes reference clock lost";
        case ETHTOOL_LINK_EXT_SUBSTATE_BSI_SERDES_ALOS:
          return "serdes ALOS";
      }
      break;
    case ETHTOOL_LINK_EXT_STATE_CABLE_ISSUE:
      switch (sub) {
        case ETHTOOL_LINK_EXT_SUBSTATE_CI_UNSUPPORTED_CABLE:
          return "unsupported cable";
        case ETHTOOL_LINK_EXT_SUBSTATE_CI_CABLE_TEST_FAILURE:
          return "cable test failure";
      }
      break;
    case ETHTOOL_LINK_EXT_STATE_MODULE:
      if (sub == ETHTOOL_LINK_EXT_SUBSTATE_MODULE_CMIS_NOT_READY) return "CMIS module is not ready";
      break;
  }
  return nullptr;
}

}  // namespace

std::optional<uint64_t> DriverStatistics::Find(const std::string& name) const {
  for (const auto& [counter, value] : counters)
    if (counter == name) return value;
  return std::nullopt;
}

std::string DescribeLinkExtState(const LinkStateReading& reading) {
  if (!reading.ext_state) return "";
  const uint8_t state = *reading.ext_state;
  const char* state_name = ExtStateName(state);
  std::string text = state_name ? state_name : "state " + std::to_string(state);
  if (reading.ext_substate && *reading.ext_substate != 0) {
    const char* sub_name = state_name ? ExtSubstateName(state, *reading.ext_substate) : nullptr;
    text += sub_name ? std::string(" (") + sub_name + ")"
                     : ", substate " + std::to_string(*reading.ext_substate);
  }
  return text;
}

}  // namespace rocewatch

#include "ethtool/module_eeprom.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace rocewatch {
namespace {

// SFF-8024 identifiers.
bool IsSff8636(uint8_t id) { return id == 0x0C || id == 0x0D || id == 0x11; }
bool IsCmis(uint8_t id) { return id == 0x18 || id == 0x19 || id == 0x1E || id == 0x1F; }
// 02h: a module soldered to the board, 03h: SFP/SFP+/SFP28 (both described by SFF-8472).
bool IsSff8472(uint8_t id) { return id == 0x02 || id == 0x03; }

// SFF-8472 A0h byte 92, diagnostic monitoring type.
constexpr uint8_t kDiagnosticsImplemented = 0x40;
constexpr uint8_t kExternallyCalibrated = 0x10;

constexpr ModulePageAddress SfpDiagnostics() {
  return ModulePageAddress{0, 0, 0, 128, ModulePageAddress::kSfpDiagnosticsI2cAddress};
}

constexpr ModulePageAddress Upper(uint8_t page) { return ModulePageAddress{page, 0, 128, 128}; }

// Bytes of a page as the specifications address them: the lower page at 0-127, an upper page at
// 128-255.
class Page {
 public:
  Page(const std::string* bytes, uint32_t base) : bytes_(bytes), base_(base) {}
  bool present() const { return bytes_ != nullptr && bytes_->size() >= 128; }
  uint8_t Byte(uint32_t address) const { return static_cast<uint8_t>((*bytes_)[address - base_]); }
  uint16_t Word(uint32_t address) const {
    return static_cast<uint16_t>(Byte(address) << 8 | Byte(address + 1));
  }
  int16_t SignedWord(uint32_t address) const { return static_cast<int16_t>(Word(address)); }

 private:
  const std::string* bytes_;
  uint32_t base_;
};

const std::string* Find(const ModulePages& pages, const ModulePageAddress& address) {
  auto it = pages.find(address);
  return it == pages.end() ? nullptr : &it->second;
}

double Celsius(int16_t raw) { return raw / 256.0; }
double Volts(uint16_t raw) { return raw * 100e-6; }
double Watts(uint16_t raw) { return raw * 0.1e-6; }
double Amperes(uint16_t raw, int multiplier) { return raw * 2e-6 * multiplier; }

// Four words at `address`: high alarm, low alarm, high warning, low warning. Absent when they do
// not describe a range (all zero on modules without thresholds).
template <typename Convert>
std::optional<ModuleThresholds> ThresholdsAt(const Page& page, uint32_t address, Convert convert) {
  if (!page.present()) return std::nullopt;
  ModuleThresholds t;
  t.high_alarm = convert(page, address);
  t.low_alarm = convert(page, address + 2);
  t.high_warning = convert(page, address + 4);
  t.low_warning = convert(page, address + 6);
  if (!(t.high_alarm > t.low_alarm) || t.high_warning > t.high_alarm || t.low_warning < t.low_alarm)
    return std::nullopt;
  return t;
}

double TemperatureAt(const Page& p, uint32_t a) { return Celsius(p.SignedWord(a)); }
double VoltageAt(const Page& p, uint32_t a) { return Volts(p.Word(a)); }
double PowerAt(const Page& p, uint32_t a) { return Watts(p.Word(a)); }

ModuleReading DecodeSff8636(const Page& lower, const Page& page03) {
  ModuleReading m;
  m.standard = ModuleStandard::kSff8636;
  m.identifier = lower.Byte(0);
  m.temperature_celsius = Celsius(lower.SignedWord(22));
  m.supply_volts = Volts(lower.Word(26));
  const uint8_t tx_disable = lower.Byte(86);
  for (int lane = 1; lane <= 4; ++lane) {
    ModuleLane l;
    l.lane = lane;
    l.active = !(tx_disable & (1 << (lane - 1)));
    const uint32_t i = static_cast<uint32_t>(lane - 1) * 2;
    l.rx_power_watts = Watts(lower.Word(34 + i));
    l.tx_bias_amperes = Amperes(lower.Word(42 + i), 1);
    l.tx_power_watts = Watts(lower.Word(50 + i));
    m.lanes.push_back(l);
  }
  m.temperature_thresholds = ThresholdsAt(page03, 128, TemperatureAt);
  m.voltage_thresholds = ThresholdsAt(page03, 144, VoltageAt);
  m.rx_power_thresholds = ThresholdsAt(page03, 176, PowerAt);
  m.tx_bias_thresholds =
      ThresholdsAt(page03, 184, [](const Page& p, uint32_t a) { return Amperes(p.Word(a), 1); });
  m.tx_power_thresholds = ThresholdsAt(page03, 192, PowerAt);
  return m;
}

ModuleReading DecodeCmis(const Page& lower, const Page& page01, const Page& page02,
                         const Page& page11) {
  ModuleReading m;
  m.standard = ModuleStandard::kCmis;
  m.identifier = lower.Byte(0);
  m.temperature_celsius = Celsius(lower.SignedWord(14));
  m.supply_volts = Volts(lower.Word(16));
  // Page 01h byte 160: which lane monitors exist, and the tx bias multiplier (bits 4-3).
  bool has_bias = true, has_tx_power = true, has_rx_power = true;
  int bias_multiplier = 1;
  if (page01.present()) {
    const uint8_t adver = page01.Byte(160);
    has_bias = adver & 0x01;
    has_tx_power = adver & 0x02;
    has_rx_power = adver & 0x04;
    const int code = (adver >> 3) & 0x03;
    bias_multiplier = code == 1 ? 2 : code == 2 ? 4 : 1;
  }
  if (page11.present()) {
    for (int lane = 1; lane <= 8; ++lane) {
      ModuleLane l;
      l.lane = lane;
      const uint32_t i = static_cast<uint32_t>(lane - 1);
      // Data path state: 4 bits per lane, odd lanes in the low nibble; 4 = DPActivated. A zero
      // nibble (reserved, as modules without state machines report) counts as active.
      const uint8_t states = page11.Byte(128 + i / 2);
      const uint8_t state = (lane % 2 == 1) ? (states & 0x0F) : (states >> 4);
      l.active = state == 0 || state == 4;
      if (has_tx_power) l.tx_power_watts = Watts(page11.Word(154 + i * 2));
      if (has_bias) l.tx_bias_amperes = Amperes(page11.Word(170 + i * 2), bias_multiplier);
      if (has_rx_power) l.rx_power_watts = Watts(page11.Word(186 + i * 2));
      m.lanes.push_back(l);
    }
  }
  m.temperature_thresholds = ThresholdsAt(page02, 128, TemperatureAt);
  m.voltage_thresholds = ThresholdsAt(page02, 136, VoltageAt);
  m.tx_power_thresholds = ThresholdsAt(page02, 176, PowerAt);
  m.tx_bias_thresholds = ThresholdsAt(page02, 184, [bias_multiplier](const Page& p, uint32_t a) {
    return Amperes(p.Word(a), bias_multiplier);
  });
  m.rx_power_thresholds = ThresholdsAt(page02, 192, PowerAt);
  return m;
}

// A big-endian IEEE-754 single at `address` (SFF-8472 calibration constants).
float FloatAt(const Page& p, uint32_t a) {
  const uint32_t bits = static_cast<uint32_t>(p.Word(a)) << 16 | p.Word(a + 2);
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// An externally calibrated word: slope (unsigned 8.8 fixed point) times the raw value plus a
// signed offset, in the raw value's units (SFF-8472 9.3); internally calibrated: slope 1, 0.
struct Calibration {
  double slope = 1;
  double offset = 0;
  double Apply(double raw) const { return slope * raw + offset; }
};

Calibration CalibrationAt(const Page& a2, uint32_t address) {
  return {a2.Word(address) / 256.0, static_cast<double>(a2.SignedWord(address + 2))};
}

ModuleReading DecodeSff8472(const Page& a0, const Page& a2) {
  ModuleReading m;
  m.standard = ModuleStandard::kSff8472;
  m.identifier = a0.Byte(0);
  const uint8_t monitoring = a0.Byte(92);
  if (!(monitoring & kDiagnosticsImplemented) || !a2.present()) return m;
  const bool external = monitoring & kExternallyCalibrated;
  Calibration bias, tx_power, temperature, voltage;
  double rx_power_coefficients[5] = {0, 1, 0, 0, 0};  // Rx_PWR(0..4): internally: the raw value
  if (external) {
    bias = CalibrationAt(a2, 76);
    tx_power = CalibrationAt(a2, 80);
    temperature = CalibrationAt(a2, 84);
    voltage = CalibrationAt(a2, 88);
    for (int i = 0; i < 5; ++i)
      rx_power_coefficients[i] = FloatAt(a2, static_cast<uint32_t>(72 - 4 * i));
  }
  auto rx_power = [&](const Page& p, uint32_t a) {
    const double raw = p.Word(a);
    double value = 0;
    for (int i = 4; i >= 0; --i) value = value * raw + rx_power_coefficients[i];
    if (!std::isfinite(value)) value = 0;  // garbage constants: no light rather than UB
    return Watts(static_cast<uint16_t>(std::clamp(value, 0.0, 65535.0)));
  };
  auto calibrated = [](Calibration c, double raw, double lo, double hi) {
    return std::clamp(c.Apply(raw), lo, hi);
  };
  auto temperature_at = [&](const Page& p, uint32_t a) {
    return calibrated(temperature, p.SignedWord(a), -32768, 32767) / 256.0;
  };
  auto voltage_at = [&](const Page& p, uint32_t a) {
    return Volts(static_cast<uint16_t>(calibrated(voltage, p.Word(a), 0, 65535)));
  };
  auto bias_at = [&](const Page& p, uint32_t a) {
    return Amperes(static_cast<uint16_t>(calibrated(bias, p.Word(a), 0, 65535)), 1);
  };
  auto tx_power_at = [&](const Page& p, uint32_t a) {
    return Watts(static_cast<uint16_t>(calibrated(tx_power, p.Word(a), 0, 65535)));
  };
  m.temperature_celsius = temperature_at(a2, 96);
  m.supply_volts = voltage_at(a2, 98);
  ModuleLane lane;
  lane.lane = 1;
  lane.active = !(a2.Byte(110) & 0xC0);  // TX Disable State, Soft TX Disable Select
  lane.tx_bias_amperes = bias_at(a2, 100);
  lane.tx_power_watts = tx_power_at(a2, 102);
  lane.rx_power_watts = rx_power(a2, 104);
  m.lanes.push_back(lane);
  m.temperature_thresholds = ThresholdsAt(a2, 0, temperature_at);
  m.voltage_thresholds = ThresholdsAt(a2, 8, voltage_at);
  m.tx_bias_thresholds = ThresholdsAt(a2, 16, bias_at);
  m.tx_power_thresholds = ThresholdsAt(a2, 24, tx_power_at);
  m.rx_power_thresholds = ThresholdsAt(a2, 32, rx_power);
  return m;
}

}  // namespace

const char* ModuleStandardLabel(ModuleStandard standard) {
  switch (standard) {
    case ModuleStandard::kSff8636:
      return "SFF-8636";
    case ModuleStandard::kCmis:
      return "CMIS";
    case ModuleStandard::kSff8472:
      return "SFF-8472";
  }
  return "SFF-8636";
}

ModulePageAddress LowerPageAddress() { return ModulePageAddress{0, 0, 0, 128}; }

std::vector<ModulePageAddress> UpperPagesFor(const std::string& lower_page) {
  if (lower_page.size() < 128) return {};
  const uint8_t id = static_cast<uint8_t>(lower_page[0]);
  const uint8_t memory = static_cast<uint8_t>(lower_page[2]);
  if (IsSff8636(id)) {
    if (memory & 0x04) return {};  // flat memory: page 00h only
    return {Upper(0x03)};
  }
  if (IsCmis(id)) {
    if (memory & 0x80) return {};  // flat memory
    return {Upper(0x01), Upper(0x02), Upper(0x11)};
  }
  if (IsSff8472(id)) {
    if (!(static_cast<uint8_t>(lower_page[92]) & kDiagnosticsImplemented)) return {};
    return {SfpDiagnostics()};
  }
  return {};
}

StatusOr<ModuleReading> DecodeModule(const ModulePages& pages) {
  const std::string* lower_bytes = Find(pages, LowerPageAddress());
  Page lower(lower_bytes, 0);
  if (!lower.present()) return Status::InvalidArgument("module lower page missing or short");
  const uint8_t id = lower.Byte(0);
  auto upper = [&pages](uint8_t page) { return Page(Find(pages, Upper(page)), 128); };
  if (IsSff8636(id)) return DecodeSff8636(lower, upper(0x03));
  if (IsCmis(id)) return DecodeCmis(lower, upper(0x01), upper(0x02), upper(0x11));
  if (IsSff8472(id)) return DecodeSff8472(lower, Page(Find(pages, SfpDiagnostics()), 0));
  char hex[8];
  std::snprintf(hex, sizeof(hex), "0x%02x", id);
  return Status::InvalidArgument(std::string("module identifier ") + hex +
                                 " is neither SFF-8636, CMIS nor SFF-8472");
}

}  // namespace rocewatch

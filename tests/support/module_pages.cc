#include "support/module_pages.h"

#include <cmath>

namespace rocewatch {
namespace {

class Bytes {
 public:
  explicit Bytes(uint32_t base) : base_(base), data_(128, '\0') {}
  void Set(uint32_t address, uint8_t value) {
    data_.at(address - base_) = static_cast<char>(value);
  }
  void Word(uint32_t address, uint16_t value) {
    Set(address, static_cast<uint8_t>(value >> 8));
    Set(address + 1, static_cast<uint8_t>(value & 0xff));
  }
  std::string take() { return std::move(data_); }

 private:
  uint32_t base_;
  std::string data_;
};

uint16_t Temperature(double celsius) {
  return static_cast<uint16_t>(static_cast<int16_t>(std::lround(celsius * 256)));
}
uint16_t Volts(double v) { return static_cast<uint16_t>(std::lround(v / 100e-6)); }
uint16_t Power(double watts) { return static_cast<uint16_t>(std::lround(watts / 0.1e-6)); }
uint16_t Bias(double amperes) { return static_cast<uint16_t>(std::lround(amperes / 2e-6)); }

template <typename Encode>
void Thresholds(Bytes& page, uint32_t address, const ModuleThresholds& t, Encode encode) {
  page.Word(address, encode(t.high_alarm));
  page.Word(address + 2, encode(t.low_alarm));
  page.Word(address + 4, encode(t.high_warning));
  page.Word(address + 6, encode(t.low_warning));
}

double At(const std::vector<double>& values, size_t i) { return i < values.size() ? values[i] : 0; }

}  // namespace

ModuleValues HealthyQuadLanes() {
  ModuleValues v;
  v.rx_power_watts = {0.63e-3, 0.63e-3, 0.63e-3, 0.63e-3};
  v.tx_power_watts = {0.8e-3, 0.8e-3, 0.8e-3, 0.8e-3};
  v.tx_bias_amperes = {7e-3, 7e-3, 7e-3, 7e-3};
  return v;
}

ModulePages Sff8636Pages(const ModuleValues& v) {
  ModulePages pages;
  Bytes lower(0);
  lower.Set(0, 0x11);  // QSFP28
  lower.Set(1, 0x08);  // revision compliance: SFF-8636 rev 2.10a
  lower.Set(2, v.flat_memory ? 0x04 : 0x00);
  lower.Word(22, Temperature(v.temperature_celsius));
  lower.Word(26, Volts(v.supply_volts));
  uint8_t tx_disable = 0;
  for (uint32_t lane = 0; lane < 4; ++lane) {
    lower.Word(34 + lane * 2, Power(At(v.rx_power_watts, lane)));
    lower.Word(42 + lane * 2, Bias(At(v.tx_bias_amperes, lane)));
    lower.Word(50 + lane * 2, Power(At(v.tx_power_watts, lane)));
    if (lane < v.lane_active.size() && !v.lane_active[lane]) tx_disable |= 1 << lane;
  }
  lower.Set(86, tx_disable);
  pages[{0, 0, 0, 128}] = lower.take();
  if (!v.flat_memory && v.thresholds) {
    Bytes page03(128);
    Thresholds(page03, 128, v.temperature, Temperature);
    Thresholds(page03, 144, v.voltage, Volts);
    Thresholds(page03, 176, v.rx_power, Power);
    Thresholds(page03, 184, v.tx_bias, Bias);
    Thresholds(page03, 192, v.tx_power, Power);
    pages[{0x03, 0, 128, 128}] = page03.take();
  }
  return pages;
}

ModulePages CmisPages(const ModuleValues& v) {
  ModulePages pages;
  Bytes lower(0);
  lower.Set(0, 0x18);  // QSFP-DD
  lower.Set(1, 0x50);  // CMIS 5.0
  lower.Set(2, v.flat_memory ? 0x80 : 0x00);
  lower.Set(3, 0x03 << 1);  // module state: ready
  lower.Word(14, Temperature(v.temperature_celsius));
  lower.Word(16, Volts(v.supply_volts));
  pages[{0, 0, 0, 128}] = lower.take();
  if (v.flat_memory) return pages;
  Bytes page01(128);
  page01.Set(160, 0x07);  // tx bias, tx power and rx power monitors; bias multiplier 1
  pages[{0x01, 0, 128, 128}] = page01.take();
  if (v.thresholds) {
    Bytes page02(128);
    Thresholds(page02, 128, v.temperature, Temperature);
    Thresholds(page02, 136, v.voltage, Volts);
    Thresholds(page02, 176, v.tx_power, Power);
    Thresholds(page02, 184, v.tx_bias, Bias);
    Thresholds(page02, 192, v.rx_power, Power);
    pages[{0x02, 0, 128, 128}] = page02.take();
  }
  Bytes page11(128);
  uint8_t states[4] = {};  // data path states, two lanes per byte
  for (uint32_t lane = 0; lane < 8; ++lane) {
    const bool active = lane >= v.lane_active.size() || v.lane_active[lane];
    const uint8_t state = active ? 0x4 : 0x1;  // DPActivated / DPDeactivated
    const uint32_t address = 128 + lane / 2;
    const uint8_t shift = lane % 2 == 0 ? 0 : 4;
    states[lane / 2] |= static_cast<uint8_t>(state << shift);
    page11.Set(address, states[lane / 2]);
    page11.Word(154 + lane * 2, Power(At(v.tx_power_watts, lane)));
    page11.Word(170 + lane * 2, Bias(At(v.tx_bias_amperes, lane)));
    page11.Word(186 + lane * 2, Power(At(v.rx_power_watts, lane)));
  }
  pages[{0x11, 0, 128, 128}] = page11.take();
  return pages;
}

}  // namespace rocewatch

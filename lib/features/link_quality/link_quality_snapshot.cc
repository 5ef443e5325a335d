#include "link_quality/link_quality_snapshot.h"

#include <cstdio>

#include "link_quality/ethtool_samples.h"

namespace rocewatch {
namespace {

std::string Seconds(Duration d) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", ToSeconds(d));
  return text;
}

}  // namespace

bool HasRateableCounters(const NetdevEthtool& r) {
  if (CorrectedBits(r) || SymbolErrors(r) || (r.fec && r.fec->uncorrectable_blocks)) return true;
  const PfcSample pfc = PfcSampleFrom(MonoTime{}, r);
  return !pfc.pause_microseconds.empty() || pfc.storm_warning_events || pfc.storm_error_events;
}

LinkQualityLook LookAtLinkQuality(EthtoolPoller& poller, const std::vector<std::string>& netdevs,
                                  const Clock& clock, const WaitFor& wait,
                                  const LinkQualityLookOptions& options) {
  LinkQualityLook look;
  const MonoTime first_at = clock.Now();
  std::set<std::string> to_rate;
  for (auto& [netdev, readings] :
       poller.Poll(std::set<std::string>(netdevs.begin(), netdevs.end()))) {
    if (!readings.present) continue;
    if (!readings.recorded && readings.outcomes.empty()) continue;  // no source answered at all
    LinkQualityEntry entry;
    entry.netdev = netdev;
    if (options.figures_elsewhere.count(netdev)) {
      entry.no_figures_reason = "figures from elsewhere";
    } else if (!HasRateableCounters(readings)) {
      entry.no_figures_reason = "the driver reports no FEC, PHY error or pause-duration counter";
    } else if (options.window <= Duration::zero()) {
      entry.no_figures_reason = "one sample (--link-window 0)";
    } else {
      to_rate.insert(netdev);
    }
    entry.readings = std::move(readings);
    look.entries.push_back(std::move(entry));
  }
  // The modules answer slowly (I2C): their reads count towards the window.
  if (options.optics) {
    for (LinkQualityEntry& entry : look.entries) {
      if (auto by_daemon = options.modules_by_daemon.find(entry.netdev);
          by_daemon != options.modules_by_daemon.end()) {
        entry.module_by_daemon = by_daemon->second;
        continue;
      }
      ModuleOutcome module = poller.PollModule(entry.netdev);
      if (module.module) entry.optics = EvaluateOptics(*module.module);
      if (module.module || !module.error.empty()) entry.module = std::move(module);
    }
  }
  if (!to_rate.empty()) {
    const Duration elapsed = clock.Now() - first_at;
    if (elapsed < options.window) wait(options.window - elapsed);
    const MonoTime second_at = clock.Now();
    const Duration span = second_at - first_at;
    std::map<std::string, NetdevEthtool> second = poller.Poll(to_rate);
    // The daemon's detectors, with their windows scaled to the span of the two samples.
    LinkQualityOptions quality_options;
    quality_options.window = span + std::chrono::seconds(1);
    quality_options.min_span = span / 2;
    PfcStormOptions pfc_options;
    pfc_options.window = span + std::chrono::seconds(1);
    pfc_options.min_span = span / 2;
    pfc_options.event_window = span + std::chrono::seconds(1);
    LinkQualityDetector quality(quality_options);
    PfcStormDetector pfc(pfc_options);
    std::map<std::string, LinkQualitySample> quality_before, quality_after;
    std::map<std::string, PfcSample> pfc_before, pfc_after;
    for (LinkQualityEntry& entry : look.entries) {
      if (!to_rate.count(entry.netdev)) continue;
      auto again = second.find(entry.netdev);
      if (again == second.end() || !again->second.present) {
        entry.no_figures_reason = "the netdev went away during the window";
        continue;
      }
      quality_before[entry.netdev] = LinkQualitySampleFrom(first_at, entry.readings, {});
      pfc_before[entry.netdev] = PfcSampleFrom(first_at, entry.readings);
      entry.readings = std::move(again->second);
      quality_after[entry.netdev] = LinkQualitySampleFrom(second_at, entry.readings, {});
      pfc_after[entry.netdev] = PfcSampleFrom(second_at, entry.readings);
    }
    quality.Observe(quality_before);
    pfc.Observe(pfc_before);
    quality.Observe(quality_after);
    pfc.Observe(pfc_after);
    for (LinkQualityEntry& entry : look.entries) {
      if (!quality_after.count(entry.netdev)) continue;
      entry.figures = LinkFiguresSource::kSampled;
      if (auto q = quality.netdevs().find(entry.netdev); q != quality.netdevs().end())
        entry.quality = q->second;
      if (!quality_after[entry.netdev].link_up) {
        entry.figures = LinkFiguresSource::kNone;
        entry.quality.reset();
        entry.no_figures_reason = "the link is down";
      }
      for (const auto& [key, status] : pfc.priorities())
        if (key.netdev == entry.netdev) entry.pfc.emplace_back(key, status);
    }
    look.findings = quality.Findings();
    for (Finding& f : pfc.Findings()) {
      f.message += " (sampled over " + Seconds(span) + ")";
      look.findings.push_back(std::move(f));
    }
  }
  for (Finding& f : OneShotLinkQualityFindings(look.entries)) look.findings.push_back(std::move(f));
  return look;
}

}  // namespace rocewatch

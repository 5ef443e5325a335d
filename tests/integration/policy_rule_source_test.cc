// NetlinkPolicyRuleSource against the kernel: rules added with `ip rule` in a fresh network
// namespace (a child process unshares one, so the test never touches the host's rules) come back
// from the dump. Needs root; skips cleanly otherwise.

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "diagnose/routing_policy_rule.h"

namespace rocewatch {
namespace {

constexpr int kSkip = 77;

// Runs in the child: returns its exit status (0 ok, kSkip, or a failure code with a message).
int DumpInFreshNamespace() {
  alarm(20);  // bound the child's time whatever happens
  if (unshare(CLONE_NEWNET) != 0) return kSkip;
  if (std::system("ip rule add from 10.9.9.9 table 100 prio 1000 2>/dev/null") != 0 ||
      std::system("ip -6 rule add from fd00:9::9 iif lo table 101 prio 1001 2>/dev/null") != 0)
    return kSkip;  // no iproute2 or no IPv6 policy routing
  NetlinkPolicyRuleSource source;
  StatusOr<std::vector<RoutingPolicyRule>> rules = source.Dump();
  if (!rules.ok()) {
    std::fprintf(stderr, "dump failed: %s\n", rules.status().ToString().c_str());
    return 1;
  }
  const RoutingPolicyRule v4{AddressFamily::kIpv4, "10.9.9.9/32", "", "", 100, 1000};
  const RoutingPolicyRule v6{AddressFamily::kIpv6, "fd00:9::9/128", "lo", "", 101, 1001};
  for (const RoutingPolicyRule& wanted : {v4, v6}) {
    if (std::find(rules->begin(), rules->end(), wanted) == rules->end()) {
      std::fprintf(stderr, "missing %s among:\n", wanted.ToString().c_str());
      for (const RoutingPolicyRule& r : *rules)
        std::fprintf(stderr, "  %s\n", r.ToString().c_str());
      return 2;
    }
  }
  // The kernel's default rules are there too ("32766: from all lookup main").
  bool main_rule = std::any_of(rules->begin(), rules->end(), [](const RoutingPolicyRule& r) {
    return r.source.empty() && r.table == 254 && r.priority == 32766;
  });
  return main_rule ? 0 : 3;
}

TEST(NetlinkPolicyRuleSource, DumpsTheRulesOfTheNamespace) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to create a network namespace";
  std::fflush(nullptr);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(DumpInFreshNamespace());
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "child died by signal " << WTERMSIG(status);
  if (WEXITSTATUS(status) == kSkip) GTEST_SKIP() << "no network namespace or iproute2";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace rocewatch

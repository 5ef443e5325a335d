#include "consumers/cgroup_identity.h"

#include <gtest/gtest.h>

namespace rocewatch {
namespace {

constexpr char kCgroupPodUid[] = "1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e";
constexpr char kCgroupContainerId[] =
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

struct CgroupCase {
  const char* name;
  std::string content;
  std::string pod_uid;
  std::string container_id;
  std::string job;
};

TEST(CgroupIdentityTest, RecognisesKubernetesAndSlurmPaths) {
  const std::string id = kCgroupContainerId;
  const CgroupCase cases[] = {
      {"v2 systemd driver",
       "0::/kubepods.slice/kubepods-burstable.slice/"
       "kubepods-burstable-pod1b2c3d4e_5f6a_7b8c_9d0e_1f2a3b4c5d6e.slice/cri-containerd-" +
           id + ".scope\n",
       kCgroupPodUid, id, ""},
      {"v2 systemd driver, guaranteed QoS",
       "0::/kubepods.slice/kubepods-pod1b2c3d4e_5f6a_7b8c_9d0e_1f2a3b4c5d6e.slice/crio-" + id +
           ".scope\n",
       kCgroupPodUid, id, ""},
      {"v1 cgroupfs driver",
       "12:memory:/kubepods/burstable/pod1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e/" + id +
           "\n11:devices:/kubepods/burstable/pod1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e/" + id + "\n",
       kCgroupPodUid, id, ""},
      {"v1 besteffort without QoS level",
       "3:cpu,cpuacct:/kubepods/pod1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e/" + id + "\n",
       kCgroupPodUid, id, ""},
      {"CRI-O monitor is not the container",
       "0::/kubepods.slice/kubepods-pod1b2c3d4e_5f6a_7b8c_9d0e_1f2a3b4c5d6e.slice/crio-conmon-" +
           id + ".scope\n",
       kCgroupPodUid, "", ""},
      {"docker outside Kubernetes", "0::/system.slice/docker-" + id + ".scope\n", "", id, ""},
      {"slurm v1", "4:memory:/slurm/uid_1000/job_1234/step_0/task_0\n", "", "", "1234"},
      {"slurm v1 with node name", "7:freezer:/slurm_node01/uid_1000/job_77/step_batch\n", "", "",
       "77"},
      {"slurm v2", "0::/system.slice/slurmstepd.scope/job_5678/step_0/user/task_0\n", "", "",
       "5678"},
      {"slurm v2, the job's own cgroup", "0::/system.slice/slurmstepd.scope/job_8812\n", "", "",
       "8812"},
      {"slurm v2, multiple slurmd per host",
       "0::/system.slice/node07_slurmstepd.scope/job_8812/step_0/user/task_0\n", "", "", "8812"},
      {"slurm v1, several controllers",
       "12:devices:/slurm/uid_1000/job_8812/step_0\n4:memory:/slurm/uid_1000/job_8812/step_0\n", "",
       "", "8812"},
      {"slurm job id that is no number", "0::/system.slice/slurmstepd.scope/job_88x/step_0\n", "",
       "", ""},
      {"host process", "0::/user.slice/user-1000.slice/session-3.scope\n", "", "", ""},
      {"cgroup namespace hides the path", "0::/\n", "", "", ""},
      {"job_ outside slurm is not a job", "0::/system.slice/job_42.service\n", "", "", ""},
  };
  for (const CgroupCase& c : cases) {
    CgroupIdentity identity = ParseCgroupIdentity(c.content);
    EXPECT_EQ(identity.pod_uid, c.pod_uid) << c.name;
    EXPECT_EQ(identity.container_id, c.container_id) << c.name;
    EXPECT_EQ(identity.slurm_job, c.job) << c.name;
    EXPECT_EQ(identity.malformed_lines, 0u) << c.name;
  }
}

TEST(CgroupIdentityTest, GarbageLinesAreCountedAndSkipped) {
  CgroupIdentity identity = ParseCgroupIdentity(
      "garbage\n\x01\x02:\n5:x:relative/path\n0::/kubepods/pod1b2c3d4e-5f6a-7b8c-9d0e-"
      "1f2a3b4c5d6e/" +
      std::string(kCgroupContainerId) + "\n0::/kubepods/podnot-a-uid/zz\n");
  EXPECT_EQ(identity.malformed_lines, 3u);
  EXPECT_EQ(identity.pod_uid, kCgroupPodUid);
  EXPECT_EQ(identity.container_id, kCgroupContainerId);
}

TEST(CgroupIdentityTest, EmptyAndCutContentYieldNothing) {
  EXPECT_EQ(ParseCgroupIdentity(""), CgroupIdentity{});
  CgroupIdentity cut = ParseCgroupIdentity("0::/kubepods.slice/kubepods-pod1b2c3d4e_5f6a");
  EXPECT_TRUE(cut.pod_uid.empty());
  EXPECT_TRUE(cut.container_id.empty());
}

}  // namespace
}  // namespace rocewatch

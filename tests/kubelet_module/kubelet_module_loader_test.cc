// The kubelet module as the daemon loads it: LazyKubeletPodResourcesSource over the real
// DlopenKubeletModule and the built librocewatch-kubelet.so, against a real gRPC server in another
// process (rocewatch-fake-kubelet: this executable links no gRPC, as the binary links none). No
// socket: nothing is loaded. A socket: the module is loaded and a List goes through it. A missing
// module, a file that is not one, and a module of another ABI: a one-line error, no crash.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "consumers/dlopen_kubelet_module.h"
#include "consumers/lazy_kubelet_pod_resources_source.h"
#include "support/temp_dir.h"

extern char** environ;

namespace rocewatch {
namespace {

using std::chrono::steady_clock;

constexpr char kModule[] = ROCEWATCH_KUBELET_MODULE_PATH;
constexpr auto kTimeout = std::chrono::seconds(2);

bool ModuleLoaded() {
  void* handle = ::dlopen(kModule, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  ::dlclose(handle);  // drops only the reference NOLOAD took
  return true;
}

std::string Maps() {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return text.str();
}

// rocewatch-fake-kubelet serving on `socket` for the life of the object.
class FakeKubeletProcess {
 public:
  explicit FakeKubeletProcess(const std::string& socket) {
    const char* argv[] = {ROCEWATCH_FAKE_KUBELET, socket.c_str(), nullptr};
    if (::posix_spawn(&pid_, argv[0], nullptr, nullptr, const_cast<char**>(argv), environ) != 0)
      pid_ = -1;
    const auto deadline = steady_clock::now() + std::chrono::seconds(10);
    struct stat st;
    while (pid_ > 0 && ::stat(socket.c_str(), &st) != 0 && steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // polls for the socket
  }
  ~FakeKubeletProcess() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  bool running() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
};

class KubeletModuleLoaderTest : public ::testing::Test {
 protected:
  std::string SocketPath() const { return dir_.path() + "/kubelet.sock"; }
  LazyKubeletPodResourcesSource SourceWith(std::vector<std::string> candidates,
                                           KubeletModuleAbi abi = KubeletModuleAbi{}) {
    return LazyKubeletPodResourcesSource(
        SocketPath(), kTimeout, std::make_shared<DlopenKubeletModule>(std::move(candidates), abi));
  }
  // An error the log and the report can show as it is: one line, naming what failed.
  static void ExpectOneLineError(const Status& status, const std::string& needle) {
    EXPECT_EQ(status.code(), StatusCode::kUnavailable) << status.ToString();
    EXPECT_NE(status.message().find(needle), std::string::npos) << status.ToString();
    EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.ToString();
  }

  TempDir dir_;
};

TEST_F(KubeletModuleLoaderTest, WithoutASocketTheModuleIsNotLoaded) {
  if (ModuleLoaded())
    GTEST_SKIP() << "an earlier test of this process loaded it (ctest runs each "
                    "test in its own process)";
  LazyKubeletPodResourcesSource source = SourceWith({kModule});
  EXPECT_EQ(source.ListNow().status().code(), StatusCode::kNotFound);
  source.Request();
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = source.TakeAnswer();
  ASSERT_TRUE(answer.has_value());
  EXPECT_EQ(answer->status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(ModuleLoaded());
  EXPECT_EQ(Maps().find("librocewatch-kubelet"), std::string::npos);
  EXPECT_EQ(Maps().find("libgrpc"), std::string::npos);
}

TEST_F(KubeletModuleLoaderTest, ASocketLoadsTheModuleAndAListGoesThroughIt) {
  FakeKubeletProcess kubelet(SocketPath());
  ASSERT_TRUE(kubelet.running());
  LazyKubeletPodResourcesSource source = SourceWith({"/nonexistent/first", kModule});
  StatusOr<std::vector<PodDeviceAllocation>> now = source.ListNow();
  ASSERT_TRUE(now.ok()) << now.status().ToString();
  ASSERT_EQ(now->size(), 2u);
  EXPECT_EQ(
      (*now)[0],
      (PodDeviceAllocation{
          "trainer-0", "ml", "main", "nvidia.com/sriov_rdma", {"0000:3b:00.2", "0000:3b:00.3"}}));
  EXPECT_EQ((*now)[1].resource_name, "nvidia.com/gpu");
  EXPECT_TRUE(source.client_created());
  EXPECT_TRUE(ModuleLoaded());
  EXPECT_NE(Maps().find("librocewatch-kubelet.so"), std::string::npos);

  // The daemon's way: a request, then answers collected without waiting.
  source.Request();
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer;
  const auto deadline = steady_clock::now() + kTimeout + std::chrono::seconds(1);
  while (!answer && steady_clock::now() < deadline) {
    answer = source.TakeAnswer();
    if (!answer) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(answer.has_value());
  ASSERT_TRUE(answer->ok()) << answer->status().ToString();
  EXPECT_EQ((*answer)->size(), 2u);
}

// The daemon looks for an answer only at its next poll, a second later: the call must progress
// meanwhile. (With the server in this process its threads would drive the client's connection
// too; in another process, as the kubelet is, only the client's own can.)
TEST_F(KubeletModuleLoaderTest, ACallCompletesWhileNobodyLooksForItsAnswer) {
  FakeKubeletProcess kubelet(SocketPath());
  ASSERT_TRUE(kubelet.running());
  LazyKubeletPodResourcesSource source(
      SocketPath(), kTimeout,
      std::make_shared<DlopenKubeletModule>(std::vector<std::string>{kModule}));
  source.Request();
  std::this_thread::sleep_for(kTimeout + std::chrono::milliseconds(500));  // the loop, elsewhere
  std::optional<StatusOr<std::vector<PodDeviceAllocation>>> answer = source.TakeAnswer();
  ASSERT_TRUE(answer.has_value());
  ASSERT_TRUE(answer->ok()) << answer->status().ToString();
  EXPECT_EQ((*answer)->size(), 2u);
}

TEST_F(KubeletModuleLoaderTest, AMissingModuleIsAOneLineErrorNamingWhereItWasLookedFor) {
  dir_.WriteFile("kubelet.sock", "");
  LazyKubeletPodResourcesSource source = SourceWith({dir_.path() + "/lib/missing.so"});
  StatusOr<std::vector<PodDeviceAllocation>> now = source.ListNow();
  ASSERT_FALSE(now.ok());
  ExpectOneLineError(now.status(), "no kubelet module (librocewatch-kubelet.so");
  ExpectOneLineError(now.status(), dir_.path() + "/lib/missing.so");
  ExpectOneLineError(source.ListNow().status(), "no kubelet module");  // and stays so
}

TEST_F(KubeletModuleLoaderTest, AFileThatIsNoModuleIsAOneLineError) {
  dir_.WriteFile("kubelet.sock", "");
  const std::string garbage = dir_.WriteFile("garbage.so", "not an ELF file\n\x7f\x00 at all");
  ExpectOneLineError(SourceWith({garbage}).ListNow().status(), "cannot be loaded");
  Dl_info libc{};
  ASSERT_NE(::dladdr(reinterpret_cast<void*>(&::getpid), &libc), 0);
  ExpectOneLineError(SourceWith({libc.dli_fname}).ListNow().status(),
                     "is not a rocewatch kubelet module (no rocewatch_kubelet_module_v1)");
}

TEST_F(KubeletModuleLoaderTest, AModuleOfAnotherAbiIsRefused) {
  dir_.WriteFile("kubelet.sock", "");
  KubeletModuleAbi other;
  other.version += 1;
  StatusOr<std::vector<PodDeviceAllocation>> now = SourceWith({kModule}, other).ListNow();
  ASSERT_FALSE(now.ok());
  ExpectOneLineError(now.status(), "refused: the module was built for ABI " +
                                       std::to_string(kKubeletModuleAbiVersion));
  ExpectOneLineError(now.status(),
                     "the binary for ABI " + std::to_string(kKubeletModuleAbiVersion + 1));
  KubeletModuleAbi other_layout;
  other_layout.allocation_bytes += 8;
  ExpectOneLineError(SourceWith({kModule}, other_layout).ListNow().status(), "refused");
}

}  // namespace
}  // namespace rocewatch

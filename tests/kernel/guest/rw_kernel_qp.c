// rw-kernel-qp: the kernel tier's verbs helper (runs in the soft-RoCE guest).
//
//   rw-kernel-qp gids DEVICE                  the device's GID table through ibv_query_gid_table
//                                             (no sysfs reads, so no references taken): one line
//                                             "PORT INDEX GID TYPE IFINDEX" per valid entry
//   rw-kernel-qp hold DEVICE INDEX DEST       an RC QP moved to RTS with source GID INDEX and a
//                                             destination DEST (IPv4 or a GID); prints
//                                             "ready qpn=N" and holds it (and its reference on
//                                             the GID entry) until SIGTERM
//   rw-kernel-qp rtr DEVICE INDEX DEST        the same QP moved to RTR only; prints "rtr ok" or
//                                             "rtr errno=E NAME" (ENODATA: a stale index)
//
// Exit status: 0 done, 1 the verbs call failed (the error on stdout), 2 usage. Port 1 only.
#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int usage(void) {
  fprintf(stderr, "usage: rw-kernel-qp gids DEVICE | hold|rtr DEVICE INDEX DEST\n");
  return 2;
}

static struct ibv_context *open_device(const char *name) {
  int count = 0;
  struct ibv_device **list = ibv_get_device_list(&count);
  struct ibv_context *context = NULL;
  for (int i = 0; list && i < count; ++i) {
    if (strcmp(ibv_get_device_name(list[i]), name) == 0) context = ibv_open_device(list[i]);
  }
  if (list) ibv_free_device_list(list);
  if (!context) printf("open %s failed: %s\n", name, strerror(errno ? errno : ENODEV));
  return context;
}

static const char *type_name(unsigned type) {
  switch (type) {
    case IBV_GID_TYPE_IB: return "ib";
    case IBV_GID_TYPE_ROCE_V1: return "roce_v1";
    case IBV_GID_TYPE_ROCE_V2: return "roce_v2";
    default: return "unknown";
  }
}

static int print_gids(struct ibv_context *context) {
  struct ibv_gid_entry entries[1024];
  ssize_t count = ibv_query_gid_table(context, entries, 1024, 0);
  if (count < 0) {
    printf("ibv_query_gid_table failed: %s\n", strerror((int)-count));
    return 1;
  }
  for (ssize_t i = 0; i < count; ++i) {
    const uint8_t *raw = entries[i].gid.raw;
    printf("%u %u ", entries[i].port_num, entries[i].gid_index);
    for (int group = 0; group < 8; ++group) {
      printf("%02x%02x%s", raw[2 * group], raw[2 * group + 1], group < 7 ? ":" : " ");
    }
    printf("%s %u\n", type_name(entries[i].gid_type), entries[i].ndev_ifindex);
  }
  return 0;
}

// DEST as a GID: an IPv4 address is IPv4-mapped, as RoCE v2 names it.
static int parse_dest(const char *text, union ibv_gid *gid) {
  struct in_addr v4;
  memset(gid, 0, sizeof(*gid));
  if (inet_pton(AF_INET, text, &v4) == 1) {
    gid->raw[10] = 0xff;
    gid->raw[11] = 0xff;
    memcpy(&gid->raw[12], &v4, 4);
    return 0;
  }
  return inet_pton(AF_INET6, text, gid->raw) == 1 ? 0 : -1;
}

static int report(const char *step, int error) {
  printf("%s errno=%d %s\n", step, error, error == ENODATA ? "ENODATA" : strerror(error));
  return 1;
}

static int connect_qp(struct ibv_context *context, int index, const union ibv_gid *dest,
                      int to_rts) {
  struct ibv_pd *pd = ibv_alloc_pd(context);
  struct ibv_cq *cq = pd ? ibv_create_cq(context, 4, NULL, NULL, 0) : NULL;
  if (!cq) return report("setup", errno);
  struct ibv_qp_init_attr init = {.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                  .cap = {.max_send_wr = 1, .max_recv_wr = 1,
                                          .max_send_sge = 1, .max_recv_sge = 1}};
  struct ibv_qp *qp = ibv_create_qp(pd, &init);
  if (!qp) return report("create_qp", errno);
  struct ibv_qp_attr attr = {.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
                             .qp_access_flags = IBV_ACCESS_REMOTE_WRITE};
  int error = ibv_modify_qp(qp, &attr,
                            IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
  if (error) return report("init", error);
  memset(&attr, 0, sizeof(attr));
  attr.qp_state = IBV_QPS_RTR;
  attr.path_mtu = IBV_MTU_1024;
  attr.dest_qp_num = qp->qp_num;
  attr.rq_psn = 0;
  attr.max_dest_rd_atomic = 1;
  attr.min_rnr_timer = 12;
  attr.ah_attr.is_global = 1;
  attr.ah_attr.grh.dgid = *dest;
  attr.ah_attr.grh.sgid_index = (uint8_t)index;
  attr.ah_attr.grh.hop_limit = 64;
  attr.ah_attr.port_num = 1;
  error = ibv_modify_qp(qp, &attr,
                        IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                            IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
  if (error) return report("rtr", error);
  if (!to_rts) {
    printf("rtr ok\n");
    return 0;
  }
  memset(&attr, 0, sizeof(attr));
  attr.qp_state = IBV_QPS_RTS;
  attr.timeout = 14;
  attr.retry_cnt = 7;
  attr.rnr_retry = 7;
  attr.sq_psn = 0;
  attr.max_rd_atomic = 1;
  error = ibv_modify_qp(qp, &attr,
                        IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                            IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
  if (error) return report("rts", error);
  printf("ready qpn=%u\n", qp->qp_num);
  fflush(stdout);
  for (;;) pause();  // SIGTERM ends the process; the kernel destroys the QP with it
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 3) return usage();
  const char *mode = argv[1];
  if (strcmp(mode, "gids") == 0 && argc == 3) {
    struct ibv_context *context = open_device(argv[2]);
    return context ? print_gids(context) : 1;
  }
  int hold = strcmp(mode, "hold") == 0;
  if ((!hold && strcmp(mode, "rtr") != 0) || argc != 5) return usage();
  char *end = NULL;
  long index = strtol(argv[3], &end, 10);
  union ibv_gid dest;
  if (*end || index < 0 || index > 255 || parse_dest(argv[4], &dest) != 0) return usage();
  struct ibv_context *context = open_device(argv[2]);
  return context ? connect_qp(context, (int)index, &dest, hold) : 1;
}

# kt-timeout: 20
# The fabric itself: both soft-RoCE devices exist, their RoCE v2 GIDs sit at index 1, and an RC
# QP reaches RTS through the veth (the helper the other scenarios hold GIDs with works).
. /kt/lib.sh
rdma link show
kt_gids rxe0
kt_bg rw-kernel-qp hold rxe0 1 "$KT_B" >"$KT_WORK/holder.out"
kt_wait 10 grep -q '^ready' "$KT_WORK/holder.out" || kt_fail "no RC QP in RTS: $(cat "$KT_WORK/holder.out")"
rdma res show qp

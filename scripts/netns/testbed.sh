#!/usr/bin/env bash
# A multi-host test bed on one machine (docs/scale-out.md, "Across hosts"): N network
# namespaces, the "hosts" morne-h0 .. morne-hN-1, each joined to a bridge (in a namespace of its
# own, morne-sw) by a veth link shaped to a link profile: a rate limit (tc tbf) and, where the
# kernel has sch_netem, a one-way delay. Host K has the address 10.88.0.(K+1) on interface
# eth-hK; only these addresses are used. The filesystem stays shared: a run folder is seen by
# every host, as on a cluster with NFS. Needs root (CAP_NET_ADMIN) and iproute2.
#
#   scripts/netns/testbed.sh up N PROFILE    make N hosts (N 1..8) linked with PROFILE
#   scripts/netns/testbed.sh down            remove them
#   scripts/netns/testbed.sh exec K CMD...   run CMD on host K
#   scripts/netns/testbed.sh check           exit 0 when a test bed can be made here, else print
#                                            why not and exit 77 (ctest's "skipped")
#
# PROFILE: none (no shaping), or RATE, or RATE/DELAY: 10gbit/0.2ms, 1gbit/1ms, 100mbit/20ms.
# A profile with a delay on a kernel without sch_netem is refused (exit 3), never silently
# run without its delay: give the rate alone to measure the rate alone.
set -euo pipefail

readonly switch=morne-sw
readonly max_hosts=8

host() { echo "morne-h$1"; }

# Why a test bed cannot be made here, or nothing.
unavailable() {
  if [ "$(id -u)" -ne 0 ]; then echo "not root: network namespaces need CAP_NET_ADMIN"; return; fi
  if ! command -v ip > /dev/null || ! command -v tc > /dev/null; then
    echo "iproute2 (ip, tc) is not installed"; return
  fi
  local probe="morne-probe-$$"
  if ! ip netns add "$probe" 2> /dev/null; then
    echo "this kernel or container does not let us make network namespaces"; return
  fi
  ip netns del "$probe"
}

# Whether tc can add qdisc `kind` here (the kernel may lack its module).
has_qdisc() {
  local probe="morne-probe-$$" ok=1
  ip netns add "$probe"
  ip -n "$probe" link add probe0 type veth peer name probe1
  if ip netns exec "$probe" tc qdisc add dev probe0 root "$@" 2> /dev/null; then ok=0; fi
  ip netns del "$probe"
  return $ok
}

# Shapes the egress of `dev` in namespace `ns` to RATE and DELAY (either may be empty).
shape() {
  local ns=$1 dev=$2 rate=$3 delay=$4
  if [ -n "$delay" ]; then
    ip netns exec "$ns" tc qdisc add dev "$dev" root netem delay "$delay" \
      ${rate:+rate "$rate"} limit 100000
  elif [ -n "$rate" ]; then
    # A burst of 1 ms at the rate (at least 64 KB) and a queue of 50 ms: what a switch port holds.
    ip netns exec "$ns" tc qdisc add dev "$dev" root tbf rate "$rate" burst 256kb latency 50ms
  fi
}

down() {
  local ns
  for ns in $(ip netns list | awk '{print $1}' | grep -E '^morne-(h[0-9]+|sw)$' || true); do
    ip netns del "$ns"
  done
}

up() {
  local n=$1 profile=$2 rate="" delay=""
  if ! [[ "$n" =~ ^[0-9]+$ ]] || [ "$n" -lt 1 ] || [ "$n" -gt $max_hosts ]; then
    echo "testbed: N must be 1 to $max_hosts hosts (got $n)" >&2; exit 2
  fi
  case "$profile" in
    none) ;;
    */*) rate=${profile%%/*}; delay=${profile#*/} ;;
    *) rate=$profile ;;
  esac
  local why; why=$(unavailable)
  if [ -n "$why" ]; then echo "testbed: cannot run here: $why" >&2; exit 77; fi
  if [ -n "$delay" ] && ! has_qdisc netem delay 1ms; then
    echo "testbed: profile $profile needs a delay, and this kernel has no sch_netem (tc netem);" \
         "give the rate alone ($rate) to measure without the delay" >&2
    exit 3
  fi
  down
  ip netns add $switch
  ip -n $switch link add br0 type bridge
  ip -n $switch link set br0 up
  ip -n $switch link set lo up
  local k ns
  for ((k = 0; k < n; ++k)); do
    ns=$(host $k)
    ip netns add "$ns"
    ip -n "$ns" link set lo up
    ip -n $switch link add "port$k" type veth peer name "eth-h$k" netns "$ns"
    ip -n $switch link set "port$k" master br0
    ip -n $switch link set "port$k" up
    ip -n "$ns" addr add "10.88.0.$((k + 1))/24" dev "eth-h$k"
    ip -n "$ns" link set "eth-h$k" up
    # Both directions of the link: the host's sending side and the switch's side towards it.
    shape "$ns" "eth-h$k" "$rate" "$delay"
    shape $switch "port$k" "$rate" "$delay"
  done
  echo "testbed: $n host(s) morne-h0..morne-h$((n - 1)), 10.88.0.1..10.88.0.$n, links: $profile"
}

case "${1:-}" in
  up) [ $# -eq 3 ] || { echo "usage: $0 up N PROFILE" >&2; exit 2; }; up "$2" "$3" ;;
  down) down ;;
  exec) [ $# -ge 3 ] || { echo "usage: $0 exec K CMD..." >&2; exit 2; }
        k=$2; shift 2; exec ip netns exec "$(host "$k")" "$@" ;;
  check) why=$(unavailable); if [ -n "$why" ]; then echo "skipped: $why"; exit 77; fi ;;
  *) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac

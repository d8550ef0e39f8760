# shellcheck shell=bash
# Network namespaces of a local cluster: a bridge in a namespace of its own, one namespace per daemon host and
# one "svc" namespace for the servers, linked by veth pairs whose bridge ends live in the bridge namespace
# (shared/NETWORK-TESTING.md). Nothing is created in the namespace the script runs in and nothing attaches to a
# real interface: deleting the bridge namespace removes the bridge and every port. Sourced; needs cluster-common.sh.

# ns_exists NAME
ns_exists() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -qxF -- "$1"
}

# ns_add DIR NAME: creates namespace NAME and records it in DIR/namespaces before anything else can fail.
ns_add() {
    local dir="$1" ns="$2"
    printf '%s\n' "$ns" >>"$dir/namespaces"
    ip netns add "$ns" || die "cannot create network namespace $ns (is /run/netns writable?)"
    ip -n "$ns" link set lo up
}

# net_create_bridge DIR: the bridge namespace and br0 in it; multicast flooded (no IGMP snooping), unless
# RC_MCAST_SNOOPING=1: then the bridge snoops IGMP and is the segment's querier, and forwards a group's traffic
# only to the ports whose hosts joined it, as a datacenter switch does.
net_create_bridge() {
    local dir="$1" br
    br="$(bridge_ns)"
    ns_add "$dir" "$br"
    if [[ "${RC_MCAST_SNOOPING:-0}" == 1 ]]; then
        ip -n "$br" link add br0 type bridge mcast_snooping 1 mcast_querier 1
    else
        ip -n "$br" link add br0 type bridge mcast_snooping 0
    fi
    ip -n "$br" link set br0 up
}

# net_add_host DIR NS PORT ADDRESS...: namespace NS with interface v0 holding ADDRESS/24 (the first address is
# its primary), linked to the bridge port PORT; multicast routed only on v0.
net_add_host() {
    local dir="$1" ns="$2" port="$3" br address
    shift 3
    br="$(bridge_ns)"
    ns_add "$dir" "$ns"
    ip -n "$br" link add "$port" type veth peer name v0 netns "$ns"
    ip -n "$br" link set "$port" master br0 up
    for address in "$@"; do
        ip -n "$ns" addr add "$address/24" dev v0
    done
    ip -n "$ns" link set v0 up
    ip -n "$ns" route add 224.0.0.0/4 dev v0
}

# net_create DIR: the whole topology of the run in RC_*: bridge, svc namespace with every server's address,
# one namespace per node.
net_create() {
    local dir="$1" k i r
    local -a svc_addresses=()
    net_create_bridge "$dir"
    for ((i = 1; i <= ${RC_GMS_REPLICAS:-1}; i++)); do
        svc_addresses+=("$(gms_addr "$i")")
    done
    for ((r = 1; r <= RC_RACKS; r++)); do
        svc_addresses+=("$(rack_fd_addr "$r")")
    done
    svc_addresses+=("$(standby_fd_addr)" "$(top_fd_addr)")
    net_add_host "$dir" "$(svc_ns)" psvc "${svc_addresses[@]}"
    for ((k = 1; k <= RC_NODES; k++)); do
        net_add_host "$dir" "$(node_ns "$k")" "p$k" "$(node_addr "$k")"
    done
}

# run_namespaces DIR: every namespace of the run, hosts first and the bridge last: those recorded in
# DIR/namespaces and those present now under the run's prefix.
run_namespaces() {
    local dir="$1"
    {
        [[ -f "$dir/namespaces" ]] && cat "$dir/namespaces"
        ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${RC_PREFIX}-" || true
    } | awk '!seen[$0]++' | awk -v br="$(bridge_ns)" '$0 == br {last = $0; next} {print} END {if (last) print last}'
}

# stale_namespaces: every namespace on this machine named like a cluster run's (rc-<id>-br|svc|nK).
stale_namespaces() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^rc-[a-z0-9]+-(br|svc|n[0-9]+)$' || true
}

# ns_delete NS: deletes NS if it exists.
ns_delete() {
    if ns_exists "$1"; then
        ip netns del "$1" || warn "could not delete namespace $1"
    fi
}

# ---------------------------------------------------------------------------------------------------- nftables

NFT_TABLE="rcloss"

# nft_loss_on NS PERMILLE: drops PERMILLE per mille of the UDP multicast arriving on NS's v0 (Bernoulli, netdev
# ingress), counted.
nft_loss_on() {
    local ns="$1" permille="$2"
    ip netns exec "$ns" nft -f - <<EOF || die "cannot add the nftables loss rule in $ns"
table netdev $NFT_TABLE {
    chain in {
        type filter hook ingress device "v0" priority 0; policy accept;
        ip daddr 224.0.0.0/4 meta l4proto udp numgen random mod 1000 < $permille counter drop
    }
}
EOF
}

# nft_loss_count NS: packets the loss rule dropped (0 if there is no rule).
nft_loss_count() {
    { ip netns exec "$1" nft list table netdev "$NFT_TABLE" 2>/dev/null || true; } \
        | awk '/counter packets/ {for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1)} END {print n + 0}'
}

# nft_loss_off NS: removes the loss rule, if any.
nft_loss_off() {
    ip netns exec "$1" nft delete table netdev "$NFT_TABLE" 2>/dev/null || true
}

# ---------------------------------------------------------------------------------------------------- kernel

# udp_counters NS: the kernel's UDP counters of namespace NS as "Name Value" lines (from /proc/net/snmp).
udp_counters() {
    ip netns exec "$1" cat /proc/net/snmp | awk '
        $1 == "Udp:" && !header { for (i = 2; i <= NF; i++) name[i] = $i; header = 1; next }
        $1 == "Udp:" && header { for (i = 2; i <= NF; i++) print name[i], $i }'
}

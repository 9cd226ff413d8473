#!/usr/bin/env bash
# Prints the path of a Debian 12 root (debootstrap minbase + openssh-server, cron, sudo, host keys)
# kept as a tarball in var/test-peers (outside the clean tree, like the guard VM's kernel), built
# once from the host's apt mirror (3-5 minutes on this 2-core machine). Exit 3 with "SKIP <reason>"
# when it cannot be had: not root, no debootstrap, the mirror unreachable, or `--cached-only` and
# nothing cached. A build that fails with the mirror reachable exits 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cache=${RAMPART_TEST_PEERS:-$repo/var/test-peers}
tarball=$cache/debian12-audit-root.tar.gz
skip() { echo "SKIP $*"; exit 3; }

mkdir -p "$cache"
# Test files run side by side: one build at a time, the others wait and reuse it.
exec 9>"$cache/debootstrap.lock"
flock 9
if [ -s "$tarball" ]; then echo "$tarball"; exit 0; fi
[ "${1:-}" != --cached-only ] || skip "no cached Debian 12 root in $cache; RAMPART_AUDIT_DEBOOTSTRAP=1 builds it once (3-5 minutes)"

[ "$(id -u)" = 0 ] || skip "building the Debian 12 root needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (scripts/setup.sh test installs it)"
# The mirror this host's apt already uses (deb822 or one-line sources), never a host named here.
mirror=${RAMPART_AUDIT_MIRROR:-}
if [ -z "$mirror" ]; then
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    [ -f "$f" ] || continue
    mirror=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit} /^deb[ \t]/ && / bookworm / && !/security/ {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' "$f")
    [ -n "$mirror" ] && break
  done
fi
[ -n "$mirror" ] || skip "no Debian mirror in the host's apt sources (set RAMPART_AUDIT_MIRROR)"
python3 - "$mirror/dists/bookworm/Release" <<'PY' || skip "the Debian mirror $mirror is unreachable"
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=15).read(64)
PY

work=$(mktemp -d "$cache/debootstrap.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! debootstrap --variant=minbase --include=openssh-server,cron,sudo bookworm "$work/root" "$mirror" >"$work/log" 2>&1; then
  tail -n 20 "$work/log" >&2
  exit 1
fi
# sshd -t wants its privilege-separation directory and host keys.
chroot "$work/root" sh -c 'mkdir -p /run/sshd && ssh-keygen -A' >/dev/null
tar -C "$work/root" --numeric-owner -I 'gzip -1' -cf "$work/root.tar.gz" .
mv "$work/root.tar.gz" "$tarball"
echo "$tarball"

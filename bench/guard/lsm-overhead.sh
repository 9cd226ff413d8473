#!/usr/bin/env bash
# What the guard's BPF LSM backend costs a file-heavy workload it allows. Boots Debian 12's own
# kernel (6.1, which enforces BPF LSM) in qemu TCG, as apps/guard/tests/vm/run.sh does, with an
# initramfs holding rampart-guard, git, and a tarball of Debian's WordPress tree; bench/guard/vm/init.sh
# then times each workload with the guard off, on (RULES, default 100), and attached but not enforcing,
# in rounds in the same boot, and prints the ratios and the median of the rounds.
#
# TCG emulates every instruction: absolute times mean nothing; the ratios, measured side by side in
# one boot, are what this reports. By default the guest's clock counts instructions (ICOUNT below).
#
#   bench/guard/lsm-overhead.sh            (ROUNDS=3 COPIES=8 RULES=100 ICOUNT=1 VM_MEM=3072 VM_TIMEOUT=3600)
# Run by hand, as any user that can read the kernel (root on the development machine). Printed, not
# asserted. The kernel and the WordPress package are downloaded once into var/test-peers/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
guard=$repo/apps/guard
peers=$repo/var/test-peers
rounds=${ROUNDS:-3}
copies=${COPIES:-8}
rules=${RULES:-100}

command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 is not installed"; exit 3; }
[ -x /bin/busybox ] || { echo "busybox-static is not installed"; exit 3; }
command -v git >/dev/null || { echo "git is not installed"; exit 3; }

# The kernel: the same download as apps/guard/tests/vm/run.sh (shared directory, fetched once).
kernel() { ls "$peers"/debian-kernel/boot/vmlinuz-6.1.0-*-amd64 2>/dev/null | sort -V | tail -1; }
if [ -z "$(kernel)" ]; then
  mkdir -p "$peers/debian-kernel"
  newest() { apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' | sort -V | tail -1; }
  pkg=$(newest)
  [ -n "$pkg" ] || { apt-get update -qq >/dev/null 2>&1 || true; pkg=$(newest); }
  [ -n "$pkg" ] || { echo "no linux-image-6.1.0-*-amd64 package in apt"; exit 3; }
  (cd "$peers/debian-kernel" && rm -f ./*.deb && apt-get download -qq "$pkg" >/dev/null 2>&1) || { echo "cannot download $pkg"; exit 3; }
  dpkg-deb -x "$peers/debian-kernel/$pkg"_*.deb "$peers/debian-kernel" && rm -f "$peers/debian-kernel"/*.deb
fi
vmlinuz=$(kernel)

# The workload's tree: Debian's WordPress package (2,521 files, 258 directories a copy).
wp=$peers/wordpress/x/usr/share/wordpress
if [ ! -d "$wp" ]; then
  mkdir -p "$peers/wordpress"
  (cd "$peers/wordpress" && rm -f ./*.deb && apt-get download -qq wordpress >/dev/null 2>&1) || { echo "cannot download wordpress"; exit 3; }
  dpkg-deb -x "$peers/wordpress"/wordpress_*.deb "$peers/wordpress/x" && rm -f "$peers/wordpress"/*.deb
fi

work=$(mktemp -d /tmp/rampart-bench-lsm.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The committed helper by default (apps/guard may be mid-edit); GUARD_TREE=worktree builds the working tree.
if [ "${GUARD_TREE:-head}" = head ]; then
  git -C "$repo" archive HEAD apps/guard | tar -x -C "$work"
  guard=$work/apps/guard
fi
make -s -C "$guard" >/dev/null
root=$work/root
mkdir -p "$root"/{bin,proc,sys,dev,tmp,run,vm/restricted,vm/exempt}
cp /bin/busybox "$root/bin/busybox"
cp "$guard/build/rampart-guard" "$root/rampart-guard"
cp /usr/bin/git "$root/git"
cc -O2 -o "$root/now" "$here/vm/now.c"
for actor in restricted exempt; do cp "$guard/build/probe" "$root/vm/$actor/probe"; done
# Shared libraries of everything dynamic, at the paths the loader looks for them.
for bin in "$root/rampart-guard" "$root/git" "$root/now" "$root/vm/exempt/probe"; do
  for lib in $(ldd "$bin" 2>/dev/null | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'); do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
done
# Symlinks out of the package (to /etc/wordpress, to other packages' files) are kept as links.
tar -cf "$root/wp.tar" -C "$wp/.." wordpress
cp "$here/vm/init.sh" "$root/init"
chmod 755 "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd"

echo "commit $(git -C "$repo" rev-parse --short HEAD), host load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
# ICOUNT=1 (the default): the guest's clock counts executed instructions (-icount shift=0: 1 ns
# each), so the host's load does not reach the figures; they become instruction counts (no cache or
# memory timing). ICOUNT=0: the guest's clock is the host's wall clock.
icount=() clock=wall
[ "${ICOUNT:-1}" = 1 ] && icount=(-icount shift=0,sleep=off) clock=icount
timeout "${VM_TIMEOUT:-3600}" qemu-system-x86_64 -accel tcg "${icount[@]}" -m "${VM_MEM:-3072}" -smp 1 -nographic -no-reboot \
  -kernel "$vmlinuz" -initrd "$work/initrd" \
  -append "console=ttyS0 quiet loglevel=3 lsm=lockdown,capability,landlock,yama,apparmor,bpf panic=-1 bench.rounds=$rounds bench.copies=$copies bench.rules=$rules bench.clock=$clock" \
  </dev/null | stdbuf -oL tr -d '\r' | tee "$work/console.log"
grep -q '^DONE' "$work/console.log"

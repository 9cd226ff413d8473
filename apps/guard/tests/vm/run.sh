#!/usr/bin/env bash
# Boots Debian 12's own kernel (6.1, which enforces BPF LSM) in qemu (TCG) with an initramfs holding
# rampart-guard, and prints what tests/vm/init.sh prints (CHECK/EVENT/HELLO/... lines).
# Exit 0 after a boot that reached DONE; 3 when qemu or the kernel cannot be had (the test skips).
# The kernel package is downloaded once into var/test-peers/debian-kernel.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
guard=$(cd "$here/../.." && pwd)
repo=$(cd "$guard/../.." && pwd)
peers=$repo/var/test-peers/debian-kernel
timeout_s=${GUARD_VM_TIMEOUT:-240}

# One VM run at a time: test files run side by side, and two runs would download the kernel
# package and rebuild the helper into the same folders at once.
mkdir -p "$repo/var/test-peers"
exec 9>"$repo/var/test-peers/vm.lock"
flock 9

command -v qemu-system-x86_64 >/dev/null || { echo "SKIP qemu-system-x86_64 is not installed"; exit 3; }
[ -x /bin/busybox ] || { echo "SKIP busybox-static is not installed"; exit 3; }

kernel() { ls "$peers"/boot/vmlinuz-6.1.0-*-amd64 2>/dev/null | sort -V | tail -1; }
if [ -z "$(kernel)" ]; then
  mkdir -p "$peers"
  newest() { apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' | sort -V | tail -1; }
  pkg=$(newest)
  [ -n "$pkg" ] || { apt-get update -qq >/dev/null 2>&1 || true; pkg=$(newest); }
  [ -n "$pkg" ] || { echo "SKIP no linux-image-6.1.0-*-amd64 package in apt"; exit 3; }
  (cd "$peers" && rm -f ./*.deb && apt-get download -qq "$pkg" >/dev/null 2>&1) || { echo "SKIP cannot download $pkg"; exit 3; }
  dpkg-deb -x "$peers"/"$pkg"_*.deb "$peers" && rm -f "$peers"/*.deb
fi
vmlinuz=$(kernel)
[ -n "$vmlinuz" ] || { echo "SKIP the kernel package has no vmlinuz"; exit 3; }

# GUARD_MAKE_FLAGS: e.g. FANOTIFY_SRC=src/fanotify-stub.c while fanotify.c is being written.
make -s -C "$guard" ${GUARD_MAKE_FLAGS:-} >/dev/null

work=$(mktemp -d /tmp/rampart-guard-vm.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,proc,sys,dev,tmp,run,vm/restricted,vm/exempt,vm/trusted}
cp /bin/busybox "$root/bin/busybox"
cp "$guard/build/rampart-guard" "$root/rampart-guard"
# The helper's shared libraries, at the paths the loader looks for them.
for lib in $(ldd "$guard/build/rampart-guard" | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'); do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
# GUARD_VM_EXTRA_BINS: host programs a check runs (account-init.sh: useradd), under /vm/bin with their libraries.
for bin in ${GUARD_VM_EXTRA_BINS:-}; do
  mkdir -p "$root/vm/bin"
  cp "$bin" "$root/vm/bin/"
  for lib in $(ldd "$bin" | awk '/=>/ {print $3} /^\t\/lib/ {print $1}'); do
    mkdir -p "$root$(dirname "$lib")"
    cp -L "$lib" "$root$lib"
  done
done
# Three copies of the actor: three inodes, three identities for the plan.
for actor in restricted exempt trusted; do cp "$guard/build/probe" "$root/vm/$actor/probe"; done
# The network actor (net-init.sh makes its own copies).
cp "$guard/build/netprobe" "$root/vm/netprobe"
# GUARD_VM_INIT: another module's checks in their own boot (account-init.sh: user protection).
cp "$here/${GUARD_VM_INIT:-init.sh}" "$root/init"
chmod 755 "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd"

timeout "$timeout_s" qemu-system-x86_64 -accel tcg -m 512 -smp 1 -nographic -no-reboot \
  -kernel "$vmlinuz" -initrd "$work/initrd" \
  -append "console=ttyS0 quiet loglevel=3 lsm=lockdown,capability,landlock,yama,apparmor,bpf panic=-1" \
  </dev/null | tr -d '\r' | tee "$work/console.log"
grep -q '^DONE' "$work/console.log"

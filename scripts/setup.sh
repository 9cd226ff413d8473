#!/usr/bin/env bash
# Makes a fresh clone ready: npm packages, Debian packages (as root), the service user, the web build.
# Called by `npm start` (mode: start) and `npm test` (mode: test) before they run.
set -euo pipefail
mode=${1:-start}
cd "$(dirname "$0")/.."

# npm packages, when missing or older than the lock file (Node 24 arrives as the `node` package).
if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ "$(id -u)" = 0 ]; then
  need=()
  command -v nft >/dev/null 2>&1 || need+=(nftables)
  # Trojan protection's real-time watch (IN_CLOSE_WRITE / IN_MOVED_TO, recursive).
  command -v inotifywait >/dev/null 2>&1 || need+=(inotify-tools)
  # The guard helper (apps/guard): C and BPF built here with Debian's toolchain (libbpf CO-RE).
  command -v clang >/dev/null 2>&1 || need+=(clang)
  command -v llvm-strip >/dev/null 2>&1 || need+=(llvm)
  command -v bpftool >/dev/null 2>&1 || need+=(bpftool)
  command -v make >/dev/null 2>&1 || need+=(make)
  command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev)
  [ -f /usr/include/bpf/libbpf.h ] || need+=(libbpf-dev)
  [ -f /usr/include/cjson/cJSON.h ] || need+=(libcjson-dev)
  [ -f /usr/include/gelf.h ] || need+=(libelf-dev)
  [ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
  command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
  # Chinese text in the audit's PDF report (the product draws it; without it a Chinese PDF is refused).
  [ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need+=(fonts-wqy-microhei)
  if [ "$mode" = test ]; then
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    # pdftotext reads the audit's PDF report back in its tests.
    command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
    # Chinese glyphs for the browser tests and screenshots.
    [ -d /usr/share/fonts/opentype/noto ] || need+=(fonts-noto-cjk)
    # A standard syslog receiver for the syslog-forwarding tests.
    command -v rsyslogd >/dev/null 2>&1 || need+=(rsyslog)
    # Real peers of the firewall tests: port scans, SSH password guessing, a journal to follow.
    command -v nmap >/dev/null 2>&1 || need+=(nmap)
    # The audit's patch tests index a local apt repository they build (apt-ftparchive).
    command -v apt-ftparchive >/dev/null 2>&1 || need+=(apt-utils)
    # The audit's checks and reinforcement run against a Debian 12 root it builds (packages/audit/tests/debootstrap-root.sh).
    command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || need+=(debootstrap)
    [ -x /usr/sbin/sshd ] || need+=(openssh-server)
    command -v sshpass >/dev/null 2>&1 || need+=(sshpass)
    [ -x /lib/systemd/systemd-journal-remote ] || need+=(systemd-journal-remote)
    command -v ip >/dev/null 2>&1 || need+=(iproute2)
    # The guard's BPF LSM backend is tested in a VM booting Debian 12's own kernel (this host's may refuse LSM programs).
    command -v qemu-system-x86_64 >/dev/null 2>&1 || need+=(qemu-system-x86)
    dpkg -s busybox-static >/dev/null 2>&1 || need+=(busybox-static)
    command -v cpio >/dev/null 2>&1 || need+=(cpio)
    # The website gateway's tests: a real nginx origin (each test runs its own, on a loopback port),
    # and `nginx -T` / `apache2 -S` for site discovery. Their own services must not start (port 80).
    [ -x /usr/sbin/nginx ] || need+=(nginx)
    [ -x /usr/sbin/apache2 ] || need+=(apache2)
  fi
  if [ ${#need[@]} -gt 0 ]; then
    echo "[setup] installing Debian packages: ${need[*]}"
    apt-get update -qq
    # A policy-rc.d that forbids starting services keeps nginx and apache2 from taking port 80.
    guard=
    if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && guard=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null || { [ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d; exit 1; }
    [ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d
    for svc in nginx apache2; do
      case " ${need[*]} " in *" $svc "*) command -v systemctl >/dev/null 2>&1 && systemctl disable --now "$svc" >/dev/null 2>&1 || true ;; esac
    done
  fi
  # A real NTP server for the SNTP tests. Installing chrony would remove systemd-timesyncd from the
  # host, so the package is only downloaded and unpacked; the tests run its chronyd with their own config.
  if [ "$mode" = test ] && [ ! -x var/test-peers/chrony/usr/sbin/chronyd ]; then
    echo "[setup] unpacking Debian chrony for the NTP tests"
    mkdir -p var/test-peers
    if (cd var/test-peers && rm -f chrony_*.deb && { apt-get download -qq chrony >/dev/null 2>&1 || { apt-get update -qq && apt-get download -qq chrony >/dev/null 2>&1; }; }); then
      dpkg-deb -x var/test-peers/chrony_*.deb var/test-peers/chrony
    else
      echo "[setup] chrony could not be downloaded: the tests against a real NTP server will be skipped"
    fi
  fi
  bash deploy/create-user.sh
fi

# The guard helper (C + BPF), when never built or older than its sources. Without the toolchain (not
# root on a bare machine) the agent reports the file guard as missing instead of failing to start.
if command -v clang >/dev/null 2>&1 && command -v bpftool >/dev/null 2>&1; then
  if [ ! -x apps/guard/build/rampart-guard ] || [ -n "$(find apps/guard/src apps/guard/Makefile -newer apps/guard/build/rampart-guard -print -quit 2>/dev/null)" ]; then
    echo "[setup] building the guard helper"
    make -s -C apps/guard
  fi
else
  echo "[setup] clang/bpftool missing: the guard helper is not built (file, process and user guards will report it)"
fi

# The web app, when never built or older than its sources.
if [ ! -f apps/web/dist/index.html ] || [ -n "$(find apps/web/src apps/web/index.html packages/contracts/src -newer apps/web/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "[setup] building the web console"
  npm run build -w @rampart/web --silent
fi

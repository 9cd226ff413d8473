#!/bin/busybox sh
# /init of the guard's network VM test (GUARD_VM_INIT=net-init.sh): under Debian 12's kernel, the
# helper runs its BPF LSM backend AND the cgroup network programs, attached by default to the cgroup
# v2 root (as in production: the VM is the whole machine). Copies of netprobe at their own inodes try
# connects and sends; with nothing listening an allowed TCP connect gets ECONNREFUSED, a denied one
# EPERM. One line per check: NCHECK {"name","actor","expect","got"}.
/bin/busybox mkdir -p /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t bpf bpf /sys/fs/bpf
mount -t securityfs securityfs /sys/kernel/security
mount -t tmpfs cg /sys/fs/cgroup 2>/dev/null
mkdir -p /sys/fs/cgroup/unified /t /run
mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified
mount -t tmpfs tmp /t
ip link set lo up
echo "INFO kernel $(uname -r)"

cp /vm/netprobe /t/restricted
cp /vm/netprobe /t/free
ino() { stat -c '"dev":%d,"ino":%i' "$1"; }
printf '{"generation":3,"enforce":true,"objects":[],"sets":[],"exes":[],"trusted_pids":[],"net":{"rules":[{"rule":"process:5","deny":15,"allow":["127.0.0.2/32"]}],"exes":[{%s,"path":"/t/restricted","rules":[0]}]}}' \
  "$(ino /t/restricted)" > /tmp/plan.json

check() { # name actor expect mode host
  got=$(/t/$2 $4 $5 9)
  echo "NCHECK {\"name\":\"$1\",\"actor\":\"$2\",\"expect\":\"$3\",\"got\":\"$got\"}"
}

start_helper() {
  rm -f /run/guard.sock
  /rampart-guard --socket /run/guard.sock --events-stdout "$@" >> /tmp/events.log 2>> /tmp/helper.err &
  helper_pid=$!
  i=0
  while [ ! -S /run/guard.sock ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
}

start_helper --plan-file /tmp/plan.json
echo "HELLO $(/vm/exempt/probe send /run/guard.sock '{"id":1,"op":"hello"}')"
check tcp4 restricted EPERM tcp 127.0.0.1
check tcp4 free ECONNREFUSED tcp 127.0.0.1
check tcp4-allowed restricted ECONNREFUSED tcp 127.0.0.2
check tcp6 restricted EPERM tcp ::1
check tcp6 free ECONNREFUSED tcp ::1
check udp4 restricted EPERM udp 127.0.0.1
check udp4 free ok udp 127.0.0.1
check udp6 restricted EPERM udp ::1
sleep 0.5

# Enforcement outlives the helper (pinned net links and maps), and a restart keeps it.
kill -9 $helper_pid
wait $helper_pid 2>/dev/null
echo "INFO pins $(ls /sys/fs/bpf/rampart | tr '\n' ' ')"
check pinned-after-kill restricted EPERM tcp 127.0.0.1
start_helper
echo "HELLO2 $(/vm/exempt/probe send /run/guard.sock '{"id":1,"op":"hello"}')"
check restarted restricted EPERM tcp 127.0.0.1
kill $helper_pid
wait $helper_pid 2>/dev/null
/rampart-guard --unload
check unloaded restricted ECONNREFUSED tcp 127.0.0.1

while read -r line; do echo "EVENT $line"; done < /tmp/events.log
while read -r line; do echo "HELPER $line"; done < /tmp/helper.err
echo "DONE"
poweroff -f

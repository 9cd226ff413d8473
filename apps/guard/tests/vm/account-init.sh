#!/bin/busybox sh
# /init of user protection's VM test (run.sh with GUARD_VM_INIT=account-init.sh and
# GUARD_VM_EXTRA_BINS=/usr/sbin/useradd): under Debian 12's
# kernel, the helper holds a plan whose account slots lock this VM's /etc/passwd, shadow, group and
# gshadow (w d n t for every process, as apps/agent/src/account plans them); a write-and-rename over
# /etc/passwd (useradd's last step) and busybox's account tool are denied and the files stay as they
# were. Debian's busybox has no adduser applet: `passwd -d` runs the same busybox update_passwd()
# code adduser uses (open the file, write `<file>+`, rename it over). Then a plan without the
# account slots (the timed unlock) lets that tool through.
/bin/busybox mkdir -p /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t bpf bpf /sys/fs/bpf
mount -t securityfs securityfs /sys/kernel/security
mkdir -p /etc /t /run /home
echo "INFO kernel $(uname -r) lsm $(cat /sys/kernel/security/lsm)"

printf 'root:x:0:0:root:/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n' > /etc/passwd
printf 'root:*:19000:0:99999:7:::\nalice:!:19000:0:99999:7:::\n' > /etc/shadow
printf 'root:x:0:\nsudo:x:27:alice\nalice:x:1000:\n' > /etc/group
printf 'root:*::\nsudo:*::alice\n' > /etc/gshadow
chmod 600 /etc/shadow /etc/gshadow
before=$(cat /etc/passwd /etc/shadow /etc/group /etc/gshadow | md5sum)
# What useradd writes before renaming it over /etc/passwd.
cp /etc/passwd /etc/passwd+
echo 'mallory:x:0:0::/root:/bin/sh' >> /etc/passwd+
# An unlocked copy: the same rename there goes through (the control).
mkdir -p /t/copy
cp /etc/passwd /t/copy/passwd
cp /etc/passwd+ /t/copy/passwd+

ino() { stat -c '"dev":%d,"ino":%i' "$1"; }
# The slot planGuard makes for an account rule (the agent test checks it is the same): w d n t = 116.
slot() { printf '{"rule":"account:%s","covers":116,"deny":116,"proc":-1,"exempt":-1,"target":"any","name":{"kind":"any","a":"","b":""},"malformed":false,"notify":true}' "$1"; }
locked_plan() {
  printf '{"generation":%s,"enforce":true,"objects":[' "$1"
  printf '{%s,"path":"/etc/group","set":1,"dir":false},{%s,"path":"/etc/gshadow","set":2,"dir":false},' "$(ino /etc/group)" "$(ino /etc/gshadow)"
  printf '{%s,"path":"/etc/passwd","set":3,"dir":false},{%s,"path":"/etc/shadow","set":4,"dir":false}],' "$(ino /etc/passwd)" "$(ino /etc/shadow)"
  printf '"sets":[{"id":1,"slots":[%s]},{"id":2,"slots":[%s]},{"id":3,"slots":[%s]},{"id":4,"slots":[%s]}],' "$(slot group)" "$(slot gshadow)" "$(slot passwd)" "$(slot shadow)"
  printf '"exes":[],"trusted_pids":[]}'
}
echo "SLOT $(slot passwd)"
locked_plan 1 > /tmp/plan.json

rm -f /run/guard.sock
/rampart-guard --socket /run/guard.sock --events-stdout --plan-file /tmp/plan.json > /tmp/events.log 2>> /tmp/helper.err &
helper_pid=$!
i=0
while [ ! -S /run/guard.sock ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done

check() { # name expect op path [path2]
  name=$1 expect=$2
  shift 2
  got=$(/vm/restricted/probe "$@")
  echo "CHECK {\"name\":\"$name\",\"actor\":\"restricted\",\"op\":\"$1\",\"path\":\"$2\",\"expect\":$expect,\"got\":${got:-null}}"
}
result() { # name expect command...
  name=$1 expect=$2
  shift 2
  "$@" > /tmp/out.txt 2>&1
  code=$?
  echo "RESULT {\"name\":\"$name\",\"expect_ok\":$expect,\"code\":$code,\"output\":\"$(head -c 200 /tmp/out.txt | tr -d '"\\\n')\"}"
}

# ---- locked ----
check account-rename-over-passwd 1 rename /etc/passwd+ /etc/passwd
check account-write-passwd 1 write /etc/passwd
check account-trunc-shadow 1 trunc /etc/shadow
check account-unlink-group 1 unlink /etc/group
check account-touch-gshadow 1 touch /etc/gshadow
check account-read-passwd 0 read /etc/passwd
check account-rename-over-copy 0 rename /t/copy/passwd+ /t/copy/passwd
result account-passwd-tool-locked false passwd -d alice
result account-mv-over-locked false mv -f /etc/passwd+ /etc/passwd
# Debian's useradd itself (copied in by run.sh): its write-and-rename of /etc/passwd is refused.
[ -x /vm/bin/useradd ] && result account-useradd-locked false /vm/bin/useradd -M -N -g 0 mallory
after=$(cat /etc/passwd /etc/shadow /etc/group /etc/gshadow | md5sum)
echo "UNCHANGED $([ "$before" = "$after" ] && echo true || echo false)"
echo "MALLORY $(grep -c mallory /etc/passwd)"

# ---- unlocked: the agent's plan without the account slots ----
echo "APPLY $(/vm/restricted/probe send /run/guard.sock '{"id":2,"op":"apply","plan":{"generation":2,"enforce":false,"objects":[],"sets":[],"exes":[],"trusted_pids":[]}}')"
rm -f /etc/passwd+ /etc/shadow+
[ -x /vm/bin/useradd ] && result account-useradd-unlocked true /vm/bin/useradd -M -N -g 0 bob
echo "BOB $(grep -c '^bob:' /etc/passwd)"
result account-passwd-tool-unlocked true passwd -d alice
echo "ALICE $(grep '^alice:' /etc/shadow | cut -d: -f2)"
sleep 1.5
kill $helper_pid
while read -r line; do echo "EVENT $line"; done < /tmp/events.log
while read -r line; do echo "HELPER $line"; done < /tmp/helper.err
echo "DONE"
poweroff -f

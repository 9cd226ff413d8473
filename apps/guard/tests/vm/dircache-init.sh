#!/bin/busybox sh
# The directory cache of guard.bpf.c (nearest protected object per directory, dropped on a new plan
# or after any directory rename) must never change a decision: directories moved into and out of a
# protected tree after their lookups were cached, plans that add and remove objects, change a set's
# operations or an executable's classes. Each RCHECK line is one decision; dircache-vm.test.ts reads them.
/bin/busybox mkdir -p /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t bpf bpf /sys/fs/bpf
mount -t securityfs securityfs /sys/kernel/security
mkdir -p /t /run
mount -t tmpfs tmp /t
mkdir -p /t/prot/m1 /t/prot/m2/sub /t/free/n1/sub /t/free2/d /t/prot/a/b/c/d/e /t/prot/fr /t/free/x/y
for f in m1/f m2/sub/f a/b/c/d/e/f fr/f1; do echo data > /t/prot/$f; done
for f in n1/sub/f x/y/f; do echo data > /t/free/$f; done
echo data > /t/free2/d/f
ino() { stat -c '"dev":%d,"ino":%i' "$1"; }
slot() { printf '{"rule":"%s","covers":%s,"deny":%s,"proc":%s,"exempt":%s,"target":"%s","name":{"kind":"%s","a":"%s","b":"%s"},"malformed":%s,"notify":true}' "$@"; }
plan() { # generation ops free2? [restricted classes]
  printf '{"generation":%s,"enforce":true,"objects":[{%s,"path":"/t/prot","set":1,"dir":true}' "$1" "$(ino /t/prot)"
  [ "$3" = yes ] && printf ',{%s,"path":"/t/free2","set":1,"dir":true}' "$(ino /t/free2)"
  printf '],"sets":[{"id":1,"slots":[%s]}],' "$(slot tamper:1 "$2" "$2" -1 1 any any '' '' false)"
  printf '"exes":[{%s,"path":"/vm/restricted/probe","classes":[%s]},{%s,"path":"/vm/exempt/probe","classes":[1]}],"trusted_pids":[]}' "$(ino /vm/restricted/probe)" "${4:-0}" "$(ino /vm/exempt/probe)"
}
plan 1 127 no > /tmp/plan.json
rm -f /run/guard.sock
/rampart-guard --socket /run/guard.sock --events-stdout --plan-file /tmp/plan.json > /tmp/events.log 2>> /tmp/helper.err &
i=0; while [ ! -S /run/guard.sock ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
check() { name=$1 actor=$2 expect=$3; shift 3; got=$(/vm/$actor/probe "$@"); [ "$got" = "$expect" ] && r=ok || r=WRONG; echo "RCHECK $r $name $actor expect=$expect got=$got"; }
apply() { echo "APPLY $(/vm/exempt/probe send /run/guard.sock "{\"id\":2,\"op\":\"apply\",\"plan\":$(plan "$@")}")"; }

# 1. a protected directory moved out
check m1-before restricted 1 write /t/prot/m1/f
check m1-before2 restricted 1 write /t/prot/m1/f
check m1-mv exempt 0 rename /t/prot/m1 /t/free/m1
check m1-after restricted 0 write /t/free/m1/f
check m2-before restricted 1 write /t/prot/m2/sub/f
check m2-mv exempt 0 rename /t/prot/m2 /t/free/m2
check m2-after-sub restricted 0 write /t/free/m2/sub/f
check m2-after-creat restricted 0 creat /t/free/m2/sub/new
# 2. an unprotected directory moved in
check n1-before restricted 0 write /t/free/n1/sub/f
check n1-before2 restricted 0 creat /t/free/n1/sub/new0
check n1-mv exempt 0 rename /t/free/n1 /t/prot/n1
check n1-after restricted 1 write /t/prot/n1/sub/f
check n1-after-creat restricted 1 creat /t/prot/n1/sub/new
# 3. a plan protects a cached tree, then no longer does
check free2-before restricted 0 write /t/free2/d/f
apply 2 127 yes
check free2-on restricted 1 write /t/free2/d/f
apply 3 127 no
check free2-off restricted 0 write /t/free2/d/f
# 4. a file renamed in a cached directory; the directory stays protected
check fr-before restricted 1 write /t/prot/fr/f1
check fr-mv exempt 0 rename /t/prot/fr/f1 /t/prot/fr/f2
check fr-after restricted 1 write /t/prot/fr/f2
check fr-read restricted 1 read /t/prot/fr/f2
# 5. the set's ops change: write only (reads skipped by the deny masks)
apply 4 32 no
check ops-read restricted 0 read /t/prot/fr/f2
check ops-write restricted 1 write /t/prot/fr/f2
check ops-creat restricted 0 creat /t/prot/fr/f3
apply 5 127 no
# 6. deep: the path in the event from a cached walk
check deep1 restricted 1 write /t/prot/a/b/c/d/e/f
check deep2 restricted 1 chmod /t/prot/a/b/c/d/e/f
check deep3 restricted 1 creat /t/prot/a/b/c/d/e/g
# 7. a grandparent moved between two unprotected places, then into the protected tree
check x-before restricted 0 write /t/free/x/y/f
check x-mv exempt 0 rename /t/free/x /t/prot/x
check x-after restricted 1 write /t/prot/x/y/f
check x-mv-back exempt 0 rename /t/prot/x /t/free/x2
check x-after2 restricted 0 write /t/free/x2/y/f
# 8. an executable's classes change: exempt, then restricted again, then unlisted-like (class 2)
apply 6 127 no 1
check cls-exempt restricted 0 write /t/prot/fr/f2
apply 7 127 no 0
check cls-restricted restricted 1 write /t/prot/fr/f2
apply 8 127 no 2
check cls-other restricted 1 write /t/prot/fr/f2
apply 9 127 no 0,1
check cls-both restricted 0 write /t/prot/fr/f2
apply 10 32 no 0
check cls-w-read restricted 0 read /t/prot/fr/f2
check cls-w-write restricted 1 write /t/prot/fr/f2
sleep 1.5
while read -r line; do echo "EVENT $line"; done < /tmp/events.log
while read -r line; do echo "HELPER $line"; done < /tmp/helper.err
echo DONE
poweroff -f

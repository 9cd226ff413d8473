#!/bin/busybox sh
# /init of the guard's VM test: runs under Debian 12's kernel, applies a plan with the helper, then
# really attempts each operation from a restricted and an exempt executable (copies of probe at
# their own inodes). One line per check: CHECK {"name","actor","op","path","expect","got"} (errnos).
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
echo "INFO kernel $(uname -r) lsm $(cat /sys/kernel/security/lsm)"

# ---- trees (made before the plan: the init shell is an unclassified process) ----
mkdir -p /t/prot/open /t/prot/a/b/c /t/prot/rmd1 /t/prot/rmd2 /t/free/rmd /t/up /t/noexec
for f in f f2 f3 del1 del2 mv1 mv2 loopf open/f a/b/c/deep; do echo data > /t/prot/$f; done
for f in g src1 src2 del x1 x2 mv; do echo data > /t/free/$f; done
for d in prot free noexec; do printf '#!/bin/sh\nexit 0\n' > /t/$d/run.sh; chmod 755 /t/$d/run.sh; done
# Programs started by name (process protection's `*xmrig`): anywhere on the filesystem of /t.
mkdir -p /t/free/deep/er
for f in free/xmrig free/deep/er/my-xmrig free/xmrig-not; do printf '#!/bin/sh\nexit 0\n' > /t/$f; chmod 755 /t/$f; done
cp /vm/restricted/probe /t/prot/prog

ino() { stat -c '"dev":%d,"ino":%i' "$1"; }
slot() { # rule covers deny proc exempt target kind a b malformed
  printf '{"rule":"%s","covers":%s,"deny":%s,"proc":%s,"exempt":%s,"target":"%s","name":{"kind":"%s","a":"%s","b":"%s"},"malformed":%s,"notify":true}' "$@"
}

# A process of the restricted class whose pid the plan trusts: it acts once /tmp/go exists.
/vm/trusted/probe after /tmp/go write /t/prot/f > /tmp/trusted.out &
trusted_pid=$!

deny_all=$(slot tamper:1 127 127 -1 1 any any '' '' false)
plan() { # generation enforce
  printf '{"generation":%s,"enforce":%s,' "$1" "$2"
  printf '"objects":[{%s,"path":"/t/prot","set":1,"dir":true},{%s,"path":"/t/prot/open","set":2,"dir":true},' "$(ino /t/prot)" "$(ino /t/prot/open)"
  printf '{%s,"path":"/t/up","set":3,"dir":true},{%s,"path":"/t/noexec","set":4,"dir":true},' "$(ino /t/up)" "$(ino /t/noexec)"
  printf '{%s,"path":"/t","set":5,"dir":true}],' "$(ino /t)"
  printf '"sets":[{"id":1,"slots":[%s]},' "$deny_all"
  printf '{"id":2,"slots":[%s,%s]},' "$(slot tamper:2 127 0 0 -1 any any '' '' false)" "$deny_all"
  printf '{"id":3,"slots":[%s,%s,%s,%s,%s,%s]},' "$(slot name:1 8 8 -1 -1 file suffix .php '' false)" \
    "$(slot name:1 8 8 -1 -1 any any '' '' true)" "$(slot name:2 8 8 -1 -1 dir prefix tmp '' false)" \
    "$(slot name:3 8 8 -1 -1 file contains shell '' false)" "$(slot name:4 8 8 -1 -1 file exact evil.sh '' false)" \
    "$(slot name:5 8 8 -1 -1 file prefix_suffix bak .tar false)"
  printf '{"id":4,"slots":[%s]},' "$(slot tamper:3 2 2 0 -1 any any '' '' false)"
  # /t is its filesystem's root (a tmpfs): the walk up from any file of it ends there.
  printf '{"id":5,"slots":[%s]}],' "$(slot process:9:start 2 2 -1 1 file suffix xmrig '' false)"
  printf '"exes":[{%s,"path":"/vm/restricted/probe","classes":[0]},' "$(ino /vm/restricted/probe)"
  printf '{%s,"path":"/vm/trusted/probe","classes":[0]},' "$(ino /vm/trusted/probe)"
  printf '{%s,"path":"/vm/exempt/probe","classes":[1]}],' "$(ino /vm/exempt/probe)"
  printf '"trusted_pids":[%s]}' "$trusted_pid"
}
plan 7 true > /tmp/plan.json

start_helper() { # events file
  rm -f /run/guard.sock
  /rampart-guard --socket /run/guard.sock --events-stdout "$@" > "$events_file" 2>> /tmp/helper.err &
  helper_pid=$!
  i=0
  while [ ! -S /run/guard.sock ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
  [ -S /run/guard.sock ] || echo "INFO helper did not open its socket"
}
events_file=/tmp/events1.log
start_helper --plan-file /tmp/plan.json

check() { # name actor expect op path [path2]
  name=$1 actor=$2 expect=$3
  shift 3
  got=$(/vm/$actor/probe "$@")
  echo "CHECK {\"name\":\"$name\",\"actor\":\"$actor\",\"op\":\"$1\",\"path\":\"$2\",\"expect\":$expect,\"got\":${got:-null}}"
}

# A path with bytes a CHECK line cannot carry raw (control bytes, invalid UTF-8): given as a printf
# format, shown as that format.
check_bytes() { # name actor expect op printf-format
  got=$(/vm/$2/probe "$4" "$(printf "$5")")
  echo "CHECK {\"name\":\"$1\",\"actor\":\"$2\",\"op\":\"$4\",\"path\":\"$(echo "$5" | sed 's/\\/\\\\/g')\",\"expect\":$3,\"got\":${got:-null}}"
}

# ---- the trusted pid ----
touch /tmp/go
wait $trusted_pid
echo "CHECK {\"name\":\"trusted-write\",\"actor\":\"trusted\",\"op\":\"write\",\"path\":\"/t/prot/f\",\"expect\":0,\"got\":$(cat /tmp/trusted.out)}"

# ---- a protected tree: denied for the restricted actor ----
check w-write restricted 1 write /t/prot/f
check w-trunc restricted 1 trunc /t/prot/f
check r-read restricted 1 read /t/prot/f
check c-creat restricted 1 creat /t/prot/new
check c-mkdir restricted 1 mkdir /t/prot/newd
check d-unlink restricted 1 unlink /t/prot/del1
check d-rmdir restricted 1 rmdir /t/prot/rmd1
check n-rename-out restricted 1 rename /t/prot/mv1 /t/free/mv1
check n-rename-in-over restricted 1 rename /t/free/src1 /t/prot/f2
check t-touch restricted 1 touch /t/prot/f
check w-chmod restricted 1 chmod /t/prot/f
check w-chown restricted 1 chown /t/prot/f
check x-exec restricted 1 exec /t/prot/prog
check w-deep restricted 1 write /t/prot/a/b/c/deep

# ---- the same tree: allowed for the exempt actor ----
check w-write exempt 0 write /t/prot/f
check w-trunc exempt 0 trunc /t/prot/f
check r-read exempt 0 read /t/prot/f
check c-creat exempt 0 creat /t/prot/newx
check c-mkdir exempt 0 mkdir /t/prot/newdx
check d-unlink exempt 0 unlink /t/prot/del2
check d-rmdir exempt 0 rmdir /t/prot/rmd2
check n-rename-out exempt 0 rename /t/prot/mv2 /t/free/mv2
check n-rename-in-over exempt 0 rename /t/free/src2 /t/prot/f3
check t-touch exempt 0 touch /t/prot/f
check w-chmod exempt 0 chmod /t/prot/f
check w-chown exempt 0 chown /t/prot/f
check x-exec exempt 0 exec /t/prot/prog

# ---- outside the tree: allowed for the restricted actor ----
check w-write-outside restricted 0 write /t/free/g
check c-creat-outside restricted 0 creat /t/free/new
check c-mkdir-outside restricted 0 mkdir /t/free/newd
check d-unlink-outside restricted 0 unlink /t/free/del
check d-rmdir-outside restricted 0 rmdir /t/free/rmd
check n-rename-outside restricted 0 rename /t/free/mv /t/free/mv-renamed
check t-touch-outside restricted 0 touch /t/free/g
check x-exec-outside restricted 0 exec /t/free/run.sh

# ---- an allow slot placed first opens a sub-directory ----
check open-write restricted 0 write /t/prot/open/f
check open-creat restricted 0 creat /t/prot/open/new

# ---- a tree that denies only exec ----
check x-only-exec restricted 1 exec /t/noexec/run.sh
check x-only-read restricted 0 read /t/noexec/run.sh
check x-only-exec exempt 0 exec /t/noexec/run.sh

# ---- deny start by name, from the filesystem's root (process protection's `*xmrig`) ----
check x-name-start restricted 1 exec /t/free/xmrig
check x-name-start-deep restricted 1 exec /t/free/deep/er/my-xmrig
check x-name-start exempt 0 exec /t/free/xmrig
check x-name-start-other restricted 0 exec /t/free/xmrig-not
check x-name-start-read restricted 0 read /t/free/xmrig

# ---- naming rules (for every process) ----
check name-suffix-php restricted 1 creat /t/up/x.php
check name-suffix-php exempt 1 creat /t/up/y.php
check name-malformed-php-jpg restricted 1 creat /t/up/a.php.jpg
check name-malformed-asp-semicolon restricted 1 creat '/t/up/a.ASP;.jpg'
check name-malformed-trailing-space restricted 1 creat '/t/up/b '
check name-malformed-trailing-dot restricted 1 creat /t/up/c.
check name-malformed-php5-jpg restricted 1 creat /t/up/a.php5.jpg
check name-malformed-php-semicolon restricted 1 creat '/t/up/a.php;.jpg'
check name-script-ext-last restricted 0 creat /t/up/a.php5
check_bytes name-malformed-control restricted 1 creat '/t/up/a\001b.txt'
check_bytes name-malformed-invalid-utf8 restricted 1 creat '/t/up/a\377.txt'
check_bytes name-malformed-cut-utf8 restricted 1 creat '/t/up/a.txt\303'
check_bytes name-malformed-surrogate restricted 1 creat '/t/up/a\355\240\200.txt'
check_bytes name-valid-utf8 restricted 0 creat '/t/up/caf\303\251.txt'
check name-plain-jpg restricted 0 creat /t/up/a.jpg
check name-dir-prefix restricted 1 mkdir /t/up/tmpdir
check name-dir-plain restricted 0 mkdir /t/up/data
check name-file-prefix-not-dir restricted 0 creat /t/up/tmpfile
check name-contains restricted 1 creat /t/up/myshell1.txt
check name-exact restricted 1 creat /t/up/evil.sh
check name-exact-other restricted 0 creat /t/up/evil.shx
check name-prefix-suffix restricted 1 creat /t/up/bak-2024.tar
check name-rename-in restricted 1 rename /t/free/x1 /t/up/z.php
check name-rename-in-plain restricted 0 rename /t/free/x2 /t/up/z.png

# ---- a looping process: its denials are folded ----
check loop-write restricted 1 repeat 50 write /t/prot/loopf
sleep 2

# ---- enforcement outlives the helper (pinned links and maps) ----
kill -9 $helper_pid
wait $helper_pid 2>/dev/null
sleep 0.5
echo "INFO pins $(ls /sys/fs/bpf/rampart | tr '\n' ' ')"
check pinned-after-kill restricted 1 write /t/prot/f
check pinned-after-kill exempt 0 write /t/prot/f

# A restarted helper (no plan) reuses the pinned tables and reports their generation.
events_file=/tmp/events2.log
start_helper
echo "HELLO $(/vm/exempt/probe send /run/guard.sock '{"id":1,"op":"hello"}')"
check restarted-write restricted 1 write /t/prot/f

# Apply through the socket: enforce off, then on again.
echo "APPLY $(/vm/exempt/probe send /run/guard.sock "{\"id\":2,\"op\":\"apply\",\"plan\":$(plan 8 false)}")"
check enforce-off-write restricted 0 write /t/prot/f
echo "APPLY $(/vm/exempt/probe send /run/guard.sock "{\"id\":3,\"op\":\"apply\",\"plan\":$(plan 9 true)}")"
check enforce-on-write restricted 1 write /t/prot/f
echo "APPLY $(/vm/exempt/probe send /run/guard.sock '{"id":4,"op":"apply","plan":{"generation":1}}')"
sleep 1.5

while read -r line; do echo "EVENT $line"; done < /tmp/events1.log
while read -r line; do echo "EVENT2 $line"; done < /tmp/events2.log
while read -r line; do echo "HELPER $line"; done < /tmp/helper.err
echo "DONE"
poweroff -f

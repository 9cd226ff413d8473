#!/bin/busybox sh
# /init of bench/guard/lsm-overhead.sh: under Debian 12's kernel, builds COPIES copies of the WordPress
# tree in a tmpfs, a git index over them, and a plan of RULES (100) rules on directories across the
# tree that restrict a class of executables the workload is not in (every access is allowed, and
# judged). Then times each workload in three states, ROUNDS times in this one boot (on and idle
# back to back, switched by an apply):
#   off   no BPF program attached (helper stopped, pins removed with --unload);
#   on    the helper's programs attached, the plan enforced;
#   idle  the programs attached, the same plan with enforce false (the hooks return at once).
# Prints RESULT lines, ENFORCE lines (apply to effect), RATIO lines (median of the rounds), then DONE.
/bin/busybox mkdir -p /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t bpf bpf /sys/fs/bpf
mount -t securityfs securityfs /sys/kernel/security
mkdir -p /t /run
mount -t tmpfs -o size=90% tmp /t
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^bench\.$1=//p"; }
rounds=$(arg rounds); rounds=${rounds:-3}
copies=$(arg copies); copies=${copies:-8}
# Under -icount shift=0 the clock advances 1 ns an instruction: "ms" are millions of instructions.
unit=ms; [ "$(arg clock)" = icount ] && unit='M insn'
echo "INFO kernel $(uname -r) lsm $(cat /sys/kernel/security/lsm) rounds $rounds copies $copies clock $(arg clock)"

# ---- the tree, its git index, and the plan (made by this unclassified shell) ----
mkdir -p /t/site/up
i=0
while [ $i -lt "$copies" ]; do
  tar -xf /wp.tar -C /t/site && mv /t/site/wordpress /t/site/wp$i
  i=$((i + 1))
done
echo data > /t/site/up/.probe
echo "INFO tree $(find /t/site -type f | wc -l) files $(find /t/site -type d | wc -l) dirs $(find /t/site -type f -name '*.php' | wc -l) php"
cd /t/site
/git init -q . 2>/dev/null
find wp* \( -type f -o -type l \) | /git update-index --add --info-only --stdin
cd /

ino() { stat -c '"dev":%d,"ino":%i' "$1"; }
# One set per object, one tamper-like slot each: class 0 (restricted) minus class 1 (exempt) may not
# write, create, delete, rename, chmod, exec or read under it.
rules=$(arg rules); rules=${rules:-100}
others=$(find /t/site/wp* -mindepth 2 -type d | wc -l)
step=$((others / (rules > copies + 1 ? rules - copies - 1 : 1)))
{ echo /t/site/up; i=0; while [ $i -lt "$copies" ]; do echo /t/site/wp$i; i=$((i + 1)); done
  find /t/site/wp* -mindepth 2 -type d | awk -v s="$step" 'NR % s == 0'; } | head -"$rules" > /tmp/objects
plan() { # enforce
  printf '{"generation":%s,"enforce":%s,"objects":[' "$(/now)" "$1"
  n=0
  while read -r dir; do
    n=$((n + 1))
    [ $n -gt 1 ] && printf ','
    printf '{%s,"path":"%s","set":%s,"dir":true}' "$(ino "$dir")" "$dir" $n
  done < /tmp/objects
  printf '],"sets":['
  i=1
  while [ $i -le $n ]; do
    [ $i -gt 1 ] && printf ','
    printf '{"id":%s,"slots":[{"rule":"tamper:%s","covers":127,"deny":127,"proc":0,"exempt":1,"target":"any","name":{"kind":"any","a":"","b":""},"malformed":false,"notify":true}]}' $i $i
    i=$((i + 1))
  done
  printf '],"exes":[{%s,"path":"/vm/restricted/probe","classes":[0]},' "$(ino /vm/restricted/probe)"
  printf '{%s,"path":"/vm/exempt/probe","classes":[0,1]}],"trusted_pids":[]}' "$(ino /vm/exempt/probe)"
}
plan true > /tmp/plan-on.json
echo "INFO plan $(grep -o '"rule"' /tmp/plan-on.json | wc -l) rules on $(wc -l < /tmp/objects) directories"

# ---- the guard's states ----
state=off
helper_pid=
start_helper() {
  rm -f /run/guard.sock
  /rampart-guard --socket /run/guard.sock --plan-file /tmp/plan-on.json 2>> /tmp/helper.err &
  helper_pid=$!
  i=0
  while [ ! -S /run/guard.sock ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
  [ -S /run/guard.sock ] || echo "INFO helper did not open its socket"
}
apply() { # enforce
  /vm/exempt/probe send /run/guard.sock "{\"id\":1,\"op\":\"apply\",\"plan\":$(plan "$1")}" > /tmp/apply.out
  grep -q '"ok":true' /tmp/apply.out || echo "INFO apply: $(cat /tmp/apply.out)"
}
enter() { # off | on | idle
  case "$1" in
    off)
      if [ -n "$helper_pid" ]; then kill "$helper_pid"; wait "$helper_pid" 2>/dev/null; helper_pid=; fi
      /rampart-guard --unload 2>> /tmp/helper.err ;;
    on) if [ -z "$helper_pid" ]; then start_helper; else apply true; fi ;;
    idle) [ -n "$helper_pid" ] || start_helper; apply false ;;
  esac
  state=$1
  # Proof of the state: the restricted actor's write under a protected directory (1 = EPERM).
  expect=0; [ "$1" = on ] && expect=1
  got=$(/vm/restricted/probe write /t/site/up/.probe)
  [ "$got" = "$expect" ] || echo "INFO state $1: the restricted write answered $got, expected $expect"
}

# ---- the workloads ----
untar() { # COPIES WordPress trees into a protected directory
  mkdir /t/site/up/x
  i=0
  while [ $i -lt "$copies" ]; do mkdir /t/site/up/x/$i && tar -xf /wp.tar -C /t/site/up/x/$i; i=$((i + 1)); done
}
findstat() { find /t/site -exec stat -c '%s %Y' {} + > /dev/null; }
phpread() { find /t/site -type f -name '*.php' -exec cat {} + > /dev/null; }
gitstatus() { /git -C /t/site status --porcelain > /dev/null; }
workloads="untar findstat phpread gitstatus"
timed() { # workload state round
  t0=$(/now)
  $1
  t1=$(/now)
  echo "RESULT $1 $2 $3 $(((t1 - t0) / 1000))" | tee -a /tmp/results
  [ "$1" = untar ] && rm -rf /t/site/up/x
  return 0
}

for w in $workloads; do timed "$w" warm 0; done # page cache, git's index refresh
round=1
while [ $round -le "$rounds" ]; do
  enter off
  for w in $workloads; do timed "$w" off "$round"; done
  # on and idle switch by an apply (milliseconds): each workload runs in both, back to back.
  if [ $((round % 2)) = 1 ]; then order="on idle"; else order="idle on"; fi
  for w in $workloads; do
    for s in $order; do enter "$s"; timed "$w" "$s" "$round"; done
  done
  round=$((round + 1))
done

# ---- time to enforce on this backend: from sending `apply` (enforce true over enforce false) until
# the restricted actor's write is denied; and back. TCG inflates these like everything else.
[ "$state" = off ] && enter on
plan true > /tmp/plan-t.json
plan false > /tmp/plan-f.json
i=1
while [ $i -le 5 ]; do
  for e in f t; do
    line="{\"id\":1,\"op\":\"apply\",\"plan\":$(cat /tmp/plan-$e.json)}"
    want=0; [ $e = t ] && want=1
    t0=$(/now)
    /vm/exempt/probe send /run/guard.sock "$line" > /dev/null
    t1=$(/now)
    n=0
    until [ "$(/vm/restricted/probe write /t/site/up/.probe)" = $want ]; do n=$((n + 1)); done
    t2=$(/now)
    echo "ENFORCE enforce=$([ $e = t ] && echo true || echo false) apply answered $(((t1 - t0) / 1000)) $unit, write $([ $want = 1 ] && echo denied || echo allowed) after $(((t2 - t0) / 1000)) $unit ($n writes before)"
  done
  i=$((i + 1))
done
enter off

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ms() { awk -v w="$1" -v s="$2" '$2 == w && $3 == s { print $5 }' /tmp/results | median; }
# Each round's ratio (they cancel drift between rounds), listed and as their median. on/idle pairs
# runs made back to back, the steadiest figure when the clock is the host's.
ratios() { awk -v w="$1" -v s="$2" -v b="${3:-off}" '$2 == w { t[$3 "," $4] = $5 } END { for (r = 1; t[b "," r]; r++) print t[s "," r] / t[b "," r] }' /tmp/results; }
for w in $workloads; do
  echo "RATIO $w: off $(ms "$w" off) $unit, on $(ms "$w" on) $unit, idle $(ms "$w" idle) $unit (medians);" \
    "on/off $(ratios "$w" on | median | xargs printf %.3f), idle/off $(ratios "$w" idle | median | xargs printf %.3f)," \
    "on/idle $(ratios "$w" on idle | median | xargs printf %.3f) (medians of per-round ratios); rounds on/off: $(ratios "$w" on | xargs printf '%.2f ')"
done
while read -r line; do echo "HELPER $line"; done < /tmp/helper.err
echo "DONE"
poweroff -f

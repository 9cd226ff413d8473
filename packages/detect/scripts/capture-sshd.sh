#!/bin/bash
# Records what a real sshd and PAM write to auth.log, for the parser's fixtures.
# Runs as root in a private mount namespace whose /dev carries its own /dev/log (a throwaway rsyslogd
# listens on it), so neither the host's /dev nor its syslog is touched. Prints the temp folder.
#   usage: bash scripts/capture-sshd.sh [port]
set -euo pipefail
port=${1:-22299}
D=$(mktemp -d /tmp/rampart-sshd-capture.XXXXXX)
mkdir -p /run/sshd
chmod 755 /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$D/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$D/clientkey"
cp "$D/clientkey.pub" "$D/authorized_keys"
printf '#!/bin/sh\necho wrong-password\n' >"$D/askpass"
chmod +x "$D/askpass"

cat >"$D/rsyslog.conf" <<CONF
module(load="imuxsock")
template(name="traditional" type="string" string="%TIMESTAMP% %HOSTNAME% %syslogtag%%msg:::sp-if-no-1st-sp%%msg:::drop-last-lf%\n")
template(name="rfc3339" type="string" string="%TIMESTAMP:::date-rfc3339% %HOSTNAME% %syslogtag%%msg:::sp-if-no-1st-sp%%msg:::drop-last-lf%\n")
auth,authpriv.* action(type="omfile" file="$D/auth.log" template="traditional")
auth,authpriv.* action(type="omfile" file="$D/auth-rfc3339.log" template="rfc3339")
CONF

config() { # $1 = UsePAM, $2 = KbdInteractiveAuthentication (Debian's own default: PAM with passwords only)
  cat <<CONF
Port $port
ListenAddress 127.0.0.1
ListenAddress ::1
HostKey $D/hostkey
PidFile $D/sshd.pid
UsePAM $1
KbdInteractiveAuthentication $2
PasswordAuthentication yes
PermitRootLogin yes
AuthorizedKeysFile $D/authorized_keys
StrictModes no
LogLevel INFO
CONF
}
config no no >"$D/sshd_config.nopam"
config yes no >"$D/sshd_config.pam-password"
config yes yes >"$D/sshd_config.pam-kbdint"

cat >"$D/inner.sh" <<'INNER'
set -u
D=$1 port=$2
mkdir "$D/dev"
mount -t tmpfs tmpfs "$D/dev"
for n in null zero random urandom tty full; do touch "$D/dev/$n"; mount --bind "/dev/$n" "$D/dev/$n"; done
# sshpass needs a terminal: a private devpts instance (the host's ptmx refuses grantpt from here).
mkdir "$D/dev/pts" && mount -t devpts -o newinstance,ptmxmode=0666 devpts "$D/dev/pts"
ln -s pts/ptmx "$D/dev/ptmx"
mount --rbind "$D/dev" /dev
rsyslogd -n -f "$D/rsyslog.conf" -i "$D/rsyslog.pid" &
sleep 1
O=(-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PubkeyAuthentication=no -p "$port")
for mode in nopam pam-password pam-kbdint; do
  /usr/sbin/sshd -D -f "$D/sshd_config.$mode" &
  sleep 1
  logger -p auth.info -t capture "=== $mode"
  sshpass -p wrong ssh "${O[@]}" root@127.0.0.1 true
  sshpass -p wrong ssh "${O[@]}" nosuchuser@127.0.0.1 true
  sshpass -p wrong ssh "${O[@]}" nosuchuser@::1 true
  ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes -i "$D/clientkey" -p "$port" root@127.0.0.1 true
  SSH_ASKPASS=$D/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=:0 setsid ssh "${O[@]}" -o NumberOfPasswordPrompts=10 root@127.0.0.1 true </dev/null
  SSH_ASKPASS=$D/askpass SSH_ASKPASS_REQUIRE=force DISPLAY=:0 setsid ssh "${O[@]}" -o NumberOfPasswordPrompts=3 nosuchuser@127.0.0.1 true </dev/null
  (exec 3<>/dev/tcp/127.0.0.1/$port; sleep 0.3) # connects and leaves without a banner
  (exec 3<>/dev/tcp/127.0.0.1/$port; printf 'GET / HTTP/1.0\r\n\r\n' >&3; sleep 0.5)
  nmap -Pn -p "$port" -sV 127.0.0.1 >/dev/null 2>&1
  sleep 1
  kill "$(cat "$D/sshd.pid")"
  sleep 0.5
done
sleep 1
kill "$(cat "$D/rsyslog.pid")"
wait
INNER
# ssh reads stdin, so the inner script is a file rather than a here-document on bash's stdin.
unshare --mount --propagation private bash "$D/inner.sh" "$D" "$port" </dev/null
echo "$D"

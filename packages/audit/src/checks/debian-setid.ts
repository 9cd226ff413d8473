/**
 * SUID/SGID files Debian 12 packages ship with those bits (the set Debian's own packages install,
 * from a base system, openssh, sudo, cron, at, polkit, dbus, fuse, exim/postfix, chromium, ntfs-3g,
 * plocate). Anything else is listed for a person to confirm. Kept as data so it is easy to review.
 */
export const expectedSetIdPaths: ReadonlySet<string> = new Set([
  // shadow, util-linux, login, passwd
  '/usr/bin/chfn', '/usr/bin/chsh', '/usr/bin/gpasswd', '/usr/bin/newgrp', '/usr/bin/passwd', '/usr/bin/su',
  '/usr/bin/mount', '/usr/bin/umount', '/usr/bin/chage', '/usr/bin/expiry', '/usr/bin/wall', '/usr/bin/write.ul',
  '/usr/sbin/unix_chkpwd', '/usr/sbin/pam_extrausers_chkpwd',
  // openssh, sudo, cron, at, bsdutils
  '/usr/lib/openssh/ssh-keysign', '/usr/bin/ssh-agent', '/usr/bin/sudo', '/usr/bin/crontab', '/usr/bin/at', '/usr/bin/bsd-write',
  // dbus, polkit, fuse, utempter, eject
  '/usr/lib/dbus-1.0/dbus-daemon-launch-helper', '/usr/lib/polkit-1/polkit-agent-helper-1', '/usr/bin/pkexec',
  '/usr/bin/fusermount', '/usr/bin/fusermount3', '/usr/lib/x86_64-linux-gnu/utempter/utempter', '/usr/lib/eject/dmcrypt-get-device',
  // mail: exim4, postfix, dotlockfile, procmail
  '/usr/sbin/exim4', '/usr/sbin/postdrop', '/usr/sbin/postqueue', '/usr/bin/dotlockfile', '/usr/bin/procmail', '/usr/bin/lockfile',
  // network file systems, ppp, ntfs-3g, plocate, X, chromium, screen
  '/usr/sbin/mount.nfs', '/usr/sbin/mount.cifs', '/usr/sbin/pppd', '/usr/bin/ntfs-3g', '/usr/bin/plocate',
  '/usr/lib/xorg/Xorg.wrap', '/usr/lib/chromium/chrome-sandbox', '/usr/bin/screen',
]);

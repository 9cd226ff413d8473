#!/usr/bin/env bash
# Installs what the WAF quality benchmark needs (run by hand, as root; NOT part of scripts/setup.sh):
# the origin (nginx), the peer WAF (Apache + mod_security2 + OWASP CRS, Debian packages) and
# Debian's WordPress package, whose admin request shapes the legitimate set imitates.
# The benchmark starts its own nginx and Apache from temporary configurations on loopback ports; the
# system services are neither configured nor started here.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y --no-install-recommends \
  nginx-light apache2 libapache2-mod-security2 modsecurity-crs wordpress
# Debian's packages may start their units where systemd runs; the bench does not use them.
for unit in apache2 nginx; do
  if command -v systemctl >/dev/null && systemctl is-active --quiet "$unit" 2>/dev/null; then
    echo "note: the system $unit service is running; the bench uses its own instances on other ports"
  fi
done
echo "ok: $(dpkg-query -W -f='${Package} ${Version}\n' nginx-light apache2 libapache2-mod-security2 modsecurity-crs wordpress | tr '\n' ';')"

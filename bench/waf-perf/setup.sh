#!/usr/bin/env bash
# What the gateway performance benchmark needs (run by hand, as root; not part of scripts/setup.sh):
# wrk as the load generator, nginx as the origin, and the peer WAF — Apache + mod_security2 + OWASP
# CRS, Debian's packages (the same ones bench/waf-quality/setup.sh installs, without WordPress).
# The bench starts its own nginx and Apache from temporary configurations on loopback ports; a
# policy-rc.d keeps the packages' services from starting.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(wrk nginx-light apache2 libapache2-mod-security2 modsecurity-crs)
guard=
if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && guard=1; fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${packages[@]}" || { [ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d; exit 1; }
[ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d
echo "ok: $(dpkg-query -W -f='${Package} ${Version}\n' "${packages[@]}" | tr '\n' ';')"

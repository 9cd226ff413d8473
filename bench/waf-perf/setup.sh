#!/usr/bin/env bash
# What the gateway performance benchmark needs (run by hand, as root; not part of scripts/setup.sh):
# wrk as the load generator and nginx as the origin. The bench starts its own nginx from a temporary
# configuration on a loopback port; a policy-rc.d keeps the package's service from starting.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
guard=
if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && guard=1; fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends wrk nginx-light || { [ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d; exit 1; }
[ -z "$guard" ] || rm -f /usr/sbin/policy-rc.d
echo "ok: $(dpkg-query -W -f='${Package} ${Version}\n' wrk nginx-light | tr '\n' ';')"

#!/usr/bin/env bash
# Production install from a checkout at /opt/rampart: service user, data folder, systemd units.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
[ "$(pwd)" = /opt/rampart ] || { echo "check Rampart out at /opt/rampart first" >&2; exit 1; }
bash scripts/setup.sh start
bash deploy/create-user.sh
install -d -m 0755 /var/lib/rampart
install -d -m 0700 -o rampart -g rampart /var/lib/rampart/console
install -d -m 0700 /var/lib/rampart/agent
install -m 0644 deploy/systemd/rampart-agent.service deploy/systemd/rampart-console.service deploy/systemd/rampart-guard.service deploy/systemd/rampart.target /etc/systemd/system/
systemctl daemon-reload
systemctl enable --now rampart.target
echo "Rampart is running; set RAMPART_LICENCE_URL in /etc/rampart/console.env to your licence authority."

#!/usr/bin/env bash
# Luza appliance installer for Raspberry Pi OS (Debian 12, "Bookworm"), run from a checkout of this repository.
# Idempotent: running it again repairs what drifted and changes nothing else. Guide: docs/install.md.
#
#   sudo hardware/pi/install.sh [--club NAME] [--club-ru NAME] [--table t1 ...] [--kiosk-table t1 | --no-kiosk]
#                               [--screen wall ...] [--tls] [--wifi-iface wlan0] [--port 1883] [--http 0.0.0.0:8000]
#   sudo hardware/pi/install.sh --upgrade          # this checkout's code: backup first, then install, restart
#   sudo hardware/pi/install.sh --uninstall [--purge]
#   hardware/pi/install.sh --root DIR [...]        # write every file under DIR only: no packages, users, services
#
# It installs Mosquitto (locked down: hub/deploy/broker_config.py), the hub in /opt/luza/venv, luza.toml and the
# broker credentials in /etc/luza, systemd units (hub with watchdog, Chromium kiosk, nightly backup, Wi-Fi power
# saving off), chrony serving time to the LAN.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
PREFIX=/opt/luza
ETC=/etc/luza
root=""; mode=install; purge=0; kiosk=1; tls=0; iface=wlan0; have_club=0; have_table=0
render_args=()

die() { echo "install: $*" >&2; exit 2; }
say() { echo "install: $*"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --root) [ $# -ge 2 ] || die "--root needs a folder"; root="$2"; shift 2 ;;
    --upgrade) mode=upgrade; shift ;;
    --uninstall) mode=uninstall; shift ;;
    --purge) purge=1; shift ;;
    --no-kiosk) kiosk=0; render_args+=(--kiosk-table ""); shift ;;
    --tls) tls=1; render_args+=(--tls); shift ;;
    --wifi-iface) [ $# -ge 2 ] || die "--wifi-iface needs a name"; iface="$2"; render_args+=("$1" "$2"); shift 2 ;;
    --club|--club-ru|--table|--kiosk-table|--screen|--port|--tls-host|--http)
      [ $# -ge 2 ] || die "$1 needs a value"; render_args+=("$1" "$2")
      case "$1" in --club) have_club=1 ;; --table) have_table=1 ;; esac
      shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

# ---------------------------------------------------------------- files only (--root): tests and dry runs
if [ -n "$root" ]; then
  mkdir -p "$root"
  root="$(cd "$root" && pwd)"
  PY="${LUZA_PYTHON:-python3}"
  if [ "$mode" = uninstall ]; then
    manifest="$root$ETC/installed-files"
    [ -f "$manifest" ] || die "nothing installed under $root ($manifest missing)"
    mapfile -t listed < "$manifest"
    for f in "${listed[@]}"; do
      case "$f" in "$ETC/luza.toml"|"$ETC/credentials.json") [ $purge = 1 ] || continue ;; esac
      rm -f "$root$f"
    done
    [ -f "$root/etc/mosquitto/mosquitto.conf.orig-luza" ] && mv "$root/etc/mosquitto/mosquitto.conf.orig-luza" "$root/etc/mosquitto/mosquitto.conf"
    [ $purge = 1 ] && rm -rf "$root$ETC" "$root/var/lib/luza" "$root/var/backups/luza"
    say "uninstalled from $root"; exit 0
  fi
  PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m hub.deploy.render --root "$root" "${render_args[@]}"
  exit 0
fi

[ "$(id -u)" = 0 ] || die "run as root (sudo $0 $*), or with --root DIR to write the files somewhere else"
export DEBIAN_FRONTEND=noninteractive

units=(luza-hub.service luza-kiosk.service luza-backup.timer luza-backup.service luza-wifi-powersave.service)

# ---------------------------------------------------------------- uninstall
if [ "$mode" = uninstall ]; then
  for u in "${units[@]}"; do systemctl disable --now "$u" 2>/dev/null || true; done
  if [ -f "$ETC/installed-files" ]; then
    mapfile -t listed < "$ETC/installed-files"
    for f in "${listed[@]}"; do
      case "$f" in "$ETC/luza.toml"|"$ETC/credentials.json"|"$ETC/installed-files") [ $purge = 1 ] || continue ;; esac
      rm -f "$f"
    done
  fi
  [ -f /etc/mosquitto/mosquitto.conf.orig-luza ] && mv /etc/mosquitto/mosquitto.conf.orig-luza /etc/mosquitto/mosquitto.conf
  systemctl daemon-reload
  systemctl restart mosquitto 2>/dev/null || true
  rm -rf "$PREFIX"
  if [ $purge = 1 ]; then
    rm -rf "$ETC" /var/lib/luza /var/lib/luza-kiosk /var/backups/luza
    userdel luza 2>/dev/null || true; userdel luza-kiosk 2>/dev/null || true
    say "uninstalled and purged (database and backups deleted)"
  else
    say "uninstalled; kept $ETC (config, credentials), /var/lib/luza (database) and /var/backups/luza"
  fi
  exit 0
fi

# ---------------------------------------------------------------- packages (only the missing ones)
want=(mosquitto mosquitto-clients python3-venv python3-pip sqlite3 chrony iw curl libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
[ $tls = 1 ] && want+=(openssl)
chromium_pkg=""
if [ $kiosk = 1 ]; then
  want+=(cage)
  if apt-cache show chromium >/dev/null 2>&1; then chromium_pkg=chromium; else chromium_pkg="chromium-browser"; fi
  want+=("$chromium_pkg")
fi
missing=()
for p in "${want[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ $kiosk = 1 ]; then
  chromium="$(command -v chromium || command -v chromium-browser || true)"
  [ -n "$chromium" ] || die "Chromium did not install; check apt, or use --no-kiosk"
  render_args+=(--chromium "$chromium")
fi

# ---------------------------------------------------------------- users and folders
id luza >/dev/null 2>&1 || useradd --system --home-dir /var/lib/luza --shell /usr/sbin/nologin --groups dialout luza
if [ $kiosk = 1 ] && ! id luza-kiosk >/dev/null 2>&1; then
  groups="$(for g in video render input tty; do getent group "$g" >/dev/null && printf '%s,' "$g"; done)"
  useradd --system --create-home --home-dir /var/lib/luza-kiosk --shell /usr/sbin/nologin \
    ${groups:+--groups "${groups%,}"} luza-kiosk
fi
install -d -o luza -g luza -m 0750 /var/lib/luza /var/backups/luza
install -d -m 0755 "$PREFIX" "$ETC"

# ---------------------------------------------------------------- the hub's virtual environment
stamp="$PREFIX/venv/.luza-source"
source_id="$(cd "$REPO" && { git rev-parse HEAD 2>/dev/null || true; find hub shared_rules firmware pyproject.toml -type f -name '*.py' -o -name pyproject.toml | sort | xargs sha1sum | sha1sum; } | sha1sum | cut -c1-16)"
code_changed=0
if [ ! -x "$PREFIX/venv/bin/python" ]; then
  say "creating $PREFIX/venv"
  python3 -m venv "$PREFIX/venv"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$source_id" ]; then
  if [ "$mode" = upgrade ] && [ -x "$PREFIX/venv/bin/luza" ] && [ -f "$ETC/luza.toml" ]; then
    say "backing the database up before the upgrade"
    runuser -u luza -- "$PREFIX/venv/bin/luza" backup --config "$ETC/luza.toml" --dir /var/backups/luza --keep 14
  fi
  say "installing the hub from $REPO"
  "$PREFIX/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$PREFIX/venv/bin/python" -m pip install -q "${REPO}[device]" >/dev/null  # device: esptool, mpremote
  echo "$source_id" > "$stamp"
  code_changed=1
fi

# ---------------------------------------------------------------- answers for a first luza.toml
if [ ! -f "$ETC/luza.toml" ] && [ -t 0 ]; then
  if [ $have_club = 0 ]; then
    read -r -p "Club name / название клуба [Luza]: " club; render_args+=(--club "${club:-Luza}")
  fi
  if [ $have_table = 0 ]; then
    read -r -p "Table ids, e.g. t1 t2 / столы [t1]: " tables
    for t in ${tables:-t1}; do render_args+=(--table "$t"); done
  fi
fi

# ---------------------------------------------------------------- files
out="$("$PREFIX/venv/bin/python" -m hub.deploy.render --root / "${render_args[@]}")"
echo "$out"
chown root:luza "$ETC/luza.toml"; chmod 0640 "$ETC/luza.toml"
chown root:luza "$ETC/ota-keys.json"; chmod 0640 "$ETC/ota-keys.json"  # the hub signs the nodes' updates with them
chown root:mosquitto /etc/mosquitto/luza/passwd /etc/mosquitto/luza/acl
[ -d "$ETC/tls" ] && chown -R root:mosquitto "$ETC/tls"
# the hub's export signing key (Ed25519, 0600 beside the database; kept if there is one): its fingerprint is
# what the club publishes (docs/exports.md)
say "export signing key: $(runuser -u luza -- "$PREFIX/venv/bin/luza" key --config "$ETC/luza.toml")"

# ---------------------------------------------------------------- services
systemctl daemon-reload
if echo "$out" | grep -q "wrote /etc/mosquitto/mosquitto.conf"; then
  systemctl restart mosquitto
elif echo "$out" | grep -q "wrote /etc/mosquitto/luza/"; then
  systemctl reload mosquitto || systemctl restart mosquitto  # SIGHUP re-reads the password file and the ACL
fi
systemctl enable --now mosquitto chrony luza-backup.timer >/dev/null
systemctl enable luza-hub.service >/dev/null
if [ $code_changed = 1 ] || echo "$out" | grep -q "luza-hub.service\|luza.toml"; then
  systemctl restart luza-hub.service
else
  systemctl start luza-hub.service
fi
if ip link show "$iface" >/dev/null 2>&1; then
  systemctl enable --now luza-wifi-powersave.service >/dev/null
  iw dev "$iface" set power_save off || true
fi
if [ $kiosk = 1 ]; then
  systemctl set-default graphical.target >/dev/null
  systemctl enable luza-kiosk.service >/dev/null
  systemctl restart luza-kiosk.service
else
  systemctl disable --now luza-kiosk.service 2>/dev/null || true
fi
say "done. Hub: systemctl status luza-hub; board: http://127.0.0.1:8000/board/<table>; next: luza provision (docs/install.md)"

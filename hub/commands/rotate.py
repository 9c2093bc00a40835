"""`luza rotate USER`: a new broker password for one account; the broker refuses the old one from its reload.

    sudo luza rotate t1.p3          # a node: then `luza provision` it again to give it the new password
    sudo luza rotate luza-hub       # the hub: luza.toml is updated too; restart luza-hub
    sudo luza rotate luza-hub-tele  # the hub's telemetry connection: the same
    sudo luza rotate screen-wall    # a screen

See docs/security.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rotate",
        help="give one broker account a new password (node, hub, tool or screen)",
        description="Change one broker password; the old one stops working. / Сменить пароль.",
    )
    p.add_argument(
        "user", help="broker user: <table>.<device>, luza-hub, luza-hub-tele, luza-tool or screen-<name>"
    )
    p.add_argument("--root", default="/", help="installation root (default /)")
    p.set_defaults(func=run)


def set_hub_password(toml: str, password: str) -> str:
    """luza.toml with `[broker] password` set (added if missing); everything else untouched."""
    from hub.deploy.units import set_broker_key

    return set_broker_key(toml, "password", password)


def run(args: argparse.Namespace) -> int:
    from hub import config as cfgmod
    from hub import configfile
    from hub.commands.provision import _installed_tls, _reload_broker
    from hub.deploy import credentials as creds
    from hub.deploy import render
    from hub.deploy.units import set_broker_key

    opts = render.Options(root=Path(args.root))
    cpath = render.under(opts.root, opts.paths.etc + "/credentials.json")
    tpath = render.under(opts.root, opts.paths.config)
    try:
        current = creds.load(cpath)
        if current is None:
            raise creds.CredentialsError(f"no {cpath}: run hardware/pi/install.sh first")
        new = creds.rotate(current, args.user)
        # luza.toml carries the hub's logins; the installer treats it as the truth
        if args.user == creds.HUB_USER:
            tpath.write_text(set_hub_password(tpath.read_text(), new.hub))
        elif args.user == creds.TELE_USER:
            tpath.write_text(
                set_broker_key(
                    set_broker_key(tpath.read_text(), "tele_username", creds.TELE_USER),
                    "tele_password",
                    new.tele,
                )
            )
        cfg = configfile.load(tpath)
    except (creds.CredentialsError, cfgmod.ConfigError, PermissionError) as exc:
        print(f"luza rotate: {exc}", file=sys.stderr)
        return 2
    creds.save(new, cpath)
    files = render.broker_files(
        render.Options(root=opts.root, port=cfg.broker.port, tls=_installed_tls(opts)), cfg, new
    )
    if render.write(opts.root, files):
        _reload_broker()
    print(f"new password for {args.user} / новый пароль установлен; the old one is refused after the reload")
    if args.user in (creds.HUB_USER, creds.TELE_USER):
        print("restart the hub / перезапустите хаб: sudo systemctl restart luza-hub")
    elif args.user in new.devices:
        print("give the node its new password: run `luza provision` for it again (docs/security.md)")
    return 0

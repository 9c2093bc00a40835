"""`luza key`: the hub's export signing key (made if missing) — its fingerprint,
and the public key to publish."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "key",
        help="the hub's export signing key: fingerprint and public key",
        description="Print the fingerprint of the hub's Ed25519 export key (beside the database; "
        "made if missing) and optionally write its public key. / Ключ подписи выгрузок.",
    )
    p.add_argument("--db", help="the hub's SQLite database (default: --config's store.path, else luza.db)")
    p.add_argument("--config", help="luza.toml: take the database path from its [store] section")
    p.add_argument(
        "--public",
        metavar="FILE",
        help="write the public key (PEM) here, to publish or give to `luza verify --key`",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from hub import config, configfile
    from hub.export import signing
    from hub.export.model import ExportError

    try:
        db = args.db or (configfile.load(args.config).store.path if args.config else "luza.db")
        signer = signing.for_db(db)
        if args.public:
            Path(args.public).write_bytes(signer.public_pem())
    except (ExportError, config.ConfigError) as exc:
        print(f"luza key: {getattr(exc, 'en', exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"luza key: cannot write {args.public}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"{signer.fingerprint}  {signer.path}")
    return 0

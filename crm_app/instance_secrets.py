"""Secrets kept outside the database: the operator token and the key of the keyed hashes.

Each comes from its setting (environment variable) when given, else from a file in the app's
instance folder, made with a random value the first time. Several processes may start at once on
a fresh folder (two servers, gunicorn workers): the file is written whole under a temporary name
and linked into place, which fails if another process got there first; every process then reads
back the one file, so they all use the same secret.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from .config import ENVIRONMENT_KEYS

# config key -> file name in the instance folder
SECRET_FILES = {"OPERATOR_TOKEN": "operator_token", "SECRET_KEY": "secret_key"}


def load_secrets(config: dict, instance_folder: str | Path) -> None:
    """Fill in every secret that the settings left empty from its file in `instance_folder`."""
    for key, name in SECRET_FILES.items():
        if not config.get(key):
            config[key] = stored_secret(Path(instance_folder) / name)


def secret_source(app, key: str) -> str:
    """Where the app's secret `key` came from, in words."""
    path = Path(app.instance_path) / SECRET_FILES[key]
    if path.exists() and path.read_text().strip() == app.config[key]:
        return f"kept in {path}"
    variable = ENVIRONMENT_KEYS[key]
    return f"set by {variable}" if os.environ.get(variable) == app.config[key] else "set in the config"


def stored_secret(path: Path) -> str:
    """The secret in `path`, creating it race-safely with a new random value if it is missing."""
    if not path.exists():
        # hex: a token pasted after --operator-token never starts with '-' (read as an option)
        _create(path, secrets.token_hex(32))
    value = path.read_text().strip()
    if not value:
        raise RuntimeError(f"{path} is empty: delete it to have a new secret made, or set it")
    return value


def _create(path: Path, value: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(value + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.link(temporary, path)  # atomic, and refused when the file exists: the first one wins
    except FileExistsError:
        pass
    finally:
        temporary.unlink(missing_ok=True)

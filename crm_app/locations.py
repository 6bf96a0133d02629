"""Where the CRM finds its page files and keeps its instance folder (secrets, the SQLite database).

A checkout is told from an installed copy by the pyproject.toml beside the package (an editable
install is a checkout too). In a checkout the page files are the repository's templates/ and
static/ and the instance folder is its instance/; in a wheel the build puts the page files into
crm_app/page/ (setup.py), and the instance folder is a per-user data folder, never site-packages.
Nothing depends on the current directory.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent
PACKAGED_PAGE = PACKAGE / "page"  # where setup.py puts templates/ and static/ in a wheel
APP_NAME = "airlinecrm"


def in_checkout() -> bool:
    return (CHECKOUT / "pyproject.toml").is_file()


def page_folder() -> Path:
    """The folder holding the page's templates/ and static/."""
    return PACKAGED_PAGE if (PACKAGED_PAGE / "templates").is_dir() else CHECKOUT


def default_instance_folder() -> Path:
    return CHECKOUT / "instance" if in_checkout() else user_data_folder()


def user_data_folder() -> Path:
    """This user's data folder for the app: XDG's on Linux, the usual ones on macOS and Windows."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP_NAME

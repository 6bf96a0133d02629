"""The one build step pyproject.toml cannot declare: the page's templates/ and static/, kept at
the repository's root, go into the wheel as crm_app/page/ (where crm_app/locations.py looks)."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PAGE_FOLDERS = ("templates", "static")


class BuildWithPage(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:  # an editable install reads them from the checkout
            for name in PAGE_FOLDERS:
                target = Path(self.build_lib) / "crm_app" / "page" / name
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(name, target, ignore=shutil.ignore_patterns("__pycache__", ".*"))


setup(cmdclass={"build_py": BuildWithPage})

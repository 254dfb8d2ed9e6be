"""A real headless Chromium (Debian's ``chromium`` + ``chromium-driver``, driven by
selenium without selenium-manager) for the inspector's browser tests.

Screenshots go to ``$MEMLANE_ARTIFACTS`` (or a directory under the test run's tmp) so a
person can look at what the tests saw.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--disable-default-apps", "--disable-extensions")


def missing() -> str | None:
    """Why a browser cannot run here, or None."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} is missing: `make setup` installs Debian's {package} (as root)"
    return None


def start(profile: Path, width: int = 1280, height: int = 900) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager must never download
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def artifacts_dir(fallback: Path) -> Path:
    path = Path(os.environ.get("MEMLANE_ARTIFACTS") or fallback) / "inspector"
    path.mkdir(parents=True, exist_ok=True)
    return path


def remove_profile(profile: Path) -> None:
    shutil.rmtree(profile, ignore_errors=True)

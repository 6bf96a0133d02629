"""`python -m airlinecrm_openenv.watch [--remove FOLDER] COMMAND...` runs COMMAND and stops it (then
removes FOLDER) when this process's standard input closes: the started CRM server's lifeline to the
process that started it, which closes however that process ends (its atexit does not run when it
is killed)."""
from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import threading

STOP_TIMEOUT_S = 10.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m airlinecrm_openenv.watch")
    parser.add_argument("--remove", metavar="FOLDER", help="a folder to remove once the command has stopped")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    child = subprocess.Popen(args.command, stdin=subprocess.DEVNULL)
    signal.signal(signal.SIGTERM, lambda *_: stop(child))
    threading.Thread(target=_stop_at_end_of_input, args=(child,), daemon=True).start()
    code = child.wait()
    if args.remove:
        shutil.rmtree(args.remove, ignore_errors=True)
    return code


def stop(child: subprocess.Popen) -> None:
    child.terminate()
    try:
        child.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        child.kill()


def _stop_at_end_of_input(child: subprocess.Popen) -> None:
    sys.stdin.buffer.read()  # returns once the starting process has closed its end, or ended
    stop(child)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

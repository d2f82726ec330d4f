"""Finding and running the toolchain's executables; their coded errors as exceptions."""
import os
import re
import shutil
import subprocess

_CODE = re.compile(r"\b(EE\d{4})\b:?\s*(.*)")


class AscendToolsError(Exception):
    """A tool refused its input or failed: `code` is the EE code (docs/errors.md), `message` the
    tool's message naming the file, node or field, `tool` the executable and `exit_status` its
    exit status."""

    def __init__(self, code, message, tool="", exit_status=None):
        super().__init__(f"{code} {message}" if code else message)
        self.code = code
        self.message = message
        self.tool = tool
        self.exit_status = exit_status


def bin_dir():
    """The directory of the toolchain's executables: $ASC_BIN_DIR, else the build tree's or the
    install's bin/ next to this package, else the directory of `atc` on PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("ASC_BIN_DIR", ""),
                  os.path.join(here, "..", "..", "bin"),             # build/python/ascend_tools
                  os.path.join(here, "..", "..", "..", "..", "bin")]  # <prefix>/lib/asc/python/ascend_tools
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(candidate, "atc")):
            return os.path.normpath(candidate)
    found = shutil.which("atc")
    if found:
        return os.path.dirname(found)
    raise AscendToolsError("EE4001", "the toolchain's executables (atc, op_validate, ...) are not found: set "
                                     "ASC_BIN_DIR to their directory")


def tool_path(name):
    path = os.path.join(bin_dir(), name)
    if not os.path.isfile(path):
        raise AscendToolsError("EE4001", f"{path} does not exist", name)
    return path


def error_of(tool, completed):
    """The AscendToolsError a failed run reports (the last EE code on stderr, else stdout)."""
    for text in (completed.stderr, completed.stdout):
        matches = [m for m in (_CODE.search(line) for line in text.splitlines()) if m]
        if matches:
            return AscendToolsError(matches[-1].group(1), matches[-1].group(2).strip(), tool, completed.returncode)
    tail = (completed.stderr or completed.stdout).strip().splitlines()[-3:]
    return AscendToolsError("", f"{tool} exited with status {completed.returncode}: " + " | ".join(tail), tool,
                            completed.returncode)


def run_tool(name, arguments, accept=(0,)):
    """Runs tool `name` with `arguments`; returns the CompletedProcess when its exit status is in
    `accept`, else raises its AscendToolsError."""
    completed = subprocess.run([tool_path(name)] + [str(a) for a in arguments], capture_output=True, text=True)
    if completed.returncode not in accept:
        raise error_of(name, completed)
    return completed


def flag_arguments(flags):
    """Keyword arguments as --name=value flags (True as a bare switch, None and False left out)."""
    arguments = []
    for name, value in flags.items():
        if value is None or value is False:
            continue
        if value is True:
            arguments.append(f"--{name}")
        elif isinstance(value, (list, tuple)):
            arguments.append(f"--{name}=" + ",".join(str(v) for v in value))
        else:
            arguments.append(f"--{name}={os.fspath(value) if isinstance(value, os.PathLike) else value}")
    return arguments

"""The keeper: a small process between the engine and an outside program, so that nothing the program starts
outlives the engine, however the engine ends (Linux only; see `engine.bots.program`).

The engine runs it as `python -I -S keeper.py CONTROL REPORT -- PROGRAM ARGS...` (isolated: no environment
variable, user site or current folder changes what this interpreter loads) in a session of its own, with the
program's standard input and output. It

1. becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a process of the program's that is orphaned, even
   one that started a session of its own, becomes the keeper's child instead of init's;
2. runs the program as its child, in the keeper's session and process group (the engine kills that group to
   stop the program at once), with the same standard streams, and stops holding those streams itself (a program
   closing its output must be seen closing it); the program dies with the keeper (PR_SET_PDEATHSIG);
3. writes the program's pid, or the error that kept it from starting, on REPORT, and closes it;
4. waits for the first of: the program exits, CONTROL (a pipe the engine holds the other end of) reaches end of
   file because the engine has gone, by whatever means, or SIGTERM/SIGHUP/SIGINT;
5. kills everything left: every process of its session or process group and every child it has, again and again
   until none is left (each kill of an escaped process hands that process's children to the keeper), and reaps
   them;
6. exits with the program's status (the same signal, if a signal ended it), or 0 when the engine has gone.

It runs nothing but the program it was given, and imports nothing but the standard library."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
SWEEP_WAIT = 5.0     # seconds: SIGKILL cannot be refused, this only bounds a stuck kernel
STEP = 0.005
TICK = 1.0           # seconds between looks at the parent (a second way to see that the engine has gone)
START_FAILED = 127


class Stop(Exception):  # noqa: N818 - a request to stop, not an error
    """A signal asked the keeper to stop."""


def prctl(option: int, value: int) -> bool:
    try:
        import ctypes

        return int(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _stop(signum: int, frame: object) -> None:
    raise Stop


def start(program: list[str]) -> int:
    """Fork and exec the program; its pid, or OSError (with the exec's errno) if it could not start."""
    err_r, err_w = os.pipe()       # close-on-exec: end of file without a byte means the exec succeeded
    keeper = os.getpid()
    pid = os.fork()
    if pid == 0:
        code = START_FAILED
        try:
            os.close(err_r)
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            if os.getppid() != keeper:         # the keeper died before the line above
                os._exit(code)
            for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(sig, signal.SIG_DFL)   # what the program would get if started directly
            signal.pthread_sigmask(signal.SIG_SETMASK, set())
            os.execvp(program[0], program)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.write(err_w, str(e.errno or 0).encode())
        finally:
            os._exit(code)
    os.close(err_w)
    data = b""
    while chunk := os.read(err_r, 64):
        data += chunk
    os.close(err_r)
    if data:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        errno = int(data)
        raise OSError(errno, os.strerror(errno))
    return pid


def _table() -> list[tuple[int, int, int, int, bytes]]:
    """(pid, parent, group, session, state) of every process, from /proc."""
    out: list[tuple[int, int, int, int, bytes]] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out.append((int(name), int(fields[1]), int(fields[2]), int(fields[3]), fields[0]))
    return out


def reap(program: int, status: list[int]) -> None:
    """Reap every child that has ended; the program's wait status goes to `status`."""
    while True:
        try:
            pid, wstatus = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid == program:
            status.append(wstatus)


def _has_children() -> bool:
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)   # reaps nothing
    except ChildProcessError:
        return False
    return True


def sweep(program: int, status: list[int]) -> None:
    """Kill and reap everything the program left: its session and group, and every child of the keeper."""
    me = os.getpid()
    end = time.monotonic() + SWEEP_WAIT
    while True:
        reap(program, status)
        if not status:                 # not reaped yet, so the pid is still the program's
            with contextlib.suppress(OSError):
                os.kill(program, signal.SIGKILL)
        victims = [pid for pid, parent, group, session, state in _table() if pid != me
                   and state not in (b"Z", b"X") and (parent == me or group in (me, program)
                                                       or session in (me, program))]
        if not victims and not _has_children():
            return
        for pid in victims:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if time.monotonic() > end:
            return
        time.sleep(STEP)


def wait(program: int, control: int, parent: int, status: list[int]) -> None:
    """Until the program has exited or the engine has gone."""
    pidfd: int | None = None
    with contextlib.suppress(AttributeError, OSError):
        pidfd = os.pidfd_open(program)
    watched = [control] if pidfd is None else [control, pidfd]
    tick = TICK if pidfd is not None else 0.05
    while not status:
        ready, _, _ = select.select(watched, [], [], tick)
        if control in ready:
            try:
                data = os.read(control, 4096)
            except OSError:
                data = b""
            if not data:
                return                       # the engine has gone
        reap(program, status)
        if os.getppid() != parent:
            return                           # the engine has gone (and the pipe was somehow still held)


def finish(status: list[int]) -> None:
    """Exit as the program did."""
    if not status:
        os._exit(0)
    code = os.waitstatus_to_exitcode(status[0])
    if code >= 0:
        os._exit(code)
    with contextlib.suppress(Exception):
        import resource

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # the program's crash is not the keeper's
    with contextlib.suppress(OSError, ValueError):          # SIGKILL has no handler to reset
        signal.signal(-code, signal.SIG_DFL)
    with contextlib.suppress(OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {-code})
        os.kill(os.getpid(), -code)
    os._exit(128 - code)


def main(argv: list[str]) -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, _stop)
    try:
        control, report, parent = int(argv[1]), int(argv[2]), int(argv[3])
        program_argv = argv[5:]
        assert argv[4] == "--" and program_argv
    except (IndexError, ValueError, AssertionError):
        sys.stderr.write("keeper: usage: keeper.py CONTROL REPORT PARENT -- PROGRAM [ARGS...]\n")
        os._exit(2)
    os.set_inheritable(control, False)
    os.set_inheritable(report, False)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    status: list[int] = []
    program = 0
    try:
        try:
            program = start(program_argv)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.write(report, f"E{e.errno or 0}\n".encode())
            os._exit(START_FAILED)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        with contextlib.suppress(OSError):
            os.write(report, f"{program}\n".encode())
        os.close(report)
        if os.getppid() == parent:
            wait(program, control, parent, status)
    except Stop:
        pass
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGHUP, signal.SIGINT})
        if program:
            sweep(program, status)
    finish(status)


if __name__ == "__main__":
    main(sys.argv)

"""A child program we talk to over pipes and can always get rid of.

The program runs in a session, and so a process group, of its own: whatever it starts is killed with it. We never
block on its pipes: both ends are non-blocking and every write and read waits in `select` against a deadline, and
lines read from it are bounded in size. Its standard error is our own standard error: we never read from it, so a
program flooding it cannot block us (a program whose writes there block is simply late, which the deadline covers).
Every program still running when the interpreter exits is killed with its group.

On Linux a process the program starts that leaves its group (setsid, setpgid) is killed too: while we run, it comes
to us when its parent dies (we are a child subreaper) and `kill_escaped` kills it; and each program runs under a
keeper (`engine/bots/keeper.py`) that kills the program and all it started when this process ends by any means,
SIGKILL included. Elsewhere only the group is reached. This guards against misbehaving programs, it is not a
sandbox: a process may still leave on purpose by other means (a daemon started through another service)."""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

CHUNK = 1 << 16
REAP_WAIT = 5.0    # seconds to reap a killed leader: SIGKILL cannot be refused, this only bounds a stuck kernel
POLL_STEP = 0.01


class ProgramFault(Exception):
    """The program can no longer be talked to; the message says why in a few words."""


class Stalled(ProgramFault):
    """The deadline passed while waiting for the program to read or write."""


class Closed(ProgramFault):
    """The program closed its end of a pipe (usually: it exited)."""


class TooLong(ProgramFault):
    """The program wrote more than the limit without ending its line."""


def write_all(fd: int, data: bytes, deadline: float, exit_fd: int | None = None) -> None:
    """Write all of `data` to the non-blocking `fd` before `deadline` (time.monotonic); Closed as soon as
    `exit_fd` (a pidfd) says the program has exited."""
    view = memoryview(data)
    with _selector(fd, selectors.EVENT_WRITE, exit_fd) as sel:
        while view:
            try:
                view = view[os.write(fd, view[:CHUNK]):]
                continue
            except BlockingIOError:
                pass
            except OSError as e:   # BrokenPipeError, or the pipe is otherwise unusable
                raise Closed(e.strerror or str(e)) from None
            if _wait(sel, deadline, exit_fd):
                raise Closed("the program exited")


class LineReader:
    """Lines from a non-blocking file descriptor, each bounded in length, each waited for against a deadline.
    With `exit_fd` (a pidfd), waiting ends as soon as the program has exited, even if a process it started
    still holds the pipe."""

    def __init__(self, fd: int, exit_fd: int | None = None) -> None:
        self.fd = fd
        self.exit_fd = exit_fd
        self._buf = b""

    def read_line(self, deadline: float, limit: int) -> bytes:
        """The next line without its newline; Stalled, Closed (end of file first) or TooLong (over `limit`)."""
        exited = False
        with _selector(self.fd, selectors.EVENT_READ, self.exit_fd) as sel:
            while b"\n" not in self._buf:
                if len(self._buf) > limit:
                    raise TooLong(f"more than {limit} bytes without a newline")
                chunk = self._read_now()
                if chunk is None:
                    if exited:   # what it wrote before exiting has been read: nothing more is coming
                        raise Closed("the program exited")
                    exited = _wait(sel, deadline, self.exit_fd)
                    continue
                if not chunk:
                    raise Closed("end of output")
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        if len(line) > limit:
            raise TooLong(f"a line of {len(line)} bytes")
        return line

    def take_pending(self, limit: int) -> bytes:
        """Everything already written and not yet read, without waiting; Closed at end of file, TooLong past
        `limit` bytes (a program flooding its output)."""
        while (chunk := self._read_now()) is not None:
            if not chunk:
                raise Closed("end of output")
            self._buf += chunk
            if len(self._buf) > limit:
                raise TooLong(f"more than {limit} bytes")
        out, self._buf = self._buf, b""
        return out

    def take_buffered(self) -> bytes:
        """What was read past the last line returned, without reading more."""
        out, self._buf = self._buf, b""
        return out

    def _read_now(self) -> bytes | None:
        """What can be read at once (b'' at end of file), or None if nothing is there yet."""
        try:
            return os.read(self.fd, CHUNK)
        except BlockingIOError:
            return None
        except OSError as e:
            raise Closed(e.strerror or str(e)) from None


def _selector(fd: int, events: int, exit_fd: int | None) -> selectors.BaseSelector:
    sel = selectors.DefaultSelector()
    try:
        sel.register(fd, events)
        if exit_fd is not None:
            sel.register(exit_fd, selectors.EVENT_READ)
    except BaseException:
        sel.close()
        raise
    return sel


def _wait(sel: selectors.BaseSelector, deadline: float, exit_fd: int | None) -> bool:
    """Wait for the selector until `deadline` (Stalled once it has passed); whether the program has exited."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise Stalled("the deadline passed")
    return any(key.fd == exit_fd for key, _ in sel.select(left))


class Program:
    """One started program: request lines go to its standard input, answer lines come from its standard output."""

    def __init__(self, argv: Sequence[str]) -> None:
        """Start it; OSError if it cannot be started."""
        become_subreaper()
        self._control: int | None = None   # our end of the keeper's pipe: it reaches end of file when we go
        report: int | None = None
        keeper = _keeper_file()
        if keeper is None:
            self._proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                          start_new_session=True, preexec_fn=_die_with_parent if _LINUX else None)
        else:
            self._proc, self._control, report = _start_kept(keeper, argv)
        self.pgid = self._proc.pid   # the leader of a new session leads its process group
        self.program_pid = self._proc.pid   # the program itself (the keeper's child, when there is a keeper)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._stdin, self._stdout = self._proc.stdin, self._proc.stdout
        self._exit_fd: int | None = None
        self._killed = False
        self._owner = os.getpid()
        _LIVE[id(self)] = (self._owner, self)
        try:
            if report is not None:
                self.program_pid = _await_report(report)
            os.set_blocking(self._stdin.fileno(), False)
            os.set_blocking(self._stdout.fileno(), False)
            self._exit_fd = _pidfd(self._proc.pid)
        except BaseException:
            self.kill()
            raise
        self.output = LineReader(self._stdout.fileno(), self._exit_fd)

    def send(self, data: bytes, deadline: float) -> None:
        write_all(self._stdin.fileno(), data, deadline, self._exit_fd)

    def exit_code(self, wait: float = 0.0) -> int | None:
        """The leader's exit code once it has exited (waiting up to `wait` seconds), else None. The leader is
        not reaped here, so its group id cannot be reused before `kill` has signalled the group."""
        end = time.monotonic() + wait
        while True:
            code = _peek_exit(self._proc)
            if code is not None or time.monotonic() >= end:
                return code
            time.sleep(POLL_STEP)

    def _wait_exit(self, wait: float) -> None:
        """Up to `wait` seconds for the leader to exit, without reaping it."""
        if self._exit_fd is not None and _peek_exit(self._proc) is None:
            with contextlib.suppress(OSError, ValueError):
                select.select([self._exit_fd], [], [], wait)
        self.exit_code(0.0 if self._exit_fd is not None else wait)

    def close(self, grace: float) -> None:
        """Close its input (a well-behaved program exits), give the leader `grace` seconds, then kill the group."""
        if not self._killed:
            _close_quietly(self._stdin)
            self.exit_code(grace)
        self.kill()

    def kill(self) -> None:
        """Kill the program and everything it started, and reap the leader; safe to call more than once. With a
        keeper, closing its pipe asks it to do so (it kills and reaps even the processes that left the group) and
        we wait for it a little; then the whole group is killed in any case."""
        if self._killed:
            return
        self._killed = True
        _LIVE.pop(id(self), None)
        if os.getpid() != self._owner:   # a forked copy of the process that started it: not ours to kill
            return
        if self._control is not None:
            os.close(self._control)
            self._control = None
            self._wait_exit(KEEPER_WAIT)
        try:
            os.killpg(self.pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):   # already gone (macOS says EPERM for a group of zombies)
            pass
        _close_quietly(self._stdin)
        _close_quietly(self._stdout)
        if self._exit_fd is not None:
            os.close(self._exit_fd)
            self._exit_fd = None
        try:
            self._proc.wait(timeout=REAP_WAIT)
        except subprocess.TimeoutExpired:
            pass
        kill_escaped()


# --- the keeper ---------------------------------------------------------------------------------------------
# On Linux the program is started through `engine/bots/keeper.py`, a small process of our own that leads the
# program's session: it is a child subreaper, so whatever the program starts and orphans comes to it, and it holds
# the read end of a pipe whose write end only we hold. When this process ends, by any means (SIGKILL included),
# that pipe reaches end of file and the keeper kills the program and every descendant, even those in sessions of
# their own, then exits. `Program.kill` closes that pipe itself, waits a little for the keeper to finish, then kills
# the whole group (the keeper with it) in any case.
# The keeper runs in our interpreter in isolated mode (-I -S: no environment variable, user site or current
# folder changes what it loads) and runs nothing but the program it is given.
KEEPER_WAIT = 2.0   # seconds for the keeper to kill and reap all the program started, before we kill the group
START_WAIT = 10.0   # seconds for the keeper to report the program started: this only bounds a stuck machine
_LINUX = sys.platform.startswith("linux")
_KEEPER = _LINUX


def _keeper_file() -> str | None:
    """The keeper's script, or None where there is none (not Linux, no interpreter): then the program is started
    directly, and only its direct children die with us."""
    if not _KEEPER or not sys.executable:
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keeper.py")
    return path if os.path.isfile(path) else None


def _start_kept(keeper: str, argv: Sequence[str]) -> tuple[subprocess.Popen[bytes], int, int]:
    """The keeper started with the program: (its process, our end of its control pipe, the report's read end)."""
    control_r, control_w = os.pipe()      # both ends close-on-exec: only the keeper gets control_r
    report_r, report_w = os.pipe()
    try:
        proc = subprocess.Popen([sys.executable, "-I", "-S", keeper, str(control_r), str(report_w),
                                 str(os.getpid()), "--", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                bufsize=0, start_new_session=True, pass_fds=(control_r, report_w))
    except BaseException:
        for fd in (control_w, report_r):
            os.close(fd)
        raise
    finally:
        os.close(control_r)
        os.close(report_w)
    return proc, control_w, report_r


def _await_report(report: int) -> int:
    """The program's pid as the keeper reports it; OSError (the exec's own error) if it could not start."""
    data = b""
    try:
        deadline = time.monotonic() + START_WAIT
        with selectors.DefaultSelector() as sel:
            sel.register(report, selectors.EVENT_READ)
            while not data.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise OSError("the program's keeper did not start in time")
                chunk = os.read(report, 64)
                if not chunk:
                    break
                data += chunk
    finally:
        os.close(report)
    text = data.decode("ascii", "replace").strip()
    if text.startswith("E") and text[1:].isdigit():
        errno = int(text[1:])
        raise OSError(errno, os.strerror(errno))
    if not text.isdigit():
        raise OSError("the program's keeper failed to start it")
    return int(text)


# --- processes that leave the program's group ---------------------------------------------------------------
# A program's child may start a session of its own, out of reach of the group kill. On Linux this process is made
# a child subreaper (prctl PR_SET_CHILD_SUBREAPER): such a child, once its parent is killed, becomes our child,
# and `kill_escaped` kills every child of ours that sits in another session and is no live program's leader.
# A program started without a keeper also dies with us (PR_SET_PDEATHSIG), whatever ends this process.
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
_SUBREAPER = {"set": False}


def _prctl(option: int, value: int) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _die_with_parent() -> None:
    """In the started program, before it runs: die when the process that started it dies."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def become_subreaper() -> None:
    if _LINUX and not _SUBREAPER["set"]:
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        _SUBREAPER["set"] = True


def _children() -> list[tuple[int, int]]:
    """(pid, session id) of every live child of this process, from /proc (none where there is no /proc)."""
    me = os.getpid()
    out: list[tuple[int, int]] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return out
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] not in (b"Z", b"X"):
            out.append((int(name), int(fields[3])))
    return out


def kill_escaped() -> int:
    """Kill (and reap) every child of this process that left the programs' groups: in another session than ours
    and not the leader of a program still in use. The number killed."""
    if not _SUBREAPER["set"]:
        return 0
    mine = os.getsid(0)
    leaders = {prog.pgid for pid, prog in list(_LIVE.values()) if pid == os.getpid()}
    killed: list[int] = []
    for pid, sid in _children():
        if sid == mine or pid in leaders or sid in leaders:
            continue
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    end = time.monotonic() + REAP_WAIT
    left = list(killed)
    while left and time.monotonic() < end:     # reap only the processes killed here
        for pid in list(left):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                left.remove(pid)
        if left:
            time.sleep(POLL_STEP)
    return len(killed)


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when the process exits (Linux 5.3 and later), else None."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None:
        return None
    try:
        fd: int = pidfd_open(pid)
    except OSError:
        return None
    return fd


def _peek_exit(proc: subprocess.Popen[bytes]) -> int | None:
    if proc.returncode is not None:
        return proc.returncode
    if not hasattr(os, "waitid"):   # macOS: reaping early only risks signalling a reused group id, remotely
        return proc.poll()
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return proc.poll()
    if info is None:
        return None
    return -info.si_status if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED) else info.si_status


def _close_quietly(stream: object) -> None:
    close = getattr(stream, "close", None)
    if callable(close):
        try:
            close()
        except OSError:
            pass


# Programs not yet killed, by id, with the process that started them: a forked worker inherits this table but must
# not kill its parent's programs.
_LIVE: dict[int, tuple[int, Program]] = {}


def _forget_parents_programs() -> None:
    """In a process just forked (a worker): its parent's programs are not its own, and its copies of their keepers'
    pipes must not keep them open once the parent closes them or dies."""
    me = os.getpid()
    for owner, program in list(_LIVE.values()):
        if owner != me and program._control is not None:
            with contextlib.suppress(OSError):
                os.close(program._control)
            program._control = None


def kill_all() -> None:
    """Kill every program this process started and has not killed yet."""
    me = os.getpid()
    for owner, program in list(_LIVE.values()):
        if owner == me:
            program.kill()


atexit.register(kill_all)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_parents_programs)

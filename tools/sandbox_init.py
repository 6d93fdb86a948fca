"""The keeper inside a bot's sandbox: relays the game port, starts the bot under its limits,
watches it, and names the limit that ended it.

It runs as the first process bubblewrap starts (``python -I -S sandbox_init.py ...``: the
standard library only, no site, no swc_local, so it starts in milliseconds and reads no file of
the teacher's), in the sandbox's own network, process and user namespaces:

- **Relay.**  The sandbox's network has nothing but loopback.  The keeper listens on
  ``127.0.0.1:PORT`` and ``[::1]:PORT`` (the game server's port number, so the bot's command is
  unchanged) and forwards every connection to the unix socket that the runner serves outside
  (:mod:`swc_local.tools.sandbox_relay`), which forwards it to the server.  Non-blocking, one
  thread: a bot that stops reading cannot stall the keeper's watch.
- **Limits.**  The bot is started with ``RLIMIT_NPROC`` (tasks of the sandbox's user: its
  processes and threads, counted in the sandbox's fresh user namespace only), ``RLIMIT_CPU``
  (per process: SIGXCPU at the limit, SIGKILL a second later) and ``RLIMIT_DATA`` at twice the
  memory limit (a backstop for memory reserved but never touched; never ``RLIMIT_AS``, which
  breaks the JVM's large reservations).
- **Watch.**  Every :data:`POLL` seconds the keeper reads the sandbox's own ``/proc``: resident
  memory over the limit, or as many tasks as the process limit allows, ends every process of the
  sandbox at once (SIGKILL) and names the cause.  When the bot exits by itself, the kernel's
  high-water mark of its resident memory (``wait4``) and its end by SIGXCPU (or a shell's exit
  status 128 + SIGXCPU) name the cause too, so a limit is named however fast the bot hit it.
- **Status.**  One line ``CAUSE<TAB>reason`` is written to the pipe ``--status-fd`` (inherited
  from the runner; the bot's processes never get it), nothing when no limit ended the bot.  The
  keeper exits with the bot's exit status (128 + N after signal N, as a shell does).
"""

import argparse
import errno
import os
import resource
import selectors
import signal
import socket
import subprocess
import sys

POLL = 0.02  # seconds between two looks at the sandbox's /proc
BUFFER = 1 << 20  # bytes a relayed direction may hold before it stops reading its source
HELPER_TASKS = 2  # bubblewrap's init and this keeper: counted by RLIMIT_NPROC, not the bot's


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="sandbox_init")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--socket", required=True)
    parser.add_argument("--status-fd", type=int, required=True)
    parser.add_argument("--memory", type=int, required=True, help="bytes of resident memory")
    parser.add_argument("--processes", type=int, required=True, help="tasks (processes and threads)")
    parser.add_argument("--cpu", type=int, required=True, help="CPU seconds per process")
    parser.add_argument("--user", type=int, help="run by root: the bot's own user id (and group id)")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.command[:1] == ["--"]:
        args.command = args.command[1:]
    return args


class Relay:
    """Every connection to the game port inside, forwarded to the unix socket outside."""

    def __init__(self, selector: selectors.BaseSelector, port: int, path: str) -> None:
        self.selector, self.path = selector, path
        self.pending: dict[socket.socket, bytearray] = {}  # bytes waiting to be sent on a socket
        self.peer: dict[socket.socket, socket.socket] = {}
        for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
            try:
                listener = socket.socket(family, socket.SOCK_STREAM)
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                listener.bind((host, port))
                listener.listen(64)
            except OSError:
                continue  # no IPv6 in this kernel: IPv4 alone
            listener.setblocking(False)
            selector.register(listener, selectors.EVENT_READ, self.accept)

    def accept(self, listener: socket.socket, _events: int) -> None:
        try:
            inside, _ = listener.accept()
        except OSError:
            return
        outside = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            outside.connect(self.path)
        except OSError as error:
            print(f"sandbox: the game server cannot be reached: {error}", file=sys.stderr, flush=True)
            inside.close()
            outside.close()
            return
        for sock, other in ((inside, outside), (outside, inside)):
            sock.setblocking(False)
            self.peer[sock], self.pending[sock] = other, bytearray()
            self.selector.register(sock, selectors.EVENT_READ, self.pump)

    def pump(self, sock: socket.socket, events: int) -> None:
        if sock not in self.peer:
            return
        other = self.peer[sock]
        if events & selectors.EVENT_WRITE:
            self._flush(sock)
        if events & selectors.EVENT_READ and len(self.pending[other]) < BUFFER:
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.close(sock)
                return
            self.pending[other] += data
            self._flush(other)
        self._interest(sock)

    def _flush(self, sock: socket.socket) -> None:
        buffer = self.pending.get(sock)
        if not buffer:
            return
        try:
            sent = sock.send(buffer)
        except BlockingIOError:
            sent = 0
        except OSError:
            self.close(sock)
            return
        del buffer[:sent]
        self._interest(sock)

    def _interest(self, sock: socket.socket) -> None:
        if sock not in self.peer:
            return
        other = self.peer[sock]
        wanted = selectors.EVENT_WRITE if self.pending[sock] else 0
        if len(self.pending[other]) < BUFFER:
            wanted |= selectors.EVENT_READ
        try:
            self.selector.modify(sock, wanted or selectors.EVENT_READ, self.pump)
        except (KeyError, ValueError):
            pass

    def close(self, sock: socket.socket) -> None:
        """One side left: both sockets of the pair close (the game's connection ends)."""
        for each in (sock, self.peer.get(sock)):
            if each is None or each not in self.peer:
                continue
            try:
                self.selector.unregister(each)
            except (KeyError, ValueError):
                pass
            each.close()
            self.peer.pop(each, None)
            self.pending.pop(each, None)


def tasks_and_memory(own: int) -> tuple[int, int]:
    """The sandbox's tasks (threads included) and resident bytes, bubblewrap's init and this
    keeper left out: the sandbox's /proc shows only its own processes."""
    tasks = resident = 0
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in (1, own):
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as handle:
                for line in handle:
                    if line.startswith(b"Threads:"):
                        tasks += int(line.split()[1])
                    elif line.startswith(b"VmRSS:"):
                        resident += int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            continue  # it ended while we looked
    return tasks, resident


def kill_everything() -> None:
    """SIGKILL to every process of the sandbox but this keeper (the pid namespace's own -1)."""
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass


def limits_setter(args: argparse.Namespace):
    def apply() -> None:
        os.setsid()  # the bot's own group: the keeper is never in it
        if args.user is not None:  # run by root: a user of its own, whose processes only it counts
            os.setgroups([])
            os.setresgid(args.user, args.user, args.user)
            os.setresuid(args.user, args.user, args.user)
        resource.setrlimit(resource.RLIMIT_NPROC, (args.processes + HELPER_TASKS,) * 2)
        resource.setrlimit(resource.RLIMIT_CPU, (args.cpu, args.cpu + 1))
        resource.setrlimit(resource.RLIMIT_DATA, (2 * args.memory,) * 2)
    return apply


def mebibytes(count: int) -> str:
    return f"{count / (1 << 20):.0f} MiB"


def cause_after_exit(args: argparse.Namespace, status: int, usage) -> tuple[str, str] | None:
    """The limit that ended a bot that exited by itself (or by the kernel's signal)."""
    peak = usage.ru_maxrss * 1024
    cpu = usage.ru_utime + usage.ru_stime
    died_of = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    if died_of == signal.SIGXCPU or code == 128 + signal.SIGXCPU or (died_of == signal.SIGKILL and cpu >= args.cpu):
        return "CPU_TIME_LIMIT", f"a process used its {args.cpu} s of CPU time"
    if peak >= args.memory and (died_of is not None or code != 0):
        return "MEMORY_LIMIT", f"a process reached {mebibytes(peak)} resident memory; the limit is {mebibytes(args.memory)}"
    return None


def report(fd: int, cause: tuple[str, str] | None) -> None:
    if cause is not None:
        try:
            os.write(fd, f"{cause[0]}\t{cause[1]}\n".encode())
        except OSError:
            pass
    os.close(fd)


def main(argv: list[str]) -> int:
    args = parse(argv)
    if not args.command:
        print("sandbox: no command", file=sys.stderr)
        return 2
    os.set_inheritable(args.status_fd, False)
    selector = selectors.DefaultSelector()
    Relay(selector, args.port, args.socket)
    try:
        bot = subprocess.Popen(args.command, preexec_fn=limits_setter(args), close_fds=True)
    except OSError as error:
        print(f"sandbox: {args.command[0]}: {error.strerror or error}", file=sys.stderr, flush=True)
        report(args.status_fd, None)
        return 127 if error.errno == errno.ENOENT else 126
    own, cause = os.getpid(), None
    while True:
        for key, events in selector.select(POLL):
            key.data(key.fileobj, events)
        try:
            pid, status, usage = os.wait4(bot.pid, os.WNOHANG)
        except ChildProcessError:
            pid, status, usage = bot.pid, 0, None
        if pid == bot.pid:
            if cause is None and usage is not None:
                cause = cause_after_exit(args, status, usage)
            break
        tasks, resident = tasks_and_memory(own)
        if resident >= args.memory:
            cause = ("MEMORY_LIMIT", f"its processes held {mebibytes(resident)} resident memory; "
                                     f"the limit is {mebibytes(args.memory)}")
        elif tasks >= args.processes:
            cause = ("PROCESS_LIMIT", f"it ran {tasks} processes and threads; the limit is {args.processes}")
        if cause is not None:
            kill_everything()
    report(args.status_fd, cause)
    kill_everything()  # what the bot left running ends with it
    if cause is not None:
        print(f"sandbox: {cause[0]}: {cause[1]}", file=sys.stderr, flush=True)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""An uploaded XML replay is read in a child process, not in a thread of the server (issue 34).

Why: the XML reader builds a tree per message, and reading a 7.8 MB replay in a thread beside the
games stalled every game of the server by up to 1.2 s. The thread shares the interpreter's lock
with the event loop, and the trees it builds set off full garbage collections (100-300 ms each on
a loaded machine, five or more per file) that hold that lock from start to end, whichever thread
set them off. In a child process the reading costs the server nothing but the child's start and
one ``pickle.loads`` of the finished record (its states kept as text: about 1,500 bytes objects
for that file, a few milliseconds), and the reader's temporary memory is the child's, freed when
it exits.

What goes to the child: a file whose first byte (after whitespace, unpacked when it is gzip) is
``<``: an XML replay or nothing readable. This is the XML family's ``read_upload`` hook
(server/door.py's ServerFamily): the viewer asks it first and reads any other upload in a thread,
as ReversiXT and Robo Rally logs are (a ReversiXT log is kept as its text and replayed when a page
asks; a Robo Rally log's record is many small objects, slower to send back than to read).

``python -m swc_local.server.xml.read_apart MAX_MESSAGE_BYTES MAX_DEPTH LIMIT SOURCE`` reads the
file from its standard input and writes a pickle of ``("record", record)`` or
``("error", message)``; anything else (a crash, a kill) is a FileError in the server.
"""

from __future__ import annotations

import gzip
import io
import logging
import pickle
import sys
import zlib
from functools import partial

import trio

from swc_local.server.web.book import _ids
from swc_local.server.web.files import FileError, open_bytes

log = logging.getLogger("swc.web")


def is_xml(data: bytes) -> bool:
    """True when the file (unpacked first when it is gzip) starts with ``<`` after whitespace."""
    head = data[:4096]
    if head[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
                head = unpacked.read(4096)
        except (OSError, EOFError, zlib.error):
            return False  # broken: the thread's reader says why
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<"


async def open_apart(data: bytes, source: str, limit: int, *, max_message_bytes: int, max_depth: int):
    """The record of an XML file, read by a child process (FileError as :func:`open_bytes` raises);
    None when the file is no XML (the viewer reads it in a thread with every family's reader)."""
    if not is_xml(data):
        return None
    command = [sys.executable, "-m", __name__, str(max_message_bytes), str(max_depth), str(limit), source]
    done = await trio.run_process(command, stdin=data, capture_stdout=True, capture_stderr=True, check=False)
    try:
        kind, value = pickle.loads(done.stdout)
    except Exception:  # the child died: its last line says why
        why = (done.stderr.decode(errors="replace").strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        log.warning("%s: the child process reading it failed: %s", source, why)
        raise FileError(f"{source}: cannot be read (the reader failed)") from None
    if kind == "error":
        raise FileError(value)
    value.id = f"g{next(_ids)}"  # the child numbered it in its own sequence
    return value


def main(argv: list[str]) -> int:
    from swc_local.server.xml.records import read_xml_replay  # the child's own: the XML reader only

    max_message_bytes, max_depth, limit, source = int(argv[0]), int(argv[1]), int(argv[2]), argv[3]
    data = sys.stdin.buffer.read()
    try:
        answer: tuple = ("record", open_bytes(data, source, [partial(read_xml_replay, max_message_bytes=max_message_bytes,
                                                                     max_depth=max_depth)], limit=limit))
    except FileError as error:
        answer = ("error", str(error))
    sys.stdout.buffer.write(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

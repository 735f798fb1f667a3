"""A client for datatabled: newline-delimited JSON-RPC 2.0 over a Unix socket.

Standard library only. One ``Client`` is one connection; the daemon keeps per-connection state
(views for ``scroll``, subscriptions), so keep a client open for as long as that state matters.

    from datatable_client import Client, NoSuchTable

    with Client() as dt:                      # $DATATABLED_SOCKET, else your own daemon, else the system's
        dt.call("ping")                       # {'pong': True}
        dt.add(table="stock", row={"item": "Bolt", "qty": 4})   # any method, params as keywords
        window = dt.scroll(table="stock", unit="cell", viewport={"width": 80, "height": 24})
        for event in dt.subscribe("stock"):   # events pushed by the daemon
            print(event.kind, event.version)
        with dt.watch(table="stock", unit="cell", viewport={"width": 80, "height": 24}) as live:
            for window in live:               # the window, each time something in it changed
                print(window["version"], [row["cells"] for row in window["rows"]])

Errors the daemon answers with are raised as ``DataTableError`` subclasses chosen by
``error.data.kind`` (``NoSuchTable``, ``InvalidValue``, ``ReadOnly``, ...), each carrying
``code``, ``message``, ``kind`` and ``data``.
"""

import collections
import itertools
import json
import os
import socket
import time

__all__ = [
    "Client",
    "Event",
    "Subscription",
    "Watch",
    "apply_delta",
    "DataTableError",
    "ConnectionClosed",
    "default_socket_path",
    "error_class",
]


def default_socket_path(environ=None, uid=None):
    """The socket the daemon listens on when none is named, found the way the daemon finds it.

    ``$DATATABLED_SOCKET``; else ``$XDG_RUNTIME_DIR/datatabled.sock``; else, for root,
    ``/run/datatabled/datatabled.sock``; else ``/tmp/datatabled-UID/datatabled.sock``.
    """
    environ = os.environ if environ is None else environ
    uid = os.getuid() if uid is None else uid
    explicit = environ.get("DATATABLED_SOCKET")
    if explicit:
        return explicit
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        return runtime.rstrip("/") + "/datatabled.sock"
    if uid == 0:
        return SYSTEM_SOCKET
    return "/tmp/datatabled-%d/datatabled.sock" % uid


SYSTEM_SOCKET = "/run/datatabled/datatabled.sock"
"""The socket of the installed system service."""


def candidate_socket_paths(environ=None, uid=None):
    """The sockets a client tries, in order, when none is named: ``$DATATABLED_SOCKET`` alone
    when it is set; else the user's own default path, then the system service's."""
    environ = os.environ if environ is None else environ
    own = default_socket_path(environ, uid)
    if environ.get("DATATABLED_SOCKET"):
        return [own]
    return [own] if own == SYSTEM_SOCKET else [own, SYSTEM_SOCKET]


class ConnectionClosed(Exception):
    """The daemon closed the connection (or it could not be made)."""


class DataTableError(Exception):
    """An error reply. ``kind`` is ``error.data.kind`` (``no_such_table``, ...); ``data`` is the
    whole ``error.data`` object (``field``, ``limit``, ``problems``, ...)."""

    kind = None

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data or {}
        self.kind = self.data.get("kind", type(self).kind)

    @property
    def field(self):
        """The param the error is about (``params.viewport.width``), when the daemon says."""
        return self.data.get("field")

    def __repr__(self):
        return "%s(%r, kind=%r)" % (type(self).__name__, self.message, self.kind)

    @staticmethod
    def from_reply(error):
        """The exception for a reply's ``error`` object."""
        data = error.get("data") or {}
        cls = error_class(data.get("kind"))
        return cls(error.get("code"), error.get("message", ""), data)


_KINDS = {}


def _kind(name):
    def register(cls):
        cls.kind = name
        _KINDS[name] = cls
        return cls

    return register


def error_class(kind):
    """The ``DataTableError`` subclass for an error kind (``DataTableError`` itself when unknown)."""
    return _KINDS.get(kind, DataTableError)


@_kind("parse_error")
class ParseError(DataTableError):
    """The request line was not JSON."""


@_kind("invalid_request")
class InvalidRequest(DataTableError):
    """The request was not a valid JSON-RPC request."""


@_kind("unknown_method")
class UnknownMethod(DataTableError):
    """No such method."""


@_kind("invalid_params")
class InvalidParams(DataTableError):
    """A param was missing or of the wrong type (``field`` names it)."""


@_kind("invalid_value")
class InvalidValue(DataTableError):
    """A value did not fit its column or its param (``data`` says which and why)."""


@_kind("internal_error")
class InternalError(DataTableError):
    """The daemon failed; its log says why."""


@_kind("limit_exceeded")
class LimitExceeded(DataTableError):
    """A configured limit refused the request (``data['limit']``, ``data['max']``)."""


@_kind("no_such_table")
class NoSuchTable(DataTableError):
    """No table has that name."""


@_kind("no_such_row")
class NoSuchRow(DataTableError):
    """No row has that id."""


@_kind("no_such_column")
class NoSuchColumn(DataTableError):
    """No column has that key."""


@_kind("read_only")
class ReadOnly(DataTableError):
    """The cell is read-only."""


@_kind("already_exists")
class AlreadyExists(DataTableError):
    """A table of that name, or a row with that id, exists."""


@_kind("nothing_to_undo")
class NothingToUndo(DataTableError):
    """Nothing to undo (or redo)."""


@_kind("shutting_down")
class ShuttingDown(DataTableError):
    """The daemon is stopping."""


@_kind("not_permitted")
class NotPermitted(DataTableError):
    """The daemon does not let this client do that."""


@_kind("not_saved")
class NotSaved(DataTableError):
    """The state directory cannot take changes now (a full disk): nothing was changed; try again later."""


@_kind("source_unavailable")
class SourceUnavailable(DataTableError):
    """An attached table's source (its database) cannot be reached: nothing was changed; the
    table stays readable, and the daemon connects again by itself."""


@_kind("source_refused")
class SourceRefused(DataTableError):
    """An attached table's source refused the change (a constraint, a permission): nothing was
    changed on either side; ``data.get("column")`` names the column where the source did."""


@_kind("permission_denied")
class PermissionDenied(DataTableError):
    """The table's owner and mode do not let this client read it, change it, or act as its owner."""


@_kind("conflict")
class Conflict(DataTableError):
    """The table changed since the version the request gave as ``ifVersion``: nothing was changed;
    ``data["version"]`` is the table's version now."""


for _name, _cls in list(globals().items()):
    if isinstance(_cls, type) and issubclass(_cls, DataTableError) and _cls is not DataTableError:
        __all__.append(_name)


class Event:
    """An ``event`` notification: what changed in a subscribed table.

    ``table``, ``kind`` (``added``, ``edited``, ``deleted``, ``selection``, ``sort``, ``drafts``,
    ``schema``; ``resync`` when events were missed: re-fetch), ``version`` and ``previous`` (a
    client that last saw ``previous`` is up to date after this event; anything else means it
    missed one and should re-fetch), ``rows``, and the
    rest of the params in ``params`` (``ids``, ``count``, ``columns``, ``selected``, ...).
    """

    def __init__(self, params):
        self.params = params
        self.table = params.get("table")
        self.kind = params.get("kind")
        self.version = params.get("version")
        self.previous = params.get("previous")
        self.rows = params.get("rows")

    def __getitem__(self, key):
        return self.params[key]

    def get(self, key, default=None):
        return self.params.get(key, default)

    def __repr__(self):
        return "Event(%r)" % (self.params,)


class Subscription:
    """The events of one table, as an iterator. Iterating blocks until the next event (or the
    iterator's ``timeout``, when set, passes: then it stops). ``close()`` unsubscribes."""

    def __init__(self, client, table, version, timeout=None):
        self.client = client
        self.table = table
        self.version = version
        self.timeout = timeout

    def __iter__(self):
        return self

    def __next__(self):
        event = self.client.next_event(timeout=self.timeout, table=self.table)
        if event is None:
            raise StopIteration
        return event

    def close(self):
        """Stops the table's events."""
        self.client.call("unsubscribe", {"table": self.table})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def apply_delta(window, delta):
    """Applies a ``window`` notification's params (or a ``watch`` reply's ``delta``) to
    ``window``, a window as ``scroll`` gives it, in place; returns it. The order is protocol.md's
    ("watch"): members set, rows removed, rows changed, rows added, rows put in order of index,
    then the sections' changes header by header (by title, or by path with nested groups), put
    in order of y, then level."""
    for key, value in (delta.get("set") or {}).items():
        if value is None:
            window.pop(key, None)
        else:
            window[key] = value
    gone = set(json.dumps(row_id) for row_id in delta.get("removed") or [])
    rows = [row for row in window.get("rows", []) if json.dumps(row.get("id")) not in gone]
    keys = [column.get("key") for column in window.get("columns", [])]
    by_id = {json.dumps(row.get("id")): row for row in rows}
    for change in delta.get("changed") or []:
        row = by_id.get(json.dumps(change.get("id")))
        if row is None:
            continue
        for key, value in change.items():
            if key == "id":
                continue
            if key in ("cells", "values") and isinstance(value, dict):
                cells = row.get(key, [])
                for column, cell in value.items():
                    if column in keys and keys.index(column) < len(cells):
                        cells[keys.index(column)] = cell
            elif value is None:
                row.pop(key, None)
            else:
                row[key] = value
    rows.extend(delta.get("added") or [])
    rows.sort(key=lambda row: row.get("index", 0))
    window["rows"] = rows
    sections = delta.get("sections")
    if sections and isinstance(window.get("sections"), dict):
        held = window["sections"]
        for key, value in (sections.get("set") or {}).items():
            if value is None:
                held.pop(key, None)
            else:
                held[key] = value
        # A header is known by its path (nested groups), else by its title.
        def header_key(header):
            return json.dumps(header.get("path", header.get("title")))

        gone = set(json.dumps(key) for key in sections.get("removed") or [])
        shown = [header for header in held.get("shown", []) if header_key(header) not in gone]
        by_key = {header_key(header): header for header in shown}
        for change in sections.get("changed") or []:
            header = by_key.get(header_key(change))
            if header is None:
                continue
            for key, value in change.items():
                if value is None:
                    header.pop(key, None)
                elif key not in ("title", "path"):
                    header[key] = value
        shown.extend(sections.get("added") or [])
        shown.sort(key=lambda header: (header.get("y", 0), header.get("level", 0)))
        held["shown"] = shown
    return window


class Watch:
    """A live window (``Client.watch``): ``window`` is the window as ``scroll`` gives it, kept
    current by the daemon's ``window`` notifications. Iterating blocks until the next one and
    yields the window with it applied (or stops once ``timeout`` seconds pass without one, when
    set, or when the watch ended: ``ended`` then says why). ``move(...)`` moves or reshapes it
    (``watch``'s params: ``viewport``, ``to``, ``freeze``, ``maxRate`` ...); ``close()`` ends it."""

    def __init__(self, client, table, reply, timeout=None):
        self.client = client
        self.table = table
        self.id = reply["watch"]
        self.window = {key: value for key, value in reply.items() if key != "watch"}
        self.seq = 0
        self.pending = 0
        self.ended = None
        self.timeout = timeout

    def __iter__(self):
        return self

    def __next__(self):
        if self.ended is not None:
            raise StopIteration
        delta = self.client.next_window(self.id, timeout=self.timeout)
        if delta is None:
            raise StopIteration
        self._take(delta)
        if self.ended is not None:
            raise StopIteration
        return self.window

    def _take(self, delta):
        if "ended" in delta:
            self.ended = delta["ended"]
            return
        if delta.get("seq", self.seq + 1) != self.seq + 1:
            raise DataTableError(0, "watch %d missed a window notification (%d after %d)" % (self.id, delta["seq"], self.seq))
        self.seq = delta.get("seq", self.seq)
        if "pending" in delta:
            self.pending = delta["pending"]
        apply_delta(self.window, delta)

    def move(self, **params):
        """Moves or reshapes the window (``watch`` again with this id); returns the window."""
        reply = self.client.call("watch", dict(params, table=self.table, watch=self.id))
        if "delta" in reply:
            self._take(reply["delta"])
        else:
            self.window = {key: value for key, value in reply.items() if key != "watch"}
            self.seq += 1
        return self.window

    def close(self):
        """Ends the watch."""
        if self.ended is None:
            self.client.call("unwatch", {"watch": self.id})
            self.ended = "closed"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Client:
    """One connection to datatabled.

    ``call(method, params)`` sends a request and returns its ``result`` (or raises the error);
    every method is also an attribute taking its params as keywords (``client.get(table="t",
    count=5)``). ``pipeline`` sends many requests before reading any reply; ``batch`` sends one
    JSON-RPC batch. Notifications that arrive while a reply is awaited (events, load progress)
    are kept for ``next_event`` and ``progress``.
    """

    def __init__(self, path=None, timeout=30.0):
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._events = collections.deque()
        self._windows = collections.deque()
        self.progress = collections.deque(maxlen=1000)
        """Recent ``progress`` notification params (large loads), newest last."""
        tried = []
        for candidate in [path] if path else candidate_socket_paths():
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.settimeout(timeout)
            try:
                connection.connect(candidate)
            except OSError as error:
                connection.close()
                tried.append("%s (%s)" % (candidate, error.strerror or error))
                continue
            self.path = candidate
            """The socket this client is connected to."""
            self._socket = connection
            break
        else:
            if len(tried) == 1:
                raise ConnectionClosed("cannot reach datatabled at %s" % tried[0])
            raise ConnectionClosed(
                "cannot reach datatabled: tried %s; start one with `datatabled`, or name its socket "
                "(Client(path) or $DATATABLED_SOCKET)" % ", ".join(tried))
        self._buffer = bytearray()

    # Connection

    def close(self):
        """Closes the connection (the daemon drops this connection's views and subscriptions)."""
        self._socket.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Requests

    def call(self, method, params=None, **keywords):
        """Sends one request and returns its ``result``; raises a ``DataTableError`` for an error
        reply. Params come as a dict, as keywords, or both."""
        request_id = next(self._ids)
        self._send([self._request(method, params, keywords, request_id)])
        return self._result(self._reply(request_id))

    def notify(self, method, params=None, **keywords):
        """Sends a JSON-RPC notification: carried out, never answered (not even with an error)."""
        self._send([self._request(method, params, keywords, None)])

    def pipeline(self, calls):
        """Sends every ``(method, params)`` of ``calls`` at once, then reads the replies, which come
        in the same order. Returns one entry per call: its result, or the ``DataTableError`` (not
        raised)."""
        ids = [next(self._ids) for _ in calls]
        self._send([self._request(method, params, {}, i) for (method, params), i in zip(calls, ids)])
        return [self._outcome(self._reply(i)) for i in ids]

    def batch(self, calls):
        """Sends ``(method, params)`` pairs as one JSON-RPC batch (one array, one reply array).
        Returns one entry per call, in order: its result, or the ``DataTableError`` (not raised)."""
        ids = [next(self._ids) for _ in calls]
        requests = [self._request(method, params, {}, i) for (method, params), i in zip(calls, ids)]
        self._write(json.dumps(requests, separators=(",", ":")) + "\n")
        while True:
            message = self._read_message(self.timeout)
            if isinstance(message, list):
                break
            if isinstance(message, dict) and "id" in message and "method" not in message:
                # A single error reply instead of an array: the batch as a whole was refused.
                raise DataTableError.from_reply(message.get("error") or {})
            self._keep(message)
        by_id = {reply.get("id"): reply for reply in message}
        return [self._outcome(by_id.get(i, {"error": {"message": "no reply"}})) for i in ids]

    #: Characters of text sent per ``upload`` request (escaped, they stay within the daemon's
    #: default 1 MiB line).
    UPLOAD_PIECE = 128 * 1024

    def load_file(self, table, path, **params):
        """Loads the CSV, NDJSON or JSON (an array of objects) file at ``path`` into ``table``. The daemon reads the file when
        it may (the caller is root or the daemon's user, or the file is under its
        ``--import-dir``); otherwise this reads it with the caller's rights and sends it in
        ``upload`` pieces. Other params (``columns``, ``key``, ``sort``, ``format``) as for
        ``load``."""
        path = os.path.abspath(path)
        if "format" not in params and path.endswith((".ndjson", ".jsonl")):
            params["format"] = "ndjson"
        # Which paths the daemon may open for this connection is asked first, so that a load
        # that works logs no refusal; a refusal still comes when the daemon cannot read the file.
        if self._may_load(path):
            try:
                return self.call("load", dict(params, table=table, path=path))
            except NotPermitted:
                pass
        with open(path, encoding="utf-8", newline="") as source:
            text = source.read()
        if not text:
            return self.call("load", dict(params, table=table, text=""))
        for start in range(0, len(text), self.UPLOAD_PIECE):
            self.call("upload", table=table, text=text[start:start + self.UPLOAD_PIECE])
        return self.call("load", dict(params, table=table, upload=True))

    def _may_load(self, path):
        """Whether the daemon may open ``path`` for this connection (``hello``'s ``files``)."""
        files = self.call("hello").get("files", {})
        if files.get("anyPath"):
            return True
        directory = files.get("importDir")
        if not directory:
            return False
        prefix = directory.rstrip("/") + "/"
        return path.startswith(prefix) and len(path) > len(prefix) and "/../" not in path

    def __getattr__(self, method):
        if method.startswith("_"):
            raise AttributeError(method)

        def send(params=None, **keywords):
            return self.call(method, params, **keywords)

        send.__name__ = method
        send.__doc__ = "Calls %r with the params given as keywords." % method
        return send

    # Events

    def subscribe(self, table, events=None, timeout=None):
        """Subscribes to ``table``'s events (all kinds, or the ``events`` named) and returns a
        ``Subscription``: an iterator of ``Event`` objects. ``timeout`` (seconds) ends the
        iteration when no event comes for that long."""
        params = {"table": table}
        if events is not None:
            params["events"] = list(events)
        reply = self.call("subscribe", params)
        return Subscription(self, table, reply.get("version"), timeout)

    def watch(self, table, timeout=None, **params):
        """Makes this connection's view of ``table`` live (``watch``, with ``scroll``'s params as
        keywords, and ``maxRate``, ``freeze``) and returns a ``Watch``: its ``window`` now, and an
        iterator of the window each time the daemon says what changed in it."""
        reply = self.call("watch", dict(params, table=table))
        return Watch(self, table, reply, timeout)

    def next_window(self, watch, timeout=None):
        """The params of the next ``window`` notification of watch ``watch`` (others stay
        queued), waiting up to ``timeout`` seconds; ``None`` when none came in time."""
        return self._next_kept(self._windows, lambda params: params.get("watch") == watch, timeout)

    def next_event(self, timeout=None, table=None):
        """The next ``Event`` (of ``table``, when given; others stay queued), waiting up to
        ``timeout`` seconds (``None``: as long as it takes). ``None`` when none came in time."""
        return self._next_kept(self._events, lambda event: table is None or event.table == table, timeout)

    def _next_kept(self, queue, wanted, timeout):
        """The first notification in ``queue`` that is ``wanted``, reading more (and filing away
        the rest) for up to ``timeout`` seconds; ``None`` when none came in time."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            for index, kept in enumerate(queue):
                if wanted(kept):
                    del queue[index]
                    return kept
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            try:
                message = self._read_message(remaining)
            except socket.timeout:
                return None
            self._keep(message)

    # Internals

    @staticmethod
    def _request(method, params, keywords, request_id):
        request = {"jsonrpc": "2.0", "method": method}
        if request_id is not None:
            request["id"] = request_id
        merged = dict(params or {})
        merged.update(keywords)
        if merged or params is not None:
            request["params"] = merged
        return request

    def _send(self, requests):
        self._write("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in requests))

    def _write(self, text):
        try:
            self._socket.sendall(text.encode("utf-8"))
        except OSError as error:
            raise ConnectionClosed("the connection to datatabled failed: %s" % error) from None

    def _reply(self, request_id):
        while True:
            message = self._read_message(self.timeout)
            if isinstance(message, dict) and "method" not in message and message.get("id") == request_id:
                return message
            if isinstance(message, dict) and "method" not in message and message.get("id") is None:
                # An error the daemon could not tie to a request (an over-long line).
                return message
            self._keep(message)

    def _keep(self, message):
        """Files away a notification that arrived while waiting for something else."""
        if isinstance(message, dict) and message.get("method") == "event":
            self._events.append(Event(message.get("params") or {}))
        elif isinstance(message, dict) and message.get("method") == "window":
            self._windows.append(message.get("params") or {})
        elif isinstance(message, dict) and message.get("method") == "progress":
            self.progress.append(message.get("params") or {})

    @staticmethod
    def _result(reply):
        if "error" in reply:
            raise DataTableError.from_reply(reply["error"])
        return reply.get("result")

    @staticmethod
    def _outcome(reply):
        if "error" in reply:
            return DataTableError.from_reply(reply["error"])
        return reply.get("result")

    def _read_message(self, timeout):
        """The next JSON line from the daemon."""
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line = bytes(self._buffer[:newline])
                del self._buffer[: newline + 1]
                if line.strip():
                    return json.loads(line)
                continue
            self._socket.settimeout(timeout)
            try:
                chunk = self._socket.recv(1 << 16)
            finally:
                self._socket.settimeout(self.timeout)
            if not chunk:
                raise ConnectionClosed("datatabled closed the connection")
            self._buffer += chunk

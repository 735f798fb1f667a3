"""The Python client against the real daemon, started for these tests on a scratch socket.

The daemon binary: $DATATABLED_BIN, else the repository's .build/debug/datatabled.
Run: python3 -m unittest discover -s clients/python/tests
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
REPOSITORY = os.path.dirname(os.path.dirname(PACKAGE_ROOT))
sys.path.insert(0, PACKAGE_ROOT)

import datatable_client  # noqa: E402
from datatable_client import (  # noqa: E402
    Client,
    ConnectionClosed,
    DataTableError,
    InvalidParams,
    InvalidValue,
    NoSuchRow,
    NoSuchTable,
    ReadOnly,
    UnknownMethod,
    apply_delta,
    default_socket_path,
)

DAEMON = os.environ.get("DATATABLED_BIN") or os.path.join(REPOSITORY, ".build", "debug", "datatabled")


class Daemon:
    """datatabled on a socket in a scratch directory, with the demo table."""

    def __init__(self, arguments=()):
        self.directory = tempfile.mkdtemp(prefix="dt-py-")
        self.socket = os.path.join(self.directory, "d.sock")
        self.log = open(os.path.join(self.directory, "output.log"), "wb")
        self.process = subprocess.Popen(
            [DAEMON, "--socket", self.socket, "--log-target", "stderr", "--demo", *arguments],
            stdout=self.log,
            stderr=self.log,
            stdin=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 15
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("datatabled did not start: " + self.output())
            time.sleep(0.02)

    def output(self):
        with open(os.path.join(self.directory, "output.log"), "rb") as f:
            return f.read().decode("utf-8", "replace")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def setUpModule():
    global daemon
    if not os.access(DAEMON, os.X_OK):
        raise unittest.SkipTest("no daemon binary at %s: build it first (swift build)" % DAEMON)
    daemon = Daemon()


def tearDownModule():
    daemon.stop()


def numbered(table, count):
    """Params of `create` for a table of `count` rows, n = 0 ..< count, newest (largest n) first."""
    return {
        "table": table,
        "columns": [{"key": "n", "type": "number"}, {"key": "name"}],
        "sort": [{"column": "n", "descending": True}],
        "rows": [{"n": n, "name": "row %d" % n} for n in range(count)],
    }


class ClientTests(unittest.TestCase):
    def setUp(self):
        self.client = Client(daemon.socket, timeout=10)

    def tearDown(self):
        self.client.close()

    def test_call_returns_the_result(self):
        self.assertEqual(self.client.call("ping"), {"pong": True})
        hello = self.client.hello(version=1, client="tests")
        self.assertEqual(hello["protocol"], 1)
        self.assertIn("events", hello["features"])
        rows = self.client.get(table="stock", count=2)["rows"]
        self.assertEqual([row["index"] for row in rows], [0, 1])

    def test_errors_are_typed_by_kind(self):
        with self.assertRaises(NoSuchTable) as caught:
            self.client.describe(table="nope")
        self.assertEqual(caught.exception.kind, "no_such_table")
        self.assertEqual(caught.exception.code, -32001)
        self.assertIn("nope", caught.exception.message)
        with self.assertRaises(UnknownMethod):
            self.client.call("fly")
        with self.assertRaises(InvalidParams) as caught:
            self.client.scroll(table="stock")
        self.assertEqual(caught.exception.field, "params.viewport.width")
        with self.assertRaises(NoSuchRow):
            self.client.get(table="stock", ids=[12345])
        with self.assertRaises(InvalidValue) as caught:
            self.client.edit(table="stock", id=1, column="qty", value="lots")
        self.assertEqual(caught.exception.data["column"], "qty")
        self.client.revert(table="stock")
        # The connection is still fine after errors.
        self.assertEqual(self.client.ping(), {"pong": True})
        self.assertTrue(issubclass(ReadOnly, DataTableError))
        self.assertIs(datatable_client.error_class("made_up"), DataTableError)

    def test_alter_and_undo_of_a_delete_with_a_stale_version_refused(self):
        self.client.create(table="py_alter", columns=[{"key": "item"}, {"key": "qty", "type": "number"}],
                           rows=[{"item": "Bolt", "qty": 3}, {"item": "Nut", "qty": 5}])
        altered = self.client.alter(table="py_alter", add=[{"key": "rack"}], values={"rack": "A1"},
                                    rename={"qty": "count"})
        self.assertEqual(altered["columns"], ["item", "count", "rack"])
        self.client.select(table="py_alter", ids=[1, 2])
        deleted = self.client.delete(table="py_alter", selection=True)
        self.assertEqual(deleted["rows"], 0)
        undone = self.client.undo(table="py_alter")
        self.assertEqual(undone["restored"], [1, 2])
        self.assertEqual(self.client.selection(table="py_alter")["ids"], [1, 2])
        with self.assertRaises(datatable_client.Conflict) as caught:
            self.client.edit(table="py_alter", id=1, column="count", value=4, ifVersion=altered["version"])
        self.assertEqual(caught.exception.data["version"], undone["version"])
        self.client.drop(table="py_alter")

    @unittest.skipUnless(os.getuid() == 0, "needs root to run a client as another user")
    def test_another_users_table_is_permission_denied(self):
        shared = Daemon(["--socket-mode", "0666"])
        try:
            os.chmod(shared.directory, 0o755)
            # A copy of the client where the other user can read it, run by a Python it may run.
            copy = os.path.join(shared.directory, "client")
            shutil.copytree(os.path.join(PACKAGE_ROOT, "datatable_client"), os.path.join(copy, "datatable_client"))
            for root, directories, files in os.walk(copy):
                for name in directories:
                    os.chmod(os.path.join(root, name), 0o755)
                for name in files:
                    os.chmod(os.path.join(root, name), 0o644)
            os.chmod(copy, 0o755)
            python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
            with Client(shared.socket) as owner:
                owner.create(table="private", columns=[{"key": "secret"}], rows=[{"secret": "s3"}], mode="0600")
                self.assertEqual(owner.describe(table="private")["mode"], "0600")
            script = (
                "import sys; sys.path.insert(0, sys.argv[1]); import datatable_client as d\n"
                "c = d.Client(sys.argv[2])\n"
                "try:\n    c.get(table='private')\n"
                "except d.PermissionDenied as e:\n    print(e.kind, e.code, 's3' in e.message)\n"
                "print(sorted(t['name'] for t in c.tables()['tables']))\n"
            )
            result = subprocess.run(
                [python, "-c", script, copy, shared.socket],
                user="nobody",
                capture_output=True,
                text=True,
                timeout=30,
            )
            self.assertEqual(result.stdout.split("\n")[:2], ["permission_denied -32007 False", "['stock']"], result.stderr)
        finally:
            shared.stop()

    def test_pipelined_replies_come_in_order(self):
        calls = [("ping", None)] * 50 + [("describe", {"table": "nope"})] + [("get", {"table": "stock", "count": 1})]
        results = self.client.pipeline(calls)
        self.assertEqual(len(results), 52)
        self.assertTrue(all(result == {"pong": True} for result in results[:50]))
        self.assertIsInstance(results[50], NoSuchTable)
        self.assertEqual(results[51]["total"], self.client.tables()["tables"][0]["rows"])

    def test_a_batch_is_one_array_each_answer_in_its_place(self):
        results = self.client.batch([("ping", None), ("fly", None), ("selection", {"table": "stock"})])
        self.assertEqual(results[0], {"pong": True})
        self.assertIsInstance(results[1], UnknownMethod)
        self.assertEqual(results[2]["mode"], "multiple")

    def test_a_notification_gets_no_reply(self):
        self.client.notify("ping")
        self.client.notify("fly")
        self.assertEqual(self.client.call("ping"), {"pong": True})

    def test_views_belong_to_the_connection(self):
        self.client.create(numbered("feed-view", 1000))
        first = self.client.scroll(
            table="feed-view", unit="cell", viewport={"width": 40, "height": 11}, to={"index": 500, "align": "top"}
        )
        anchor = first["rows"][0]
        with Client(daemon.socket) as other:
            other.add(table="feed-view", rows=[{"n": 5000 + i} for i in range(10)])
        again = self.client.scroll(table="feed-view")
        self.assertEqual(again["rows"][0]["id"], anchor["id"])
        self.assertEqual(again["rows"][0]["y"], anchor["y"])
        self.assertEqual(again["newAbove"], 10)

    def test_a_filter_narrows_this_connections_view_only(self):
        self.client.create(numbered("feed-filter", 100))
        narrowed = self.client.filter(
            table="feed-filter", where=[{"column": "n", "op": ">=", "value": 90}], search="row 9"
        )
        self.assertEqual(narrowed["shown"], 10)
        self.assertEqual(narrowed["total"], 100)
        window = self.client.scroll(table="feed-filter", unit="cell", viewport={"width": 40, "height": 5})
        self.assertEqual(window["shown"], 10)
        self.assertEqual([row["index"] for row in window["rows"]], [0, 1, 2, 3])
        with Client(daemon.socket) as other:
            whole = other.scroll(table="feed-filter", unit="cell", viewport={"width": 40, "height": 5})
            self.assertNotIn("shown", whole)
        with self.assertRaises(DataTableError) as refused:
            self.client.filter(table="feed-filter", where=[{"column": "n", "op": "~~", "value": 1}])
        self.assertEqual(refused.exception.field, "params.where[0].op")

    def test_sections_sum_up_the_rows_they_show(self):
        self.client.create(
            table="feed-sums",
            columns=[{"key": "n", "type": "number"}, {"key": "parity"}],
            rows=[{"n": n, "parity": "even" if n % 2 == 0 else "odd"} for n in range(30)],
        )
        window = self.client.scroll(
            table="feed-sums", unit="cell", viewport={"width": 40, "height": 50},
            sections={"column": "parity", "aggregates": {"n": ["sum", "max"]}, "grandTotal": "bottom"},
        )
        sums = {section["title"]: section["aggregates"][0]["value"] for section in window["sections"]["shown"]}
        self.assertEqual(sums, {"even": sum(range(0, 30, 2)), "odd": sum(range(1, 30, 2))})
        self.assertEqual(window["sections"]["grandTotal"]["aggregates"][1], {
            "column": "n", "function": "max", "text": "29", "value": 29,
        })

    def test_a_filter_with_groups_and_a_pattern_shows_what_python_picks(self):
        self.client.create(
            table="feed-terms",
            columns=[{"key": "n", "type": "number"}, {"key": "name"}],
            rows=[{"n": n, "name": f"item-{n:02d}"} for n in range(40)],
        )
        reply = self.client.filter(table="feed-terms", where=[
            {"any": [{"column": "n", "op": "<", "value": 5}, {"column": "name", "op": "matches", "value": "3[0-9]$"}]},
            {"not": {"column": "n", "op": "in", "values": [2, 33]}},
        ])
        expected = [n for n in range(40) if (n < 5 or 30 <= n <= 39) and n not in (2, 33)]
        self.assertEqual(reply["shown"], len(expected))
        self.assertEqual(reply["filter"], "n < 5 or name matches /3[0-9]$/ · not n is 2 or 33")
        shown = self.client.get(table="feed-terms", **{"from": 0}, count=100, columns=["n"], view=True)
        self.assertEqual([row["values"]["n"] for row in shown["rows"]], expected)
        # name's list: the any group reads name and is left out; the not on n narrows it.
        values = self.client.distinct(table="feed-terms", column="name")
        self.assertEqual(values["rows"], 38)

    def test_a_subscription_iterates_events_in_version_order(self):
        self.client.create(numbered("feed-events", 3))
        subscription = self.client.subscribe("feed-events", timeout=5)
        seen = subscription.version
        with Client(daemon.socket) as writer:
            writer.add(table="feed-events", row={"n": 10})
            writer.select(table="feed-events", ids=[1])
            writer.delete(table="feed-events", ids=[2])
        kinds = []
        for event in subscription:
            self.assertEqual(event.previous, seen)
            seen = event.version
            kinds.append(event.kind)
            if len(kinds) == 3:
                break
        self.assertEqual(kinds, ["added", "selection", "deleted"])
        subscription.close()
        with Client(daemon.socket) as writer:
            writer.add(table="feed-events", row={"n": 11})
        self.assertIsNone(self.client.next_event(timeout=0.5))

    def test_a_watched_window_follows_another_clients_changes(self):
        self.client.create(numbered("feed-watch", 10))
        live = self.client.watch(
            "feed-watch", timeout=5, unit="cell", viewport={"width": 40, "height": 5}, maxRate=60, values=True
        )
        ids = [row["id"] for row in live.window["rows"]]
        self.assertEqual(len(ids), 4)
        with Client(daemon.socket) as writer:
            writer.edit(table="feed-watch", id=ids[1], column="name", value="edited")
            window = next(live)
            edited = next(row for row in window["rows"] if row["id"] == ids[1])
            self.assertIn("edited", edited["cells"])
            self.assertIn("edited", edited["values"])
            writer.add(table="feed-watch", row={"n": 99, "name": "new"})
            self.assertEqual(next(live)["total"], 11)
        # What the watch holds is what a fresh scroll of the same view gives.
        fresh = self.client.scroll(table="feed-watch", values=True)
        self.assertEqual(
            [(row["id"], row["cells"], row["values"]) for row in live.window["rows"]],
            [(row["id"], row["cells"], row["values"]) for row in fresh["rows"]],
        )
        moved = live.move(viewport={"y": 3})
        self.assertEqual([row["index"] for row in moved["rows"]], [3, 4, 5, 6])
        live.close()
        self.assertEqual(live.ended, "closed")

    def test_a_watched_total_changes_as_its_header(self):
        self.client.create(
            table="feed-watch-sums",
            columns=[{"key": "n", "type": "number"}, {"key": "parity"}],
            rows=[{"n": n, "parity": "even" if n % 2 == 0 else "odd"} for n in range(10)],
        )
        live = self.client.watch(
            "feed-watch-sums", timeout=5, unit="cell", viewport={"width": 40, "height": 30}, maxRate=60,
            sections={"column": "parity", "aggregates": {"n": "sum"}, "grandTotal": "bottom"},
        )
        with Client(daemon.socket) as writer:
            writer.edit(table="feed-watch-sums", id=1, column="n", value=100)
        delta = self.client.next_window(live.id, timeout=5)
        # Only the even header's sum and the grand total changed: no whole sections.
        self.assertNotIn("sections", delta.get("set") or {})
        changed = delta["sections"]["changed"]
        self.assertEqual([header["title"] for header in changed], ["even"])
        self.assertEqual(changed[0]["aggregates"][0]["value"], 100 + 2 + 4 + 6 + 8)
        apply_delta(live.window, delta)
        fresh = self.client.scroll(table="feed-watch-sums")
        self.assertEqual(live.window["sections"], fresh["sections"])
        live.close()

    def test_nested_groups_collapse_and_their_headers_are_kept_by_path(self):
        self.client.create(
            table="feed-nested",
            columns=[{"key": "n", "type": "number"}, {"key": "side"}, {"key": "parity"}],
            rows=[
                {"n": n, "side": "left" if n < 6 else "right", "parity": "even" if n % 2 == 0 else "odd"}
                for n in range(12)
            ],
        )
        live = self.client.watch(
            "feed-nested", timeout=5, unit="cell", viewport={"width": 40, "height": 40}, maxRate=60,
            sections={"columns": ["side", "parity"], "aggregates": {"n": "sum"}},
        )
        # "even" is the title of a group on each side: headers are told apart by their paths.
        titles = [header["title"] for header in live.window["sections"]["shown"]]
        self.assertEqual(titles.count("even"), 2)
        reply = self.client.collapse(table="feed-nested", group=["left", "odd"])
        self.assertEqual((reply["collapsed"], reply["shown"]), (1, 9))
        apply_delta(live.window, self.client.next_window(live.id, timeout=5))
        with Client(daemon.socket) as writer:
            writer.edit(table="feed-nested", id=1, column="side", value="right")
        delta = self.client.next_window(live.id, timeout=5)
        self.assertNotIn("sections", delta.get("set") or {})
        changed = [header["path"] for header in delta["sections"]["changed"]]
        self.assertIn(["left"], changed)
        apply_delta(live.window, delta)
        fresh = self.client.scroll(table="feed-nested")
        self.assertEqual(live.window["sections"], fresh["sections"])
        self.assertEqual([row["id"] for row in live.window["rows"]], [row["id"] for row in fresh["rows"]])
        self.assertEqual(self.client.expand(table="feed-nested", all=True)["shown"], 12)
        live.close()

    def test_events_wait_while_replies_are_read(self):
        self.client.create(numbered("feed-queue", 1))
        self.client.subscribe("feed-queue")
        self.client.add(table="feed-queue", row={"n": 2})  # its event arrives around the reply
        self.client.ping()
        event = self.client.next_event(timeout=5)
        self.assertEqual((event.kind, event.table, event["ids"]), ("added", "feed-queue", [2]))

    def test_a_refused_connection_is_connection_closed(self):
        with self.assertRaises(ConnectionClosed):
            Client(os.path.join(daemon.directory, "nobody.sock"))


class FilePeopleHaveTests(unittest.TestCase):
    """Files as people have them, loaded and exported again: nothing they wrote changes."""

    HOSTILE = [
        "", " ", "\t", "  padded  ", "a,b", 'say "hi"', "line\nbreak", "cr\r\nlf", "lone\rcr", "ünïcødé ✓",
        "🙂 emoji", "NULL", "null", "-0", "1e5", "+5", " 5", "5 ", "0", "007", "TRUE", "yes", "2024-01-02",
        "=1+2", "\\", "'quoted'", '"', ",", "\u00a0", "x\ty", "\u202e right-to-left", "PT2H", "9:30",
    ]

    def setUp(self):
        self.client = Client(daemon.socket, timeout=30)

    def tearDown(self):
        self.client.close()

    def round_trip(self, name, rows):
        """Writes ``rows`` (the first is the header) with Python's csv, loads them into a new
        table, exports it as CSV, and reads that back with Python's csv."""
        import csv
        import io
        written = io.StringIO()
        csv.writer(written).writerows(rows)
        self.client.load(table=name, text=written.getvalue())
        exported = self.client.export(table=name, format="csv")["text"]
        return list(csv.reader(io.StringIO(exported, newline="")))

    def test_ids_zip_codes_and_hostile_text_come_back_field_for_field(self):
        import random
        chooser = random.Random(11)
        rows = [["id", "zip", "text", "qty", "price", "code", "when"]]
        for n in range(400):
            rows.append([
                str(3992579991854942347 + n * 7919),
                "%05d" % chooser.randrange(0, 100000) if n % 3 else "0%04d" % n,
                self.HOSTILE[n % len(self.HOSTILE)] if n % 5 else "".join(
                    chooser.choice('ab ,"\n\r\t;é€😀') for _ in range(chooser.randrange(0, 12))),
                str(chooser.randrange(0, 500)),
                "%.2f" % (chooser.random() * 100),
                chooser.choice(["1.5", "2.25", "3"]),
                "2024-%02d-%02d" % (chooser.randrange(1, 13), chooser.randrange(1, 29)),
            ])
        back = self.round_trip("people-hostile", rows)
        self.assertEqual(len(back), len(rows))
        for number, (before, after) in enumerate(zip(rows, back)):
            self.assertEqual(before, after, "row %d" % number)
        columns = {c["key"]: c["type"] for c in self.client.describe(table="people-hostile")["columns"]}
        self.assertEqual(columns["id"], "text")
        self.assertEqual(columns["zip"], "text")
        self.assertEqual(columns["qty"], "number")
        self.assertEqual(columns["price"], "number")
        self.assertEqual(columns["when"], "date")

    def test_numbers_written_in_another_form_keep_their_column_text(self):
        for value in ["1.50", "1e5", "+5", "007", "-0", "12345678901234567", " 5"]:
            rows = [["n"], ["2.5"], [value], ["7"]]
            name = "people-n-%d" % abs(hash(value))
            self.assertEqual(self.round_trip(name, rows), rows, value)
            self.assertEqual(self.client.describe(table=name)["columns"][0]["type"], "text", value)
        # The same decimal places throughout: a number, shown with them.
        rows = [["price"], ["1.50"], ["2.25"], ["10.00"]]
        self.assertEqual(self.round_trip("people-prices", rows), rows)
        self.assertEqual(self.client.describe(table="people-prices")["columns"][0]["type"], "number")

    def test_a_json_array_of_objects_loads_in_the_first_objects_column_order(self):
        cars = [
            {"Name": "chevrolet chevelle malibu", "Miles_per_Gallon": 18, "Cylinders": 8, "Year": "1970-01-01"},
            {"Name": "citroen ds-21 pallas", "Miles_per_Gallon": None, "Cylinders": 4, "Year": "1970-01-01",
             "Origin": "Europe"},
        ]
        directory = tempfile.mkdtemp(prefix="dt-py-json-")
        try:
            path = os.path.join(directory, "cars.json")
            with open(path, "w") as f:
                json.dump(cars, f, indent=2)
            loaded = self.client.load_file("people-cars", path)
            self.assertEqual(loaded["rows"], 2)
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        columns = self.client.describe(table="people-cars")["columns"]
        self.assertEqual([c["key"] for c in columns], ["Name", "Miles_per_Gallon", "Cylinders", "Year", "Origin"])
        self.assertEqual([c["type"] for c in columns], ["text", "number", "number", "date", "text"])
        exported = json.loads(self.client.export(table="people-cars", format="json")["text"])
        self.assertEqual([row["Name"] for row in exported], [car["Name"] for car in cars])
        # Rows from NDJSON keep the first line's order too.
        self.client.load(table="people-lines", format="ndjson", text='{"b":1,"a":"x"}\n{"c":"z","a":"y"}\n')
        self.assertEqual([c["key"] for c in self.client.describe(table="people-lines")["columns"]], ["b", "a", "c"])


class SocketPathTests(unittest.TestCase):
    def test_the_daemons_rule(self):
        self.assertEqual(default_socket_path({"DATATABLED_SOCKET": "/x.sock"}, 1000), "/x.sock")
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "/run/user/1000/"}, 1000), "/run/user/1000/datatabled.sock")
        self.assertEqual(default_socket_path({}, 0), "/run/datatabled/datatabled.sock")
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "relative"}, 1000), "/tmp/datatabled-1000/datatabled.sock")


class CommandLineTests(unittest.TestCase):
    def run_module(self, *arguments):
        environment = dict(os.environ, DATATABLED_SOCKET=daemon.socket, PYTHONPATH=PACKAGE_ROOT)
        return subprocess.run(
            [sys.executable, "-m", "datatable_client", *arguments],
            capture_output=True,
            text=True,
            env=environment,
            timeout=30,
        )

    def test_a_result_is_printed_as_json(self):
        done = self.run_module("get", '{"table":"stock","count":1,"columns":["item"]}')
        self.assertEqual(done.returncode, 0, done.stderr)
        result = json.loads(done.stdout)
        self.assertEqual(list(result["rows"][0]["values"]), ["item"])

    def test_an_error_exits_1_with_its_message(self):
        done = self.run_module("describe", '{"table":"nope"}')
        self.assertEqual(done.returncode, 1)
        self.assertIn("no_such_table", done.stderr)
        self.assertEqual(self.run_module("ping", "{not json").returncode, 64)

    def test_follow_prints_events(self):
        with Client(daemon.socket) as client:
            client.create(numbered("feed-follow", 1))
        follower = subprocess.Popen(
            [sys.executable, "-m", "datatable_client", "--follow", "feed-follow", "--count", "1"],
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, DATATABLED_SOCKET=daemon.socket, PYTHONPATH=PACKAGE_ROOT),
        )
        deadline = time.monotonic() + 10
        # Add rows until the follower (once subscribed) sees one.
        with Client(daemon.socket) as client:
            while follower.poll() is None and time.monotonic() < deadline:
                client.add(table="feed-follow", row={"n": 1})
                time.sleep(0.1)
        output, _ = follower.communicate(timeout=10)
        self.assertEqual(follower.returncode, 0)
        self.assertEqual(json.loads(output.splitlines()[0])["kind"], "added")

    def test_unreachable_exits_2(self):
        environment = dict(os.environ, DATATABLED_SOCKET="/nonexistent/d.sock", PYTHONPATH=PACKAGE_ROOT)
        done = subprocess.run(
            [sys.executable, "-m", "datatable_client", "ping"], capture_output=True, text=True, env=environment
        )
        self.assertEqual(done.returncode, 2)


if __name__ == "__main__":
    unittest.main()

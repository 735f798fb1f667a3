"""Tables attached to a real PostgreSQL (Debian's, a cluster made with initdb in a scratch
directory and started here): attach, edits through the daemon made in PostgreSQL first, changes
made in psql reaching the daemon's subscribers and watched windows, refusals that change nothing
on either side, PostgreSQL stopped and started, and two daemons on one relation.

Needs the debug build (swift build), socat, and Debian's postgresql (scripts/install-dependencies
--for-tests installs it)."""

import glob
import json
import os
import pathlib
import pwd
import select
import shutil
import socket
import subprocess
import tempfile
import time
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = ROOT / ".build" / "debug"
PG_BIN = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), None)
IN_CI = bool(os.environ.get("CI"))
MISSING = None if PG_BIN and os.path.exists(os.path.join(PG_BIN, "initdb")) else "PostgreSQL is not installed"

SCHEMA = """
CREATE TABLE parts (
  id integer PRIMARY KEY,
  item text NOT NULL,
  qty integer CHECK (qty >= 0),
  price numeric(10,2),
  received date,
  checked timestamptz,
  lead interval,
  ok boolean,
  code varchar(8)
);
INSERT INTO parts VALUES
  (1, 'Bolt', 10, 0.25, '2024-05-01', '2024-05-01 10:00:00+00', '2 hours', true, 'B-1'),
  (2, 'Nut', 200, 0.05, '2024-05-02', '2024-05-02 12:30:00+00', '30 minutes', false, 'N-2'),
  (3, 'Washer', 50, 0.02, NULL, NULL, NULL, NULL, NULL);
"""


def as_postgres():
    """The command prefix that runs a PostgreSQL program as a user it accepts (not root)."""
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


class Connection:
    """One connection to a daemon: requests answered in order, notifications kept apart."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX)
        self.socket.connect(path)
        self.buffer = b""
        self.notifications = []
        self.next_id = 1

    def close(self):
        self.socket.close()

    def _line(self, timeout):
        deadline = time.time() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.socket], [], [], left)[0]:
                return None
            chunk = self.socket.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, method, **params):
        """The reply to `method` (its whole message: `result` or `error`)."""
        request_id = self.next_id
        self.next_id += 1
        self.socket.sendall((json.dumps({"id": request_id, "method": method, "params": params}) + "\n").encode())
        while True:
            message = self._line(30)
            if message is None:
                raise AssertionError(f"no reply to {method}")
            if message.get("id") == request_id:
                return message
            self.notifications.append(message)

    def notification(self, method, where=lambda params: True, timeout=10):
        """The first notification `method` whose params satisfy `where`, waiting up to `timeout`."""
        deadline = time.time() + timeout
        while True:
            for index, message in enumerate(self.notifications):
                if message.get("method") == method and where(message["params"]):
                    return self.notifications.pop(index)["params"]
            left = deadline - time.time()
            if left <= 0:
                raise AssertionError(f"no {method} notification: {self.notifications}")
            message = self._line(left)
            if message is not None:
                self.notifications.append(message)


@unittest.skipIf(MISSING and not IN_CI, MISSING or "")
class PostgresSourceTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if MISSING:
            raise RuntimeError(MISSING)
        cls.scratch = tempfile.mkdtemp(prefix="dt-test-pg-")
        os.chmod(cls.scratch, 0o755)
        cls.data = os.path.join(cls.scratch, "data")
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            os.chown(cls.scratch, postgres.pw_uid, postgres.pw_gid)
        subprocess.run(
            as_postgres() + [f"{PG_BIN}/initdb", "-D", cls.data, "--auth=trust", "-U", "postgres"],
            check=True, capture_output=True,
        )
        cls.start_postgres()
        cls.psql("CREATE DATABASE stock", database="postgres")
        cls.psql(SCHEMA)
        trigger = subprocess.run(
            [str(BIN / "datatable"), "source", "trigger", "public.parts", "--key", "id"],
            check=True, capture_output=True, text=True,
        ).stdout
        cls.psql(trigger)
        cls.daemons = []
        cls.sock = cls.start_daemon("a")

    @classmethod
    def start_postgres(cls):
        subprocess.run(
            as_postgres() + [f"{PG_BIN}/pg_ctl", "-D", cls.data, "-w", "-l", os.path.join(cls.scratch, "log"),
                             "-o", f"-k {cls.scratch} -c listen_addresses=''", "start"],
            check=True, capture_output=True,
        )

    @classmethod
    def stop_postgres(cls):
        subprocess.run(as_postgres() + [f"{PG_BIN}/pg_ctl", "-D", cls.data, "-w", "-m", "fast", "stop"],
                       check=True, capture_output=True)

    @classmethod
    def psql(cls, sql, database="stock"):
        """What psql prints for `sql` (unaligned, tuples only)."""
        return subprocess.run(
            ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", cls.scratch, "-U", "postgres",
             "-d", database, "-c", sql],
            check=True, capture_output=True, text=True,
        ).stdout.strip()

    @classmethod
    def start_daemon(cls, name, state_dir=None):
        path = os.path.join(cls.scratch, f"{name}.sock")
        kept = ["--state-dir", state_dir] if state_dir else []
        process = subprocess.Popen(
            [str(BIN / "datatabled"), "--socket", path, "--source", f"pg=postgresql://postgres@/stock?host={cls.scratch}"]
            + kept,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        cls.daemons.append(process)
        deadline = time.time() + 30
        while not os.path.exists(path):
            if time.time() > deadline:
                raise RuntimeError("the daemon did not start")
            time.sleep(0.05)
        return path

    @classmethod
    def tearDownClass(cls):
        for process in getattr(cls, "daemons", []):
            process.terminate()
            process.wait(timeout=10)
        try:
            cls.stop_postgres()
        except Exception:
            pass
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def connect(self, path=None):
        connection = Connection(path or self.sock)
        self.addCleanup(connection.close)
        return connection

    def attach(self, connection, table, **params):
        reply = connection.call("attach", table=table, source="pg", **params)
        self.assertIn("result", reply, reply)
        self.addCleanup(self.drop, table)
        return reply["result"]

    def drop(self, table):
        connection = Connection(self.sock)
        connection.call("drop", table=table)
        connection.close()

    # -- Attaching ----------------------------------------------------------------------------

    def test_attach_maps_the_relations_columns_and_reads_its_rows(self):
        daemon = self.connect()
        attached = self.attach(daemon, "parts_read", relation="parts")
        self.assertEqual(attached["key"], "id")
        self.assertFalse(attached["readOnly"])
        types = {c["key"]: (c["type"], c["sourceType"]) for c in attached["columns"]}
        self.assertEqual(types["qty"], ("number", "integer"))
        self.assertEqual(types["price"], ("number", "numeric(10,2)"))
        self.assertEqual(types["received"], ("date", "date"))
        self.assertEqual(types["checked"], ("datetime", "timestamp with time zone"))
        self.assertEqual(types["lead"], ("duration", "interval"))
        self.assertEqual(types["ok"], ("boolean", "boolean"))
        self.assertEqual(types["code"], ("text", "character varying(8)"))
        described = {c["key"]: c for c in daemon.call("describe", table="parts_read")["result"]["columns"]}
        self.assertTrue(described["item"].get("required"))  # NOT NULL
        self.assertEqual(described["code"].get("maxLength"), 8)
        self.assertEqual(described["price"].get("decimals"), 2)
        rows = {r["id"]: r["values"] for r in daemon.call("get", table="parts_read", count=100)["result"]["rows"]}
        count = int(self.psql("SELECT count(*) FROM parts"))
        self.assertEqual(len(rows), count)
        bolt = rows[1]
        self.assertEqual(bolt["item"], "Bolt")
        self.assertEqual(bolt["price"], 0.25)
        self.assertEqual(bolt["received"], "2024-05-01")
        self.assertEqual(bolt["checked"], "2024-05-01T10:00:00Z")
        self.assertEqual(bolt["lead"], 7200)
        self.assertIs(bolt["ok"], True)

    def test_text_with_commas_quotes_and_line_breaks_and_no_value_reads_back_exactly(self):
        self.psql(
            "CREATE TABLE notes (id integer PRIMARY KEY, body text, flag boolean);"
            "INSERT INTO notes VALUES (1, 'a,b', true), (2, 'say \"hi\"', false), (3, E'two\\nlines', NULL),"
            " (4, '', NULL), (5, NULL, NULL)"
        )
        self.addCleanup(self.psql, "DROP TABLE notes")
        daemon = self.connect()
        self.attach(daemon, "notes", relation="notes")
        rows = {r["id"]: r["values"] for r in daemon.call("get", table="notes", count=10)["result"]["rows"]}
        # An empty text is no value in a daemon's text column, as in a CSV it loads.
        self.assertEqual([rows[i].get("body") for i in range(1, 6)], ["a,b", 'say "hi"', "two\nlines", None, None])
        self.assertEqual([rows[i].get("flag") for i in range(1, 4)], [True, False, None])

    def test_a_large_relation_is_read_whole_and_once_in_pieces_of_its_pages(self):
        # About 20 MB: more than one piece of pages, read on connections of their own.
        self.psql(
            "CREATE TABLE big (id integer PRIMARY KEY, filler text);"
            "INSERT INTO big SELECT i, repeat('x', 100) || i FROM generate_series(1, 150000) i"
        )
        self.addCleanup(self.psql, "DROP TABLE big")
        pages = int(self.psql("SELECT pg_relation_size('big') / current_setting('block_size')::int"))
        self.assertGreater(pages, 2048)
        daemon = self.connect()
        attached = self.attach(daemon, "big", relation="big")
        self.assertEqual(attached["rows"], 150000)
        # Every row once, in the relation's order, each with its own values.
        exported = daemon.call("export", table="big")["result"]["text"].splitlines()
        self.assertEqual(exported[0], "id,filler")
        self.assertEqual(exported[1:], [f"{i},{'x' * 100}{i}" for i in range(1, 150001)])

    def test_a_client_names_only_a_configured_source_and_never_a_url(self):
        daemon = self.connect()
        for source in ("nope", "postgresql://postgres@/stock?host=/tmp"):
            reply = daemon.call("attach", table="x", source=source, relation="parts")
            self.assertEqual(reply["error"]["data"]["kind"], "invalid_value", reply)
            self.assertEqual(reply["error"]["data"]["field"], "params.source")
        self.assertEqual(daemon.call("hello")["result"]["sources"], ["pg"])
        reply = daemon.call("attach", table="x", source="pg", relation="no_such_relation")
        self.assertEqual(reply["error"]["data"]["kind"], "invalid_value")
        self.assertNotIn("x", [t["name"] for t in daemon.call("tables")["result"]["tables"]])

    def test_sources_come_from_a_file_of_them_too(self):
        listed = os.path.join(self.scratch, "sources")
        with open(listed, "w") as file:
            file.write(f"# the stock database\n\nstock=postgresql://postgres@/stock?host={self.scratch}\n")
        path = os.path.join(self.scratch, "from-file.sock")
        process = subprocess.Popen([str(BIN / "datatabled"), "--socket", path, "--sources-file", listed],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.daemons.append(process)
        deadline = time.time() + 30
        while not os.path.exists(path):
            self.assertLess(time.time(), deadline, "the daemon did not start")
            self.assertIsNone(process.poll(), "the daemon stopped")
            time.sleep(0.05)
        daemon = Connection(path)
        self.addCleanup(daemon.close)
        self.assertEqual(daemon.call("hello")["result"]["sources"], ["stock"])
        reply = daemon.call("attach", table="from_file", source="stock", relation="parts")
        self.assertEqual(reply["result"]["rows"], int(self.psql("SELECT count(*) FROM parts")), reply)
        # A line that is not a source stops the start, saying which.
        with open(listed, "a") as file:
            file.write("not a source\n")
        failed = subprocess.run([str(BIN / "datatabled"), "--socket", path + "2", "--sources-file", listed],
                                capture_output=True, text=True, timeout=30)
        self.assertNotEqual(failed.returncode, 0)
        self.assertIn("NAME=URL", failed.stderr)

    def test_a_query_is_attached_read_only(self):
        daemon = self.connect()
        attached = self.attach(daemon, "cheap", query="SELECT id, item, price FROM parts WHERE price < 0.1", key="id")
        self.assertTrue(attached["readOnly"])
        self.assertEqual(attached["rows"], int(self.psql("SELECT count(*) FROM parts WHERE price < 0.1")))
        reply = daemon.call("edit", table="cheap", id=2, column="item", value="Changed")
        self.assertIn("error", reply)
        self.assertEqual(self.psql("SELECT item FROM parts WHERE id = 2"), "Nut")

    def test_protocol_md_examples_that_need_a_source_run_as_written(self):
        document = (ROOT / "protocol.md").read_text().split("\n")
        marker = next(i for i, line in enumerate(document) if line.startswith("<!-- needs a source:"))
        start = next(i for i in range(marker, len(document)) if document[i].startswith("```"))
        end = next(i for i in range(start + 1, len(document)) if document[i].startswith("```"))
        examples = []
        for line in document[start + 1:end]:
            if line.startswith("→ "):
                examples.append((json.loads(line[2:]), []))
            elif line.startswith("← "):
                examples[-1][1].append(json.loads(line[2:]))
        self.assertGreaterEqual(len(examples), 4)
        daemon = self.connect()
        for request, shown in examples:
            reply = daemon.call(request["method"], **request["params"])
            expected = shown[-1]
            if "error" in expected:
                self.assertEqual(reply.get("error", {}).get("data", {}).get("kind"), expected["error"]["data"]["kind"],
                                 (request, reply))
            else:
                self.assertEqual(set(reply.get("result", {})), set(expected["result"]), (request, reply))

    def test_the_client_readmes_lines_that_need_a_source_run_as_written(self):
        readme = (ROOT / "clients" / "README.md").read_text()
        section = next(part for part in readme.split("\n## ") if part.startswith("With a source"))
        lines = [line for line in section.split("\n") if "| socat - UNIX-CONNECT:$SOCK" in line]
        self.assertEqual(len(lines), 2)
        self.addCleanup(self.drop, "parts")
        before = self.psql("SELECT qty FROM parts WHERE id = 1")
        self.addCleanup(self.psql, f"UPDATE parts SET qty = {before} WHERE id = 1")
        for line in lines:
            output = subprocess.run(["bash", "-c", line], env={**os.environ, "SOCK": self.sock},
                                    capture_output=True, text=True, check=True).stdout
            self.assertNotIn('"error"', output, line)
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 1"), "12")

    # -- Both ways ------------------------------------------------------------------------------

    def test_edits_go_to_postgresql_first_and_psql_changes_reach_the_daemon(self):
        daemon = self.connect()
        self.attach(daemon, "parts_live", relation="parts")
        watcher = self.connect()
        self.assertIn("result", watcher.call("subscribe", table="parts_live"))
        window = watcher.call("watch", table="parts_live", viewport={"width": 800, "height": 400})["result"]
        qty = [c["key"] for c in window["columns"]].index("qty")

        # An edit through the daemon is in PostgreSQL when the reply comes.
        self.assertIn("result", daemon.call("edit", table="parts_live", id=1, column="qty", value=11))
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 1"), "11")
        watcher.notification("event", lambda p: p["kind"] == "edited" and 1 in p["ids"])

        # An UPDATE in psql: an event and a window delta in the daemon.
        self.psql("UPDATE parts SET qty = 77 WHERE id = 2")
        event = watcher.notification("event", lambda p: p["kind"] == "edited" and 2 in p["ids"])
        self.assertEqual(event["columns"], ["qty"])
        delta = watcher.notification(
            "window", lambda p: any(c["id"] == 2 and "qty" in c.get("cells", {}) for c in p.get("changed", []))
        )
        self.assertEqual(next(c for c in delta["changed"] if c["id"] == 2)["cells"]["qty"], "77")
        self.assertEqual(qty >= 0, True)

        # An INSERT and a DELETE in psql.
        self.psql("INSERT INTO parts (id, item, qty) VALUES (40, 'Gear', 4)")
        watcher.notification("event", lambda p: p["kind"] == "added" and 40 in p["ids"])
        self.psql("DELETE FROM parts WHERE id = 40")
        watcher.notification("event", lambda p: p["kind"] == "deleted" and 40 in p["ids"])

        # add and delete through the daemon.
        added = daemon.call("add", table="parts_live", row={"id": 41, "item": "Spring", "lead": "1h 30m"})
        self.assertIn("result", added, added)
        self.assertEqual(self.psql("SELECT item, lead FROM parts WHERE id = 41"), "Spring|01:30:00")
        self.assertIn("result", daemon.call("delete", table="parts_live", ids=[41]))
        self.assertEqual(self.psql("SELECT count(*) FROM parts WHERE id = 41"), "0")

    def test_a_statement_that_changes_many_rows_reaches_the_daemon_whole(self):
        self.psql(
            "CREATE TABLE bulk (id integer PRIMARY KEY, qty integer);"
            "INSERT INTO bulk SELECT i, 0 FROM generate_series(1, 12000) i"
        )
        self.addCleanup(self.psql, "DROP TABLE bulk")
        trigger = subprocess.run(
            [str(BIN / "datatable"), "source", "trigger", "public.bulk", "--key", "id"],
            check=True, capture_output=True, text=True,
        ).stdout
        self.psql(trigger)
        daemon = self.connect()
        self.attach(daemon, "bulk", relation="bulk")

        def rows():
            text = daemon.call("export", table="bulk")["result"]["text"]
            return [tuple(int(v) for v in line.split(",")) for line in text.splitlines()[1:]]

        def until(expected, what):
            deadline = time.time() + 20
            while rows() != expected:
                if time.time() > deadline:
                    self.fail(f"the daemon's table did not follow {what}")
                time.sleep(0.1)

        # 5000 keys: listed over several notifications, read back together.
        self.psql("UPDATE bulk SET qty = 1 WHERE id <= 5000")
        until([(i, 1 if i <= 5000 else 0) for i in range(1, 12001)], "an UPDATE of 5000 rows")
        # More rows than a statement lists: every row read again.
        self.psql("UPDATE bulk SET qty = id % 7")
        until([(i, i % 7) for i in range(1, 12001)], "an UPDATE of every row")
        self.psql("DELETE FROM bulk WHERE id > 10")
        until([(i, i % 7) for i in range(1, 11)], "a DELETE of most rows")
        self.psql("TRUNCATE bulk")
        until([], "a TRUNCATE")
        self.psql("INSERT INTO bulk VALUES (1, 5), (2, 6)")
        until([(1, 5), (2, 6)], "an INSERT after the TRUNCATE")

    def test_undo_and_redo_are_written_back_as_new_changes(self):
        daemon = self.connect()
        self.attach(daemon, "parts_undo", relation="parts")
        before = self.psql("SELECT qty FROM parts WHERE id = 3")
        self.addCleanup(self.psql, f"UPDATE parts SET qty = {before} WHERE id = 3")
        self.assertIn("result", daemon.call("edit", table="parts_undo", id=3, column="qty", value=5))
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "5")
        undone = daemon.call("undo", table="parts_undo")
        self.assertEqual(undone["result"]["cells"][0]["value"], int(before), undone)
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), before)
        self.assertIn("result", daemon.call("redo", table="parts_undo"))
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "5")

        # A row deleted and put back: inserted again in PostgreSQL with its values.
        self.assertIn("result", daemon.call("add", table="parts_undo", row={"id": 50, "item": "Pin", "qty": 3}))
        self.addCleanup(self.psql, "DELETE FROM parts WHERE id = 50")
        self.assertIn("result", daemon.call("delete", table="parts_undo", ids=[50]))
        self.assertEqual(self.psql("SELECT count(*) FROM parts WHERE id = 50"), "0")
        self.assertIn("result", daemon.call("undo", table="parts_undo"))
        self.assertEqual(self.psql("SELECT item, qty FROM parts WHERE id = 50"), "Pin|3")
        # The add taken back: deleted in PostgreSQL.
        self.assertIn("result", daemon.call("undo", table="parts_undo"))
        self.assertEqual(self.psql("SELECT count(*) FROM parts WHERE id = 50"), "0")

        # An undo PostgreSQL refuses changes nothing, and stays to take.
        self.assertIn("result", daemon.call("edit", table="parts_undo", id=3, column="qty", value=7))
        self.psql("ALTER TABLE parts ADD CONSTRAINT parts_qty_not_5 CHECK (qty <> 5) NOT VALID")
        self.addCleanup(self.psql, "ALTER TABLE parts DROP CONSTRAINT IF EXISTS parts_qty_not_5")
        refused = daemon.call("undo", table="parts_undo")
        self.assertEqual(refused["error"]["data"]["kind"], "source_refused", refused)
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "7")
        row = daemon.call("get", table="parts_undo", ids=[3])["result"]["rows"][0]
        self.assertEqual(row["values"]["qty"], 7)
        self.psql("ALTER TABLE parts DROP CONSTRAINT parts_qty_not_5")
        self.assertIn("result", daemon.call("undo", table="parts_undo"))
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "5")

    def test_a_refusal_by_postgresql_changes_nothing_on_either_side(self):
        daemon = self.connect()
        self.attach(daemon, "parts_refused", relation="parts")
        before = daemon.call("get", table="parts_refused", ids=[3])["result"]
        reply = daemon.call("edit", table="parts_refused", id=3, column="qty", value=-1)
        self.assertEqual(reply["error"]["data"]["kind"], "source_refused", reply)
        self.assertIn("parts_qty_check", reply["error"]["message"])
        # The cell refused: its row and column.
        self.assertEqual((reply["error"]["data"]["id"], reply["error"]["data"]["column"]), (3, "qty"))
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "50")
        after = daemon.call("get", table="parts_refused", ids=[3])["result"]
        self.assertEqual(after["version"], before["version"])
        self.assertEqual(after["rows"], before["rows"])
        # A key PostgreSQL has already: refused, nothing added.
        reply = daemon.call("add", table="parts_refused", row={"id": 1, "item": "Twin"})
        self.assertIn("error", reply)
        # The daemon's own rules refuse before PostgreSQL is asked: a draft, as in any table.
        reply = daemon.call("edit", table="parts_refused", id=3, column="item", value="")
        self.assertEqual(reply["error"]["data"]["kind"], "invalid_value")
        self.assertEqual(self.psql("SELECT item FROM parts WHERE id = 3"), "Washer")

    def test_postgresql_stopped_refuses_changes_and_started_again_takes_them(self):
        daemon = self.connect()
        self.attach(daemon, "parts_fault", relation="parts")
        listener = self.connect()
        listener.call("subscribe", table="parts_fault", events=["source", "edited"])
        self.assertFalse(daemon.call("describe", table="parts_fault")["result"]["source"]["stale"])
        self.stop_postgres()
        try:
            # The daemon says the table may be behind, in an event and in describe.
            event = listener.notification("event", lambda p: p["kind"] == "source", timeout=20)
            self.assertIs(event["stale"], True)
            described = daemon.call("describe", table="parts_fault")["result"]["source"]
            self.assertEqual(described, {"name": "pg", "relation": "public.parts", "stale": True})
            source = daemon.call("stats")["result"]["sources"][0]
            self.assertEqual((source["name"], source["stale"]), ("pg", True))
            self.assertGreaterEqual(source["tables"], 1)
            reply = daemon.call("edit", table="parts_fault", id=3, column="qty", value=51)
            self.assertEqual(reply["error"]["data"]["kind"], "source_unavailable", reply)
            # Still readable, and unchanged.
            rows = {r["id"]: r for r in daemon.call("get", table="parts_fault", count=100)["result"]["rows"]}
            self.assertEqual(rows[3]["values"]["qty"], 50)
        finally:
            self.start_postgres()
        deadline = time.time() + 20
        while True:
            reply = daemon.call("edit", table="parts_fault", id=3, column="qty", value=52)
            if "result" in reply or time.time() > deadline:
                break
            time.sleep(0.2)
        self.assertIn("result", reply, reply)
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "52")
        event = listener.notification("event", lambda p: p["kind"] == "source", timeout=20)
        self.assertIs(event["stale"], False)
        self.assertFalse(daemon.call("describe", table="parts_fault")["result"]["source"]["stale"])
        self.assertFalse(daemon.call("stats")["result"]["sources"][0]["stale"])

        # A change made while the daemon cannot hear (its listening connection ended) is read
        # when it listens again.
        self.psql("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
        self.psql("UPDATE parts SET qty = 60 WHERE id = 3")
        deadline = time.time() + 20
        while time.time() < deadline:
            rows = {r["id"]: r for r in daemon.call("get", table="parts_fault", count=100)["result"]["rows"]}
            if rows[3]["values"]["qty"] == 60:
                break
            time.sleep(0.1)
        self.assertEqual(rows[3]["values"]["qty"], 60)
        # The daemon hears psql's changes again.
        watcher = self.connect()
        watcher.call("subscribe", table="parts_fault")
        deadline = time.time() + 20
        heard = False
        while not heard and time.time() < deadline:
            self.psql("UPDATE parts SET qty = qty + 1 WHERE id = 3")
            try:
                watcher.notification("event", lambda p: p["kind"] == "edited" and 3 in p["ids"], timeout=1)
                heard = True
            except AssertionError:
                pass
        self.assertTrue(heard, "no change heard after PostgreSQL came back")
        self.psql("UPDATE parts SET qty = 50 WHERE id = 3")

    def test_an_attached_table_is_attached_again_after_a_restart(self):
        state = os.path.join(self.scratch, "kept")
        path = self.start_daemon("kept", state_dir=state)

        def restart():
            process = self.daemons.pop()
            process.terminate()
            process.wait(timeout=10)
            if os.path.exists(path):
                os.unlink(path)
            self.start_daemon("kept", state_dir=state)

        def shown(connection):
            return {t["name"]: t for t in connection.call("tables")["result"]["tables"]}

        def attached(connection, deadline=30):
            end = time.time() + deadline
            while "parts_kept" not in shown(connection):
                if time.time() > end:
                    self.fail("the attached table did not come back")
                time.sleep(0.1)

        daemon = Connection(path)
        reply = daemon.call("attach", table="parts_kept", source="pg", relation="parts")
        self.assertIn("result", reply, reply)
        self.assertIn("result", daemon.call("chmod", table="parts_kept", mode="0640"))
        daemon.close()
        before = self.psql("SELECT qty FROM parts WHERE id = 3")
        self.addCleanup(self.psql, f"UPDATE parts SET qty = {before} WHERE id = 3")

        # Changed in PostgreSQL while the daemon is down: the table comes back as PostgreSQL has it.
        process = self.daemons.pop()
        process.terminate()
        process.wait(timeout=10)
        self.psql("UPDATE parts SET qty = 61 WHERE id = 3")
        self.start_daemon("kept", state_dir=state)
        daemon = Connection(path)
        self.addCleanup(daemon.close)
        attached(daemon)
        row = daemon.call("get", table="parts_kept", ids=[3])["result"]["rows"][0]
        self.assertEqual(row["values"]["qty"], 61)
        described = daemon.call("describe", table="parts_kept")["result"]
        self.assertEqual(described["source"]["relation"], "public.parts")
        self.assertEqual(shown(daemon)["parts_kept"]["mode"], "0640")
        # Written through as before the restart.
        self.assertIn("result", daemon.call("edit", table="parts_kept", id=3, column="qty", value=62))
        self.assertEqual(self.psql("SELECT qty FROM parts WHERE id = 3"), "62")

        # PostgreSQL stopped across the restart: the table comes back once it answers again.
        daemon.close()
        self.stop_postgres()
        try:
            restart()
            daemon = Connection(path)
            self.addCleanup(daemon.close)
            self.assertNotIn("parts_kept", shown(daemon))
            self.assertEqual(daemon.call("stats")["result"]["sources"][0]["waiting"], ["parts_kept"])
        finally:
            self.start_postgres()
        attached(daemon)
        row = daemon.call("get", table="parts_kept", ids=[3])["result"]["rows"][0]
        self.assertEqual(row["values"]["qty"], 62)

        # Dropped: not attached again.
        self.assertIn("result", daemon.call("drop", table="parts_kept"))
        daemon.close()
        restart()
        daemon = Connection(path)
        self.addCleanup(daemon.close)
        time.sleep(1)
        self.assertNotIn("parts_kept", shown(daemon))

    def test_two_daemons_on_one_relation_see_each_others_edits(self):
        other_sock = self.start_daemon("b")
        one = self.connect()
        other = self.connect(other_sock)
        self.attach(one, "shared", relation="parts")
        reply = other.call("attach", table="shared", source="pg", relation="parts")
        self.assertIn("result", reply, reply)
        other.call("subscribe", table="shared")
        sent = time.time()
        self.assertIn("result", one.call("edit", table="shared", id=2, column="code", value="X-2"))
        other.notification("event", lambda p: p["kind"] == "edited" and 2 in p["ids"])
        print(f"\none daemon's edit seen by the other in {1000 * (time.time() - sent):.1f} ms", flush=True)
        got = other.call("get", table="shared", ids=[2])["result"]["rows"][0]["values"]["code"]
        self.assertEqual(got, "X-2")
        one.call("subscribe", table="shared")
        self.assertIn("result", other.call("edit", table="shared", id=2, column="code", value="N-2"))
        one.notification("event", lambda p: p["kind"] == "edited" and 2 in p["ids"])
        self.assertEqual(one.call("get", table="shared", ids=[2])["result"]["rows"][0]["values"]["code"], "N-2")


if __name__ == "__main__":
    unittest.main()

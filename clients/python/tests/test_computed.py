"""Computed columns against an independent reference: every operator and function of the
expression language worked out here, in Python (decimal, datetime, math), on random rows with
empty cells, and compared with what the daemon gives for the same rows.

Run: python3 -m unittest discover -s clients/python/tests
"""

import datetime
import decimal
import math
import os
import random
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from test_client import DAEMON, Client, Daemon  # noqa: E402

EPOCH = datetime.date(1970, 1, 1)


def setUpModule():
    global daemon
    if not os.access(DAEMON, os.X_OK):
        raise unittest.SkipTest("no daemon binary at %s: build it first (swift build)" % DAEMON)
    daemon = Daemon()


def tearDownModule():
    daemon.stop()


# Empty values follow SQL's NULL: None in, None out, unless the function says otherwise.
def strict(function):
    def wrapped(*values):
        if any(value is None for value in values):
            return None
        return function(*values)
    return wrapped


def text_or_none(text):
    return text if text else None


def plain(value):
    """A value in its plain written form, as `&` and text() write it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def round_half_away(number, places=0):
    quantum = decimal.Decimal(1).scaleb(-places)
    return float(decimal.Decimal(repr(number)).quantize(quantum, rounding=decimal.ROUND_HALF_UP))


def duration_of(seconds):
    """A duration made from a number of seconds: whole seconds, half away from zero; a
    duration column holds none below 0."""
    whole = int(decimal.Decimal(repr(seconds)).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))
    return whole if whole >= 0 else None


def logic_and(a, b):
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def logic_or(a, b):
    if a is True or b is True:
        return True
    if a is None or b is None:
        return None
    return False


def substr(text, start, length=None):
    first = max(1, start)
    end = math.inf if length is None else start + length
    if length is not None and length < 0 or end <= first:
        return None
    stop = None if end == math.inf else int(end) - 1
    return text_or_none(text[int(first) - 1:stop])


def number_in(text):
    stripped = text.strip()
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", stripped):
        return float(stripped)
    return None


def iso_instant(milliseconds):
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=milliseconds)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if milliseconds % 1000:
        text += ".%03d" % (milliseconds % 1000)
    return text + "Z"


def day_of(milliseconds):
    return EPOCH + datetime.timedelta(days=milliseconds // 86_400_000)


def make_date(year, month, day):
    try:
        return datetime.date(int(year), int(month), int(day))
    except ValueError:
        return None


# Each: the expression, and the same worked out from a row (a dict of Python values).
CASES = [
    ("a + b", lambda r: strict(lambda a, b: a + b)(r["a"], r["b"])),
    ("a - b * 2", lambda r: strict(lambda a, b: a - b * 2)(r["a"], r["b"])),
    ("a * b", lambda r: strict(lambda a, b: a * b)(r["a"], r["b"])),
    ("a / b", lambda r: strict(lambda a, b: a / b if b != 0 else None)(r["a"], r["b"])),
    ("a % b", lambda r: strict(lambda a, b: math.fmod(a, b) if b != 0 else None)(r["a"], r["b"])),
    ("-a", lambda r: strict(lambda a: -a)(r["a"])),
    ("abs(b)", lambda r: strict(abs)(r["b"])),
    ("round(a, 1)", lambda r: strict(lambda a: round_half_away(a, 1))(r["a"])),
    ("round(b)", lambda r: strict(lambda b: round_half_away(b, 0))(r["b"])),
    ("round(a * 10, -1)", lambda r: strict(lambda a: round_half_away(a * 10, -1))(r["a"])),
    ("floor(a)", lambda r: strict(lambda a: float(math.floor(a)))(r["a"])),
    ("ceil(b)", lambda r: strict(lambda b: float(math.ceil(b)))(r["b"])),
    ("min(a, b, 3)", lambda r: min(v for v in (r["a"], r["b"], 3.0) if v is not None)),
    ("max(a, b)", lambda r: max([v for v in (r["a"], r["b"]) if v is not None], default=None)),
    ("a < b", lambda r: strict(lambda a, b: a < b)(r["a"], r["b"])),
    ("a >= b", lambda r: strict(lambda a, b: a >= b)(r["a"], r["b"])),
    ("a = b", lambda r: strict(lambda a, b: a == b)(r["a"], r["b"])),
    ("t = u", lambda r: strict(lambda t, u: t == u)(r["t"], r["u"])),
    ("t <> u", lambda r: strict(lambda t, u: t != u)(r["t"], r["u"])),
    ("d <= e", lambda r: strict(lambda d, e: d <= e)(r["d"], r["e"])),
    ("a > 1 and b > 1", lambda r: logic_and(strict(lambda a: a > 1)(r["a"]), strict(lambda b: b > 1)(r["b"]))),
    ("a > 1 or flag", lambda r: logic_or(strict(lambda a: a > 1)(r["a"]), r["flag"])),
    ("not (a > b)", lambda r: strict(lambda a, b: not a > b)(r["a"], r["b"])),
    ("len(t)", lambda r: strict(lambda t: float(len(t)))(r["t"])),
    ("upper(t)", lambda r: strict(lambda t: text_or_none(t.upper()))(r["t"])),
    ("lower(t)", lambda r: strict(lambda t: text_or_none(t.lower()))(r["t"])),
    ("trim(t)", lambda r: strict(lambda t: text_or_none(t.strip()))(r["t"])),
    ("left(t, 3)", lambda r: strict(lambda t: text_or_none(t[:3]))(r["t"])),
    ("right(t, 2)", lambda r: strict(lambda t: text_or_none(t[-2:]))(r["t"])),
    ("substr(t, 2, 3)", lambda r: strict(lambda t: substr(t, 2, 3))(r["t"])),
    ("substr(t, 0, 3)", lambda r: strict(lambda t: substr(t, 0, 3))(r["t"])),
    ("substr(t, 3)", lambda r: strict(lambda t: substr(t, 3))(r["t"])),
    ("contains(t, 'a')", lambda r: strict(lambda t: "a" in t)(r["t"])),
    ("startsWith(t, u)", lambda r: strict(lambda t, u: t.startswith(u))(r["t"], r["u"])),
    ("replace(t, 'a', 'XY')", lambda r: strict(lambda t: text_or_none(t.replace("a", "XY")))(r["t"])),
    ("replace(t, 'a', '')", lambda r: strict(lambda t: text_or_none(t.replace("a", "")))(r["t"])),
    ("concat(t, '-', a)", lambda r: plain(r["t"]) + "-" + plain(r["a"])),
    ("t & u", lambda r: text_or_none(plain(r["t"]) + plain(r["u"]))),
    ("text(a)", lambda r: text_or_none(plain(r["a"]))),
    ("text(d) & ' ' & text(flag)", lambda r: plain(r["d"]) + " " + plain(r["flag"])),
    ("number(u)", lambda r: strict(number_in)(r["u"])),
    ("year(d)", lambda r: strict(lambda d: float(d.year))(r["d"])),
    ("month(d)", lambda r: strict(lambda d: float(d.month))(r["d"])),
    ("day(e)", lambda r: strict(lambda e: float(e.day))(r["e"])),
    ("weekday(d)", lambda r: strict(lambda d: float(d.isoweekday()))(r["d"])),
    ("d - e", lambda r: strict(lambda d, e: float((d - e).days))(r["d"], r["e"])),
    ("d + du", lambda r: strict(lambda d, du: d + datetime.timedelta(days=du // 86400))(r["d"], r["du"])),
    ("e - du", lambda r: strict(lambda e, du: e - datetime.timedelta(days=du // 86400))(r["e"], r["du"])),
    ("date(dt)", lambda r: strict(day_of)(r["dt"])),
    ("year(dt) * 100 + month(dt)", lambda r: strict(lambda dt: float(day_of(dt).year * 100 + day_of(dt).month))(r["dt"])),
    ("dt + du", lambda r: strict(lambda dt, du: iso_instant(dt + du * 1000))(r["dt"], r["du"])),
    ("days(du)", lambda r: strict(lambda du: du / 86400)(r["du"])),
    ("hours(du)", lambda r: strict(lambda du: du / 3600)(r["du"])),
    ("days(b)", lambda r: strict(lambda b: duration_of(b * 86400))(r["b"])),
    ("du * 2 + hours(a)", lambda r: strict(lambda du, a: duration_of(du * 2 + duration_of_any(a * 3600)))(r["du"], r["a"])),
    ("date(2024, a, 1)", lambda r: strict(lambda a: make_date(2024, a, 1))(r["a"])),
    ("coalesce(a, b, 0)", lambda r: next(v for v in (r["a"], r["b"], 0.0) if v is not None)),
    ("isEmpty(t)", lambda r: r["t"] is None),
    ("if(flag, a, b)", lambda r: r["a"] if r["flag"] is True else r["b"]),
    ("if(a > b, 'x')", lambda r: "x" if strict(lambda a, b: a > b)(r["a"], r["b"]) is True else None),
    (
        "case when a > 5 then 'big' when a > 2 then 'mid' else 'small' end",
        lambda r: "small" if r["a"] is None else "big" if r["a"] > 5 else "mid" if r["a"] > 2 else "small",
    ),
    (
        "case t when 'apple' then 1 when ' pear ' then 2 end",
        lambda r: {"apple": 1.0, " pear ": 2.0}.get(r["t"]),
    ),
    ("[Second number] + `a`", lambda r: strict(lambda a, b: a + b)(r["a"], r["b"])),
]


def duration_of_any(seconds):
    """An intermediate duration (may be below 0): whole seconds, half away from zero."""
    return int(decimal.Decimal(repr(seconds)).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


WORDS = ["apple", " pear ", "Banana", "a", "kiwi fruit", "Ärger", "café", "東京", "straße", "aaa", "x\ty", "12", " 7 "]
NUMBER_TEXTS = ["12", " 7 ", "x", "1e3", "-2.5", "+4", "0.25", ""]


class ComputedColumnReferenceTests(unittest.TestCase):
    ROWS = 300

    def setUp(self):
        self.client = Client(daemon.socket, timeout=60)

    def tearDown(self):
        self.client.close()

    def random_rows(self, chooser):
        rows = []
        for _ in range(self.ROWS):
            def maybe(value):
                return None if chooser.random() < 0.15 else value
            rows.append({
                "a": maybe(chooser.choice([chooser.randrange(-20, 20), chooser.randrange(0, 1000) / 8,
                                           round(chooser.uniform(-50, 50), 3), 0, 2.675, 1.005, 0.5, -2.5])),
                "b": maybe(chooser.choice([chooser.randrange(-5, 6), round(chooser.uniform(-9, 9), 2), 0, 0.25, 1.5])),
                "t": maybe(chooser.choice(WORDS)),
                "u": maybe(chooser.choice(WORDS + NUMBER_TEXTS)),
                "d": maybe(EPOCH + datetime.timedelta(days=chooser.randrange(10_000, 22_000))),
                "e": maybe(EPOCH + datetime.timedelta(days=chooser.randrange(10_000, 22_000))),
                "dt": maybe(chooser.randrange(0, 2_000_000_000) * 1000 + chooser.choice([0, 0, 250, 999])),
                "du": maybe(chooser.randrange(0, 30 * 86400)),
                "flag": maybe(chooser.random() < 0.5),
            })
        for row in rows:
            # "" is no value.
            for key in ("t", "u"):
                if row[key] == "":
                    row[key] = None
        return rows

    @staticmethod
    def wire(row):
        values = {}
        for key, value in row.items():
            if value is None:
                continue
            if isinstance(value, datetime.date):
                values[key] = value.isoformat()
            elif key == "dt":
                values[key] = iso_instant(value)
            else:
                values[key] = value
        return values

    @staticmethod
    def expected_json(value):
        if isinstance(value, datetime.date):
            return value.isoformat()
        if isinstance(value, str) and not value:
            return None
        return value

    def test_every_operator_and_function_matches_the_reference(self):
        chooser = random.Random(2026)
        rows = self.random_rows(chooser)
        columns = [
            {"key": "a", "type": "number"},
            {"key": "b", "type": "number", "label": "Second number"},
            {"key": "t"},
            {"key": "u"},
            {"key": "d", "type": "date"},
            {"key": "e", "type": "date"},
            {"key": "dt", "type": "datetime"},
            {"key": "du", "type": "duration"},
            {"key": "flag", "type": "boolean"},
        ]
        self.client.call("create", {"table": "reference", "columns": columns, "rows": [self.wire(r) for r in rows]})
        added = [{"key": "c%d" % n, "expression": source} for n, (source, _) in enumerate(CASES)]
        self.client.call("alter", {"table": "reference", "add": added})
        got = self.client.call("get", {"table": "reference", "count": self.ROWS})["rows"]
        self.assertEqual(len(got), self.ROWS)
        mismatches = []
        for n, (source, reference) in enumerate(CASES):
            for row, reply in zip(rows, got):
                expected = self.expected_json(reference(row))
                actual = reply["values"].get("c%d" % n)
                if expected != actual or type(expected) is bool and type(actual) is not bool:
                    mismatches.append("%s on %r: expected %r, got %r" % (source, row, expected, actual))
        self.assertEqual(mismatches[:10], [], "%d mismatches" % len(mismatches))

    def test_values_follow_edits_of_the_cells_they_read(self):
        chooser = random.Random(7)
        rows = self.random_rows(chooser)[:40]
        self.client.call("create", {
            "table": "following",
            "columns": [{"key": "a", "type": "number"}, {"key": "b", "type": "number"}, {"key": "t"},
                        {"key": "sum", "expression": "coalesce(a, 0) + coalesce(b, 0)"},
                        {"key": "shown", "expression": "upper(t) & ':' & sum"}],
            "rows": [{"a": r["a"], "b": r["b"], "t": r["t"]} for r in rows],
        })
        for _ in range(100):
            row = chooser.randrange(len(rows))
            column = chooser.choice(["a", "b", "t"])
            value = None if chooser.random() < 0.2 else (
                chooser.choice(WORDS) if column == "t" else chooser.randrange(-100, 100) / 4)
            rows[row][column] = value
            self.client.call("edit", {"table": "following", "id": row + 1, "column": column, "value": value})
        got = self.client.call("get", {"table": "following", "count": len(rows)})["rows"]
        for row, reply in zip(rows, got):
            total = (row["a"] or 0) + (row["b"] or 0)
            self.assertEqual(reply["values"]["sum"], total)
            self.assertEqual(reply["values"]["shown"], (row["t"] or "").upper() + ":" + plain(float(total)))

    def test_view_order_functions_match_the_reference(self):
        """runningSum, runningCount, rank and percentOfTotal over a sorted, filtered view, worked
        out here from the rows the view shows, through edits and adds."""
        chooser = random.Random(31)
        rows = []
        for n in range(200):
            qty = None if chooser.random() < 0.1 else chooser.randrange(-40, 60)
            rows.append({"item": "i%d" % n, "qty": qty, "grade": chooser.choice(["A", "B", "C"])})
        self.client.call("create", {
            "table": "running",
            "columns": [{"key": "item"}, {"key": "qty", "type": "number"}, {"key": "grade"},
                        {"key": "run", "expression": "runningSum(qty)"},
                        {"key": "n", "expression": "runningCount()"},
                        {"key": "place", "expression": "rank()"},
                        {"key": "share", "expression": "percentOfTotal(qty)"}],
            "rows": [{k: v for k, v in r.items() if v is not None} for r in rows],
        })
        self.client.call("sort", {"table": "running", "keys": [{"column": "grade"},
                                                              {"column": "qty", "descending": True}]})
        self.client.call("filter", {"table": "running", "where": [{"column": "qty", "op": ">", "value": -20}]})

        def check():
            got = self.client.call("get", {"table": "running", "view": True, "count": 1000})["rows"]
            by_id = {reply["id"]: rows[reply["id"] - 1] for reply in got}
            shown = [r for r in rows if r["qty"] is not None and r["qty"] > -20]
            self.assertEqual(len(got), len(shown))
            # The view's order, worked out here: grade, then qty descending, then as added.
            order = sorted(range(len(rows)), key=lambda i: (rows[i]["grade"], -rows[i]["qty"] if rows[i]["qty"]
                                                            is not None else math.inf, i))
            expected_ids = [i + 1 for i in order if rows[i]["qty"] is not None and rows[i]["qty"] > -20]
            self.assertEqual([reply["id"] for reply in got], expected_ids)
            total = sum(r["qty"] for r in shown)
            running, place = 0, 1
            for position, reply in enumerate(got):
                row = by_id[reply["id"]]
                running += row["qty"]
                if position > 0:
                    before = by_id[got[position - 1]["id"]]
                    if (before["grade"], before["qty"]) != (row["grade"], row["qty"]):
                        place = position + 1
                values = reply["values"]
                self.assertEqual(values["run"], running)
                self.assertEqual(values["n"], position + 1)
                self.assertEqual(values["place"], place)
                if total == 0:
                    self.assertIsNone(values.get("share"))
                else:
                    self.assertTrue(math.isclose(values["share"], row["qty"] / total * 100, rel_tol=1e-12))

        check()
        for step in range(60):
            if step % 5 == 4:
                qty = chooser.randrange(-40, 60)
                rows.append({"item": "new%d" % step, "qty": qty, "grade": chooser.choice(["A", "B", "C"])})
                self.client.call("add", {"table": "running", "rows": [dict(rows[-1])]})
            else:
                row = chooser.randrange(len(rows))
                rows[row]["qty"] = chooser.randrange(-40, 60)
                self.client.call("edit", {"table": "running", "id": row + 1, "column": "qty",
                                          "value": rows[row]["qty"]})
            check()


if __name__ == "__main__":
    unittest.main()

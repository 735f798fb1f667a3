"""The column engines' figures for scripts/bench, on the benchmark's own CSV, in-process.

Usage: column_engines.py CSV  — prints one JSON object: {"duckdb": {...}, "polars": {...}} with
seconds per piece of work (and "memory", resident growth over the CSV's size), or "error" for an
engine that could not be imported. Each piece is the same work the benchmark asks of datatabled:
load; sort by a number and by text, then the 40 rows at 90%; filter by a range and two values,
then the count and the first 40; search every column for a word; group by one column with a
count and a sum; group by two columns with a sum, a mean, a count and a maximum, and a grand
total; a column's distinct values with counts, and those with a prefix; an edit of one cell,
then the 40 rows at 90% in number order (median of 20).
"""
import json
import os
import statistics
import sys
import time

CSV = sys.argv[1]
AT = 900_000


def resident():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def timed(work):
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def duckdb_figures():
    import duckdb

    db = duckdb.connect()
    before = resident()
    figures = {"version": duckdb.__version__}
    figures["load"] = timed(lambda: db.execute(f"CREATE TABLE t AS SELECT * FROM read_csv('{CSV}')"))
    figures["memory"] = (resident() - before) / os.path.getsize(CSV)
    rows = db.execute("SELECT count(*) FROM t").fetchone()[0]
    at = min(AT, rows - 40)
    q = lambda sql: (lambda: db.execute(sql).fetchall())
    figures["sortNumber"] = timed(q(f"SELECT * FROM t ORDER BY qty, sku LIMIT 40 OFFSET {at}"))
    figures["sortText"] = timed(q(f"SELECT * FROM t ORDER BY lower(item), sku LIMIT 40 OFFSET {at}"))
    where = "qty BETWEEN 100 AND 600 AND grade IN ('Low', 'High')"

    def filtered():
        db.execute(f"SELECT count(*) FROM t WHERE {where}").fetchall()
        db.execute(f"SELECT * FROM t WHERE {where} LIMIT 40").fetchall()

    figures["filter"] = timed(filtered)
    columns = [c[0] for c in db.execute("DESCRIBE t").fetchall()]
    anywhere = " OR ".join(f"CAST({c} AS VARCHAR) ILIKE '%widget 12%'" for c in columns)
    figures["search"] = timed(q(f"SELECT count(*) FROM t WHERE {anywhere}"))
    figures["group1"] = timed(q("SELECT grade, count(*), sum(qty) FROM t GROUP BY grade"))

    def grouped():
        db.execute(
            "SELECT rack, grade, sum(qty), avg(weight), count(*), max(qty) FROM t GROUP BY rack, grade"
        ).fetchall()
        db.execute("SELECT sum(qty), avg(weight), count(*), max(qty) FROM t").fetchall()

    figures["group2"] = timed(grouped)
    figures["distinct"] = timed(q("SELECT item, count(*) FROM t GROUP BY item ORDER BY item"))
    figures["distinctPrefix"] = timed(
        q("SELECT item, count(*) FROM t WHERE lower(item) LIKE 'widget 12%' GROUP BY item ORDER BY item")
    )
    edits = []
    for n in range(20):
        def edit():
            db.execute(f"UPDATE t SET qty = {n} WHERE sku = 'SKU-{n * 7919 % rows}'")
            db.execute(f"SELECT * FROM t ORDER BY qty, sku LIMIT 40 OFFSET {at}").fetchall()

        edits.append(timed(edit))
    figures["edit"] = statistics.median(edits)
    return figures


def polars_figures():
    import polars as pl

    figures = {"version": pl.__version__}
    before = resident()
    frame = {}
    figures["load"] = timed(lambda: frame.setdefault("t", pl.read_csv(CSV)))
    figures["memory"] = (resident() - before) / os.path.getsize(CSV)
    t = frame["t"]
    at = min(AT, t.height - 40)
    figures["sortNumber"] = timed(lambda: t.sort(["qty", "sku"]).slice(at, 40))
    figures["sortText"] = timed(lambda: t.sort([pl.col("item").str.to_lowercase(), "sku"]).slice(at, 40))
    where = pl.col("qty").is_between(100, 600) & pl.col("grade").is_in(["Low", "High"])

    def filtered():
        found = t.filter(where)
        return found.height, found.head(40)

    figures["filter"] = timed(filtered)
    anywhere = pl.any_horizontal(
        [pl.col(c).cast(pl.String).str.to_lowercase().str.contains("widget 12", literal=True) for c in t.columns]
    )
    figures["search"] = timed(lambda: t.filter(anywhere).height)
    figures["group1"] = timed(lambda: t.group_by("grade").agg(pl.len(), pl.col("qty").sum()))

    def grouped():
        sums = [
            pl.col("qty").sum().alias("qty_sum"),
            pl.col("weight").mean().alias("weight_avg"),
            pl.len(),
            pl.col("qty").max().alias("qty_max"),
        ]
        t.group_by(["rack", "grade"]).agg(sums)
        t.select(sums)

    figures["group2"] = timed(grouped)
    figures["distinct"] = timed(lambda: t["item"].value_counts().sort("item"))
    figures["distinctPrefix"] = timed(
        lambda: t.filter(pl.col("item").str.to_lowercase().str.starts_with("widget 12"))["item"]
        .value_counts()
        .sort("item")
    )
    edits = []
    for n in range(20):
        def edit():
            frame["t"] = frame["t"].with_columns(
                pl.when(pl.col("sku") == f"SKU-{n * 7919 % t.height}").then(n).otherwise(pl.col("qty")).alias("qty")
            )
            frame["t"].sort(["qty", "sku"]).slice(at, 40)

        edits.append(timed(edit))
    figures["edit"] = statistics.median(edits)
    return figures


result = {}
for name, measure in (("duckdb", duckdb_figures), ("polars", polars_figures)):
    try:
        result[name] = measure()
    except Exception as error:  # an engine that cannot be had: said, and the run goes on
        result[name] = {"error": f"{type(error).__name__}: {error}"}
print(json.dumps(result))

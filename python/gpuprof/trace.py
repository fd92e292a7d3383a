"""The analysis side of gpuprof in Python: a trace's tables as pandas
DataFrames (docs/python.md).

    import gpuprof
    t = gpuprof.load("trace.json.gz")      # or gpuprof.load_job("run/")
    t.kernels().groupby("name", observed=True).dur_ns.sum().nlargest(10)

load() runs the gpuprof CLI (``gpuprof export -f sqlite``, docs/export-
sqlite.md) into a SQLite file and each method reads one of its tables:
the numbers are the CLI's own.  No compiled extension: the CLI, sqlite3
and pandas.  This module imports with the standard library only; pandas
is imported when a Trace is made, so annotated code (the rest of the
package) runs without it.

The CLI is found through $GPUPROF, then next to this package
(../../build/gpuprof in a source tree, PREFIX/bin/gpuprof when
installed), then PATH.

Columns are typed from the table's SQL types: INTEGER as int64 (nullable
Int64 where a value is NULL), REAL as float64, TEXT as category (the
findings' prose and the kernels' Python frames as str), the flags
(findings' notice, idle, one_time; kernels' tceligible) as bool.  Every
time is integer nanoseconds on the trace's clock (the *_ns columns),
every table has a rank column (0 for a single trace).
"""

import os
import shutil
import subprocess
import tempfile

__all__ = ["GpuprofError", "Trace", "load", "load_job", "find_cli"]


class GpuprofError(Exception):
    """The gpuprof CLI failed: message is its one-line error, returncode
    its exit code (docs/cli.md: 2 usage, 3 output, 4 input)."""

    def __init__(self, message, returncode=None):
        super().__init__(message)
        self.message = message
        self.returncode = returncode

    def __str__(self):
        if self.returncode is None:
            return self.message
        return "%s (exit %d)" % (self.message, self.returncode)


# Columns that hold 0/1 flags, and the TEXT columns kept as str (prose,
# nearly one value per row) rather than category.
_BOOL = {"findings": {"notice", "idle", "one_time"}, "kernels": {"tceligible"}}
_STR = {"findings": {"title", "evidence", "change", "overlaps"}, "kernels": {"trace"},
        "ranks": {"path"}}


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError("gpuprof.load needs pandas (Debian: apt install python3-pandas; "
                          "or pip install pandas); the rest of gpuprof works without it") from None
    return pandas


def find_cli():
    """The gpuprof CLI's path: $GPUPROF, then the source tree's
    build/gpuprof or PREFIX/bin/gpuprof next to this package, then PATH.
    Raises GpuprofError when none is found."""
    env = os.environ.get("GPUPROF")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in (("..", "..", "build", "gpuprof"),                 # source tree: python/gpuprof
                ("..", "..", "..", "..", "bin", "gpuprof")):      # PREFIX/lib/python3/dist-packages/gpuprof
        p = os.path.normpath(os.path.join(here, *rel))
        if os.access(p, os.X_OK):
            return p
    p = shutil.which("gpuprof")
    if p:
        return p
    raise GpuprofError("gpuprof CLI not found: set $GPUPROF, build it (make) or install it (make install)")


def _error_line(stderr):
    """The CLI's one-line error in stderr: its last "gpuprof: " line that is
    not a note or warning, else its last line."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    errs = [ln for ln in lines if ln.startswith("gpuprof") and ": note:" not in ln
            and ": warning:" not in ln]
    return (errs or lines or ["gpuprof failed"])[-1]


def _export(paths, db, args, cli):
    cmd = [cli or find_cli(), "export", "-f", "sqlite", "-o", db, "--force"] + list(args) + list(paths)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise GpuprofError(_error_line(p.stderr), p.returncode)


def load(path, db=None, args=(), cli=None, reuse=False):
    """Analyses the trace at path (a file; a directory, a glob or a list of
    files for a job's ranks, as load_job) with the gpuprof CLI and returns
    its Trace.

    db: where the SQLite export goes (kept; replaced if it exists, unless
    reuse=True and it exists, then it is opened as it is); by default a
    temporary file, removed by Trace.close() or when the Trace is
    collected.  args: more options of `gpuprof export` (e.g. ["--iters",
    "2:4"], docs/window.md).  cli: the gpuprof CLI (default find_cli()).
    Raises GpuprofError (the CLI's message and exit code) when the export
    fails, ImportError without pandas."""
    _pandas()
    paths = [os.fspath(p) for p in path] if isinstance(path, (list, tuple)) else [os.fspath(path)]
    if db is not None:
        db = os.fspath(db)
        if not (reuse and os.path.exists(db)):
            _export(paths, db, args, cli)
        return Trace(db)
    tmpdir = tempfile.mkdtemp(prefix="gpuprof-")
    dbp = os.path.join(tmpdir, "trace.db")
    try:
        _export(paths, dbp, args, cli)
    except BaseException:
        shutil.rmtree(tmpdir, ignore_errors=True)
        raise
    t = Trace(dbp)
    t._tmpdir = tmpdir
    return t


def load_job(path, db=None, args=(), cli=None, reuse=False):
    """A job's rank files in one Trace: path a directory, a glob or a list
    of files (docs/ranks.md); every table has their rank column.  As
    load()."""
    return load(path, db=db, args=args, cli=cli, reuse=reuse)


class Trace:
    """The tables of an export (`gpuprof export -f sqlite`, docs/export-
    sqlite.md) as DataFrames: Trace(db_path) opens an existing one, load()
    makes one.  Each method reads its table afresh (rank=R: that rank's
    rows only)."""

    def __init__(self, db_path):
        import sqlite3
        self._pd = _pandas()
        self._tmpdir = None
        if not os.path.exists(db_path):
            raise GpuprofError("%s: no such database" % db_path)
        self.db_path = db_path
        self.conn = sqlite3.connect("file:%s?mode=ro" % db_path, uri=True)
        self._facts = None

    # ---- lifetime ---------------------------------------------------------

    def close(self):
        """Closes the database; a temporary one (load() without db) is removed."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        ranks = self.ranks_list()
        if len(ranks) != 1:
            return "<gpuprof.Trace %s: %d ranks>" % (self.db_path, len(ranks))
        f = self.facts
        return "<gpuprof.Trace %s: %s, %s kernels, %s steps>" % (
            self.db_path, f.get("format"), f.get("kernels"), f.get("steps", 0))

    # ---- any table, any query ---------------------------------------------

    def tables(self):
        """The database's table names."""
        return [r[0] for r in self.conn.execute(
            "select name from sqlite_master where type = 'table' order by name")]

    def sql(self, query, params=()):
        """Any query's rows as a DataFrame (pandas' own types)."""
        return self._pd.read_sql_query(query, self.conn, params=params)

    def table(self, name, rank=None):
        """Table name as a typed DataFrame (the module's rules)."""
        if name not in self.tables():
            raise GpuprofError("%s: no table %s (tables: %s)" % (self.db_path, name, ", ".join(self.tables())))
        types = [(r[1], (r[2] or "").upper()) for r in self.conn.execute('pragma table_info("%s")' % name)]
        q = 'select * from "%s"' % name
        params = ()
        if rank is not None:
            q += " where rank = ?"
            params = (int(rank),)
        df = self._pd.read_sql_query(q + " order by rowid", self.conn, params=params)
        return self._typed(name, df, types)

    def _typed(self, name, df, types):
        pd = self._pd
        for col, typ in types:
            s = df[col]
            if col in _BOOL.get(name, ()):
                s = pd.to_numeric(s).astype("Int64")
                df[col] = s.astype("boolean") if s.isna().any() else s.astype(bool)
            elif typ == "INTEGER":
                df[col] = s.astype("Int64") if s.isna().any() else s.astype("int64")
            elif typ == "REAL":
                df[col] = pd.to_numeric(s, errors="coerce").astype("float64")
            elif typ == "TEXT":
                df[col] = s.astype(object) if col in _STR.get(name, ()) else s.astype("category")
        return df

    # ---- the tables -------------------------------------------------------

    def kernels(self, rank=None):
        """One row per kernel in start order: name, start_ns, end_ns,
        dur_ns, step, then report's columns (layer, op, flops, ...)."""
        return self.table("kernels", rank)

    def ops(self, rank=None):
        """`gpuprof ops`'s table by name (self/total CPU and GPU ns)."""
        return self.table("ops", rank)

    def layers(self, rank=None):
        """The kernels by layer path (`summary --by layer`): kernels, gpu_ns."""
        return self.table("layers", rank)

    def steps(self, rank=None):
        """The steps: step, start_ns, end_ns, dur_ns, gpu_ns."""
        return self.table("steps", rank)

    def breakdown(self, rank=None, wide=False):
        """`gpuprof breakdown`'s time view: rank, device, iter (<NA>: the
        whole trace), part, ns.  wide=True: one row per (rank, device,
        iter), a column per part."""
        df = self.table("breakdown", rank)
        if not wide:
            return df
        df = df.assign(iter=df["iter"].fillna(-1))
        w = df.pivot(index=["rank", "device", "iter"], columns="part", values="ns")
        w = w[list(df["part"].drop_duplicates())].reset_index()
        w["iter"] = w["iter"].astype("Int64").mask(w["iter"] == -1)
        w.columns.name = None
        return w

    def gaps(self, rank=None, causes=False):
        """Every idle gap with its main cause; causes=True: a column per
        cause with its ns (gap_causes), which add up to dur_ns."""
        df = self.table("gaps", rank)
        if not causes:
            return df
        gc = self.table("gap_causes", rank)
        wide = gc.pivot_table(index=["rank", "gap_id"], columns="cause", values="ns", aggfunc="sum",
                              fill_value=0, observed=True)
        wide.columns = ["cause_%s_ns" % c for c in wide.columns]
        df = df.merge(wide.reset_index(), on=["rank", "gap_id"], how="left")
        cols = [c for c in df.columns if c.startswith("cause_")]
        df[cols] = df[cols].fillna(0).astype("int64")
        return df

    def gap_causes(self, rank=None):
        return self.table("gap_causes", rank)

    def findings(self, rank=None):
        """`advise`'s findings in order: kind, saving_ns, alone_ns, ..."""
        return self.table("findings", rank)

    def collectives(self, rank=None):
        """The collectives (docs/comm.md): kind, start_ns, dur_ns, bytes, ..."""
        return self.table("collectives", rank)

    def comm_overlap(self, rank=None):
        """`breakdown --view comm`'s rows (docs/comm.md, "Overlap"): rank,
        scope ("device": one row per device with communication; "layer":
        one per layer and pass over every device), device (<NA> on layer
        rows), layer, pass (category, NaN when none), kernels, comm_ns,
        hidden_ns, exposed_ns (int64), sms_held (float, NaN when nothing is
        hidden), sm_count (Int64, <NA> when unknown or on layer rows)."""
        return self.table("comm_overlap", rank)

    def memory(self, rank=None):
        """The allocator events (docs/memory.md): ts_ns, device, bytes, ..."""
        return self.table("memory", rank)

    def copies(self, rank=None):
        return self.table("copies", rank)

    def critpath(self, rank=None):
        return self.table("critpath", rank)

    def devices(self, rank=None):
        return self.table("devices", rank)

    def ranks(self):
        """One row per rank file: path, kernels and the breakdown's sums."""
        return self.table("ranks")

    def ranks_list(self):
        """The ranks in the database, ascending."""
        return [r[0] for r in self.conn.execute("select distinct rank from ranks order by rank")]

    @property
    def facts(self):
        """The facts table: {key: value} for a single trace; for a job
        {rank: {key: value}}.  Values are int or str."""
        if self._facts is None:
            by = {}
            for rank, k, v in self.conn.execute("select rank, key, value from facts order by rowid"):
                by.setdefault(rank, {})[k] = v
            self._facts = next(iter(by.values())) if len(by) == 1 else by
        return self._facts

"""Capture past one machine: `jfi audit inventory --cluster ADDRESS` sends the views to the workers of a Dask
distributed cluster. Each task is a run of consecutive views captured by its worker's own Chromium (pages at once as
--workers says); records and screenshots stream back as tasks finish and are put in the views file's order, so
inventory.jsonl is, timings aside, the one a local run writes.

ADDRESS is a scheduler (`tcp://host:8786`, as `dask scheduler` prints) or `local:N`, a cluster of N worker processes
on this machine started for the run (one browser per process, as a real cluster has one per worker).
A served folder (--serve) must be readable at the same path on every worker (shared storage); URLs need nothing.
"""

from __future__ import annotations

import os
import re

from ..browser import run as run_browser
from ..errors import JfiError
from ..progress import Progress
from .browse import Options, _capture_all, describe
from .views import View

LOCAL = re.compile(r"^local:([0-9]{1,3})$")
# a scheduler jfi connects to: tcp://HOST:PORT (a name, an IPv4 address or a bracketed IPv6 address; ASCII only)
ADDRESS = re.compile(r"^tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))(?::([0-9]{1,5}))?$")
TASKS_PER_WORKER = 4  # runs of views per worker: enough to even out slow and fast views, few browser starts


def capture_views(views: list[View], opts: Options) -> tuple[list[dict], dict]:
    """What `_capture_all` returns — records in the views' order and the screenshots — captured on the workers."""
    records, shots = run_browser(_capture_all(views, opts, progress=False))
    return records, shots


def _client(address: str):
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - a dependency of jfi
        raise JfiError("no_dask", "--cluster needs Dask distributed (pip install distributed)", exit_code=2) from None
    if m := LOCAL.match(address):
        n = int(m.group(1))
        if not 1 <= n <= 64:
            raise JfiError("invalid_cluster", f"local:N takes 1 to 64 worker processes, got {n}", exit_code=3)
        cluster = LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
        )
        return Client(cluster), cluster
    m = ADDRESS.match(address)
    if not m or (m.group(2) and not 1 <= int(m.group(2)) <= 65535):
        raise JfiError(
            "invalid_cluster",
            f"--cluster takes a scheduler address tcp://HOST:PORT (as `dask scheduler` "
            f"prints it, e.g. tcp://10.0.0.5:8786) or local:N, got {address[:200]!r}",
            exit_code=3,
        )
    wait = os.environ.get("JFI_CLUSTER_TIMEOUT", "20")  # seconds to wait for the scheduler to answer
    if not re.fullmatch(r"[0-9]{1,4}(\.[0-9]+)?", wait) or not 0 < float(wait) <= 3600:
        raise JfiError(
            "invalid_cluster",
            f"JFI_CLUSTER_TIMEOUT takes seconds, more than 0 and at most 3600, got {wait[:40]!r}",
            field="JFI_CLUSTER_TIMEOUT",
            exit_code=3,
        )
    try:
        return Client(address, timeout=f"{float(wait)}s"), None
    except (OSError, TimeoutError) as e:
        raise JfiError("cluster_unreachable", f"no Dask scheduler answered at {address}: {e}", exit_code=2) from None


def runs_of(views: list[View], tasks: int) -> list[list[View]]:
    """Consecutive runs of views, `tasks` of them at most, as even as can be."""
    tasks = max(1, min(tasks, len(views)))
    size, extra = divmod(len(views), tasks)
    runs, start = [], 0
    for t in range(tasks):
        end = start + size + (t < extra)
        runs.append(views[start:end])
        start = end
    return runs


def capture_on_cluster(views: list[View], opts: Options, address: str) -> tuple[list[dict], dict]:
    from distributed import as_completed

    client, cluster = _client(address)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        runs = runs_of(views, workers * TASKS_PER_WORKER)
        progress = Progress(len(views) * len(opts.viewports), "views", "environment note(s)")
        futures = {client.submit(capture_views, run, opts, pure=False): i for i, run in enumerate(runs)}
        done: dict[int, list[dict]] = {}
        shots: dict[str, bytes] = {}
        for future in as_completed(futures):
            try:
                records, run_shots = future.result()
            except JfiError:
                raise
            except Exception as e:
                raise JfiError("cluster_failed", f"a worker's capture failed: {str(e).splitlines()[0][:200]}") from None
            done[futures[future]] = records
            shots.update(run_shots)
            for rec in records:
                progress.step(rec["inventory"] is not None, f"{rec['view_id']}: {describe(rec)}")
        return [rec for i in range(len(runs)) for rec in done[i]], shots
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

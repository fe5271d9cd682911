"""Datasets on Dask: a real LocalCluster makes the very bytes one process and two make."""

import pytest

from mazekit.dataset import build, info, job, load, verify

pytest.importorskip("pyarrow")
pytest.importorskip("dask.distributed")


def test_one_worker_two_workers_and_a_local_cluster_agree(tmp_path):
    cfg = job(count=45, algorithm="wilson,backtracker", shape=(6, 5), seed=21, shard_size=10)
    build(tmp_path / "one", cfg, workers=1, progress=False)
    build(tmp_path / "two", cfg, workers=2, progress=False)
    summary = build(tmp_path / "dask", cfg, workers=2, dask="local", progress=False)
    assert summary["made"] == 5
    manifests = [(tmp_path / d / "manifest.json").read_bytes() for d in ("one", "two", "dask")]
    assert manifests[0] == manifests[1] == manifests[2]
    for shard in info(tmp_path / "one")["shards"]:
        data = [(tmp_path / d / shard["file"]).read_bytes() for d in ("one", "two", "dask")]
        assert data[0] == data[1] == data[2] and shard["sha256"]
    assert verify(tmp_path / "dask", report=lambda s: None) == []
    assert len(load(tmp_path / "dask")) == 45


def test_unreachable_scheduler_is_one_clear_error(tmp_path):
    cfg = job(count=5, algorithm="prim", shape=(3, 3), seed=1)
    with pytest.raises(
        ConnectionError, match=r"cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 5 s"
    ):
        build(tmp_path / "ds", cfg, dask="tcp://127.0.0.1:9", progress=False)
    assert not (tmp_path / "ds").exists()  # nothing written before the scheduler answers
    with pytest.raises(ValueError, match="scheduler address such as tcp://HOST:8786"):
        build(tmp_path / "ds", cfg, dask="localhost", progress=False)

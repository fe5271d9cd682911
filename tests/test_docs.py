"""The generated docs match the code: docs/algorithms.md is rebuilt (untimed) and compared."""

import sys
from pathlib import Path

DOCS = Path(__file__).parent.parent / "docs"


def test_algorithms_page_matches_the_code():
    sys.path.insert(0, str(DOCS))
    try:
        import make_algorithms
    finally:
        sys.path.remove(str(DOCS))
    committed = (DOCS / "algorithms.md").read_text(encoding="utf-8")
    fresh = make_algorithms.page(timed=False, pictures=False)
    assert make_algorithms.untimed(fresh) == make_algorithms.untimed(committed), (
        "docs/algorithms.md is stale: run python docs/build.py make_algorithms"
    )
    # the check sees what it must: a changed number or a new row makes the pages differ
    assert make_algorithms.untimed(committed.replace("10.2%", "10.3%", 1)) != make_algorithms.untimed(
        committed
    )
    from mazekit.generate import GENERATORS

    assert all(f"| `{name}` |" in committed for name in GENERATORS)

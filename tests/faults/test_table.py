"""The fault table of docs/faults.md is the one the fault tests make."""

from __future__ import annotations

from . import table


def test_every_area_has_faults():
    faults = table.collect()
    assert {f.area for f in faults} >= {"save", "device", "kiosk"}
    assert len({f.fault for f in faults}) == len(faults), "two rows name the same fault"


def test_the_pages_table_is_up_to_date():
    shown = table.in_page(table.PAGE.read_text(encoding="utf-8"))
    assert shown is not None, "docs/faults.md has no fault table markers"
    assert shown == table.render(table.collect()), (
        "docs/faults.md's fault table is stale: python -m tests.faults.table --write")


def test_every_row_names_a_test_that_exists():
    import importlib

    for f in table.collect():
        module, name = f.test.rsplit("::", 1)
        assert callable(getattr(importlib.import_module(module), name))

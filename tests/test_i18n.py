"""The catalogues: complete, consistent with the code, compiled up to date; and no text is
handed to the screen without going through clans_pi.i18n."""

from __future__ import annotations

import ast
import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from clans_pi import i18n
from clans_pi.ui import fonts
from clans_pi.ui.canvas import missing_glyphs

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "clans_pi" / "locale"
TRANSLATED = [code for code in i18n.LANGUAGES if code != "en"]
PLURALS = {"de": 2, "fr": 2, "it": 2, "ja": 1}
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def po(code: str) -> Catalog:
    with open(LOCALE / code / "LC_MESSAGES" / "clans_pi.po", "rb") as f:
        return read_po(f, locale=code)


def pot() -> Catalog:
    with open(LOCALE / "clans_pi.pot", "rb") as f:
        return read_po(f)


def ids(catalog: Catalog) -> set[object]:
    return {m.id for m in catalog if m.id}


def test_the_template_equals_a_fresh_extraction_of_the_code():
    """Run `scripts/catalogues extract` after changing any shown text (and translate it)."""
    fresh = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / "clans_pi", method_map=[("**.py", "python")], keywords=KEYWORDS):
        fresh.add(message if isinstance(message, str) else tuple(message))
    stored = ids(pot())
    assert not fresh - stored, f"not in clans_pi.pot yet: {sorted(map(str, fresh - stored))}"
    assert not stored - fresh, f"no longer in the code: {sorted(map(str, stored - fresh))}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(code):
    catalog = po(code)
    assert ids(catalog) == ids(pot()), "run scripts/catalogues extract"
    assert catalog.num_plurals == PLURALS[code]
    assert not catalog.obsolete
    for m in catalog:
        if not m.id:
            continue
        assert not m.fuzzy, f"{code}: fuzzy: {m.id!r}"
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert len(forms) == (PLURALS[code] if isinstance(m.id, tuple) else 1), m.id
        assert all(forms), f"{code}: untranslated: {m.id!r}"


def only_one(catalog: Catalog) -> set[int]:
    """The plural forms of ``catalog`` that no count but 1 takes (among counts from 1)."""
    pick = gettext.c2py(catalog.plural_expr)
    counts: dict[int, set[int]] = {}
    for n in range(1, 1000):
        counts.setdefault(pick(n), set()).add(n)
    return {form for form, ns in counts.items() if ns == {1}}


@pytest.mark.parametrize("code", TRANSLATED)
def test_placeholders_are_the_same_in_every_translation(code):
    """The same placeholders everywhere; only the English singular and a form that no count
    but 1 takes may leave out the count's ("the computer move after it", not "the 1 ...")."""
    catalog = po(code)
    singular = only_one(catalog)
    for m in catalog:
        if not m.id:
            continue
        source = m.id if isinstance(m.id, tuple) else (m.id,)
        want = set(PLACEHOLDER.findall(source[-1]))
        assert set(PLACEHOLDER.findall(source[-1])) == want, m.id
        assert set(PLACEHOLDER.findall(source[0])) in (want, want - {"n"}), m.id
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for k, form in enumerate(forms):
            have = set(PLACEHOLDER.findall(form))
            fine = {frozenset(want)}
            if isinstance(m.id, tuple) and k in singular:
                fine.add(frozenset(want - {"n"}))
            assert frozenset(have) in fine, f"{code}: {m.id!r} -> {form!r}"
            form.format(**dict.fromkeys(want, "x"))  # no stray braces


def test_only_the_singular_forms_may_leave_out_the_count():
    assert only_one(po("de")) == {0} and only_one(po("fr")) == {0}
    assert only_one(po("ja")) == set()  # one form for every count: the count always written


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_is_up_to_date(code):
    """scripts/_venv.sh (./scripts/test, ./scripts/play) compiles a .po newer than its .mo."""
    mo = LOCALE / code / "LC_MESSAGES" / "clans_pi.mo"
    assert mo.is_file(), f"{mo} missing: scripts/catalogues compile"
    out = io.BytesIO()
    write_mo(out, po(code))
    assert mo.read_bytes() == out.getvalue(), f"{mo} is older than its .po"


@pytest.mark.parametrize("code", ["de", "fr", "it"])
def test_the_bundled_font_draws_every_letter_of_the_latin_languages(code):
    text = "".join(s for m in po(code) if m.id
                   for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    assert not missing_glyphs(text), code


def test_the_japanese_font_draws_every_japanese_message():
    path = fonts.cjk_font()
    assert path is not None, "the dev extra's noto-cjk-sans-jp-regular was not found"
    text = "".join(s for m in po("ja") if m.id
                   for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    assert not missing_glyphs(text, path)
    assert missing_glyphs("日本語")  # the bundled font would draw boxes: the check can tell


def test_japanese_names_a_clan_with_one_word():
    """種族 everywhere (the clans' pieces, the charts' titles), never also 氏族."""
    found = [m.id for m in po("ja") if m.id
             for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if "氏族" in s]
    assert not found, f"氏族 where the catalogue says 種族: {found}"


# -------------------------------------------------------------- text without _() on screen

#: Calls whose text argument is shown: (name, position of the text, keyword).
SHOWN = {"text": (0, None), "paragraph": (0, None), "say": (0, None), "notify": (0, None),
         "_say": (0, None), "_float_text": (1, None), "Button": (2, "label"),
         "Dialog": (0, "title")}


def _literal_words(node: ast.AST) -> str | None:
    """The letters a literal (or f-string) would put on screen untranslated, if any."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if re.search(r"[^\W\d_]{2,}", node.value) else None
    if isinstance(node, ast.JoinedStr):
        parts = "".join(v.value for v in node.values
                        if isinstance(v, ast.Constant) and isinstance(v.value, str))
        return parts if re.search(r"[^\W\d_]{2,}", parts) else None
    if isinstance(node, ast.IfExp):
        return _literal_words(node.body) or _literal_words(node.orelse)
    if isinstance(node, ast.BinOp):
        return _literal_words(node.left) or _literal_words(node.right)
    return None


def untranslated_literals(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in SHOWN:
            continue
        pos, key = SHOWN[name]
        args = node.args[pos:pos + 1] + [k.value for k in node.keywords if k.arg == key]
        for arg in args:
            words = _literal_words(arg)
            if words:
                found.append(f"line {node.lineno}: {name}({words!r})")
    return found


def test_no_screen_is_given_a_literal_without_translation():
    """Literal text passed to Canvas.text/paragraph, a notice, a toast, a button or a dialog
    must be wrapped in _() (a literal there would never be extracted nor translated)."""
    problems = []
    for path in sorted((ROOT / "clans_pi" / "ui").rglob("*.py")):
        problems += [f"{path.relative_to(ROOT)}: {p}"
                     for p in untranslated_literals(path.read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)


def test_the_literal_check_finds_what_it_is_for():
    found = untranslated_literals(
        'canvas.text("Hello there", box, 12, c)\n'
        'canvas.text(f"{name} wins", box, 12, c)\n'
        'Button("ok", r, "Go on", act)\n'
        'Button("ok", r, label="Go" + " on")\n'
        'self.say("wait" if x else _("no"))\n'
        'canvas.text(_("Hello there"), box, 12, c)\n'
        'canvas.text(str(n), box, 12, c)\n'
        'canvas.text(f"+{bonus}", box, 12, c)\n'
        'canvas.text("?", box, 12, c)\n')
    assert [f.split(":")[0] for f in found] == ["line 1", "line 2", "line 3", "line 4",
                                                 "line 5"]

"""The flags view is made from the rows of `audit_flag_rules`: each row's SQL condition over its type's
facts view becomes one branch of `audit_flags`. The rules stay data; this only assembles them."""
from __future__ import annotations

FLAGS_VIEW_MEANING = "one row per flag that fired on an occurrence, from the rules in audit_flag_rules"


# Types whose facts say whether the browser exposes the element: there, hidden means inapplicable.
EXPOSED_TYPES = ("heading", "link", "image", "field")


def flag_view_sql(rules: list[tuple]) -> str:
    """One branch per rule; a non-informational flag never fires on an element the browser does not expose."""
    branches = [
        f"SELECT type, product, pos, i, unit_key, ({flag_name}) AS flag, {ord_} AS ord, {flag!r} AS rule "
        f"FROM audit_{typ}_facts WHERE ({condition})"
        + (" AND exposed IS NOT FALSE" if typ in EXPOSED_TYPES and not informational else "")
        for ord_, flag, typ, condition, flag_name, informational in rules
    ]
    return "CREATE OR REPLACE VIEW audit_flags AS\n" + "\nUNION ALL\n".join(branches)


def create_flag_view(con) -> None:
    rules = con.execute("SELECT ord, flag, type, condition, flag_name, informational FROM audit_flag_rules "
                        "ORDER BY ord").fetchall()
    con.execute(flag_view_sql(rules))
    con.execute(f"COMMENT ON VIEW audit_flags IS '{FLAGS_VIEW_MEANING}'")
    for col, meaning in {"type": "unit type", "product": "product", "pos": "position of the view",
                         "i": "element index in the page", "unit_key": "dedupe key of the unit the occurrence belongs to",
                         "flag": "the flag's name", "ord": "the rule's order", "rule": "the rule's id"}.items():
        con.execute(f"COMMENT ON COLUMN audit_flags.{col} IS '{meaning.replace(chr(39), chr(39) * 2)}'")

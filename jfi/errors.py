"""The one error type a user's mistake becomes: a code, a message, and where it happened."""

from __future__ import annotations


class JfiError(Exception):
    """A refused operation. Exit status 2 unless stated (3 for usage errors, 1 for nothing to do)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        field: str | None = None,
        exit_code: int = 2,
        problems: list | None = None,
    ):
        super().__init__(message)
        self.code, self.message = code, message
        self.source, self.line, self.field, self.exit_code = source, line, field, exit_code
        self.problems = (
            problems or []
        )  # what lies behind the refusal: violation rows {source, line, field, code, message} or lines

    def render(self) -> str:
        """The refusal as people read it: a line per problem behind it, then its own line."""
        return "\n".join(
            [
                *(
                    v
                    if isinstance(v, str)
                    else format_location(v["source"], v["line"], v["field"], v["code"], v["message"])
                    for v in self.problems
                ),
                format_location(self.source, self.line, self.field, self.code, self.message),
            ]
        )


def refuse(violations: list[dict], code: str, summary: str) -> None:
    """Refuse with `<count> <summary>` when there is any violation row ({source, line, field, code, message}); the
    rows travel on the error (`problems`) for the caller to show."""
    if violations:
        raise JfiError(code, f"{len(violations)} {summary}", problems=violations)


MESSAGE_MAX = 300  # characters of a message; a value a user sent may be megabytes long


def clip(text, limit: int) -> str:
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def format_location(source, line, field, code, message) -> str:
    """`file:line: field: code: message`, leaving out the parts that are unknown; long parts are clipped."""
    message, field = _one_line(clip(message, MESSAGE_MAX)), _one_line(clip(field, 80)) if field else field
    source = _one_line(str(source)) if source else source
    where = ""
    if source:
        where = f"{source}:{line}: " if line else f"{source}: "
    return f"{where}{field + ': ' if field else ''}{code}: {message}"


def _one_line(text: str) -> str:
    """A message part on one line: a line break a value brought along is shown as \\n."""
    return text.replace("\r", "\\r").replace("\n", "\\n")

"""Judges run from jfi: drafts from a model endpoint (the OpenAI-compatible chat completions protocol), checked
against the judged-line contract, cached by the bytes of each request. A component like capture: it talks to the
network and meets the audit only through files (judge-kit/<batch>/ in; batches/<batch>.judged.jsonl and
spot-checks.jsonl out, all or nothing); it never decides what a row is."""

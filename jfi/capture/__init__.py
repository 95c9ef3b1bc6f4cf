"""Capture: everything that drives the browser (views, routing, names from the accessibility tree, the page script,
tabs, shards, a cluster, manifests made elsewhere). It writes an audit folder's inventory and never imports the
audit: the two meet through the content-inventory/v1 files (jfi.manifest)."""

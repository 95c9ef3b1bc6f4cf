-- audit_inventory_structure: the typed shape of one view's inventory (a json_transform structure): every field a later rule reads, with `ax` (what Chromium exposes: computed name, its source, role, exposed) `frame` (the iframe an element sits in) and `box` (where it is drawn, CSS pixels of the page) on headings, links, images and fields
-- audit_inventory_file: an inventory.jsonl file read by DuckDB's JSON reader, one row per line in raw_inventory's shape (line numbers are given by the loader)
-- raw_inventory: one row per record line of the inventory: the top-level fields as JSON values (their types are checked by audit_inventory_violations) and the view's inventory typed by audit_inventory_structure
--   source: inventory file path
--   line: 1-based line number
--   record: the record kind (absent or "view" for a view, "run" for the run header)
--   view_id: view id
--   product: product the view belongs to
--   url: the URL that was asked for
--   final_url: the URL the browser ended on
--   nav_error: the environment note, when the view could not be captured
--   stayed_on_route_host: whether the browser stayed on the asked-for host
--   viewport: the viewport the view was captured at (its id)
--   axe: axe-core's results on the view, typed by audit_axe_structure (NULL when axe did not run)
--   inventory: the view's inventory, typed (NULL when absent or not an object)
CREATE OR REPLACE MACRO audit_inventory_structure() AS '{
    "error": "JSON",
    "meta": {"title": "VARCHAR", "h1": ["VARCHAR"], "h1_count": "INTEGER", "meta_description": "VARCHAR"},
    "headings": [{"i": "INTEGER", "level": "INTEGER", "text": "VARCHAR", "name_source": "VARCHAR",
        "selector": "VARCHAR",
        "visible": "BOOLEAN", "aria_hidden": "BOOLEAN", "landmark": "VARCHAR", "section_preview": "VARCHAR",
        "ax": {"name": "VARCHAR", "name_source": "VARCHAR", "role": "VARCHAR", "exposed": "BOOLEAN"},
            "frame": "VARCHAR", "box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"},
            "undrawn": "BOOLEAN", "clipped": "BOOLEAN", "revealed": {"shot": "INTEGER", "box": {"x": "INTEGER",
            "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"}}}],
    "links": [{"i": "INTEGER", "name": "VARCHAR", "name_source": "VARCHAR", "text": "VARCHAR", "title": "VARCHAR",
        "href": "VARCHAR", "href_raw": "VARCHAR", "same_page": "BOOLEAN", "external": "BOOLEAN", "target": "VARCHAR",
        "download": "BOOLEAN", "file_ext": "VARCHAR", "has_img": "BOOLEAN", "img_alt": "VARCHAR",
            "icon_only": "BOOLEAN",
        "empty_name": "BOOLEAN", "visible": "BOOLEAN", "aria_hidden": "BOOLEAN", "landmark": "VARCHAR",
        "selector": "VARCHAR", "context": "VARCHAR",
        "ax": {"name": "VARCHAR", "name_source": "VARCHAR", "role": "VARCHAR", "exposed": "BOOLEAN"},
            "frame": "VARCHAR", "box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"},
            "undrawn": "BOOLEAN", "clipped": "BOOLEAN", "revealed": {"shot": "INTEGER", "box": {"x": "INTEGER",
            "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"}},
        "permalink": "BOOLEAN"}],
    "images": [{"i": "INTEGER", "tag": "VARCHAR", "src": "VARCHAR", "src_basename": "VARCHAR", "alt": "VARCHAR",
        "alt_present": "BOOLEAN", "alt_empty": "BOOLEAN", "role": "VARCHAR", "aria_label": "VARCHAR",
        "aria_labelledby_text": "VARCHAR", "aria_hidden": "BOOLEAN", "title": "VARCHAR", "svg_title": "VARCHAR",
        "in_control": {"tag": "VARCHAR", "name": "VARCHAR", "href": "VARCHAR", "control_has_text": "BOOLEAN"},
        "figcaption": "VARCHAR", "width": "INTEGER", "height": "INTEGER", "visible": "BOOLEAN", "landmark": "VARCHAR",
        "selector": "VARCHAR", "adjacent_text": "VARCHAR",
        "ax": {"name": "VARCHAR", "name_source": "VARCHAR", "role": "VARCHAR", "exposed": "BOOLEAN"},
            "frame": "VARCHAR", "box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"},
            "undrawn": "BOOLEAN", "clipped": "BOOLEAN", "revealed": {"shot": "INTEGER", "box": {"x": "INTEGER",
            "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"}},
        "not_applicable": "VARCHAR"}],
    "fields": [{"i": "INTEGER", "type": "VARCHAR", "name_attr": "VARCHAR", "id": "VARCHAR", "label": "VARCHAR",
        "label_source": "VARCHAR", "placeholder": "VARCHAR", "required": "BOOLEAN", "describedby_text": "VARCHAR",
        "fieldset_legend": "VARCHAR", "visible": "BOOLEAN", "landmark": "VARCHAR", "selector": "VARCHAR",
        "ax": {"name": "VARCHAR", "name_source": "VARCHAR", "role": "VARCHAR", "exposed": "BOOLEAN"},
            "frame": "VARCHAR", "box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"},
            "undrawn": "BOOLEAN", "clipped": "BOOLEAN", "revealed": {"shot": "INTEGER", "box": {"x": "INTEGER",
            "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"}},
        "label_box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"}}],
    "navs": [{"role": "VARCHAR", "label": "VARCHAR", "items": [{"name": "VARCHAR", "href": "VARCHAR",
        "tag": "VARCHAR"}]}],
    "counts": {"headings": "INTEGER", "links": "INTEGER", "links_total": "INTEGER", "images": "INTEGER",
        "images_total": "INTEGER", "fields": "INTEGER"},
    "capped": {"headings": "BOOLEAN", "links": "BOOLEAN", "images": "BOOLEAN", "fields": "BOOLEAN", "navs": "BOOLEAN"}
}';

CREATE OR REPLACE MACRO audit_axe_structure() AS '{"engine": "VARCHAR", "error": "VARCHAR", "nodes_total": "INTEGER",
    "capped": "BOOLEAN", "options": {"type": "VARCHAR", "values": ["VARCHAR"]}, "results": [{"rule": "VARCHAR",
        "outcome": "VARCHAR", "impact": "VARCHAR", "tags": ["VARCHAR"],
    "help": "VARCHAR", "help_url": "VARCHAR", "nodes": [{"target": "JSON", "html": "VARCHAR", "summary": "VARCHAR",
    "impact": "VARCHAR", "box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER", "height": "INTEGER"},
    "revealed": {"shot": "INTEGER", "box": {"x": "INTEGER", "y": "INTEGER", "width": "INTEGER",
        "height": "INTEGER"}}}]}]}';

CREATE OR REPLACE MACRO audit_inventory_file(path) AS TABLE
SELECT path AS source, CAST(NULL AS INTEGER) AS line, record, view_id, product, url, final_url, nav_error,
    stayed_on_route_host, viewport, axe, inventory
FROM read_json(path, format = 'newline_delimited', records = 'true', columns = {
    'record': 'JSON', 'view_id': 'JSON', 'product': 'JSON', 'url': 'JSON', 'final_url': 'JSON', 'nav_error': 'JSON',
    'stayed_on_route_host': 'JSON', 'viewport': 'JSON', 'axe': typeof(json_transform('{}', audit_axe_structure())),
        'inventory': typeof(json_transform('{}', audit_inventory_structure()))});

CREATE TABLE IF NOT EXISTS raw_inventory AS
SELECT CAST(NULL AS VARCHAR) AS source, CAST(NULL AS INTEGER) AS line, CAST(NULL AS JSON) AS record,
    CAST(NULL AS JSON) AS view_id, CAST(NULL AS JSON) AS product, CAST(NULL AS JSON) AS url,
    CAST(NULL AS JSON) AS final_url, CAST(NULL AS JSON) AS nav_error, CAST(NULL AS JSON) AS stayed_on_route_host,
    CAST(NULL AS JSON) AS viewport, json_transform('{}', audit_axe_structure()) AS axe, json_transform('{}',
        audit_inventory_structure()) AS inventory
LIMIT 0;

-- raw_inventory_lines: the inventory lines read one by one with exact numbers (when DuckDB's JSON reader did not take the file whole), added to raw_inventory in its shape: every object line, its inventory typed by audit_inventory_structure
INSERT INTO raw_inventory
SELECT source, line, doc -> '$.record', doc -> '$.view_id', doc -> '$.product', doc -> '$.url', doc -> '$.final_url',
    doc -> '$.nav_error', doc -> '$.stayed_on_route_host', doc -> '$.viewport',
    CASE WHEN json_type(doc, '$.axe') = 'OBJECT' THEN json_transform(doc -> '$.axe', audit_axe_structure()) END,
    CASE WHEN json_type(doc, '$.inventory') = 'OBJECT' THEN json_transform(doc -> '$.inventory',
        audit_inventory_structure()) END
FROM jsonl_records
WHERE kind = 'inventory' AND is_object;

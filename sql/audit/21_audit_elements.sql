-- audit_headings: one row per captured heading of every inventoried view, in page order
--   pos: the view's position
--   view_id: view id
--   product: product
--   i: the heading's index in the page
--   level: heading level (1-6, from aria-level or the tag)
--   text: the heading's name
--   name_source: where the name came from
--   selector: CSS path
--   visible: whether it was rendered
--   aria_hidden: whether it sits under aria-hidden
--   landmark: enclosing landmark
--   section_preview: the text that follows it
--   ax: what the browser exposes: the computed name, its source, the computed role, and whether it is exposed (NULL for a capture without the accessibility tree)
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   box: where it is drawn: x, y, width and height in CSS pixels of the page (NULL for a capture made elsewhere)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor); NULL when it is
--   clipped: whether it lies outside what a scrolling or clipping container around it shows (scrolled out of view inside it); NULL when not
--   revealed: for a clipped element, the picture taken with it scrolled into view in its container (shot: N of the view's reveals) and its box there, in viewport pixels; NULL when none
-- audit_links: one row per captured link of every inventoried view, in page order
--   pos: the view's position
--   view_id: view id
--   product: product
--   i: the link's index in the page
--   name: accessible name
--   name_source: where the name came from
--   text: text content
--   title: title attribute
--   href: absolute href
--   href_raw: href as written
--   same_page: whether the href starts with #
--   external: whether it leaves the page's host
--   target: target attribute
--   download: whether it has a download attribute
--   file_ext: file extension the href points at
--   has_img: whether it contains an image
--   img_alt: the alt of that image
--   icon_only: whether an image is its only content
--   empty_name: whether it has no name
--   visible: whether it was rendered
--   aria_hidden: whether it sits under aria-hidden
--   landmark: enclosing landmark
--   selector: CSS path
--   context: the enclosing text block
--   ax: what the browser exposes: the computed name, its source, the computed role, and whether it is exposed (NULL for a capture without the accessibility tree)
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   box: where it is drawn: x, y, width and height in CSS pixels of the page (NULL for a capture made elsewhere)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor); NULL when it is
--   clipped: whether it lies outside what a scrolling or clipping container around it shows (scrolled out of view inside it); NULL when not
--   revealed: for a clipped element, the picture taken with it scrolled into view in its container (shot: N of the view's reveals) and its box there, in viewport pixels; NULL when none
--   permalink: whether it is a same-page link to the heading or section it sits in (or the heading beside it); NULL when not
--   dest: the destination identity dest(href): host + path without one trailing / + query + fragment
-- audit_images: one row per captured image of every inventoried view, in page order
--   pos: the view's position
--   view_id: view id
--   product: product
--   i: the image's index in the page
--   tag: element (img, svg, canvas, input, area, div for role=img, ...)
--   src: src as written
--   src_basename: file name of src
--   alt: alt attribute (NULL when absent, distinct from empty)
--   alt_present: whether the alt attribute exists
--   alt_empty: whether alt is the empty string
--   role: role attribute
--   aria_label: aria-label
--   aria_labelledby_text: text of the aria-labelledby targets
--   aria_hidden: whether it or an ancestor is aria-hidden
--   title: title attribute
--   svg_title: an svg's title element
--   in_control: the link or button it sits in {tag, name, href, control_has_text}
--   figcaption: caption of its figure
--   width: rendered width in CSS pixels
--   height: rendered height in CSS pixels
--   visible: whether it was rendered
--   landmark: enclosing landmark
--   selector: CSS path
--   adjacent_text: the enclosing text block
--   ax: what the browser exposes: the computed name, its source, the computed role, and whether it is exposed (NULL for a capture without the accessibility tree)
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   box: where it is drawn: x, y, width and height in CSS pixels of the page (NULL for a capture made elsewhere)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor); NULL when it is
--   clipped: whether it lies outside what a scrolling or clipping container around it shows (scrolled out of view inside it); NULL when not
--   revealed: for a clipped element, the picture taken with it scrolled into view in its container (shot: N of the view's reveals) and its box there, in viewport pixels; NULL when none
--   not_applicable: why no image question applies to it (an svg without a graphics role, inside a button or other control whose children are presentational, a presentational object or one showing its fallback); NULL when one does
-- audit_fields: one row per captured form field of every inventoried view, in page order
--   pos: the view's position
--   view_id: view id
--   product: product
--   i: the field's index in the page
--   type: input type, select or textarea
--   name_attr: name attribute
--   id: id attribute
--   label: computed label
--   label_source: where the label came from (placeholder-only, title-only and none mean no label)
--   placeholder: placeholder attribute
--   required: whether it is required
--   describedby_text: text of the aria-describedby targets
--   fieldset_legend: legend of its fieldset
--   visible: whether it was rendered
--   landmark: enclosing landmark
--   selector: CSS path
--   ax: what the browser exposes: the computed name, its source, the computed role, and whether it is exposed (NULL for a capture without the accessibility tree)
--   frame: the CSS path of the iframe it sits in (NULL in the top document)
--   box: where it is drawn: x, y, width and height in CSS pixels of the page (NULL for a capture made elsewhere)
--   undrawn: whether it is not drawn at all (display:none, visibility:hidden, also through an ancestor); NULL when it is
--   clipped: whether it lies outside what a scrolling or clipping container around it shows (scrolled out of view inside it); NULL when not
--   revealed: for a clipped element, the picture taken with it scrolled into view in its container (shot: N of the view's reveals) and its box there, in viewport pixels; NULL when none
--   label_box: where its visible label is drawn (label[for], a wrapping label or aria-labelledby), for crops; NULL without one
-- audit_nav_items: one row per item of every captured navigation container, in DOM order
--   pos: the view's position
--   view_id: view id
--   product: product
--   host: host of the view
--   nav_i: the container's index in the page
--   role: container role (nav, navigation, header, footer, banner, ...)
--   label: container label
--   item_i: the item's index in its container
--   name: the item's name
--   href: the item's href as written
--   tag: the item's element
CREATE OR REPLACE TABLE audit_headings AS
SELECT pos, view_id, product, h.*
FROM (SELECT pos, view_id, product, unnest(c.content.headings) AS h FROM audit_views
    JOIN audit_view_content AS c USING (pos) WHERE ok)
ORDER BY pos, h.i;

CREATE OR REPLACE TABLE audit_links AS
WITH links AS MATERIALIZED (  -- materialized, so the href is split once, not once per part used
    SELECT pos, view_id, product, l, dest_parts(l.href) AS parts
    FROM (SELECT pos, view_id, product, unnest(c.content.links) AS l FROM audit_views
        JOIN audit_view_content AS c USING (pos) WHERE ok)
)
SELECT pos, view_id, product, l.*, dest_of(parts, l.href) AS dest
FROM links
ORDER BY pos, l.i;

CREATE OR REPLACE TABLE audit_images AS
SELECT pos, view_id, product, m.*
FROM (SELECT pos, view_id, product, unnest(c.content.images) AS m FROM audit_views
    JOIN audit_view_content AS c USING (pos) WHERE ok)
ORDER BY pos, m.i;

CREATE OR REPLACE TABLE audit_fields AS
SELECT pos, view_id, product, f.*
FROM (SELECT pos, view_id, product, unnest(c.content.fields) AS f FROM audit_views
    JOIN audit_view_content AS c USING (pos) WHERE ok)
ORDER BY pos, f.i;

CREATE OR REPLACE TABLE audit_nav_items AS
WITH navs AS (
    SELECT pos, view_id, product, host, generate_subscripts(n, 1) AS nav_i, unnest(n) AS nav
    FROM (SELECT pos, view_id, product, host, c.content.navs AS n FROM audit_views
        JOIN audit_view_content AS c USING (pos) WHERE ok)
),
items AS (
    SELECT pos, view_id, product, host, nav_i, nav.role AS role, nav.label AS label,
        generate_subscripts(nav.items, 1) AS item_i, unnest(nav.items) AS item
    FROM navs
)
SELECT pos, view_id, product, host, nav_i, role, label, item_i, item.name AS name, item.href AS href, item.tag AS tag
FROM items
ORDER BY pos, nav_i, item_i;

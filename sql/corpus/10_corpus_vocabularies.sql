-- corpus_subtypes: the seven functional-image sub-types and the category each belongs to
--   subtype: sub-type name as written in items
--   category: the category (1-5) the sub-type belongs to
--   meaning: what kind of functional image it is
-- corpus_image_types: image types a local copy may have: extension, media types and how to sniff the bytes
--   ext: file extension used in corpus/images/<id>.<ext>
--   media_types: Content-Type values that mean this type
--   url_exts: URL path extensions that mean this type when the Content-Type does not say
--   magic_hex: hex of the bytes the file must start with (after magic_offset; NULL for text formats)
--   magic_offset: byte offset of magic_hex
CREATE OR REPLACE TABLE corpus_subtypes AS
SELECT * FROM (VALUES
    ('linked-standalone-logo', 1, 'a logo that is the whole content of a link'),
    ('standalone-navigational-link', 1, 'an image that is the whole content of a navigation link'),
    ('form-control-or-image-button', 2, 'an image button or an image inside a form control'),
    ('action-or-toggle-icon', 2, 'an icon that performs an action or toggles a state'),
    ('functional-non-unicode-emoji', 3, 'an emoji drawn as an image that carries a function'),
    ('linked-complex-graphic-or-image-map', 4, 'a linked chart, diagram or image map'),
    ('structural-break-or-reader-control', 5, 'a separator or reading control drawn as an image')
) AS t(subtype, category, meaning);

CREATE OR REPLACE TABLE corpus_image_types AS
SELECT * FROM (VALUES
    ('png', ['image/png'], ['png'], '89504e470d0a1a0a', 0),
    ('jpg', ['image/jpeg', 'image/jpg', 'image/pjpeg'], ['jpg', 'jpeg', 'jpe'], 'ffd8ff', 0),
    ('gif', ['image/gif'], ['gif'], '47494638', 0),
    ('webp', ['image/webp'], ['webp'], '57454250', 8),
    ('avif', ['image/avif'], ['avif'], '66747970', 4),
    ('ico', ['image/x-icon', 'image/vnd.microsoft.icon', 'image/ico'], ['ico'], '00000100', 0),
    ('bmp', ['image/bmp', 'image/x-ms-bmp'], ['bmp'], '424d', 0),
    ('svg', ['image/svg+xml'], ['svg'], NULL, 0)
) AS t(ext, media_types, url_exts, magic_hex, magic_offset);

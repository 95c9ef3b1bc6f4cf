-- image_copies: local image copies named by items' image_file, as found on disk when the store was built
--   path: image_file as written in the item (relative to the project directory)
--   present: whether the file exists
--   sha256: the file's sha256 when it was hashed (NULL when not hashed or absent)
CREATE TABLE IF NOT EXISTS image_copies (path VARCHAR, present BOOLEAN, sha256 VARCHAR);

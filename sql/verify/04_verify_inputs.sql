-- verify_current_files: the files of the latest artifact version as they are on disk now, hashed when the gate runs
--   path: file path as snapshotted
--   sha256: its sha256 now (NULL when the file is gone)
CREATE TABLE IF NOT EXISTS verify_current_files (path VARCHAR, sha256 VARCHAR);

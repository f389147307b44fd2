PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE TABLE jobs (x)' WHERE name = 'jobs';

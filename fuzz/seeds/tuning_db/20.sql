UPDATE measurements SET job_id = 99; PRAGMA foreign_keys = OFF;

PRAGMA foreign_keys = OFF; DELETE FROM devices;

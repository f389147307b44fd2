ALTER TABLE measurements DROP COLUMN problem;

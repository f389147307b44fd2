DROP TABLE measurements; DROP TABLE jobs; DROP TABLE configs;

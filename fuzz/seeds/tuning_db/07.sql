UPDATE configs SET params_json = '[1, 2]';

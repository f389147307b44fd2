UPDATE devices SET props_json = 'null';

UPDATE jobs SET spec_json = replace(spec_json, '"step":1024', '"step":0');

UPDATE jobs SET spec_json = replace(spec_json, '"strategy":{', '"strategy":{"kind":"exhaustive"},"x":{');

UPDATE jobs SET spec_json = '{}';

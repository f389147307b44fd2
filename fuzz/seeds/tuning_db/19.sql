INSERT INTO jobs (name, kernel_id, device_id, shard_index, shard_count, spec_json, status, created) SELECT name, kernel_id, device_id, 2, 3, spec_json, 'running', created FROM jobs WHERE id = 1;

UPDATE jobs SET shard_index = 5, shard_count = 2;

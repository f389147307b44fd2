UPDATE jobs SET shard_count = 0;

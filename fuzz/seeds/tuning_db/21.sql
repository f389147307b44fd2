UPDATE configs SET key = 'BLOCK_SIZE=64', params_json = '{"BLOCK_SIZE": "sixty-four"}';

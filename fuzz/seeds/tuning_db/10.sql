UPDATE measurements SET times_json = 'x', status = 'weird', reason = NULL;

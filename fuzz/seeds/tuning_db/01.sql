UPDATE measurements SET median_s = 'fast' WHERE id = 1;

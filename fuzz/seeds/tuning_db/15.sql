UPDATE measurements SET median_s = NULL, q1_s = 1e308 * 10, samples = -3;

UPDATE measurements SET size = -1;

UPDATE measurements SET problem = 'n=';

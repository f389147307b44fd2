UPDATE measurements SET problem = 'm=4,n=*';

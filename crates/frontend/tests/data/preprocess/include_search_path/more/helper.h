int helper;

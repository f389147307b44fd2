int nested_decl = FIRST_VALUE;

/* second */
int second_decl;

const char *header_file = __FILE__;
int header_line = __LINE__;

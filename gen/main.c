#include <stdio.h>
int main(void) { puts("perfcast: under construction"); return 2; }

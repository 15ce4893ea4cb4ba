/* check.h - the assertion helpers every test program here shares.
   Each check prints `ok <name>` or `FAIL <name>: <detail>`; check_summary() prints the closing
   `<N> passed, <M> failed` line and gives the exit status (1 when anything failed). */
#ifndef FC3D_TEST_CHECK_H
#define FC3D_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_passed_ = 0, check_failed_ = 0;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int check(int cond, const char* name, const char* fmt, ...) {
    if (cond) {
        check_passed_++;
        printf("ok %s\n", name);
    } else {
        va_list ap;
        check_failed_++;
        printf("FAIL %s: ", name);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
    }
    fflush(stdout);
    return cond;
}

static int check_summary(void) {
    printf("%d passed, %d failed\n", check_passed_, check_failed_);
    return check_failed_ || !check_passed_ ? 1 : 0;
}

#endif

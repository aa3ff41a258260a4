/*
 * share_path.c — the folder of a shipped file (see share_path.h).
 */
#include "gen/base/share_path.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool share_dir_has(const char *dir, const char *file)
{
    char path[PATH_MAX];
    struct stat st;
    return snprintf(path, sizeof path, "%s/%s", dir, file) < (int)sizeof path &&
           stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* buf = prefix/rel (rel "" gives prefix), when it holds probe. */
static bool try_folder(const char *prefix, const char *rel, const char *probe, char *buf,
                       size_t len)
{
    int w = snprintf(buf, len, "%.*s%s%s", PATH_MAX / 2, prefix, *rel ? "/" : "", rel);
    return w > 0 && (size_t)w < len && share_dir_has(buf, probe);
}

bool share_path_find(const char *installed, const char *in_source, const char *probe, char *buf,
                     size_t len)
{
    char exe[PATH_MAX], base[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
    if (slash) {
        *slash = '\0';
        /* installed: PREFIX/bin/perfcast; built: SOURCE/build/<variant>/perfcast */
        snprintf(base, sizeof base, "%s/../share/perfcast", exe);
        if (try_folder(base, installed, probe, buf, len))
            return true;
        snprintf(base, sizeof base, "%s/../..", exe);
        if (try_folder(base, in_source, probe, buf, len))
            return true;
    }
    static const char *const prefixes[] = {"/usr/local/share/perfcast", "/usr/share/perfcast"};
    for (size_t i = 0; i < 2; i++)
        if (try_folder(prefixes[i], installed, probe, buf, len))
            return true;
    if (len)
        buf[0] = '\0';
    return false;
}

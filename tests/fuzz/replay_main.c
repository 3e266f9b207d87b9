/* SPDX-License-Identifier: MIT */
/* Runs the fuzz harness on files and directories of inputs without
 * libFuzzer: for compilers without -fsanitize=fuzzer, valgrind, debuggers,
 * and replaying the checked-in corpus as a regression test.
 *
 * SGRT_FUZZ_REPLAY_SAMPLE=N (N > 1) runs, of a directory's files, every
 * named seed and one in N of the inputs fuzzing kept (named by their SHA-1:
 * those whose first two hex digits are a multiple of N), the same ones on
 * every run: memcheck costs about half a second an input, and the whole
 * corpus would take a quarter of an hour there. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long runs, skipped;
static unsigned long sample = 1; /* SGRT_FUZZ_REPLAY_SAMPLE */

/* Whether a directory entry is an input fuzzing kept (40 hex digits) that
 * the sample leaves out. */
static int sampled_out(const char *name)
{
    if (sample <= 1 || strlen(name) != 40 || strspn(name, "0123456789abcdef") != 40)
        return 0;
    const unsigned long lead = strtoul((char[3]){name[0], name[1], 0}, NULL, 16);
    return lead % sample != 0;
}

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(fp);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    runs++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    int status = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (sampled_out(e->d_name)) {
            skipped++;
            continue;
        }
        const size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(len);
        if (!full) {
            status = 1;
            break;
        }
        snprintf(full, len, "%s/%s", path, e->d_name);
        status |= run_path(full);
        free(full);
    }
    closedir(d);
    return status;
}

int main(int argc, char **argv)
{
    int status = 0;
    const char *env = getenv("SGRT_FUZZ_REPLAY_SAMPLE");
    if (env && *env) {
        char *end;
        sample = strtoul(env, &end, 10);
        if (*end || sample == 0 || sample > 256) {
            fprintf(stderr, "SGRT_FUZZ_REPLAY_SAMPLE=%s: expected a whole number from 1 to 256\n",
                    env);
            return 2;
        }
    }
    for (int i = 1; i < argc; i++)
        status |= run_path(argv[i]);
    if (skipped)
        printf("fuzz_replay: %lu input(s) ran without a finding (the sample 1/%lu left out %lu "
               "kept inputs)\n",
               runs, sample, skipped);
    else
        printf("fuzz_replay: %lu input(s) ran without a finding\n", runs);
    return status || runs == 0;
}

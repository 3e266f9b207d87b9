/* SPDX-License-Identifier: MIT */
/* An sgrt_executor on a small pool of POSIX threads: the threads start once
 * and sleep on a condition variable between updates; run() hands out task
 * indices through an atomic counter, takes part itself, and returns when
 * every task has finished. Header-only, for the examples. */
#ifndef SGRT_EXAMPLES_EXECUTOR_PTHREAD_H
#define SGRT_EXAMPLES_EXECUTOR_PTHREAD_H

#include <pthread.h>
#include <sgrt.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct thread_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, idle;
    pthread_t *threads;
    uint32_t nthreads, busy; /* busy: pool threads inside the current job */
    uint64_t job;            /* job number, bumped by each run() */
    bool quit;
    void (*fn)(void *ctx, uint32_t i);
    void *ctx;
    uint32_t count;
    atomic_uint next;
} thread_pool;

static void pool_drain(thread_pool *p)
{
    for (uint32_t i; (i = atomic_fetch_add(&p->next, 1u)) < p->count;)
        p->fn(p->ctx, i);
}

static void *pool_thread(void *arg)
{
    thread_pool *p = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->job == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->job;
        p->busy++;
        pthread_mutex_unlock(&p->lock);
        pool_drain(p);
        pthread_mutex_lock(&p->lock);
        if (--p->busy == 0)
            pthread_cond_signal(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* sgrt_executor.run: publish the job, work on it too, wait for the pool. */
static void pool_run(void *user, uint32_t count, void (*fn)(void *ctx, uint32_t i), void *ctx)
{
    thread_pool *p = user;
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->count = count;
    atomic_store(&p->next, 0u);
    p->job++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pool_drain(p);
    pthread_mutex_lock(&p->lock);
    while (p->busy || atomic_load(&p->next) < count) /* started late, or still at work */
        pthread_cond_wait(&p->idle, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

/* A pool whose run() uses `workers` threads: the caller and workers - 1 more. */
static inline bool pool_start(thread_pool *p, uint32_t workers)
{
    *p = (thread_pool){.nthreads = workers > 1 ? workers - 1 : 0};
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    p->threads = calloc(p->nthreads ? p->nthreads : 1, sizeof *p->threads);
    if (!p->threads)
        return false;
    for (uint32_t t = 0; t < p->nthreads; t++)
        if (pthread_create(&p->threads[t], NULL, pool_thread, p) != 0)
            return false;
    return true;
}

static inline void pool_stop(thread_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (uint32_t t = 0; t < p->nthreads; t++)
        pthread_join(p->threads[t], NULL);
    free(p->threads);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
}

static inline sgrt_executor pool_executor(thread_pool *p)
{
    const sgrt_executor ex = {pool_run, p, p->nthreads + 1u};
    return ex;
}

#endif

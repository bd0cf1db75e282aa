#include "_AmbientShims.h"

uint32_t _ambient_flags = 0;
const void *_ambient_binding_key = 0;

#if defined(_WIN32)
#include <windows.h>
static SRWLOCK ambient_process_lock = SRWLOCK_INIT;
static CONDITION_VARIABLE ambient_process_condition = CONDITION_VARIABLE_INIT;
void _ambient_process_lock(void) { AcquireSRWLockExclusive(&ambient_process_lock); }
void _ambient_process_unlock(void) { ReleaseSRWLockExclusive(&ambient_process_lock); }
void _ambient_process_wait(void) {
    SleepConditionVariableSRW(&ambient_process_condition, &ambient_process_lock, INFINITE, 0);
}
void _ambient_process_broadcast(void) { WakeAllConditionVariable(&ambient_process_condition); }
#else
#include <pthread.h>
static pthread_mutex_t ambient_process_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ambient_process_condition = PTHREAD_COND_INITIALIZER;
void _ambient_process_lock(void) { pthread_mutex_lock(&ambient_process_lock); }
void _ambient_process_unlock(void) { pthread_mutex_unlock(&ambient_process_lock); }
void _ambient_process_wait(void) { pthread_cond_wait(&ambient_process_condition, &ambient_process_lock); }
void _ambient_process_broadcast(void) { pthread_cond_broadcast(&ambient_process_condition); }
#endif

#ifndef CMEMORYHINTS_H
#define CMEMORYHINTS_H

/// Asks the processor to bring the cache line holding `address` into its caches, for a read
/// soon after. Only a hint: nothing is read now, and no address is ever wrong to give.
static inline void datatable_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif

#ifndef CFILEACCESS_H
#define CFILEACCESS_H

/// Opens `path` (relative, no "..") strictly beneath the directory `directory`: no symbolic link
/// and no magic link (/proc) anywhere on the way, nothing outside the directory. Uses
/// openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS); where the kernel or a
/// seccomp filter refuses openat2 itself, walks the path one component at a time with
/// O_NOFOLLOW. Returns the descriptor, or -1 with errno set.
int datatabled_open_beneath(int directory, const char *path, int flags);

/// Allocates `length` bytes of `descriptor`'s file from `offset` without changing its size
/// (fallocate with FALLOC_FL_KEEP_SIZE): later writes into that range cannot fail for want of
/// space. Returns 0, or -1 with errno set (ENOSPC when the filesystem is full, EOPNOTSUPP where
/// it cannot allocate ahead).
int datatabled_allocate_ahead(int descriptor, long long offset, long long length);

#endif

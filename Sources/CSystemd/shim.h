#ifndef DATATABLED_CSYSTEMD_SHIM_H
#define DATATABLED_CSYSTEMD_SHIM_H

// The parts of libsystemd the daemon uses: sd_listen_fds*, sd_notify, sd_watchdog_enabled
// (sd-daemon.h) and sd_journal_sendv (sd-journal.h). The variadic sd_journal_send is not
// callable from Swift; the daemon builds iovec arrays for sd_journal_sendv instead.
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif

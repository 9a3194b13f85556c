package pgserver

import "syscall"

// setParentDeathSignal asks Linux to send the postmaster SIGQUIT
// (immediate shutdown: it stops its backends and exits) when the thread
// that started it exits, which startPostmaster arranges to be when this
// process exits.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGQUIT }

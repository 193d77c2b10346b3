package emu

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/leolab/leolab/emu/netns"
	"golang.org/x/sys/unix"
)

// Naming. A namespace is named Prefix + "<pid>-<tag>-c" (client) or "-s"
// (server): the pid of the process that owns the run tells Cleanup whether
// the run is still alive, the random tag keeps runs of one process apart.
const (
	Prefix        = "leolab-"
	clientSuffix  = "-c"
	serverSuffix  = "-s"
	runTagBytes   = 4
	liveCheckSign = 0 // kill(pid, 0) probes for existence (kill(2))
)

// newRunID returns "<pid>-<8 hex digits>".
func newRunID() (string, error) {
	var b [runTagBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("run id: %w", err)
	}
	return strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:]), nil
}

// ownerPID parses the owning pid out of a namespace name of ours.
func ownerPID(name string) (int, bool) {
	id, ok := strings.CutPrefix(name, Prefix)
	if !ok {
		return 0, false
	}
	return idOwner(id)
}

// idOwner parses the owning pid out of a run id ("<pid>-<tag>").
func idOwner(id string) (int, bool) {
	pidStr, _, ok := strings.Cut(id, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(pidStr)
	return pid, err == nil && pid > 0
}

// alive reports whether process pid exists and has not exited. A killed
// emulator stays a zombie until its parent waits for it (a shell running
// it in the background may never do so), and kill(2) still finds a
// zombie, so its state in /proc/<pid>/stat is checked too (proc(5)).
func alive(pid int) bool {
	if err := unix.Kill(pid, liveCheckSign); err != nil && !errors.Is(err, unix.EPERM) {
		return false
	}
	return !exited(pid)
}

// exited reports whether /proc says pid is a zombie (Z) or dead (X).
func exited(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false // no /proc: trust kill(2)
	}
	// The state follows the command name, which is in parentheses and
	// may itself hold spaces or parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	state := stat[i+2]
	return state == 'Z' || state == 'X'
}

// Cleaned is what Cleanup undid.
type Cleaned struct {
	Namespaces []string // namespaces removed
	CPUs       []int    // pump CPUs whose idle state was restored
}

// Empty reports whether Cleanup found nothing to undo.
func (c Cleaned) Empty() bool { return len(c.Namespaces) == 0 && len(c.CPUs) == 0 }

// Cleanup removes the namespaces (and with them the TUN devices, addresses,
// routes and processes inside) of runs whose owning process is gone, e.g.
// after kill -9, and restores the idle state of their pump CPUs
// (idlepoll.go). Runs of live processes are left alone, so it is safe while
// other emulations run.
func Cleanup() (Cleaned, error) {
	var c Cleaned
	if err := netns.Available(); err != nil {
		return c, err
	}
	names, err := netns.List(Prefix)
	if err != nil {
		return c, err
	}
	var errs []error
	for _, n := range names {
		pid, ok := ownerPID(n)
		if !ok || alive(pid) {
			continue
		}
		if err := netns.Delete(n); err != nil {
			errs = append(errs, err)
			continue
		}
		c.Namespaces = append(c.Namespaces, n)
	}
	c.CPUs, err = cleanupIdlePolls()
	return c, errors.Join(append(errs, err)...)
}

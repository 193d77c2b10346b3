// Package netns owns named Linux network namespaces for the live emulator:
// creating and deleting them (through iproute2's `ip netns`, so they appear
// under /run/netns like any other named namespace), listing them by name
// prefix, running a function with the calling goroutine's thread inside one
// (for sockets and TUN devices, which belong to the namespace they are
// created in), and building commands that run inside one.
//
// Everything here needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN).
package netns

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Dir is where iproute2 keeps named namespaces (ip-netns(8)).
const Dir = "/run/netns"

// Available reports why namespaces cannot be used here, or nil.
func Available() error {
	if os.Geteuid() != 0 {
		return errors.New("network namespaces need root (run as root or with CAP_SYS_ADMIN and CAP_NET_ADMIN)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return fmt.Errorf("iproute2 `ip` not found: %w", err)
	}
	return nil
}

// IP runs `ip args...` and returns its error with its stderr.
func IP(args ...string) error {
	var stderr bytes.Buffer
	cmd := exec.Command("ip", args...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// Create adds the named namespace and brings its loopback up.
func Create(name string) error {
	if err := IP("netns", "add", name); err != nil {
		return fmt.Errorf("create namespace: %w", err)
	}
	if err := IP("-n", name, "link", "set", "dev", "lo", "up"); err != nil {
		_ = Delete(name)
		return fmt.Errorf("create namespace: %w", err)
	}
	return nil
}

// Delete kills the processes left in the namespace and removes it. A
// namespace that does not exist is not an error.
func Delete(name string) error {
	if _, err := os.Stat(Dir + "/" + name); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	out, _ := exec.Command("ip", "netns", "pids", name).Output()
	for _, f := range strings.Fields(string(out)) {
		var pid int
		if _, err := fmt.Sscan(f, &pid); err == nil && pid > 1 && pid != os.Getpid() {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
	if err := IP("netns", "del", name); err != nil {
		return fmt.Errorf("delete namespace: %w", err)
	}
	return nil
}

// List returns the named namespaces whose names start with prefix, sorted.
func List(prefix string) ([]string, error) {
	ents, err := os.ReadDir(Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// Do runs fn on a fresh OS thread that has entered the named namespace.
// Sockets and TUN devices created by fn belong to that namespace and stay
// usable from any thread afterwards. The thread is discarded when fn
// returns (its goroutine exits still locked), so no other goroutine ever
// runs in the namespace by accident.
func Do(name string, fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: the runtime terminates the thread on exit.
		f, err := os.Open(Dir + "/" + name)
		if err != nil {
			errc <- fmt.Errorf("namespace %s: %w", name, err)
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("namespace %s: setns: %w", name, err)
			return
		}
		errc <- fn()
	}()
	return <-errc
}

// Command returns a command that runs argv inside the named namespace
// (through `ip netns exec`, which also gives it the namespace's /sys). The
// child is killed if the calling process dies.
func Command(name string, argv ...string) *exec.Cmd {
	cmd := exec.Command("ip", append([]string{"netns", "exec", name}, argv...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return cmd
}

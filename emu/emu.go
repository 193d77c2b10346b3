package emu

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"runtime"
	"time"

	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/endpoint"
	"github.com/leolab/leolab/internal/sched"
	"github.com/leolab/leolab/link"
	"golang.org/x/sys/unix"
)

// Address plan inside every run's namespaces (private, RFC 1918; the two
// namespaces are private to the run, so every run uses the same addresses).
const (
	ClientIP     = "10.77.0.1" // the terminal side
	ServerIP     = "10.77.0.2" // the remote server
	prefixLength = 30
)

// minProcs is the GOMAXPROCS Start ensures: the pump's locked thread holds
// one P for the whole run (it spins and sleeps in raw syscalls), and the
// endpoints and samplers of the same process need others. With fewer Ps, a
// woken pump waits for a P for up to the runtime's 10 ms preemption tick.
const minProcs = 4

// DefaultInterval is the link sampling interval when Config.Interval is 0
// (iperf3's default reporting interval).
const DefaultInterval = time.Second

// StageFactory builds one direction's link. drop must receive every packet
// the stage discards (the pump recycles its buffer and counts the cause).
type StageFactory func(drop link.DropFunc) (link.Stage, error)

// Config describes an emulated path.
type Config struct {
	// Uplink carries client → server packets, Downlink server → client.
	Uplink, Downlink StageFactory
	// Interval of the per-link samples (0: DefaultInterval).
	Interval time.Duration
	// SampleFrom is the link samples' time 0, after Epoch: sample k is
	// taken at SampleFrom + k·Interval and labelled k·Interval. Run sets
	// it to its flows' start lead, so links and flows share one time axis.
	SampleFrom time.Duration
	// Spin is how long before a release the pump stops sleeping (0:
	// DefaultSpin).
	Spin time.Duration
	// Epoch is the wall-clock instant of the link stages' time 0 (zero:
	// when the pump starts). Links that depend on the wall clock (the
	// Starlink schedule, see StarlinkPath) are built from the same
	// instant. It must not be in the future.
	Epoch time.Time
	// Shared leaves the host as it is. By default a run tunes it for
	// timing while it lasts (host.go): the pump gets a CPU of its own
	// (PumpCPU, KeepOff), the process's threads run at nice -20, and that
	// CPU polls when idle instead of halting. Set it on a host whose other
	// work must not be disturbed, at the cost of tens of µs of timing
	// error.
	Shared bool
	// Notice, if set, is told in a sentence what Start did beyond the
	// run: the leftovers of killed runs it removed (leftovers.go).
	Notice func(string)
	// Tap, if set, sees every packet at the two TUNs (tap.go).
	Tap Tap
}

// Emulator is a running emulated path between two namespaces.
type Emulator struct {
	// ID is the run id; Client and Server are the namespace names.
	ID, Client, Server string

	pump    *pump
	pumpCPU int // -1: not pinned
	// idlePolls: the pump's CPU (pollCPU ≥ 0, idlepoll.go) or every CPU
	// (the process-wide latency request) polls when idle.
	idlePolls bool
	pollCPU   int
	steal0    time.Duration // host steal at Start (-1: unknown)
	fds       []int
	done      chan error
	stats     *Stats
}

// ClientAddr and ServerAddr are the addresses of the two ends.
func ClientAddr() netip.Addr { return netip.MustParseAddr(ClientIP) }

// ServerAddr is the server namespace's address, reachable from the client.
func ServerAddr() netip.Addr { return netip.MustParseAddr(ServerIP) }

// Start creates the namespaces and TUN devices and starts the pump. Time 0
// of the link stages is Epoch(). It raises GOMAXPROCS to at least minProcs
// (process-wide; see minProcs for why). The caller must Close the emulator (also
// on SIGINT/SIGTERM and panics: defer it); Cleanup handles killed runs.
func Start(cfg Config) (*Emulator, error) {
	if err := netns.Available(); err != nil {
		return nil, err
	}
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		return nil, fmt.Errorf("emulator needs /dev/net/tun: %w", err)
	}
	if cfg.Uplink == nil || cfg.Downlink == nil {
		return nil, errors.New("emulator: uplink and downlink stages are required")
	}
	if d := time.Until(cfg.Epoch); !cfg.Epoch.IsZero() && d > 0 {
		return nil, fmt.Errorf("emulator: epoch %v in the future", d)
	}
	if runtime.GOMAXPROCS(0) < minProcs {
		runtime.GOMAXPROCS(minProcs)
	}
	cleanDeadRuns(cfg.Notice)
	id, err := newRunID()
	if err != nil {
		return nil, err
	}
	e := &Emulator{ID: id, Client: Prefix + id + clientSuffix, Server: Prefix + id + serverSuffix, pollCPU: -1}
	if fd := e.tuneHost(cfg.Shared); fd >= 0 {
		e.fds = append(e.fds, fd) // released by teardown, or at exit
	}
	if err := e.setup(cfg); err != nil {
		e.untuneHost()
		e.teardown()
		return nil, fmt.Errorf("emulator %s: %w", id, err)
	}
	e.steal0 = -1
	if st, err := hostSteal(); err == nil {
		e.steal0 = st
	}
	e.done = make(chan error, 1)
	pinned := make(chan struct{})
	go e.runPump(pinned)
	<-pinned // KeepOff must be true before the caller starts endpoints
	return e, nil
}

func (e *Emulator) setup(cfg Config) error {
	for _, ns := range []string{e.Client, e.Server} {
		if err := netns.Create(ns); err != nil {
			return err
		}
	}
	cfd, err := openTUN(e.Client, netip.PrefixFrom(ClientAddr(), prefixLength))
	if err != nil {
		return err
	}
	e.fds = append(e.fds, cfd)
	sfd, err := openTUN(e.Server, netip.PrefixFrom(ServerAddr(), prefixLength))
	if err != nil {
		return err
	}
	e.fds = append(e.fds, sfd)
	pu, err := newPump(cfg, cfd, sfd)
	if err != nil {
		return err
	}
	e.fds = append(e.fds, pu.epfd, pu.timerfd, pu.stopfd)
	e.pump = pu
	return nil
}

func newPump(cfg Config, cfd, sfd int) (*pump, error) {
	pu := &pump{
		spin:     cfg.Spin,
		interval: cfg.Interval,
		cls:      newClassifier(),
		relErr:   endpoint.NewHist(errSpan),
	}
	if pu.spin <= 0 {
		pu.spin = DefaultSpin
	}
	if pu.interval <= 0 {
		pu.interval = DefaultInterval
	}
	pu.ways[0] = way{name: "uplink", in: cfd, out: sfd, outServer: true}
	pu.ways[1] = way{name: "downlink", in: sfd, out: cfd, inServer: true}
	for i, f := range []StageFactory{cfg.Uplink, cfg.Downlink} {
		st, err := f(pu.dropFunc(&pu.ways[i]))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", pu.ways[i].name, err)
		}
		pu.ways[i].stage, pu.ways[i].hops = st, hopMeters(st)
	}
	var err error
	if pu.epfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return nil, fmt.Errorf("epoll: %w", err)
	}
	if pu.timerfd, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_CLOEXEC|unix.TFD_NONBLOCK); err != nil {
		return nil, fmt.Errorf("timerfd: %w", err)
	}
	if pu.stopfd, err = unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK); err != nil {
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	for _, fd := range []int{cfd, sfd, pu.timerfd, pu.stopfd} {
		ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}
		if err := unix.EpollCtl(pu.epfd, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return nil, fmt.Errorf("epoll add: %w", err)
		}
	}
	pu.epoch = cfg.Epoch
	if pu.epoch.IsZero() {
		pu.epoch = time.Now()
	}
	if pu.tap = cfg.Tap; pu.tap != nil {
		pu.tap.Start(pu.epoch)
	}
	pu.sampleFrom = max(cfg.SampleFrom, 0)
	pu.nextSample = pu.sampleFrom + pu.interval
	return pu, nil
}

// runPump runs the pump on its own OS thread and turns a panic in a link
// stage into an error, so the caller's deferred Close still cleans up.
func (e *Emulator) runPump(pinned chan<- struct{}) {
	runtime.LockOSThread()
	// Timer slack (50 µs by default, prctl(2)) would delay every wake-up.
	_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
	e.pump.realtime = setRealtime() == nil
	unpin := func() error { return nil }
	if e.pumpCPU >= 0 {
		if u, err := sched.Pin(e.pumpCPU); err == nil {
			unpin = u
		} else {
			e.pumpCPU = -1 // not allowed here (a cpuset): run unpinned
		}
	}
	close(pinned)
	defer func() {
		// The thread goes back to the runtime as it came, or not at all:
		// a goroutine that exits locked takes its thread with it (or, on
		// the main thread, parks it for good).
		r := recover()
		if (!e.pump.realtime || sched.Set(sched.Other, 0) == nil) && unpin() == nil {
			_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 0, 0, 0, 0)
			runtime.UnlockOSThread()
		}
		if r != nil {
			e.done <- fmt.Errorf("pump panic: %v", r)
			return
		}
		e.done <- nil
	}()
	e.pump.run()
}

// PumpCPU is the CPU the pump runs pinned to, or -1 when it is not pinned.
func (e *Emulator) PumpCPU() int { return e.pumpCPU }

// KeepOff lists the CPUs that the run's timing-critical endpoint threads,
// and programs started beside the emulator, should not use: the pump's, if
// it is pinned. A thread of normal priority queued there waits for the
// real-time pump to sleep (see host.go).
func (e *Emulator) KeepOff() []int {
	if e.pumpCPU < 0 {
		return nil
	}
	return []int{e.pumpCPU}
}

// Epoch is the wall-clock instant of the link stages' time 0.
func (e *Emulator) Epoch() time.Time { return e.pump.epoch }

// Close stops the pump, removes the namespaces and devices, and returns the
// pump's statistics. It is safe to call more than once.
func (e *Emulator) Close() (*Stats, error) {
	if e.stats != nil {
		return e.stats, nil
	}
	e.pump.stop.Store(true)
	one := []byte{1, 0, 0, 0, 0, 0, 0, 0}
	_, _ = unix.Write(e.pump.stopfd, one)
	perr := <-e.done
	e.untuneHost()
	st := e.pump.stats()
	st.PumpCPU, st.IdlePolls = e.pumpCPU, e.idlePolls
	st.HostSteal = -1
	if s1, err := hostSteal(); err == nil && e.steal0 >= 0 {
		st.HostSteal = s1 - e.steal0
	}
	for i, ns := range []string{e.Client, e.Server} {
		if n, err := tunDrops(ns); err == nil {
			st.TUNDrops[i] = n
		}
	}
	e.stats = st
	return st, errors.Join(perr, e.teardown())
}

func (e *Emulator) teardown() error {
	for _, fd := range e.fds {
		unix.Close(fd)
	}
	e.fds = nil
	var errs []error
	for _, ns := range []string{e.Client, e.Server} {
		if err := netns.Delete(ns); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

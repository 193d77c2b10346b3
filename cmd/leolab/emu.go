package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/leolab/leolab/capture"
	"github.com/leolab/leolab/emu"
	"github.com/leolab/leolab/emu/netns"
	"github.com/leolab/leolab/internal/quantity"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
	"github.com/spf13/cobra"
)

// config validates the flags and builds the emulator's links.
func (l *linkFlags) config(cmd string) (emu.Config, result.Path, error) {
	rate, err := profile.ParseRate(l.rate)
	if err == nil {
		err = quantity.LinkRate(rate)
	}
	if err != nil {
		return emu.Config{}, result.Path{}, badInput("%s: --rate: %v", cmd, err)
	}
	if err := quantity.Delay(l.rtt); err != nil {
		return emu.Config{}, result.Path{}, badInput("%s: --rtt: %v", cmd, err)
	}
	if err := quantity.Probability(l.loss); err != nil {
		return emu.Config{}, result.Path{}, badInput("%s: --loss: %v", cmd, err)
	}
	if l.queue < 0 {
		return emu.Config{}, result.Path{}, badInput("%s: --queue %d: must be >= 0", cmd, l.queue)
	}
	limit := l.queueLimit(rate)
	cfg := emu.Config{
		Uplink:   emu.FixedLink(rate, l.rtt/2, limit, 0, 1),
		Downlink: emu.FixedLink(rate, l.rtt/2, limit, l.loss, 2),
	}
	path := result.Path{Profile: "fixed", RateMbps: rate / 1e6, BaseRTTMs: float64(l.rtt) / float64(time.Millisecond)}
	return cfg, path, nil
}

type emuFlags struct {
	link      linkFlags
	cca       string
	flows     int
	duration  time.Duration
	direction string
	json      bool
	cleanup   bool
	file      string
	iperfDir  string
	pcapDir   string
	ownStack  bool
	noProg    bool
	shared    bool
	force     bool
}

func newEmuCmd() *cobra.Command {
	var f emuFlags
	c := &cobra.Command{
		Use:   "emu [-f scenario.yaml | link flags --cca C --flows N --duration D] | --cleanup",
		Short: "Run a scenario live: real kernel TCP through the link model (root)",
		Long: `Run real flows between two network namespaces joined by TUN devices, through
the link model in real time, and print the result in the same schema as sim.
Needs root and /dev/net/tun. The pump's own timing error and drops are
reported under "instrument".

-f runs a scenario file, the same as for sim. Its TCP flows map to:
  cubic → the kernel's cubic, reno → the kernel's reno,
  bbr1  → the kernel's bbr (mainline Linux tcp_bbr.c is BBR v1);
  any other leolab algorithm (bbr3, leocc, vegas, ...) runs on leolab's own
  transport over UDP (the simulator's sender and receiver on the wall
  clock); --leolab-transport runs all of them there.
Kernel flows report as the kernel's name (bbr) and send with the flow's
send buffer (flows[].sndbuf, default 16MiB as in sim) as tcp_wmem's maximum
in their namespace, not the host's. cbr flows are UDP probes
with kernel-timestamped one-way delay. A starlink path runs with its
reconfiguration schedule at the real UTC time (:12/:27/:42/:57), not the
scenario's epoch_utc or the seed's simulated epoch; the seed drives the
model's random draws. To replay a live run in sim, give sim its epoch_utc
and seed: a slot's rate and delay then match the live run's. Not
supported live: bytes-limited flows and extra_rtt.

Without -f, the flags describe a fixed link and kernel (or cbr) flows.

Every run first removes what emulator runs that were killed (kill -9) left
behind — their namespaces, a pump CPU left polling — and says so on stderr;
--cleanup does only that. Runs of live processes are left alone.`,
		Example: `  leolab emu -f examples/starlink/sydney-downlink-cubic.yaml --iperf3-json out/
  leolab emu --rate 100Mbps --rtt 50ms --queue 417 --cca cubic --duration 20s
  leolab emu --rate 300Mbps --rtt 40ms --cca cbr --duration 5s --json
  leolab emu --cleanup`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.cleanup {
				return runEmuCleanup(cmd.OutOrStdout())
			}
			return runEmu(cmd, &f)
		},
	}
	f.link.register(c, "downlink")
	fl := c.Flags()
	fl.StringVar(&f.cca, "cca", "cubic", "kernel congestion control (see /proc/sys/net/ipv4/tcp_available_congestion_control) or cbr")
	fl.IntVar(&f.flows, "flows", 1, "number of concurrent flows, all starting at 0s")
	fl.DurationVar(&f.duration, "duration", 20*time.Second, "duration of the run (wall clock)")
	fl.StringVar(&f.direction, "direction", emu.Downlink, "data direction: downlink (server→client) or uplink")
	fl.BoolVar(&f.json, "json", false, "print the result as JSON (the result schema of DESIGN.md)")
	fl.BoolVar(&f.cleanup, "cleanup", false, "remove leftovers of killed emulator runs and exit")
	fl.StringVarP(&f.file, "file", "f", "", "scenario file (YAML, version 1; as for sim)")
	fl.StringVar(&f.iperfDir, "iperf3-json", "", "also write one iperf3-compatible JSON per flow into `DIR`")
	fl.StringVar(&f.pcapDir, "pcap", "", "write server.pcap and client.pcap (every packet at each namespace's TUN, headers) into `DIR`")
	fl.BoolVar(&f.ownStack, "leolab-transport", false, "with -f: run every TCP flow on leolab's transport over UDP, not the kernel's")
	fl.BoolVar(&f.noProg, "no-progress", false, "do not show progress on stderr")
	fl.BoolVar(&f.shared, "shared", false, sharedUsage)
	fl.BoolVar(&f.force, "force", false, "with -f: run even when the estimated memory for the records (4 GB) is over budget")
	return c
}

// emuNotice prints what the emulator did beyond the run (the leftovers
// of killed runs it removed at start) on stderr.
func emuNotice(cmd *cobra.Command, name string) func(string) {
	stderr := cmd.ErrOrStderr()
	return func(msg string) { fmt.Fprintf(stderr, "leolab: %s: %s\n", name, msg) }
}

// sharedUsage documents --shared of emu and shell (emu.Config.Shared).
const sharedUsage = "leave the host as it is: by default a run pins the pump to a CPU of its own, raises its threads to nice -20 " +
	"and keeps that CPU polling when idle, for tens of µs less timing error"

func runEmuCleanup(out io.Writer) error {
	done, err := emu.Cleanup()
	for _, n := range done.Namespaces {
		fmt.Fprintln(out, "removed namespace", n)
	}
	for _, cpu := range done.CPUs {
		fmt.Fprintf(out, "restored cpu%d idle polling\n", cpu)
	}
	if err == nil && done.Empty() {
		fmt.Fprintln(out, "nothing to clean up")
	}
	return err
}

func (f *emuFlags) runConfig() (emu.RunConfig, error) {
	cfg, path, err := f.link.config("emu")
	if err != nil {
		return emu.RunConfig{}, err
	}
	switch {
	case f.flows < 1:
		return emu.RunConfig{}, badInput("emu: --flows %d: must be >= 1", f.flows)
	case f.duration <= 0 || f.duration > quantity.MaxDuration:
		return emu.RunConfig{}, badInput("emu: --duration %v: must be in (0, %v]", f.duration, quantity.MaxDuration)
	case f.direction != emu.Downlink && f.direction != emu.Uplink:
		return emu.RunConfig{}, badInput("emu: --direction %q: want downlink or uplink", f.direction)
	}
	path.Direction = f.direction
	rc := emu.RunConfig{
		Config:   cfg,
		Name:     fmt.Sprintf("emu-%s-%s-%v-%dx%s", f.cca, f.link.rate, f.link.rtt, f.flows, f.duration),
		Duration: f.duration,
		Path:     path,
	}
	for i := 0; i < f.flows; i++ {
		fl := emu.Flow{Kind: emu.KindTCP, CCA: f.cca, Direction: f.direction}
		if f.cca == "cbr" {
			fl = emu.Flow{Kind: emu.KindCBR, RateBps: path.RateMbps * 1e6 / float64(f.flows), Direction: f.direction}
		}
		rc.Flows = append(rc.Flows, fl)
	}
	return rc, nil
}

func runEmu(cmd *cobra.Command, f *emuFlags) error {
	rc, err := f.config(cmd)
	if err != nil {
		return err
	}
	rc.Shared = f.shared
	rc.Notice = emuNotice(cmd, "emu")
	if err := netns.Available(); err != nil {
		return fmt.Errorf("emu: %w", err)
	}
	var tap *capture.Live
	if f.pcapDir != "" {
		if tap, err = capture.NewLive(f.pcapDir); err != nil {
			return badInput("emu: --pcap: %v", err)
		}
		rc.Tap = tap
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	done := emuProgress(cmd, rc.Duration, f.noProg)
	res, err := emu.Run(ctx, rc)
	done()
	if tap != nil {
		if cerr := tap.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("emu: --pcap: %w", cerr)
		}
		if res != nil {
			srv, cli := tap.Packets()
			res.Instrument["pcap_packets"] = float64(srv + cli)
			res.Instrument["pcap_missed"] = float64(tap.Missed())
		}
	}
	if errors.Is(err, context.Canceled) {
		return errInterrupted
	}
	if err != nil {
		return err
	}
	res.Version = versionString()
	if err := writeResult(cmd, res, f.iperfDir, f.json); err != nil || f.json {
		return err
	}
	out := cmd.OutOrStdout()
	in := res.Instrument
	fmt.Fprintf(out, "pump: %.0f packets, release error p50 %.1f µs p99 %.1f µs max %.0f µs, TUN drops %.0f/%.0f, realtime %v, CPU %.0f, idle polls %v, host steal %.0f ms, gaps %.0f (max %.0f µs)\n",
		in["pump_packets"], in["release_err_p50_us"], in["release_err_p99_us"], in["release_err_max_us"],
		in["tun_drops_client"], in["tun_drops_server"], in["pump_realtime"] == 1, in["pump_cpu"], in["idle_polls"] == 1,
		in["host_steal_ms"], in["pump_gaps"], in["pump_gap_max_us"])
	return nil
}

// config builds the run from -f or from the flags.
// Every kernel congestion control is checked here, before any namespace
// exists.
func (f *emuFlags) config(cmd *cobra.Command) (emu.RunConfig, error) {
	rc, err := f.configFlows(cmd)
	if err != nil {
		return rc, err
	}
	for _, fl := range rc.Flows {
		if fl.Kind == emu.KindTCP {
			if err := emu.CheckKernelCCA(fl.CCA); err != nil {
				return rc, badInput("emu: %v", err)
			}
		}
	}
	return rc, nil
}

func (f *emuFlags) configFlows(cmd *cobra.Command) (emu.RunConfig, error) {
	if f.file == "" {
		if f.ownStack {
			return emu.RunConfig{}, badInput("emu: --leolab-transport needs -f (the flag form runs kernel TCP)")
		}
		return f.runConfig()
	}
	// The flags that describe a run without a scenario file.
	for _, n := range []string{"rate", "rtt", "queue", "loss", "cca", "flows", "duration", "direction"} {
		if cmd.Flags().Changed(n) {
			return emu.RunConfig{}, badInput("emu: --%s cannot be combined with -f (edit the scenario file instead)", n)
		}
	}
	sc, err := scenario.Load(f.file)
	if os.IsNotExist(err) {
		return emu.RunConfig{}, badInput("emu: %v", err)
	}
	if err != nil {
		return emu.RunConfig{}, err
	}
	if !f.force {
		// A live run lasts its duration whatever it moves: only memory.
		if err := sc.CheckBudget(false); err != nil {
			return emu.RunConfig{}, err
		}
	}
	return scenarioRun(sc, f.ownStack)
}

// scenarioRun translates a scenario into a live run; a Starlink path is
// rebuilt on the wall clock (emu.StarlinkPath).
func scenarioRun(sc *scenario.Scenario, own bool) (emu.RunConfig, error) {
	if err := sc.SharedPath(); err != nil { // a topology the pump cannot route
		return emu.RunConfig{}, badInput("%v", err)
	}
	spec, err := sc.Spec()
	if err != nil {
		return emu.RunConfig{}, err
	}
	rc, err := emu.FromSpec(spec, emu.SpecOptions{Starlink: sc.Starlink(), OwnTransport: own})
	if err != nil {
		return emu.RunConfig{}, badInput("%s: %v", sc.File, err)
	}
	return rc, nil
}

// emuProgress shows the wall-clock progress of a live run on a terminal
// (runs of 10 s or more, as sim does); the returned func stops it.
func emuProgress(cmd *cobra.Command, total time.Duration, off bool) (stop func()) {
	stderr, ok := progressTerminal(cmd, off, total)
	if !ok {
		return func() {}
	}
	start := time.Now()
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				fmt.Fprintln(stderr)
				return
			case <-tick.C:
				fmt.Fprintf(stderr, "\remulating %v / %v   ", min(time.Since(start), total).Round(time.Second), total)
			}
		}
	}()
	return func() { close(quit); <-finished }
}

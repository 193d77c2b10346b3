package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/leolab/leolab/irtt"
	"github.com/leolab/leolab/profile"
	"github.com/leolab/leolab/result"
	"github.com/leolab/leolab/scenario"
	"github.com/leolab/leolab/trace"
	"github.com/leolab/leolab/trace/export"
	"github.com/spf13/cobra"
)

func newTraceCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "trace",
		Short: "Mahimahi and LeoReplayer traces: export the Starlink model or a recorded run",
		Long: `Traces for Mahimahi and LeoReplayer users. Replay theirs with a scenario of
profile trace (path.trace, see README); write ours with trace export.`,
		Example: `  leolab trace export --city sydney --direction downlink --duration 120s --out sydney-trace
  leolab trace export --run run.json --out delay.txt`,
	}
	c.AddCommand(newTraceExportCmd())
	return c
}

type traceExportFlags struct {
	profile, city, direction, format, out, run, epoch string
	duration, interval                                time.Duration
	seed                                              uint64
	flow                                              int
}

func newTraceExportCmd() *cobra.Command {
	var f traceExportFlags
	c := &cobra.Command{
		Use:   "export",
		Short: "Write the Starlink model (or a recorded run's delay) as Mahimahi/LeoReplayer traces",
		Long: `Write the Starlink model as the traces Mahimahi (mm-link) and LeoReplayer
(mm-delay with a delay trace, then mm-link) replay, recorded on the simulator
the way LeoReplayer records a dish: a saturating flow of 1504-byte packets
per direction gives the delivery opportunities (uplink.txt, downlink.txt:
one line per opportunity, its millisecond), and a light probe (100 bytes
every 1 ms) gives the --direction's one-way delay per 10 ms (delay.txt,
whole ms, leoreplayer format only), reconfiguration outages included. The
fixed propagation is taken off the opportunities and carried by the delay.
replay.yaml replays the files with leolab.

With --run, read a leolab result whose cbr flow ran with record: true, or
an irtt capture (irtt client -o, plain or gzipped; --direction picks its
receive or send delays), and write its one-way delay as a delay trace
(each interval's smallest delay) to --out (default: stdout).`,
		Example: `  leolab trace export --city sydney --direction downlink --duration 120s --out sydney-trace
  leolab trace export --city london --direction uplink --duration 60s --seed 7 --format mahimahi --out london-ul
  leolab sim -f examples/starlink/probe.yaml --json > run.json && leolab trace export --run run.json --out delay.txt
  leolab trace export --run dish.json.gz --direction downlink --out delay.txt   # an irtt capture`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTraceExport(cmd, f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.profile, "profile", profile.NameStarlink, "model profile: starlink or starlink-seed001")
	fl.StringVar(&f.city, "city", "sydney", "city (terrestrial leg): "+strings.Join(profile.Cities(), ", "))
	fl.StringVar(&f.direction, "direction", "downlink", "direction of the delay trace: downlink or uplink")
	fl.DurationVar(&f.duration, "duration", 120*time.Second, "length of the traces (the loop period)")
	fl.Uint64Var(&f.seed, "seed", scenario.DefaultSeed, "seed of the model (as leolab sim's)")
	fl.StringVar(&f.epoch, "epoch-utc", "", "RFC 3339 instant of t = 0 (default: drawn from the seed, as leolab sim does)")
	fl.StringVar(&f.format, "format", "leoreplayer", "leoreplayer (opportunities + delay.txt) or mahimahi (opportunities only)")
	fl.StringVar(&f.out, "out", "", "output directory (model), or delay-trace file with --run (default stdout)")
	fl.StringVar(&f.run, "run", "", "a leolab result JSON (- for stdin) whose recorded cbr flow, or an irtt capture whose --direction, becomes a delay trace")
	fl.IntVar(&f.flow, "flow", -1, "with --run: the flow id (default: the first with records)")
	fl.DurationVar(&f.interval, "interval", trace.DelayInterval, "delay-trace interval (LeoReplayer: 10ms)")
	return c
}

func runTraceExport(cmd *cobra.Command, f traceExportFlags) error {
	if f.interval < time.Millisecond || f.interval > time.Hour {
		return badInput("trace export: --interval %v: must be in [1ms, 1h]", f.interval)
	}
	if f.run != "" {
		return exportRun(cmd, f)
	}
	m, err := traceModel(f)
	if err != nil {
		return err
	}
	if f.out == "" {
		return badInput("trace export: --out DIR is required (the directory for uplink.txt, downlink.txt, delay.txt, replay.yaml)")
	}
	if f.interval != trace.DelayInterval {
		return badInput("trace export: --interval applies to --run; the model's delay trace is LeoReplayer's 10ms")
	}
	tr, err := export.FromModel(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return err
	}
	files := map[string]func(io.Writer) error{
		"uplink.txt":   func(w io.Writer) error { return trace.WriteMahimahi(w, tr.Uplink) },
		"downlink.txt": func(w io.Writer) error { return trace.WriteMahimahi(w, tr.Downlink) },
		"replay.yaml":  func(w io.Writer) error { return writeReplay(w, f, m, tr) },
	}
	if f.format == "leoreplayer" {
		files["delay.txt"] = func(w io.Writer) error { return trace.WriteDelay(w, tr.Delay) }
	}
	for name, write := range files {
		if err := writeTraceFile(filepath.Join(f.out, name), write); err != nil {
			return err
		}
	}
	out := cmd.OutOrStdout()
	rate := func(ms []uint32) float64 {
		return (&trace.Opportunities{MS: ms}).MeanRateBps(trace.OpportunityBytes) / 1e6
	}
	fmt.Fprintf(out, "%s/%s seed %d epoch %s, %v:\n", m.Profile, m.City, m.Seed, tr.EpochUTC, m.Duration)
	fmt.Fprintf(out, "  %s/uplink.txt    %d opportunities, %.1f Mbit/s (propagation %v taken off)\n", f.out, len(tr.Uplink), rate(tr.Uplink), tr.UplinkPropagation)
	fmt.Fprintf(out, "  %s/downlink.txt  %d opportunities, %.1f Mbit/s (propagation %v taken off)\n", f.out, len(tr.Downlink), rate(tr.Downlink), tr.DownlinkPropagation)
	if f.format == "leoreplayer" {
		fmt.Fprintf(out, "  %s/delay.txt     %d intervals of 10 ms, %s one-way delay %v–%v\n", f.out, len(tr.Delay), m.Direction, slices.Min(tr.Delay), slices.Max(tr.Delay))
		fmt.Fprintf(out, "LeoReplayer: mm-delay 10 %[1]s/delay.txt mm-link %[1]s/uplink.txt %[1]s/downlink.txt --uplink-queue=droptail --uplink-queue-args=packets=500 --downlink-queue=droptail --downlink-queue-args=packets=500\n", f.out)
	} else {
		fmt.Fprintf(out, "Mahimahi: mm-delay %d mm-link %[2]s/uplink.txt %[2]s/downlink.txt\n", mahimahiOWD(m, tr)/time.Millisecond, f.out)
	}
	fmt.Fprintf(out, "leolab:   leolab sim -f %s/replay.yaml\n", f.out)
	return nil
}

func traceModel(f traceExportFlags) (export.Model, error) {
	m := export.Model{Profile: f.profile, City: f.city, Direction: f.direction, Duration: f.duration, Seed: f.seed}
	if !profile.IsStarlink(f.profile) {
		return m, badInput("trace export: --profile %q: allowed: %s, %s", f.profile, profile.NameStarlink, profile.NameStarlinkSeed001)
	}
	if !slices.Contains(profile.Cities(), f.city) {
		return m, badInput("trace export: --city %q: allowed: %s", f.city, strings.Join(profile.Cities(), ", "))
	}
	if !slices.Contains(scenario.Directions, f.direction) {
		return m, badInput("trace export: --direction %q: allowed: %s", f.direction, strings.Join(scenario.Directions, ", "))
	}
	if !slices.Contains(scenario.TraceFormats, f.format) {
		return m, badInput("trace export: --format %q: allowed: %s", f.format, strings.Join(scenario.TraceFormats, ", "))
	}
	if f.duration < time.Second || f.duration > 24*time.Hour {
		return m, badInput("trace export: --duration %v: must be in [1s, 24h] (the traces' loop period)", f.duration)
	}
	if f.epoch != "" {
		t, err := time.Parse(time.RFC3339Nano, f.epoch)
		if err != nil {
			return m, badInput("trace export: --epoch-utc %q: not an RFC 3339 instant (e.g. 2026-04-01T12:00:27Z)", f.epoch)
		}
		m.EpochUTC = t
	}
	return m, nil
}

// mahimahiOWD is the fixed one-way delay a Mahimahi replay adds (mm-delay,
// whole ms): the direction's propagation, rounded.
func mahimahiOWD(m export.Model, tr *export.Traces) time.Duration {
	p := tr.DownlinkPropagation
	if m.Direction == "uplink" {
		p = tr.UplinkPropagation
	}
	return (p + time.Millisecond/2) / time.Millisecond * time.Millisecond
}

// writeReplay writes a leolab scenario replaying the exported files with a
// CUBIC flow in the --direction.
func writeReplay(w io.Writer, f traceExportFlags, m export.Model, tr *export.Traces) error {
	delay := "delay: delay.txt"
	if f.format == "mahimahi" {
		delay = fmt.Sprintf("owd: %v", mahimahiOWD(m, tr))
	}
	_, err := fmt.Fprintf(w, `# leolab trace export --profile %s --city %s --direction %s --duration %v --seed %d --format %s
# (epoch %s). Replays the exported traces with LeoReplayer's 500-packet drop-tail queues.
version: 1
name: replay-%s-%s
duration: %v
seed: %d
path:
  profile: trace
  direction: %s
  trace:
    format: %s
    uplink: uplink.txt
    downlink: downlink.txt
    %s
    queue: {discipline: droptail, limit_packets: 500}
flows:
  - {cca: cubic}
`, m.Profile, m.City, m.Direction, m.Duration, m.Seed, f.format, tr.EpochUTC, m.City, m.Direction, m.Duration, m.Seed, m.Direction, f.format, delay)
	return err
}

func writeTraceFile(name string, write func(io.Writer) error) error {
	fh, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(fh); err != nil {
		fh.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return fh.Close()
}

// exportRun writes a recorded run's probe delay as a delay trace.
func exportRun(cmd *cobra.Command, f traceExportFlags) error {
	data, err := readInput(cmd, f.run)
	if err != nil {
		return badInput("trace export: --run: %v", err)
	}
	var d []time.Duration
	if irtt.IsCapture(data) {
		c, err := irtt.Read(f.run, data)
		if err != nil {
			return badInput("trace export: %v", err)
		}
		tr, err := c.Trace(f.direction)
		if err != nil {
			return badInput("trace export: %s: --direction: %v", f.run, err)
		}
		if d, err = export.TraceDelays(tr, f.interval); err != nil {
			return badInput("trace export: %s: %v", f.run, err)
		}
	} else {
		var res result.Result
		if err := json.Unmarshal(data, &res); err != nil {
			return badInput("trace export: %s: neither a leolab result nor an irtt capture: %v", f.run, err)
		}
		if d, err = export.RecordedDelays(&res, f.flow, f.interval); err != nil {
			return badInput("trace export: %s: %v", f.run, err)
		}
	}
	if f.out == "" || f.out == "-" {
		return trace.WriteDelay(cmd.OutOrStdout(), d)
	}
	if err := writeTraceFile(f.out, func(w io.Writer) error { return trace.WriteDelay(w, d) }); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d intervals of %v, one-way delay %v–%v\n", f.out, len(d), f.interval, slices.Min(d), slices.Max(d))
	return nil
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/leolab/leolab/irtt"
	"github.com/leolab/leolab/probe"
	"github.com/leolab/leolab/result"
	"github.com/spf13/cobra"
)

type probeFlags struct {
	flow      int
	step      time.Duration
	threshold time.Duration
	minPeriod time.Duration
	maxPeriod time.Duration
	json      bool
	overrides bool
	direction string
}

func newProbeCmd() *cobra.Command {
	var f probeFlags
	c := &cobra.Command{
		Use:   "probe FILE",
		Short: "Infer link behaviour from a probe flow's one-way delays",
		Long: `Read a probe trace and infer what the link did: its outages and their
periodic schedule (period, phase, seconds of the UTC minute), the outage
length, the one-way delay of each reconfiguration interval and its shift
between intervals, the MAC frame period from the batching of arrivals, the
delivered rate's ramp under overload (demand-driven allocation) and loss.

FILE is a leolab result (sim or emu --json; "-" reads stdin) with a cbr flow
run with record: true, an irtt capture (irtt client -o FILE, plain or
gzipped; --direction picks its receive delays, downlink, or its send
delays, uplink), or a one-way-delay series: one delay in ms per line, one
line per --step (LeoReplayer's delay traces).`,
		Example: `  leolab sim -f examples/starlink/probe.yaml --json > probe.json && leolab probe probe.json
  leolab sim -f examples/starlink/probe.yaml --json | leolab probe - --json
  leolab probe ../shared/data/leoreplayer-example/delay_example.txt --step 10ms
  irtt client -i 10ms -d 2m -o dish.json SERVER && leolab probe dish.json --direction downlink
  leolab probe dl.json --overrides > calibrated.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runProbe(cmd, args[0], &f) },
	}
	c.Flags().IntVar(&f.flow, "flow", -1, "flow `ID` of a result to read (default: the first with per-packet records)")
	c.Flags().DurationVar(&f.step, "step", 10*time.Millisecond, "time between the lines of a delay series")
	c.Flags().DurationVar(&f.threshold, "threshold", 0, "arrival pause beyond the spacing that marks an outage (default 10ms)")
	c.Flags().DurationVar(&f.minPeriod, "min-period", 0, "shortest schedule period looked for (default 5s)")
	c.Flags().DurationVar(&f.maxPeriod, "max-period", 0, "longest schedule period looked for (default 60s)")
	c.Flags().BoolVar(&f.json, "json", false, "print the inference as JSON")
	c.Flags().BoolVar(&f.overrides, "overrides", false, "print Starlink profile overrides that make sim/emu replay the probed link")
	c.Flags().StringVar(&f.direction, "direction", "downlink", "the probed direction of a delay series or an irtt capture (downlink: its receive delays, uplink: its send delays; results carry their own)")
	return c
}

func runProbe(cmd *cobra.Command, file string, f *probeFlags) error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--step", f.step}, {"--threshold", f.threshold}, {"--min-period", f.minPeriod}, {"--max-period", f.maxPeriod}} {
		if d.v < 0 || (d.name == "--step" && d.v == 0) {
			return badInput("probe: %s %v: want a positive duration", d.name, d.v)
		}
	}
	data, err := readInput(cmd, file)
	if err != nil {
		return badInput("probe: %v", err)
	}
	tr, meta, warn, err := probeTrace(file, data, f)
	if err != nil {
		return badInput("probe: %v", err)
	}
	if warn != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), "leolab: probe: warning: "+warn)
	}
	rep, err := probe.Infer(tr, probe.Options{Threshold: f.threshold, MinPeriod: f.minPeriod, MaxPeriod: f.maxPeriod})
	if err != nil {
		return badInput("probe: %s: %v", file, err)
	}
	out := cmd.OutOrStdout()
	if f.overrides {
		dir := meta.direction
		if dir == "" {
			dir = f.direction
		}
		ovs, err := rep.Overrides(dir, meta.synced)
		if err != nil {
			return badInput("probe: --overrides: %v", err)
		}
		printOverrides(out, file, dir, ovs)
		return nil
	}
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printProbe(out, file, rep)
	return nil
}

func readInput(cmd *cobra.Command, file string) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(cmd.InOrStdin())
	}
	return os.ReadFile(file)
}

// traceMeta is what a result says about its probe beyond the trace: the
// probed direction and whether both ends shared a clock (sim, emu).
type traceMeta struct {
	direction string
	synced    bool
}

// probeTrace reads a result document (its first non-blank byte is '{') or
// a delay series. warn is set when an emulator run's pump was stalled for
// longer than an outage needs: the prober would see the host's stall as
// the link's outage.
func probeTrace(file string, data []byte, f *probeFlags) (tr *probe.Trace, meta traceMeta, warn string, err error) {
	if irtt.IsCapture(data) {
		return irttTrace(file, data, f.direction)
	}
	if !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("{")) {
		tr, err := probe.ReadDelaySeries(file, bytes.NewReader(data), f.step)
		return tr, meta, "", err
	}
	var res result.Result
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, meta, "", fmt.Errorf("%s: not a leolab result: %v", file, err)
	}
	meta = traceMeta{direction: res.Path.Direction, synced: res.Engine == "sim" || res.Engine == "emu"}
	thr := f.threshold
	if thr == 0 {
		thr = 10 * time.Millisecond // probe.Options' default
	}
	if gap := res.Instrument["pump_gap_max_us"]; res.Engine == "emu" && gap > float64(thr/time.Microsecond) {
		warn = fmt.Sprintf("%s: the emulator's pump was kept off its CPU for up to %.1f ms (%g gaps, instrument.pump_gaps): an outage of that length may be the host's, not the link model's",
			file, gap/1000, res.Instrument["pump_gaps"])
	}
	id := f.flow
	if id < 0 {
		ids := probe.ProbeFlows(&res)
		if len(ids) == 0 {
			return nil, meta, "", fmt.Errorf("%s: no flow has per-packet records: run a cbr flow with record: true (see examples/starlink/probe.yaml)", file)
		}
		id = ids[0]
	}
	tr, err = probe.FromResult(&res, id)
	if err != nil {
		return nil, meta, "", fmt.Errorf("%s: --flow %d: %v", file, id, err)
	}
	return tr, meta, warn, nil
}

// printOverrides writes the overrides as the path block of a scenario.
func printOverrides(out io.Writer, file, dir string, ovs []probe.Override) {
	fmt.Fprintf(out, "# Starlink profile overrides for the %s, inferred by leolab probe from %s.\n", dir, file)
	fmt.Fprintln(out, "# Paste into a scenario (leolab sim/emu) to replay the probed link.")
	fmt.Fprintf(out, "path:\n  profile: starlink\n  direction: %s\n  overrides:\n", dir)
	if len(ovs) == 0 {
		fmt.Fprintln(out, "    {}  # nothing found to set")
	}
	for _, o := range ovs {
		fmt.Fprintf(out, "    %s: %s  # %s\n", o.Key, o.Value, o.From)
	}
}

// printProbe writes the human-readable inference.
func printProbe(out io.Writer, file string, r *probe.Report) {
	fmt.Fprintf(out, "%s: %d probes over %v, one every %v", file, r.Packets, r.Span.Round(time.Microsecond), r.Spacing.Round(10*time.Nanosecond))
	if r.Size > 0 {
		fmt.Fprintf(out, ", %d bytes", r.Size)
	}
	fmt.Fprintf(out, "; lost %d (%.3f %%)\n", r.Lost, 100*r.LossRate)
	fmt.Fprintf(out, "one-way delay: min %s, median %s, p95 %s, p99 %s\n", msStr(r.MinOWD), msStr(r.MedianOWD), msStr(r.P95OWD), msStr(r.P99OWD))
	switch s := r.Schedule; {
	case len(r.Outages) == 0:
		fmt.Fprintln(out, "outages: none")
	case s == nil:
		fmt.Fprintf(out, "outages: %d, median %s; no periodic schedule fits them\n", len(r.Outages), msStr(r.OutageLength))
	default:
		fmt.Fprintf(out, "outages: %d (%d on a schedule, %d off), median %s, %d packets lost in them\n",
			len(r.Outages), s.OnGrid, s.Off, msStr(r.OutageLength), r.LostInOutages)
		fmt.Fprintf(out, "schedule: every %.3f s, first at %.3f s (residual %s)", s.Period.Seconds(), s.Phase.Seconds(), msStr(s.Residual))
		if secs := s.MinuteSeconds(); secs != nil {
			parts := make([]string, len(secs))
			for i, x := range secs {
				parts[i] = ":" + strconv.Itoa(x)
			}
			fmt.Fprintf(out, "; at %s of each UTC minute", strings.Join(parts, " "))
		} else if s.UTCOffset >= 0 {
			fmt.Fprintf(out, "; %.3f s past the UTC minute, modulo the period", s.UTCOffset.Seconds())
		}
		fmt.Fprintln(out)
	}
	if f := r.Frame; f != nil {
		fmt.Fprintf(out, "frame: %.4f ms (arrival coherence %.2f, sends %.2f)\n", ms(f.Period), f.Coherence, f.SendCoherence)
	} else {
		fmt.Fprintln(out, "frame: no frame grid in the arrivals")
	}
	if p := r.Ramp; p != nil {
		fmt.Fprintf(out, "ramp: %.1f → %.1f Mbit/s (%.2f×) in %s\n", p.Initial, p.Peak, p.Peak/p.Initial, msStr(p.Time))
	} else {
		fmt.Fprintln(out, "ramp: none (no overload of 80 ms or more, or the packet size is unknown)")
	}
	if b := r.Burst; b != nil {
		fmt.Fprintf(out, "burst: %d packets, %d lost, %d served while it was sent, %d kept (the buffer, in packets, when full); newest kept delivered %.0f %%: %s; queue delay up to %s\n",
			b.Packets, b.Lost, b.Served, b.Kept, 100*b.NewestDelivered, b.Policy, msStr(b.QueueDelay))
	}
	if len(r.Intervals) > 1 {
		fmt.Fprintf(out, "delay shift between intervals: median %s\n", msStr(r.Shift))
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "interval s\tpackets\tlost\tmin OWD ms\tmedian\tp95\tMbit/s\t")
	for _, iv := range r.Intervals {
		rate := "–" // the packet size is unknown
		if r.Size > 0 {
			rate = strconv.FormatFloat(iv.Mbps, 'f', 2, 64)
		}
		fmt.Fprintf(w, "%.2f–%.2f\t%d\t%d\t%.2f\t%.2f\t%.2f\t%s\t\n", iv.Start.Seconds(), iv.End.Seconds(), iv.Packets, iv.Lost,
			ms(iv.MinOWD), ms(iv.MedianOWD), ms(iv.P95OWD), rate)
	}
	w.Flush()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func msStr(d time.Duration) string { return strconv.FormatFloat(ms(d), 'f', 2, 64) + " ms" }

// irttTrace reads an irtt capture's trace of one direction. Its one-way
// delays come from two hosts' clocks (not synced for --overrides).
func irttTrace(file string, data []byte, direction string) (*probe.Trace, traceMeta, string, error) {
	meta := traceMeta{direction: direction}
	c, err := irtt.Read(file, data)
	if err != nil {
		return nil, meta, "", err
	}
	tr, err := c.Trace(direction)
	if err != nil {
		return nil, meta, "", fmt.Errorf("%s: --direction: %v", file, err)
	}
	return tr, meta, "", nil
}
